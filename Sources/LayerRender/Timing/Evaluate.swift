import CoreGraphics
import Foundation

// Stage: timing. Reads: a snapshot's committed state, its animations and a local time.
// Produces: presentation states (copies). Touches no pixels and no compositor state.

/// Something whose properties animations read and write by key path (a layer's committed
/// state during rendering, or a presentation copy).
package protocol AnimationTarget {
    /// The current value at `keyPath`, or nil for a key the target does not have.
    func animatableValue(at keyPath: [String]) -> AnimatableValue?
    /// Replaces the value at `keyPath` (ignored for keys the target does not have).
    mutating func setAnimatableValue(_ value: AnimatableValue, at keyPath: [String])
    /// `animatableValue(at:)` with the key path's first component resolved to a layer state
    /// field when it names one (`AnimationModel.field`).
    func animatableValue(at keyPath: [String], field: LayerState.Field?) -> AnimatableValue?
    /// `setAnimatableValue(_:at:)` with the first component resolved as in `animatableValue(at:field:)`.
    mutating func setAnimatableValue(_ value: AnimatableValue, at keyPath: [String], field: LayerState.Field?)
    /// The number a resolved key path names, when the target reads numbers so (nil: it does not).
    func animatableNumber(at slot: LayerState.NumberSlot) -> Double?
    /// Writes a number where `animatableNumber(at:)` read it.
    mutating func setAnimatableNumber(_ value: Double, at slot: LayerState.NumberSlot)
}

extension AnimationTarget {
    package func animatableValue(at keyPath: [String], field: LayerState.Field?) -> AnimatableValue? { animatableValue(at: keyPath) }
    package mutating func setAnimatableValue(_ value: AnimatableValue, at keyPath: [String], field: LayerState.Field?) {
        setAnimatableValue(value, at: keyPath)
    }
    package func animatableNumber(at slot: LayerState.NumberSlot) -> Double? { nil }
    package mutating func setAnimatableNumber(_ value: Double, at slot: LayerState.NumberSlot) {}
}

// Evaluation. Animations of a layer are applied in the order they were added: each replaces
// (or, when additive, adds to) the value left by the model and the animations before it.
extension AnimationModel {
    /// Applies the animation at `parentTime` (the layer's local time, seconds). Returns whether it had an effect.
    @discardableResult
    package func apply<T: AnimationTarget>(to target: inout T, at parentTime: Double) -> Bool {
        let (time, iteration): (Double, Int)
        switch timing.phase(at: parentTime) {
        case .inactive: return false
        case .active(let t, let i), .filling(let t, let i): (time, iteration) = (t, i)
        }
        if let n = number, let base = target.animatableNumber(at: n.slot) {
            target.setAnimatableNumber(value(n, base: base, time: time, iteration: iteration), at: n.slot)
            return true
        }
        if let n = numberKeyframes, let base = target.animatableNumber(at: n.slot) {
            target.setAnimatableNumber(value(n, base: base, time: time, iteration: iteration), at: n.slot)
            return true
        }
        switch kind {
        case .group(let children):
            var any = false
            for child in children where child.apply(to: &target, at: time) { any = true }
            return any
        case .transition:
            return true
        default:
            guard let base = target.animatableValue(at: keyPath, field: field) else { return false }
            guard let result = value(base: base, time: time, iteration: iteration) else { return false }
            target.setAnimatableValue(result.value, at: keyPath, field: field)
            if let angle = result.angle, case .keyframes(let k) = kind, k.rotation != .none,
               case .transform(let t)? = target.animatableValue(at: ["transform"], field: .transform) {
                let a = CGFloat(angle + (k.rotation == .autoReverse ? Double.pi : 0))
                target.setAnimatableValue(.transform(Transform3D.rotation(a, 0, 0, 1).concatenating(t)), at: ["transform"], field: .transform)
            }
            return true
        }
    }

    /// The animated value at `time` within repetition `iteration`, given the value beneath it.
    func value(base: AnimatableValue, time: Double, iteration: Int) -> (value: AnimatableValue, angle: Double?)? {
        let eased = eased(time)
        // Value-function animations animate plain numbers (angles, factors) that become a transform.
        let neutral: AnimatableValue = valueFunction.map { vf in
            [.scale, .scaleX, .scaleY, .scaleZ].contains(vf) ? .number(1) : .number(0)
        } ?? base
        var result: AnimatableValue
        var angle: Double? = nil
        var delta: AnimatableValue? = nil
        switch kind {
        case let .basic(from, to, by):
            let (a, b) = AnimationModel.endpoints(from, to, by, neutral)
            result = a.interpolated(to: b, eased)
            delta = b.subtracting(a)
        case let .spring(spring, from, to, by):
            let (a, b) = AnimationModel.endpoints(from, to, by, neutral)
            result = a.interpolated(to: b, spring.progress(at: time))
            delta = b.subtracting(a)
        case .keyframes(let k):
            guard let (v, a) = k.value(at: eased, times: keyframeTimes) else { return nil }
            result = v
            angle = a
            if let first = k.values.first, let last = k.values.last { delta = last.subtracting(first) }
        case .group, .transition:
            return nil
        }
        if isCumulative, iteration > 0, let delta { result = result.adding(delta.repeated(iteration)) }
        if let vf = valueFunction { result = vf.transform(for: result) }
        if isAdditive { result = base.adding(result) }
        return (result, angle)
    }

    /// `value(base:time:iteration:)` for an animation of one number: the same operations in the
    /// same order on unboxed doubles.
    private func value(_ n: NumberEnds, base: Double, time: Double, iteration: Int) -> Double {
        let (a, b): (Double, Double)
        switch (n.from, n.to, n.by) {
        case let (f?, t?, _): (a, b) = (f, t)
        case let (f?, nil, by?): (a, b) = (f, f + by)
        case let (nil, t?, by?): (a, b) = (t - by, t)
        case let (f?, nil, nil): (a, b) = (f, base)
        case let (nil, t?, nil): (a, b) = (base, t)
        case let (nil, nil, by?): (a, b) = (base, base + by)
        case (nil, nil, nil): (a, b) = (base, base)
        }
        let progress = n.spring?.progress(at: time) ?? eased(time)
        var result = a + (b - a) * progress
        if isCumulative, iteration > 0 { result = result + (b - a) * Double(min(iteration, 10_000)) }
        if isAdditive { result = base + result }
        return result
    }

    /// `value(base:time:iteration:)` for a keyframe animation of one number, on unboxed doubles.
    private func value(_ n: NumberKeyframes, base: Double, time: Double, iteration: Int) -> Double {
        let eased = eased(time)
        var result = n.keyframes.number(at: eased, numbers: n.numbers, times: keyframeTimes)
        if isCumulative, iteration > 0 { result = result + (n.numbers[n.numbers.count - 1] - n.numbers[0]) * Double(min(iteration, 10_000)) }
        if isAdditive { result = base + result }
        return result
    }

    /// Apple's from/to/by combinations, with `base` standing in for the missing ends.
    static func endpoints(_ from: AnimatableValue?, _ to: AnimatableValue?, _ by: AnimatableValue?,
                          _ base: AnimatableValue) -> (AnimatableValue, AnimatableValue) {
        switch (from, to, by) {
        case let (f?, t?, _): return (f, t)
        case let (f?, nil, b?): return (f, f.adding(b))
        case let (nil, t?, b?): return (t.subtracting(b), t)
        case let (f?, nil, nil): return (f, base)
        case let (nil, t?, nil): return (base, t)
        case let (nil, nil, b?): return (base, base.adding(b))
        case (nil, nil, nil): return (base, base)
        }
    }

    /// True once the animation has run its course at `parentTime` (for removal and callbacks).
    package func isFinished(at parentTime: Double) -> Bool { timing.isFinished(at: parentTime) }
}
