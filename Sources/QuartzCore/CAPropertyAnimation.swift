import CoreGraphics
import Foundation
import LayerRender

/// Names of the value functions that turn animated numbers into transforms.
public struct CAValueFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let rotateX = CAValueFunctionName(rawValue: "rotateX")
    public static let rotateY = CAValueFunctionName(rawValue: "rotateY")
    public static let rotateZ = CAValueFunctionName(rawValue: "rotateZ")
    public static let scale = CAValueFunctionName(rawValue: "scale")
    public static let scaleX = CAValueFunctionName(rawValue: "scaleX")
    public static let scaleY = CAValueFunctionName(rawValue: "scaleY")
    public static let scaleZ = CAValueFunctionName(rawValue: "scaleZ")
    public static let translate = CAValueFunctionName(rawValue: "translate")
    public static let translateX = CAValueFunctionName(rawValue: "translateX")
    public static let translateY = CAValueFunctionName(rawValue: "translateY")
    public static let translateZ = CAValueFunctionName(rawValue: "translateZ")
}

/// A function applied to an animation's interpolated value(s) to make a transform.
open class CAValueFunction: NSObject, @unchecked Sendable {
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
    open var fromValue: Any?
    open var toValue: Any?
    open var byValue: Any?

    override func copyAnimationState(from o: CAAnimation) {
        super.copyAnimationState(from: o)
        guard let b = o as? CABasicAnimation else { return }
        fromValue = b.fromValue; toValue = b.toValue; byValue = b.byValue
    }

    var engineEndpoints: (AnimatableValue?, AnimatableValue?, AnimatableValue?) {
        (fromValue.flatMap(ValueBridge.animatable), toValue.flatMap(ValueBridge.animatable), byValue.flatMap(ValueBridge.animatable))
    }

    override func makeModel() -> AnimationModel? {
        let (f, t, b) = engineEndpoints
        return model(.basic(from: f, to: t, by: b))
    }
}
