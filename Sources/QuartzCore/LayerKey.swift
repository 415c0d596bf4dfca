import CoreGraphics
import Foundation

/// How key-value coding reads and writes one built-in layer property.
///
/// `set` returns false when the value cannot be converted to the property's type.
/// Setters go through the layer's public properties, so subclass overrides and validation apply.
struct LayerKey {
    /// A class's declared properties by key, over the `base` table it extends.
    static func table(_ declared: [LayerKey], over base: [String: LayerKey]) -> [String: LayerKey] {
        base.merging(declared.map { ($0.key, $0) }) { $1 }
    }

    let get: (CALayer) -> Any?
    let set: (CALayer, Any?) -> Bool
    /// The key (empty for entries not made from a `LayerProperty`).
    var key = ""
    /// Whether a change runs an implicit animation (from the property's declaration).
    var animatable = false

    init(get: @escaping (CALayer) -> Any?, set: @escaping (CALayer, Any?) -> Bool, key: String = "", animatable: Bool = false) {
        self.get = get; self.set = set; self.key = key; self.animatable = animatable
    }

    /// A property of the framework class `L`: `coerce` converts the value handed to key-value
    /// coding (nil: the value is rejected).
    static func typed<L: CALayer, T>(_ kp: ReferenceWritableKeyPath<L, T>, _ coerce: @escaping (Any?) -> T?) -> LayerKey {
        LayerKey(get: { ($0 as? L)?[keyPath: kp] }, set: { l, v in
            guard let l = l as? L, let t = coerce(v) else { return false }
            l[keyPath: kp] = t
            return true
        })
    }
    // CALayer's own properties (the key-path root fixes the property's type; `typed` does the work).
    static func cgFloat(_ kp: ReferenceWritableKeyPath<CALayer, CGFloat>) -> LayerKey { typed(kp, Coerce.cgFloat) }
    static func float(_ kp: ReferenceWritableKeyPath<CALayer, Float>) -> LayerKey { typed(kp, Coerce.float) }
    static func double(_ kp: ReferenceWritableKeyPath<CALayer, Double>) -> LayerKey { typed(kp, Coerce.double) }
    static func bool(_ kp: ReferenceWritableKeyPath<CALayer, Bool>) -> LayerKey { typed(kp, Coerce.bool) }
    static func point(_ kp: ReferenceWritableKeyPath<CALayer, CGPoint>) -> LayerKey { typed(kp, Coerce.point) }
    static func size(_ kp: ReferenceWritableKeyPath<CALayer, CGSize>) -> LayerKey { typed(kp, Coerce.size) }
    static func rect(_ kp: ReferenceWritableKeyPath<CALayer, CGRect>) -> LayerKey { typed(kp, Coerce.rect) }
    static func transform(_ kp: ReferenceWritableKeyPath<CALayer, CATransform3D>) -> LayerKey { typed(kp, Coerce.transform) }
    static func color(_ kp: ReferenceWritableKeyPath<CALayer, CGColor?>) -> LayerKey { typed(kp, Coerce.color) }
    /// An optional object property: nil/NSNull clear it; otherwise the value must be a `T`.
    static func optional<T>(_ kp: ReferenceWritableKeyPath<CALayer, T?>) -> LayerKey { typed(kp, Coerce.object) }
    /// A string-backed constant (gravity, filter…): accepts the typed value or its raw String.
    static func raw<T: RawRepresentable & SendableMetatype>(_ kp: ReferenceWritableKeyPath<CALayer, T>) -> LayerKey where T.RawValue == String {
        typed(kp, Coerce.raw)
    }
    /// An option set stored as an unsigned integer.
    static func options<T: OptionSet & SendableMetatype>(_ kp: ReferenceWritableKeyPath<CALayer, T>) -> LayerKey where T.RawValue: FixedWidthInteger {
        typed(kp) { v in
            if let t = v as? T { return t }
            guard let d = Coerce.double(v), d >= 0, d <= Double(T.RawValue.max) else { return nil }
            return T(rawValue: T.RawValue(d))
        }
    }
}

extension CALayer {
    /// Every built-in key, under Apple's KVC names (and the Swift `is…` spellings of Booleans):
    /// the declared properties (CALayer+Properties.swift) and the keys that are not stored values.
    nonisolated(unsafe) static let builtInKeys: [String: LayerKey] = {   // immutable after init; `Any` values keep it from being Sendable
        var k = Dictionary(uniqueKeysWithValues: Properties.all.map { ($0.key, $0) })
        k["frame"] = .rect(\.frame)
        k["mask"] = LayerKey(get: { $0.mask }, set: { l, v in   // nil when there is none (not an optional holding nil)
            guard let m = Coerce.object(v) as CALayer?? else { return false }
            l.mask = m
            return true
        })
        k["sublayers"] = LayerKey(get: { $0.sublayers }, set: { l, v in
            if v == nil || v is NSNull { l.sublayers = nil; return true }
            guard let a = v as? [CALayer] else { return false }
            l.sublayers = a
            return true
        })
        k["superlayer"] = LayerKey(get: { $0.superlayer }, set: { _, _ in false })
        for (swiftName, kvcName) in [("isGeometryFlipped", "geometryFlipped"), ("isOpaque", "opaque"), ("isHidden", "hidden"),
                                     ("isDoubleSided", "doubleSided")] {
            k[swiftName] = k[kvcName]
        }
        return k
    }()
}
