import CoreGraphics
import Foundation

/// How key-value coding reads and writes one built-in layer property.
///
/// `set` returns false when the value cannot be converted to the property's type.
/// Setters go through the layer's public properties, so subclass overrides and validation apply.
struct LayerKey {
    let get: (CALayer) -> Any?
    let set: (CALayer, Any?) -> Bool

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
    /// Every built-in key, under Apple's KVC names (and the Swift `is…` spellings of Booleans).
    nonisolated(unsafe) static let builtInKeys: [String: LayerKey] = {   // immutable after init; `Any` values keep it from being Sendable
        var k: [String: LayerKey] = [
            "bounds": .rect(\.bounds), "position": .point(\.position), "zPosition": .cgFloat(\.zPosition),
            "anchorPoint": .point(\.anchorPoint), "anchorPointZ": .cgFloat(\.anchorPointZ),
            "transform": .transform(\.transform), "sublayerTransform": .transform(\.sublayerTransform),
            "frame": .rect(\.frame), "geometryFlipped": .bool(\.isGeometryFlipped),
            "contents": .optional(\.contents), "contentsRect": .rect(\.contentsRect),
            "contentsCenter": .rect(\.contentsCenter), "contentsGravity": .raw(\.contentsGravity),
            "contentsScale": .cgFloat(\.contentsScale), "contentsFormat": .raw(\.contentsFormat),
            "minificationFilter": .raw(\.minificationFilter), "minificationFilterBias": .float(\.minificationFilterBias),
            "magnificationFilter": .raw(\.magnificationFilter), "opaque": .bool(\.isOpaque),
            "opacity": .float(\.opacity), "hidden": .bool(\.isHidden), "masksToBounds": .bool(\.masksToBounds),
            "doubleSided": .bool(\.isDoubleSided), "cornerRadius": .cgFloat(\.cornerRadius),
            "maskedCorners": .options(\.maskedCorners), "cornerCurve": .raw(\.cornerCurve),
            "borderWidth": .cgFloat(\.borderWidth), "borderColor": .color(\.borderColor),
            "backgroundColor": .color(\.backgroundColor), "shadowOpacity": .float(\.shadowOpacity),
            "shadowRadius": .cgFloat(\.shadowRadius), "shadowOffset": .size(\.shadowOffset),
            "shadowColor": .color(\.shadowColor), "shadowPath": .optional(\.shadowPath),
            "allowsGroupOpacity": .bool(\.allowsGroupOpacity), "allowsEdgeAntialiasing": .bool(\.allowsEdgeAntialiasing),
            "edgeAntialiasingMask": .options(\.edgeAntialiasingMask), "shouldRasterize": .bool(\.shouldRasterize),
            "rasterizationScale": .cgFloat(\.rasterizationScale), "filters": .optional(\.filters),
            "compositingFilter": .optional(\.compositingFilter), "backgroundFilters": .optional(\.backgroundFilters),
            "style": .optional(\.style), "name": .optional(\.name), "actions": .optional(\.actions),
            "needsDisplayOnBoundsChange": .bool(\.needsDisplayOnBoundsChange),
            "drawsAsynchronously": .bool(\.drawsAsynchronously),
            "beginTime": .double(\.beginTime), "duration": .double(\.duration), "speed": .float(\.speed),
            "timeOffset": .double(\.timeOffset), "repeatCount": .float(\.repeatCount),
            "repeatDuration": .double(\.repeatDuration), "autoreverses": .bool(\.autoreverses),
            "fillMode": .raw(\.fillMode), "mask": .optional(\.mask),
        ]
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
