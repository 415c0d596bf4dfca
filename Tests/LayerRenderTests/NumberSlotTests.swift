// Animations of one number ("opacity", "position.x", "transform.rotation.z") are evaluated on
// unboxed doubles through a key path resolved once (`LayerState.NumberSlot`). Apple's key-value
// coding extensions name the numbers inside structures (CGPoint x/y, CGSize width/height, CGRect
// origin/size, CATransform3D rotation/scale/translation with .x/.y/.z); whichever route reads
// and writes them, the presentation state must be the same to the bit, for every combination of
// from/to/by, additive and cumulative animations, springs and repetitions.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct NumberSlotTests {
    /// A layer state seen only through the general key-path route (no numbers by slot).
    struct GeneralTarget: AnimationTarget {
        var state: LayerState
        func animatableValue(at keyPath: [String]) -> AnimatableValue? { state.animatableValue(at: keyPath) }
        mutating func setAnimatableValue(_ value: AnimatableValue, at keyPath: [String]) { state.setAnimatableValue(value, at: keyPath) }
        func animatableValue(at keyPath: [String], field: LayerState.Field?) -> AnimatableValue? {
            state.animatableValue(at: keyPath, field: field)
        }
        mutating func setAnimatableValue(_ value: AnimatableValue, at keyPath: [String], field: LayerState.Field?) {
            state.setAnimatableValue(value, at: keyPath, field: field)
        }
    }

    static let numberPaths = ["opacity", "cornerRadius", "zPosition", "borderWidth", "shadowOpacity", "shadowRadius",
                              "position.x", "position.y", "anchorPoint.y", "shadowOffset.width", "shadowOffset.height",
                              "bounds.size.width", "bounds.size.height", "bounds.origin.x", "contentsRect.origin.y",
                              "contentsCenter.size.width", "transform.rotation.z", "transform.rotation.x", "transform.rotation.y",
                              "transform.rotation", "transform.scale", "transform.scale.x", "transform.scale.z",
                              "transform.translation.x", "transform.translation.y", "sublayerTransform.translation.z",
                              "sublayerTransform.rotation.z", "anchorPointZ", "contentsScale", "rasterizationScale",
                              "minificationFilterBias", "anchorPoint.x", "transform.translation.z"]

    func state(_ rng: inout TestLCG) -> LayerState {
        var s = LayerState()
        s.bounds = CGRect(x: rng.unit() * 10, y: rng.unit() * 10, width: 20 + rng.unit() * 100, height: 20 + rng.unit() * 100)
        s.position = CGPoint(x: rng.unit() * 500, y: rng.unit() * 500)
        s.opacity = Double(rng.unit())
        s.cornerRadius = rng.unit() * 20
        s.shadowOffset = CGSize(width: rng.unit() * 4, height: -rng.unit() * 4)
        s.transform = Transform3D.rotation(rng.unit() * 6, 0, 0, 1)
            .concatenating(.rotation(rng.unit(), 1, 0, 0))
            .concatenating(.scale(0.5 + rng.unit(), 0.5 + rng.unit(), 1))
            .concatenating(.translation(rng.unit() * 50, rng.unit() * 50, rng.unit() * 5))
        s.sublayerTransform = Transform3D.rotation(rng.unit(), 0, 0, 1).concatenating(.translation(3, 4, rng.unit()))
        return s
    }

    /// Applies `model` at `time` to `start` by the unboxed route and by the general one: the same
    /// answer, the same state, and the same bits in `slot` (equal doubles may differ in sign of 0).
    func expectBothRoutesAgree(_ model: AnimationModel, _ start: LayerState, at time: Double, slot: LayerState.NumberSlot,
                               _ label: String) {
        var fast = start
        var general = GeneralTarget(state: start)
        #expect(model.apply(to: &fast, at: time) == model.apply(to: &general, at: time), "\(label) at \(time)")
        #expect(fast == general.state, "\(label) at \(time): \(fast.number(at: slot)) vs \(general.state.number(at: slot))")
        #expect(fast.number(at: slot).bitPattern == general.state.number(at: slot).bitPattern, "\(label) at \(time)")
    }

    @Test func everyNumberPathResolvesToASlot() {
        for path in NumberSlotTests.numberPaths {
            let keyPath = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            #expect(LayerState.NumberSlot(keyPath: keyPath, field: LayerState.Field(key: keyPath[0])) != nil, "\(path)")
        }
    }

    @Test func pathsThatEndOnStructuresOrNothingHaveNoSlot() {
        for path in ["position", "bounds.size", "bounds.origin", "position.z", "transform", "transform.translation",
                     "transform.rotation.w", "transform.scale.x.y", "bounds.size.depth", "backgroundColor", "opacity.x",
                     "shadowOffset.x", "custom", "transform.rotation.x.y", "transform.scale.w", "transform.rotation.",
                     "bounds.size.width.x", "anchorPoint.z", "position."] {
            let keyPath = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            #expect(LayerState.NumberSlot(keyPath: keyPath, field: LayerState.Field(key: keyPath[0])) == nil, "\(path)")
        }
    }

    @Test func unboxedEvaluationMatchesTheGeneralRouteBitForBit() {
        var rng = TestLCG(seed: 0x51_07)
        for path in NumberSlotTests.numberPaths {
            for trial in 0..<24 {
                func maybe() -> AnimatableValue? { rng.unit() < 0.5 ? nil : .number(Double(rng.unit() * 8 - 4)) }
                let from = maybe(), to = maybe(), by = maybe()
                var t = MediaTiming()
                t.duration = 0.5 + Double(rng.unit()) * 2
                t.repeatCount = 3
                t.autoreverses = trial % 5 == 0
                let kind: AnimationModel.Kind = trial % 3 == 0
                    ? .spring(Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0, allowsOverdamping: false),
                              from: from, to: to, by: by)
                    : .basic(from: from, to: to, by: by)
                let model = AnimationModel(keyPath: path, timing: t,
                                           timingFunction: trial % 2 == 0 ? TimingFunction(0.42, 0, 0.58, 1) : nil,
                                           isAdditive: trial % 4 == 1, isCumulative: trial % 4 >= 2, valueFunction: nil, kind: kind)
                #expect(model.number != nil, "\(path)")
                let start = state(&rng)
                for _ in 0..<4 {
                    expectBothRoutesAgree(model, start, at: Double(rng.unit()) * 8, slot: model.number!.slot, path)
                }
            }
        }
    }

    @Test func unboxedKeyframesMatchTheGeneralRouteBitForBit() {
        var rng = TestLCG(seed: 0x4B_46)
        let modes: [Keyframes.Mode] = [.linear, .discrete, .paced, .cubic, .cubicPaced]
        for path in ["opacity", "position.y", "transform.rotation.z", "bounds.size.width"] {
            for trial in 0..<40 {
                let mode = modes[trial % modes.count]
                let count = 1 + Int(rng.next() % 5)
                let values = (0..<count).map { _ in AnimatableValue.number(Double(rng.unit() * 10 - 5)) }
                var keyTimes: [Double]? = nil
                if trial % 3 == 1 {
                    var t = (0..<(mode == .discrete ? count + 1 : count)).map { _ in Double(rng.unit()) }.sorted()
                    t[0] = 0
                    keyTimes = t
                }
                let functions = trial % 2 == 0 ? (0..<count).map { _ in TimingFunction(Double(rng.unit()), 0, 0.58, 1) } : []
                let k = Keyframes(values: values, keyTimes: keyTimes, timingFunctions: functions, mode: mode,
                                  tension: trial % 4 == 0 ? (0..<count).map { _ in Double(rng.unit()) } : [],
                                  continuity: [], bias: trial % 4 == 2 ? (0..<count).map { _ in Double(rng.unit()) - 0.5 } : [])
                var t = MediaTiming()
                t.duration = 1 + Double(rng.unit())
                t.repeatCount = 4
                let model = AnimationModel(keyPath: path, timing: t, timingFunction: trial % 5 == 0 ? TimingFunction(0.25, 0.1, 0.25, 1) : nil,
                                           isAdditive: trial % 4 == 3, isCumulative: trial % 3 == 2, valueFunction: nil,
                                           kind: .keyframes(k))
                #expect(model.numberKeyframes != nil, "\(path)")
                let start = state(&rng)
                for _ in 0..<6 {
                    expectBothRoutesAgree(model, start, at: Double(rng.unit()) * 9, slot: model.numberKeyframes!.slot, "\(path) \(mode)")
                }
            }
        }
    }

    /// Apple's `path`: "The end point of a line-to or curve-to segment defines the keyframe value
    /// … Move-to segments do not define separate keyframe values." A path with no such segment
    /// (empty, or a single move) defines none, and the values and their key times stay in
    /// charge, in every calculation mode (the project's rule since keyframes were built).
    @Test func aPathThatDrawsNothingLeavesTheValuesAndTheirTimes() {
        for mode in [Keyframes.Mode.linear, .paced, .cubic, .cubicPaced] {
            for path: [PathOp] in [[], [.move(CGPoint(x: 5, y: 5))]] {
                let k = Keyframes(values: [.point(.zero), .point(CGPoint(x: 100, y: 0))], keyTimes: nil, timingFunctions: [],
                                  mode: mode, path: path)
                var t = MediaTiming()
                t.duration = 1
                let model = AnimationModel(keyPath: "position", timing: t, timingFunction: nil, isAdditive: false,
                                           isCumulative: false, valueFunction: nil, kind: .keyframes(k))
                var s = LayerState()
                #expect(model.apply(to: &s, at: 0.5))
                #expect(abs(s.position.x - 50) < 1e-9 && s.position.y == 0, "\(mode), path \(path.count): \(s.position)")
            }
        }
    }

    @Test func valuesOtherThanNumbersTakeTheGeneralRoute() {
        let point = AnimationModel(keyPath: "position", timing: MediaTiming(), timingFunction: nil, isAdditive: false,
                                   isCumulative: false, valueFunction: nil,
                                   kind: .basic(from: .point(.zero), to: .point(CGPoint(x: 10, y: 10)), by: nil))
        #expect(point.number == nil)
        let rotate = AnimationModel(keyPath: "transform", timing: MediaTiming(), timingFunction: nil, isAdditive: false,
                                    isCumulative: false, valueFunction: .rotateZ, kind: .basic(from: .number(0), to: .number(1), by: nil))
        #expect(rotate.number == nil)
        let mixed = AnimationModel(keyPath: "position.x", timing: MediaTiming(), timingFunction: nil, isAdditive: false,
                                   isCumulative: false, valueFunction: nil, kind: .basic(from: .number(0), to: .point(.zero), by: nil))
        #expect(mixed.number == nil)
        let points = AnimationModel(keyPath: "position.x", timing: MediaTiming(), timingFunction: nil, isAdditive: false,
                                    isCumulative: false, valueFunction: nil,
                                    kind: .keyframes(Keyframes(values: [.number(1), .point(.zero)], keyTimes: nil, timingFunctions: [],
                                                               mode: .linear)))
        #expect(points.numberKeyframes == nil)
    }
}
