import CoreGraphics
import Foundation
import LayerRender

/// How keyframe values are interpolated.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `linear` (raw value "linear").
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
    /// Apple's `discrete` (raw value "discrete").
    public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
    /// Apple's `paced` (raw value "paced").
    public static let paced = CAAnimationCalculationMode(rawValue: "paced")
    /// Apple's `cubic` (raw value "cubic").
    public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
    /// Apple's `cubicPaced` (raw value "cubicPaced").
    public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")
}

/// Whether a layer moving along a path turns to follow it.
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `rotateAuto` (raw value "auto").
    public static let rotateAuto = CAAnimationRotationMode(rawValue: "auto")
    /// Apple's `rotateAutoReverse` (raw value "autoReverse").
    public static let rotateAutoReverse = CAAnimationRotationMode(rawValue: "autoReverse")
}

/// An animation through a sequence of values (or along a path).
///
/// Rejected at `add(_:forKey:)` (counted as `.invalidParameter`): `keyTimes` of the wrong count,
/// out of order or outside [0, 1]. An empty `values` (and no path) animates nothing.
open class CAKeyframeAnimation: CAPropertyAnimation {
    /// The keyframe values, in order.
    open var values: [Any]?
    /// A path for point properties; each element is one keyframe segment (overrides values).
    open var path: CGPath?
    /// When each keyframe is reached, as fractions of the duration in [0, 1].
    open var keyTimes: [NSNumber]?
    /// Pacing per segment (one fewer than values).
    open var timingFunctions: [CAMediaTimingFunction]?
    /// How values between keyframes are computed.
    open var calculationMode = CAAnimationCalculationMode.linear
    /// Per-keyframe tension of cubic modes (0 = Catmull–Rom).
    open var tensionValues: [NSNumber]?
    /// Per-keyframe continuity of cubic modes.
    open var continuityValues: [NSNumber]?
    /// Per-keyframe bias of cubic modes.
    open var biasValues: [NSNumber]?
    /// Whether a layer moving along `path` turns with it.
    open var rotationMode: CAAnimationRotationMode?

    override func copyAnimationState(from o: CAAnimation) {
        super.copyAnimationState(from: o)
        guard let k = o as? CAKeyframeAnimation else { return }
        values = k.values; path = k.path; keyTimes = k.keyTimes; timingFunctions = k.timingFunctions
        calculationMode = k.calculationMode; tensionValues = k.tensionValues; continuityValues = k.continuityValues
        biasValues = k.biasValues; rotationMode = k.rotationMode
    }

    override func makeModel() -> AnimationModel? {
        let engineValues = (values ?? []).map { ValueBridge.animatable($0) ?? .discrete(.init($0)) }
        let mode = Keyframes.Mode(rawValue: calculationMode.rawValue) ?? .linear
        let times = keyTimes?.map(\.doubleValue)
        let pathOps = path.map(\.ops)
        if let times, !pathOps.isNilOrEmpty {
            guard times.count >= 2, Keyframes.validKeyTimes(times, count: times.count, mode: .linear) else { return nil }
        } else if let times, !Keyframes.validKeyTimes(times, count: engineValues.count, mode: mode) {
            return nil
        }
        let rotation: Keyframes.Rotation = rotationMode == .rotateAuto ? .auto : rotationMode == .rotateAutoReverse ? .autoReverse : .none
        let k = Keyframes(values: engineValues, keyTimes: times, timingFunctions: (timingFunctions ?? []).map(\.curve),
                          mode: mode, tension: tensionValues?.map(\.doubleValue) ?? [],
                          continuity: continuityValues?.map(\.doubleValue) ?? [], bias: biasValues?.map(\.doubleValue) ?? [],
                          path: pathOps, rotation: rotation)
        return model(.keyframes(k))
    }
}

private extension Optional where Wrapped == [PathOp] {
    var isNilOrEmpty: Bool { self?.isEmpty ?? true }
}

/// A spring animation: a damped oscillation from `fromValue` to `toValue`.
///
/// Defaults are Apple's: mass 1, stiffness 100, damping 10, initialVelocity 0. The spring runs in
/// seconds of local time; set `duration = settlingDuration` to see it come to rest.
open class CASpringAnimation: CABasicAnimation {
    /// The mass on the spring (1).
    open var mass: CGFloat = 1
    /// The spring constant (100).
    open var stiffness: CGFloat = 100
    /// The damping coefficient (10).
    open var damping: CGFloat = 10
    /// The starting velocity; 1 covers the whole distance in a second.
    open var initialVelocity: CGFloat = 0
    /// Whether damping beyond critical is honoured (otherwise it is clamped to critical).
    open var allowsOverdamping = false

    /// A spring that settles in about `perceptualDuration` seconds with `bounce` in [−1, 1] (Apple's iOS 17 model).
    public convenience init(perceptualDuration: CFTimeInterval, bounce: CGFloat) {
        self.init()
        let p = Spring.perceptual(duration: perceptualDuration, bounce: Double(bounce))
        mass = 1
        stiffness = CGFloat(p.stiffness)
        damping = CGFloat(p.damping)
        duration = settlingDuration
    }

    /// The time the spring takes to come to rest (within 0.1 % of the distance), in seconds.
    open var settlingDuration: CFTimeInterval { engineSpring.settlingDuration }

    /// The perceptual duration this spring corresponds to.
    open var perceptualDuration: CFTimeInterval { 2 * .pi / Double((stiffness / mass).squareRoot()) }

    /// The bounce this spring corresponds to.
    open var bounce: CGFloat {
        let critical = 4 * .pi / CGFloat(perceptualDuration)
        return damping <= critical ? 1 - damping / critical : critical / damping - 1
    }

    var engineSpring: Spring {
        Spring(mass: Double(mass), stiffness: Double(stiffness), damping: Double(damping),
               initialVelocity: Double(initialVelocity), allowsOverdamping: allowsOverdamping)
    }

    override func copyAnimationState(from o: CAAnimation) {
        super.copyAnimationState(from: o)
        guard let s = o as? CASpringAnimation else { return }
        mass = s.mass; stiffness = s.stiffness; damping = s.damping; initialVelocity = s.initialVelocity
        allowsOverdamping = s.allowsOverdamping
    }

    override func makeModel() -> AnimationModel? {
        let (f, t, b) = engineEndpoints
        return model(.spring(engineSpring, from: f, to: t, by: b))
    }
}

/// Several animations run together in the group's time space.
open class CAAnimationGroup: CAAnimation {
    /// The grouped animations, timed in the group's local time.
    open var animations: [CAAnimation]?

    override func copyAnimationState(from o: CAAnimation) {
        super.copyAnimationState(from: o)
        guard let g = o as? CAAnimationGroup else { return }
        // A group that contains itself, directly or through nested groups, is refused as a layer
        // cycle is: the children that lead back to it are left out of the copy (counted).
        animations = g.animations?.compactMap { child in
            guard !CAAnimationGroup.leads(from: child, to: g) else { CGDiagnostics.record(.invalidParameter); return nil }
            return child.copy() as? CAAnimation
        }
    }

    /// Whether `start` is `target` or contains it through groups (a finite walk: each group once).
    static func leads(from start: CAAnimation, to target: CAAnimationGroup) -> Bool {
        var seen: Set<ObjectIdentifier> = []
        var stack = [start]
        while let a = stack.popLast() {
            if a === target { return true }
            guard let group = a as? CAAnimationGroup, seen.insert(ObjectIdentifier(group)).inserted else { continue }
            stack.append(contentsOf: group.animations ?? [])
        }
        return false
    }

    /// Children with no duration of their own (0, the default) last as long as the group.
    override func makeModel() -> AnimationModel? {
        let children = (animations ?? []).compactMap { child -> AnimationModel? in
            guard !(child.duration > 0) else { return child.makeModel() }
            let timed = child.copy() as! CAAnimation
            timed.duration = duration
            return timed.makeModel()
        }
        return AnimationModel(keyPath: "", timing: engineTiming, timingFunction: timingFunction?.curve, isAdditive: false,
                              isCumulative: false, valueFunction: nil, kind: .group(children))
    }
}

/// Kinds of transition.
public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `fade` (raw value "fade").
    public static let fade = CATransitionType(rawValue: "fade")
    /// Apple's `moveIn` (raw value "moveIn").
    public static let moveIn = CATransitionType(rawValue: "moveIn")
    /// Apple's `push` (raw value "push").
    public static let push = CATransitionType(rawValue: "push")
    /// Apple's `reveal` (raw value "reveal").
    public static let reveal = CATransitionType(rawValue: "reveal")
}

/// Directions of a transition.
public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `fromRight` (raw value "fromRight").
    public static let fromRight = CATransitionSubtype(rawValue: "fromRight")
    /// Apple's `fromLeft` (raw value "fromLeft").
    public static let fromLeft = CATransitionSubtype(rawValue: "fromLeft")
    /// Apple's `fromTop` (raw value "fromTop").
    public static let fromTop = CATransitionSubtype(rawValue: "fromTop")
    /// Apple's `fromBottom` (raw value "fromBottom").
    public static let fromBottom = CATransitionSubtype(rawValue: "fromBottom")
}

/// An animated change of the whole layer's appearance (fade by default); drawn by the compositor.
open class CATransition: CAAnimation {
    /// The kind of transition (fade by default).
    open var type = CATransitionType.fade
    /// The direction of movement-based transitions.
    open var subtype: CATransitionSubtype?
    /// Where in the transition to start, in [0, 1].
    open var startProgress: Float = 0
    /// Where in the transition to end, in [0, 1].
    open var endProgress: Float = 1
    /// A Core Image filter for the transition (stored; not available on Linux).
    open var filter: Any?

    override func copyAnimationState(from o: CAAnimation) {
        super.copyAnimationState(from: o)
        guard let t = o as? CATransition else { return }
        type = t.type; subtype = t.subtype; startProgress = t.startProgress; endProgress = t.endProgress; filter = t.filter
    }

    override func makeModel() -> AnimationModel? {
        let start = min(max(Double(startProgress.isNaN ? 0 : startProgress), 0), 1)
        let end = min(max(Double(endProgress.isNaN ? 1 : endProgress), start), 1)
        return AnimationModel(keyPath: "", timing: engineTiming, timingFunction: timingFunction?.curve, isAdditive: false,
                              isCumulative: false, valueFunction: nil,
                              kind: .transition(Transition(type: type.rawValue, subtype: subtype?.rawValue,
                                                           startProgress: start, endProgress: end)))
    }
}
