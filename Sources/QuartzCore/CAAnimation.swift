import CoreGraphics
import Foundation
import LayerRender

/// Receives an animation's start and stop (both optional in effect).
public protocol CAAnimationDelegate: NSObjectProtocol {
    /// The animation began (its begin time was reached).
    func animationDidStart(_ anim: CAAnimation)
    /// The animation ended: `flag` is true when it ran to its end, false when it was removed early.
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    /// Default: does nothing.
    public func animationDidStart(_ anim: CAAnimation) {}
    /// Default: does nothing.
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The abstract animation: timing (CAMediaTiming), pacing, delegate and removal policy.
///
/// Adding an animation to a layer stores a copy; the layer's copy is frozen into the render
/// engine's model at commit, with a `beginTime` of 0 resolved to the commit time. A `duration`
/// of 0 (the default) or less takes the transaction's duration when added. NaN timing values are
/// rejected (the old value is kept, counted as `.nonFiniteGeometry`).
open class CAAnimation: NSObject, CAMediaTiming, CAAction, NSCopying {
    /// The pacing curve; nil means linear.
    open var timingFunction: CAMediaTimingFunction?
    /// Receives start/stop callbacks. Retained (strongly) by the animation, as on Apple systems.
    open var delegate: (any CAAnimationDelegate)?
    /// Whether the layer drops the animation once it has finished (true by default).
    open var isRemovedOnCompletion = true

    var _beginTime: CFTimeInterval = 0
    var _duration: CFTimeInterval = 0
    var _speed: Float = 1
    var _timeOffset: CFTimeInterval = 0
    var _repeatCount: Float = 0
    var _repeatDuration: CFTimeInterval = 0
    /// Values stored by key-value coding under keys that are not properties (a common way to tag animations).
    var customValues: [String: Any] = [:]

    /// When the animation starts, in its layer's time (0: the commit time).
    open var beginTime: CFTimeInterval { get { _beginTime } set { if accepts(newValue) { _beginTime = newValue } } }
    /// The length of one repetition in seconds (0 or less: the transaction's).
    open var duration: CFTimeInterval { get { _duration } set { if accepts(newValue) { _duration = newValue } } }
    /// How fast the animation runs relative to its layer.
    open var speed: Float { get { _speed } set { if accepts(newValue) { _speed = newValue } } }
    /// How far into its timeline the animation starts (wrapping).
    open var timeOffset: CFTimeInterval { get { _timeOffset } set { if accepts(newValue) { _timeOffset = newValue } } }
    /// How many times the animation repeats (fractions allowed).
    open var repeatCount: Float { get { _repeatCount } set { if accepts(newValue) { _repeatCount = newValue } } }
    /// How long the animation repeats, in seconds.
    open var repeatDuration: CFTimeInterval { get { _repeatDuration } set { if accepts(newValue) { _repeatDuration = newValue } } }
    /// Whether each repetition plays forward then backward.
    open var autoreverses = false
    /// What the animation shows outside its active span.
    open var fillMode = CAMediaTimingFillMode.removed

    /// False (and counted) for NaN, which timing properties reject.
    private func accepts<T: BinaryFloatingPoint>(_ v: T) -> Bool {
        if v.isNaN { CGDiagnostics.record(.nonFiniteGeometry) }
        return !v.isNaN
    }

    /// Creates an animation with Apple's defaults.
    public required override init() { super.init() }

    /// Creates an animation (Apple's class constructor).
    open class func animation() -> Self { self.init() }

    /// The default for `key` (nil for every key, as Apple).
    open class func defaultValue(forKey key: String) -> Any? { nil }

    /// Whether `key`'s value is archived (true).
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    /// Adds the animation to `anObject` (a CALayer) under `event`: CAAnimation as an action.
    open func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        (anObject as? CALayer)?.add(self, forKey: event)
    }

    /// A copy of the same class with every property copied.
    open func copy(with zone: NSZone? = nil) -> Any {
        let c = type(of: self).init()
        c.copyAnimationState(from: self)
        return c
    }

    /// Copies this class's properties from `other`; subclasses extend it (and call super).
    func copyAnimationState(from o: CAAnimation) {
        timingFunction = o.timingFunction; delegate = o.delegate; isRemovedOnCompletion = o.isRemovedOnCompletion
        _beginTime = o._beginTime; _duration = o._duration; _speed = o._speed; _timeOffset = o._timeOffset
        _repeatCount = o._repeatCount; _repeatDuration = o._repeatDuration; autoreverses = o.autoreverses
        fillMode = o.fillMode; customValues = o.customValues
    }

    /// A stored value for `key` (custom keys; the timing properties by name).
    open func value(forKey key: String) -> Any? {
        switch key {
        case "beginTime": return beginTime
        case "duration": return duration
        case "speed": return speed
        case "timeOffset": return timeOffset
        case "repeatCount": return repeatCount
        case "repeatDuration": return repeatDuration
        case "autoreverses": return autoreverses
        case "removedOnCompletion": return isRemovedOnCompletion
        default: return customValues[key] ?? type(of: self).defaultValue(forKey: key)
        }
    }

    /// Stores a value for `key` (numbers are converted for the timing properties).
    open func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case "beginTime": if let d = Coerce.double(value) { beginTime = d }
        case "duration": if let d = Coerce.double(value) { duration = d }
        case "speed": if let f = Coerce.float(value) { speed = f }
        case "timeOffset": if let d = Coerce.double(value) { timeOffset = d }
        case "repeatCount": if let f = Coerce.float(value) { repeatCount = f }
        case "repeatDuration": if let d = Coerce.double(value) { repeatDuration = d }
        case "autoreverses": if let b = Coerce.bool(value) { autoreverses = b }
        case "removedOnCompletion": if let b = Coerce.bool(value) { isRemovedOnCompletion = b }
        default: customValues[key] = value
        }
    }

    // MARK: Freezing for the engine

    /// The engine's timing for this animation (a non-positive duration already replaced).
    var engineTiming: MediaTiming {
        var t = MediaTiming()
        t.beginTime = _beginTime
        t.duration = max(_duration, 0)
        t.speed = Double(_speed)
        t.timeOffset = _timeOffset
        t.repeatCount = Double(_repeatCount)
        t.repeatDuration = _repeatDuration
        t.autoreverses = autoreverses
        switch fillMode {
        case .forwards: t.fill = .forwards
        case .backwards: t.fill = .backwards
        case .both: t.fill = .both
        default: t.fill = .removed
        }
        return t
    }

    /// The engine model, or nil when the animation is invalid (rejected, counted by the caller).
    /// Subclasses override it; a plain CAAnimation animates nothing but still times (and calls back).
    func makeModel() -> AnimationModel? {
        AnimationModel(keyPath: "", timing: engineTiming, timingFunction: timingFunction?.curve, isAdditive: false,
                       isCumulative: false, valueFunction: nil, kind: .group([]))
    }
}
