import CoreGraphics
import Foundation
import LayerRender

/// Converts between the Swift values of the public API (`Any` in key-value coding and animation
/// values) and the render engine's `AnimatableValue`.
enum ValueBridge {
    /// The engine value for a Swift value; numbers of every type become `.number`.
    static func animatable(_ v: Any?) -> AnimatableValue? {
        guard let v else { return AnimatableValue.none }
        if v is NSNull { return AnimatableValue.none }
        // An NSNumber of 0 or 1 also casts to Bool on Linux: take it as the number it is.
        if type(of: v) != Bool.self, let n = v as? NSNumber { return .number(n.doubleValue) }
        if let d = Coerce.double(v), !(v is Bool) { return .number(d) }
        // Apple code boxes structures: NSValue(cgPoint:), NSValue(caTransform3D:)…
        if let boxed = v as? NSValue, let inner = boxed.structure { return animatable(inner) }
        switch v {
        case let p as CGPoint: return .point(p)
        case let s as CGSize: return .size(s)
        case let r as CGRect: return .rect(r)
        case let t as CATransform3D: return .transform(t.engine)
        case let a as CGAffineTransform: return .transform(CATransform3DMakeAffineTransform(a).engine)
        case let c as CGColor:
            let x = c.rgba
            return .color(r: Double(x.r), g: Double(x.g), b: Double(x.b), a: Double(x.a))
        case let p as CGPath: return .path(p.ops)
        case let a as [Any]: return .array(a.map { animatable($0) ?? .discrete(.init($0)) })
        case let a as NSArray: return .array(a.map { animatable($0) ?? .discrete(.init($0)) })
        default: return .discrete(.init(v))
        }
    }

    /// The engine value when `v` is a structure with sub-keys (point, size, rect, transform).
    static func structValue(_ v: Any?) -> AnimatableValue? {
        if let boxed = v as? NSValue, let inner = boxed.structure { return structValue(inner) }
        switch v {
        case let p as CGPoint: return .point(p)
        case let s as CGSize: return .size(s)
        case let r as CGRect: return .rect(r)
        case let t as CATransform3D: return .transform(t.engine)
        default: return nil
        }
    }

    /// The Swift value for an engine value, typed like `template` when given (a Float property
    /// stays Float); numbers default to CGFloat, as Apple's structure fields are.
    static func swiftValue(_ v: AnimatableValue, like template: Any?) -> Any? {
        switch v {
        case .number(let d):
            switch template {
            case is Float: return Float(d)
            case is Double: return d
            case is Int: return Int(CGClampToInt(d))
            case is Bool: return d != 0
            default: return CGFloat(d)
            }
        case .point(let p): return p
        case .size(let s): return s
        case .rect(let r): return r
        case .transform(let t): return CATransform3D(t)
        case let .color(r, g, b, a):
            func unit(_ x: Double) -> CGFloat { CGFloat(min(max(x, 0), 1)) }
            return CGColor(red: unit(r), green: unit(g), blue: unit(b), alpha: unit(a))
        case .path(let ops): return CGPath.make(ops)
        case .array(let items):
            let templates = template as? [Any]
            return items.enumerated().map { i, item in
                swiftValue(item, like: templates.flatMap { i < $0.count ? $0[i] : nil }) as Any
            }
        case .discrete(let d): return d.value
        case .none: return nil
        }
    }
}
