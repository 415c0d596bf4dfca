import CoreGraphics
import Foundation
import LayerRender

/// Names of the value functions that turn animated numbers into transforms.
public struct CAValueFunctionName: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `rotateX` (raw value "rotateX").
    public static let rotateX = CAValueFunctionName(rawValue: "rotateX")
    /// Apple's `rotateY` (raw value "rotateY").
    public static let rotateY = CAValueFunctionName(rawValue: "rotateY")
    /// Apple's `rotateZ` (raw value "rotateZ").
    public static let rotateZ = CAValueFunctionName(rawValue: "rotateZ")
    /// Apple's `scale` (raw value "scale").
    public static let scale = CAValueFunctionName(rawValue: "scale")
    /// Apple's `scaleX` (raw value "scaleX").
    public static let scaleX = CAValueFunctionName(rawValue: "scaleX")
    /// Apple's `scaleY` (raw value "scaleY").
    public static let scaleY = CAValueFunctionName(rawValue: "scaleY")
    /// Apple's `scaleZ` (raw value "scaleZ").
    public static let scaleZ = CAValueFunctionName(rawValue: "scaleZ")
    /// Apple's `translate` (raw value "translate").
    public static let translate = CAValueFunctionName(rawValue: "translate")
    /// Apple's `translateX` (raw value "translateX").
    public static let translateX = CAValueFunctionName(rawValue: "translateX")
    /// Apple's `translateY` (raw value "translateY").
    public static let translateY = CAValueFunctionName(rawValue: "translateY")
    /// Apple's `translateZ` (raw value "translateZ").
    public static let translateZ = CAValueFunctionName(rawValue: "translateZ")
}

/// A function applied to an animation's interpolated value(s) to make a transform.
open class CAValueFunction: NSObject, @unchecked Sendable {   // immutable after init
    /// The function's name.
    public let name: CAValueFunctionName
    /// The value function for `name`; nil for a name Apple does not define.
    public init?(name: CAValueFunctionName) {
        guard ValueFunction(rawValue: name.rawValue) != nil else { return nil }
        self.name = name
        super.init()
    }
    var engine: ValueFunction { ValueFunction(rawValue: name.rawValue)! }
}

/// An animation of one property, named by a key path (sub-keys such as `transform.rotation.z` work).
open class CAPropertyAnimation: CAAnimation {
    /// The animated key path.
    open var keyPath: String?
    /// Whether the animated value is added to the model value.
    open var isAdditive = false
    /// Whether repetitions build on the end of the previous one.
    open var isCumulative = false
    /// Turns animated numbers into a transform.
    open var valueFunction: CAValueFunction?

    /// An animation of `path`.
    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    override func copyAnimationState(from o: CAAnimation) {
        super.copyAnimationState(from: o)
        guard let p = o as? CAPropertyAnimation else { return }
        keyPath = p.keyPath; isAdditive = p.isAdditive; isCumulative = p.isCumulative; valueFunction = p.valueFunction
    }

    /// An engine model for `kind` with this animation's common fields.
    func model(_ kind: AnimationModel.Kind) -> AnimationModel? {
        guard let keyPath, !keyPath.isEmpty else { return nil }
        return AnimationModel(keyPath: keyPath, timing: engineTiming, timingFunction: timingFunction?.curve,
                              isAdditive: isAdditive, isCumulative: isCumulative, valueFunction: valueFunction?.engine,
                              kind: kind)
    }

    override func makeModel() -> AnimationModel? { nil }
}

/// An animation between two values: `fromValue`, `toValue`, `byValue` in Apple's combinations.
open class CABasicAnimation: CAPropertyAnimation {
    /// The start value (nil: the value beneath, or toValue − byValue).
    open var fromValue: Any?
    /// The end value (nil: the value beneath, or fromValue + byValue).
    open var toValue: Any?
    /// The change relative to the start value.
    open var byValue: Any?

    override func copyAnimationState(from o: CAAnimation) {
        super.copyAnimationState(from: o)
        guard let b = o as? CABasicAnimation else { return }
        fromValue = b.fromValue; toValue = b.toValue; byValue = b.byValue; renderTreeFrom = b.renderTreeFrom
    }

    /// With fromValue, toValue and byValue all nil: the key path's value in the render tree when
    /// the animation was added (set by `add(_:forKey:)` on the layer's copy).
    var renderTreeFrom: AnimatableValue?

    var engineEndpoints: (AnimatableValue?, AnimatableValue?, AnimatableValue?) {
        // Apple: "All properties are nil. Interpolates between the previous value of keyPath in
        // the render tree and the current value of keyPath in the render tree."
        if fromValue == nil, toValue == nil, byValue == nil, let renderTreeFrom { return (renderTreeFrom, nil, nil) }
        return (fromValue.flatMap(ValueBridge.animatable), toValue.flatMap(ValueBridge.animatable), byValue.flatMap(ValueBridge.animatable))
    }

    override func makeModel() -> AnimationModel? {
        let (f, t, b) = engineEndpoints
        return model(.basic(from: f, to: t, by: b))
    }
}
