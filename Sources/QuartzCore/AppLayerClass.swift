import CoreGraphics
import Foundation
import LayerRender

/// What the framework knows about one app-defined `CALayer` subclass: its stored properties
/// (see ClassLayout.swift), and which of them are the subclass's own properties — the keys that
/// `@objc`/`@NSManaged` made reachable on Apple systems.
final class AppLayerClass: Sendable {
    /// Every stored field of the class, the framework's included (for presentation copies).
    let layout: ClassLayout
    /// The `var` properties the app's classes declare (below the nearest framework class), in
    /// declaration order: the custom keys that key-value coding, actions, animations and
    /// presentation copies reach by name.
    let properties: [StoredField]
    private let index: [String: Int]

    private init(_ cls: AnyClass, framework: AnyClass) {
        layout = ClassLayout(of: cls)
        let inherited = ClassLayout(of: framework).fields.count
        properties = layout.fields.dropFirst(inherited).filter { $0.isStrong && $0.isVar && !$0.name.isEmpty }
        index = Dictionary(properties.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The position of the property `name` in `properties`.
    func property(named name: String) -> Int? { index[name] }

    // MARK: The classes

    /// The framework's layer classes: everything else is an app-defined subclass.
    private static let frameworkClasses: Set<ObjectIdentifier> = [
        ObjectIdentifier(CALayer.self), ObjectIdentifier(CAShapeLayer.self), ObjectIdentifier(CATextLayer.self),
        ObjectIdentifier(CAGradientLayer.self), ObjectIdentifier(CAReplicatorLayer.self),
        ObjectIdentifier(CAScrollLayer.self), ObjectIdentifier(CATiledLayer.self),
        ObjectIdentifier(CATransformLayer.self), ObjectIdentifier(CAEmitterLayer.self),
    ]
    private static let known = Locked<[ObjectIdentifier: AppLayerClass?]>([:])

    /// The facts for `cls`, worked out once per class; nil for the framework's own classes.
    static func of(_ cls: AnyClass) -> AppLayerClass? {
        let id = ObjectIdentifier(cls)
        if frameworkClasses.contains(id) { return nil }
        if let cached = known.withLock({ $0[id] }) { return cached }
        var framework: AnyClass = cls
        while !frameworkClasses.contains(ObjectIdentifier(framework)), let up = _getSuperclass(framework) { framework = up }
        let info = AppLayerClass(cls, framework: framework)
        known.withLock { $0[id] = info }
        return info
    }
}

/// One app-defined layer's watch: the values its custom properties had when last looked at,
/// and the in-between frame drawn for an animation of a key that needs display.
final class AppLayerState {
    let cls: AppLayerClass
    /// The engine value of each of `cls.properties` when last looked at (nil: not comparable).
    var seen: [AnimatableValue?]
    /// The drawing of a presentation copy for the current frame of an animation of a key that
    /// needs display; shown instead of the model's contents while set.
    var animatedFrame: AnimatedFrame?

    struct AnimatedFrame {
        /// What the copy's display produced (nil when it drew nothing).
        let contents: Any?
        /// The animated values it was drawn with.
        let values: [String: AnimatableValue]
    }

    init(_ cls: AppLayerClass, seen: [AnimatableValue?]) {
        self.cls = cls
        self.seen = seen
    }
}
