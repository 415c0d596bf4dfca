import CoreGraphics
import Foundation

// Apple's structure sub-keys on values: CGPoint x/y, CGSize width/height, CGRect origin/size,
// CATransform3D rotation(.x/.y/.z), scale(.x/.y/.z) and translation(.x/.y/.z).
// Shared by key-value coding (QuartzCore) and animation evaluation (this engine).
extension AnimatableValue {
    /// The sub-value at the front of `path` and how many components it used; nil when it does not apply.
    package func subValue(_ path: ArraySlice<String>) -> (AnimatableValue, Int)? {
        guard let key = path.first else { return nil }
        switch self {
        case .point(let p):
            switch key { case "x": return (.number(Double(p.x)), 1); case "y": return (.number(Double(p.y)), 1); default: return nil }
        case .size(let s):
            switch key {
            case "width": return (.number(Double(s.width)), 1)
            case "height": return (.number(Double(s.height)), 1)
            default: return nil
            }
        case .rect(let r):
            switch key { case "origin": return (.point(r.origin), 1); case "size": return (.size(r.size), 1); default: return nil }
        case .transform(let t):
            let d = TransformComponents(t)
            let sub = path.dropFirst().first
            func n(_ v: CGFloat) -> AnimatableValue { .number(Double(v)) }
            switch (key, sub) {
            case ("rotation", "x"): return (n(d.rotation.x), 2)
            case ("rotation", "y"): return (n(d.rotation.y), 2)
            case ("rotation", "z"): return (n(d.rotation.z), 2)
            case ("rotation", _): return (n(d.rotation.z), 1)
            case ("scale", "x"): return (n(d.scale.x), 2)
            case ("scale", "y"): return (n(d.scale.y), 2)
            case ("scale", "z"): return (n(d.scale.z), 2)
            case ("scale", _): return (n((d.scale.x + d.scale.y + d.scale.z) / 3), 1)
            case ("translation", "x"): return (n(t.m41), 2)
            case ("translation", "y"): return (n(t.m42), 2)
            case ("translation", "z"): return (n(t.m43), 2)
            case ("translation", _): return (.size(CGSize(width: t.m41, height: t.m42)), 1)
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The value at a whole sub-key path (e.g. ["size", "width"]); nil when it does not apply.
    package func value(atSubPath path: ArraySlice<String>) -> AnimatableValue? {
        var value = self
        var rest = path
        while !rest.isEmpty {
            guard let (v, used) = value.subValue(rest) else { return nil }
            value = v
            rest = rest.dropFirst(used)
        }
        return value
    }

    /// `self` with the sub-key `path` replaced by `newValue`; nil when the path or type does not fit.
    package func setting(_ path: ArraySlice<String>, to newValue: AnimatableValue) -> AnimatableValue? {
        guard let key = path.first else { return newValue }
        let rest = path.dropFirst()
        func number() -> CGFloat? { if case .number(let v) = newValue { return CGFloat(v) } else { return nil } }
        switch self {
        case var .point(p):
            guard rest.isEmpty, let v = number() else { return nil }
            switch key { case "x": p.x = v; case "y": p.y = v; default: return nil }
            return .point(p)
        case var .size(s):
            guard rest.isEmpty, let v = number() else { return nil }
            switch key { case "width": s.width = v; case "height": s.height = v; default: return nil }
            return .size(s)
        case var .rect(r):
            switch key {
            case "origin":
                guard case .point(let o)? = AnimatableValue.point(r.origin).setting(rest, to: newValue) else { return nil }
                r.origin = o
            case "size":
                guard case .size(let s)? = AnimatableValue.size(r.size).setting(rest, to: newValue) else { return nil }
                r.size = s
            default: return nil
            }
            return .rect(r)
        case let .transform(t):
            var d = TransformComponents(t)
            if key == "translation" && rest.isEmpty, case .size(let s) = newValue {
                d.translation.x = s.width; d.translation.y = s.height
                return .transform(d.transform)
            }
            guard let v = number() else { return nil }
            switch (key, rest.first) {
            case ("rotation", "x"): d.rotation.x = v
            case ("rotation", "y"): d.rotation.y = v
            case ("rotation", "z"), ("rotation", nil): d.rotation.z = v
            case ("scale", "x"): d.scale.x = v
            case ("scale", "y"): d.scale.y = v
            case ("scale", "z"): d.scale.z = v
            case ("scale", nil): d.scale = (v, v, v)
            case ("translation", "x"): d.translation.x = v
            case ("translation", "y"): d.translation.y = v
            case ("translation", "z"): d.translation.z = v
            default: return nil
            }
            return .transform(d.transform)
        default:
            return nil
        }
    }
}
