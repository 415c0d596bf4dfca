import CoreGraphics
import Foundation

/// An immutable description of one animation, as committed: what the engine evaluates.
///
/// QuartzCore's CAAnimation objects are mutable and owned by the app; at commit each added
/// animation is frozen into one of these (with its begin time resolved), so renderers on other
/// threads can evaluate it without touching the app's objects.
package final class AnimationModel: @unchecked Sendable {   // frozen when a commit makes it; only read after
    /// The animated property, split at dots ("transform.rotation.z" → ["transform", "rotation", "z"]).
    package let keyPath: [String]
    package let timing: MediaTiming
    /// nil means linear pacing.
    package let timingFunction: TimingFunction?
    package let isAdditive: Bool
    package let isCumulative: Bool
    package let valueFunction: ValueFunction?
    package let kind: Kind
    /// The state fields the animation writes (a group's children's), or nil when one of its keys
    /// is not a field (class content, custom keys, emitter cells) or it is a transition.
    package let fields: [LayerState.Field]?
    /// The state field the key path's first component names (nil: a class-content or custom key, or none).
    package let field: LayerState.Field?
    /// A basic or spring animation of one number of the state, with numbers (or nothing) for its
    /// ends and no value function: evaluated without boxing (nil: the general path).
    let number: NumberEnds?
    /// A keyframe animation's key times, resolved once (paced ones measured); empty for other kinds.
    let keyframeTimes: [Double]
    /// A keyframe animation of one number of the state through numbers, with no path and no
    /// value function: evaluated without boxing (nil: the general path).
    let numberKeyframes: NumberKeyframes?

    /// The slot, keyframes and values of a keyframe animation of one number.
    struct NumberKeyframes {
        let slot: LayerState.NumberSlot
        let keyframes: Keyframes
        let numbers: [Double]
    }

    /// Whether it is a transition (read every frame for every animation: without matching `kind`,
    /// which copies its payload).
    package let isTransition: Bool

    /// The slot and ends of an animation of one number.
    struct NumberEnds {
        let slot: LayerState.NumberSlot
        let from: Double?, to: Double?, by: Double?
        /// The spring that paces it (nil: its timing function does).
        let spring: Spring?
    }

    package enum Kind: Sendable {
        case basic(from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?)
        case spring(Spring, from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?)
        case keyframes(Keyframes)
        case group([AnimationModel])
        case transition(Transition)
    }

    package init(keyPath: String, timing: MediaTiming, timingFunction: TimingFunction?, isAdditive: Bool,
                 isCumulative: Bool, valueFunction: ValueFunction?, kind: Kind) {
        self.keyPath = keyPath.isEmpty ? [] : keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self.timing = timing
        self.timingFunction = timingFunction
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
        self.valueFunction = valueFunction
        self.kind = kind
        field = self.keyPath.first.flatMap(LayerState.Field.init(key:))
        switch kind {
        case .group(let children):
            var all: [LayerState.Field]? = []
            for child in children { all = child.fields.flatMap { f in all.map { $0 + f } } }
            fields = all
        case .transition:
            fields = nil
        case .keyframes(let k):
            // A rotation mode turns the layer's transform as well.
            fields = field.map { k.rotation == .none ? [$0] : [$0, .transform] }
        case .basic, .spring:
            fields = field.map { [$0] }
        }
        if case .transition = kind { isTransition = true } else { isTransition = false }
        number = AnimationModel.numberEnds(kind, keyPath: self.keyPath, field: field, valueFunction: valueFunction)
        if case .keyframes(let k) = kind {
            // Also for a path: one that draws nothing falls back to the values and their times.
            keyframeTimes = k.times()
            numberKeyframes = AnimationModel.numberKeyframes(k, keyPath: self.keyPath, field: field, valueFunction: valueFunction)
        } else {
            keyframeTimes = []
            numberKeyframes = nil
        }
    }

    private static func numberKeyframes(_ k: Keyframes, keyPath: [String], field: LayerState.Field?,
                                        valueFunction: ValueFunction?) -> NumberKeyframes? {
        guard valueFunction == nil, k.path == nil, !k.values.isEmpty,
              let slot = LayerState.NumberSlot(keyPath: keyPath, field: field) else { return nil }
        var numbers: [Double] = []
        numbers.reserveCapacity(k.values.count)
        for v in k.values {
            guard case .number(let d) = v else { return nil }
            numbers.append(d)
        }
        return NumberKeyframes(slot: slot, keyframes: k, numbers: numbers)
    }

    private static func numberEnds(_ kind: Kind, keyPath: [String], field: LayerState.Field?,
                                   valueFunction: ValueFunction?) -> NumberEnds? {
        guard valueFunction == nil, let slot = LayerState.NumberSlot(keyPath: keyPath, field: field) else { return nil }
        let from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?, spring: Spring?
        switch kind {
        case let .basic(f, t, b): (from, to, by, spring) = (f, t, b, nil)
        case let .spring(s, f, t, b): (from, to, by, spring) = (f, t, b, s)
        default: return nil
        }
        // Each end is a number or absent; any other kind of value takes the general path.
        func number(_ v: AnimatableValue?) -> Double?? {
            switch v {
            case nil: return .some(nil)
            case .number(let d)?: return .some(d)
            default: return nil
            }
        }
        guard let f = number(from), let t = number(to), let b = number(by) else { return nil }
        return NumberEnds(slot: slot, from: f, to: t, by: b, spring: spring)
    }
}

/// A CATransition frozen for rendering: the compositor draws the cross-over at `progress`.
package struct Transition: Sendable {
    package var type: String
    package var subtype: String?
    package var startProgress: Double
    package var endProgress: Double
    /// The layer as it was committed before the transition was added (what it transitions from).
    package var from: LayerSnapshot?
    package init(type: String, subtype: String?, startProgress: Double, endProgress: Double, from: LayerSnapshot? = nil) {
        self.type = type; self.subtype = subtype; self.startProgress = startProgress; self.endProgress = endProgress
        self.from = from
    }
}

extension AnimationModel {
    /// The fraction of one repetition done at `time` (seconds into it), through the timing
    /// function (which may overshoot [0, 1]); 1 for a zero duration.
    func eased(_ time: Double) -> Double {
        let d = timing.duration
        let linear = d > 0 ? min(max(time / d, 0), 1) : 1
        return timingFunction?.value(at: linear) ?? linear
    }

    /// The transition of this model and its progress in [0, 1] at `parentTime`, when it is one and active.
    package func transitionProgress(at parentTime: Double) -> (Transition, Double)? {
        guard isTransition, case .transition(let t) = kind else { return nil }
        let time: Double
        switch timing.phase(at: parentTime) {
        case .inactive: return nil
        case .active(let x, _), .filling(let x, _): time = x
        }
        let eased = eased(time)
        // A timing function may overshoot [0, 1]; a transition's progress is a fraction of the way.
        let progress = t.startProgress + (t.endProgress - t.startProgress) * eased
        return (t, progress.isNaN ? 0 : min(max(progress, 0), 1))
    }
}

/// Core Animation's value functions: turn the animated number(s) into a transform.
package enum ValueFunction: String, Sendable {
    case rotateX, rotateY, rotateZ, scale, scaleX, scaleY, scaleZ, translate, translateX, translateY, translateZ

    /// The transform for an animated value (a number, or an array of up to three for scale/translate).
    package func transform(for value: AnimatableValue) -> AnimatableValue {
        let numbers: [Double]
        switch value {
        case .number(let d): numbers = [d]
        case .array(let items): numbers = items.compactMap { if case .number(let d) = $0 { return d } else { return nil } }
        default: return value
        }
        func n(_ i: Int, _ fallback: Double) -> CGFloat { CGFloat(i < numbers.count ? numbers[i] : fallback) }
        let first = n(0, 0)
        switch self {
        case .rotateX: return .transform(.rotation(first, 1, 0, 0))
        case .rotateY: return .transform(.rotation(first, 0, 1, 0))
        case .rotateZ: return .transform(.rotation(first, 0, 0, 1))
        case .scale:
            return numbers.count >= 3 ? .transform(.scale(n(0, 1), n(1, 1), n(2, 1))) : .transform(.scale(first, first, first))
        case .scaleX: return .transform(.scale(first, 1, 1))
        case .scaleY: return .transform(.scale(1, first, 1))
        case .scaleZ: return .transform(.scale(1, 1, first))
        case .translate: return .transform(.translation(n(0, 0), n(1, 0), n(2, 0)))
        case .translateX: return .transform(.translation(first, 0, 0))
        case .translateY: return .transform(.translation(0, first, 0))
        case .translateZ: return .transform(.translation(0, 0, first))
        }
    }
}
