// Apple's timing model: local = (parent − beginTime) × speed + timeOffset; autoreverses makes
// each repeat forward-then-back; fill modes hold the first/last value; timing-function inputs
// outside [0, 1] clamp; named curves have Apple's control points.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct TimingTests {
    func timing(_ configure: (inout MediaTiming) -> Void) -> MediaTiming {
        var t = MediaTiming()
        t.duration = 2
        configure(&t)
        return t
    }

    @Test func activePhaseMapsThroughBeginAndSpeed() {
        let t = timing { $0.beginTime = 10; $0.speed = 2 }
        #expect(t.phase(at: 10.5) == .active(time: 1, iteration: 0))
        #expect(t.phase(at: 9) == .inactive)
        #expect(t.phase(at: 11) == .inactive)          // ended (removed fill)
        #expect(t.isFinished(at: 11) && !t.isFinished(at: 10.9))
    }

    @Test func fillModesHoldEnds() {
        #expect(timing { $0.fill = .backwards; $0.beginTime = 5 }.phase(at: 4) == .active(time: 0, iteration: 0))
        #expect(timing { $0.fill = .forwards }.phase(at: 3) == .filling(time: 2, iteration: 0))
        #expect(timing { $0.fill = .both; $0.beginTime = 5 }.phase(at: 0) == .active(time: 0, iteration: 0))
        #expect(timing { $0.fill = .forwards }.phase(at: -1) == .inactive)
    }

    @Test func repeatsAndAutoreverse() {
        let r = timing { $0.repeatCount = 2.5; $0.fill = .forwards }
        #expect(r.activeDuration == 5)
        #expect(r.phase(at: 3) == .active(time: 1, iteration: 1))
        #expect(r.phase(at: 6) == .filling(time: 1, iteration: 2))   // ends half way through the third
        let whole = timing { $0.repeatCount = 2; $0.fill = .forwards }
        #expect(whole.phase(at: 9) == .filling(time: 2, iteration: 1))   // whole repeats end on the last value
        let ar = timing { $0.autoreverses = true; $0.repeatCount = 1; $0.fill = .forwards }
        #expect(ar.activeDuration == 4)
        #expect(ar.phase(at: 1) == .active(time: 1, iteration: 0))
        #expect(ar.phase(at: 3) == .active(time: 1, iteration: 0))   // on the way back
        #expect(ar.phase(at: 5) == .filling(time: 0, iteration: 0))  // back at the start
    }

    @Test func repeatDurationAndCountTakeTheShorter() {
        #expect(timing { $0.repeatDuration = 3 }.activeDuration == 3)
        #expect(timing { $0.repeatDuration = 3; $0.repeatCount = 1 }.activeDuration == 2)
        #expect(timing { $0.repeatCount = .infinity }.activeDuration == .infinity)
    }

    @Test func timeOffsetWrapsAroundTheActiveDuration() {
        let t = timing { $0.timeOffset = 1.5 }
        #expect(t.phase(at: 0) == .active(time: 1.5, iteration: 0))
        #expect(t.phase(at: 1) == .active(time: 0.5, iteration: 0))
    }

    @Test func layerLocalTimeFormula() {
        var t = MediaTiming()
        t.beginTime = 2; t.speed = 0.5; t.timeOffset = 3
        #expect(t.layerLocalTime(10) == 7)
    }

    @Test func namedCurvesAndSolverAccuracy() {
        #expect(TimingFunction.linear.value(at: 0.3) == 0.3)
        #expect(TimingFunction.easeInEaseOut.value(at: 0.5) == 0.5)
        #expect(TimingFunction.easeIn.value(at: -1) == 0 && TimingFunction.easeIn.value(at: 2) == 1)
        // Reference: sample the curve densely and invert x(s) by bisection on the samples' parameter.
        for f in [TimingFunction.default, .easeIn, .easeOut, .easeInEaseOut, TimingFunction(0.1, 0.9, 0.2, 1)] {
            for i in 1..<100 {
                let x = Double(i) / 100
                var lo = 0.0, hi = 1.0
                func bez(_ s: Double, _ a: Double, _ b: Double) -> Double { 3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * b + s * s * s }
                for _ in 0..<200 { let m = (lo + hi) / 2; if bez(m, f.c1x, f.c2x) < x { lo = m } else { hi = m } }
                let reference = bez((lo + hi) / 2, f.c1y, f.c2y)
                #expect(abs(f.value(at: x) - reference) <= 1e-5)
            }
        }
    }
}

@Suite struct EvaluationTests {
    struct Box: AnimationTarget {
        var v: AnimatableValue
        func animatableValue(at keyPath: [String]) -> AnimatableValue? { keyPath == ["v"] ? v : nil }
        mutating func setAnimatableValue(_ value: AnimatableValue, at keyPath: [String]) { if keyPath == ["v"] { v = value } }
    }

    func basic(from: Double?, to: Double?, by: Double?, additive: Bool = false, cumulative: Bool = false,
               repeats: Double = 0) -> AnimationModel {
        var t = MediaTiming(); t.duration = 1; t.repeatCount = repeats; t.fill = .forwards
        return AnimationModel(keyPath: "v", timing: t, timingFunction: nil, isAdditive: additive, isCumulative: cumulative,
                              valueFunction: nil, kind: .basic(from: from.map { .number($0) }, to: to.map { .number($0) },
                                                               by: by.map { .number($0) }))
    }

    func at(_ m: AnimationModel, _ t: Double, base: Double = 100) -> Double {
        var b = Box(v: .number(base))
        m.apply(to: &b, at: t)
        guard case .number(let d) = b.v else { return .nan }
        return d
    }

    @Test func everyFromToByCombination() {
        #expect(at(basic(from: 0, to: 10, by: nil), 0.5) == 5)
        #expect(at(basic(from: 0, to: nil, by: 4), 0.5) == 2)
        #expect(at(basic(from: nil, to: 10, by: 4), 0.5) == 8)
        #expect(at(basic(from: 0, to: nil, by: nil), 0.5) == 50)
        #expect(at(basic(from: nil, to: 0, by: nil), 0.5) == 50)
        #expect(at(basic(from: nil, to: nil, by: 10), 0.5) == 105)
        #expect(at(basic(from: 0, to: 10, by: 99), 0.5) == 5)
    }

    @Test func additiveAndCumulative() {
        #expect(at(basic(from: 0, to: 10, by: nil, additive: true), 0.5) == 105)
        #expect(at(basic(from: 0, to: 10, by: nil, cumulative: true, repeats: 3), 2.5) == 25)
    }

    @Test func linearAndDiscreteAndPacedKeyframes() {
        let values: [AnimatableValue] = [.number(0), .number(10), .number(40)]
        var t = MediaTiming(); t.duration = 1
        func model(_ k: Keyframes) -> AnimationModel {
            AnimationModel(keyPath: "v", timing: t, timingFunction: nil, isAdditive: false, isCumulative: false,
                           valueFunction: nil, kind: .keyframes(k))
        }
        let linear = model(Keyframes(values: values, keyTimes: [0, 0.2, 1], timingFunctions: [], mode: .linear))
        #expect(at(linear, 0.1) == 5 && at(linear, 0.6) == 25)
        let discrete = model(Keyframes(values: values, keyTimes: nil, timingFunctions: [], mode: .discrete))
        #expect(at(discrete, 0.1) == 0 && at(discrete, 0.5) == 10 && at(discrete, 0.9) == 40)
        let paced = model(Keyframes(values: values, keyTimes: [0, 0.9, 1], timingFunctions: [], mode: .paced))
        #expect(at(paced, 0.5) == 20)   // constant speed over 40 units, keyTimes ignored
        let cubic = model(Keyframes(values: [.number(0), .number(10), .number(20), .number(30)], keyTimes: nil,
                                    timingFunctions: [], mode: .cubic))
        // Catmull–Rom through evenly spaced collinear values is linear on the inner segments.
        #expect(abs(at(cubic, 0.5) - 15) < 1e-9 && abs(at(cubic, 0.45) - 13.5) < 1e-9)
        #expect(Keyframes.validKeyTimes([0, 0.5, 1], count: 3, mode: .linear))
        #expect(!Keyframes.validKeyTimes([0, 0.7, 0.5], count: 3, mode: .linear))
        #expect(!Keyframes.validKeyTimes([0, 1], count: 3, mode: .linear))
        #expect(Keyframes.validKeyTimes([0, 0.3, 0.6, 1], count: 3, mode: .discrete))
    }

    @Test func springSettlesAndOvershoots() {
        let s = Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0, allowsOverdamping: false)
        #expect(s.progress(at: 0) == 0)
        let peak = (0..<200).map { s.progress(at: Double($0) / 100) }.max()!
        #expect(peak > 1.1)   // ζ = 0.5 overshoots by e^(−π·0.5/√0.75) ≈ 16 %
        #expect(abs(peak - (1 + exp(-Double.pi * 0.5 / 0.75.squareRoot()))) < 0.01)
        let settle = s.settlingDuration
        #expect(abs(s.displacement(at: settle)) <= Spring.restThreshold + 1e-12)
        #expect(settle > 1 && settle < 2)
        let critical = Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 0, allowsOverdamping: false)
        #expect((0..<300).allSatisfy { critical.progress(at: Double($0) / 100) <= 1 + 1e-12 })
    }
}
