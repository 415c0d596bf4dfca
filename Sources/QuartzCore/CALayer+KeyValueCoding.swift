import CoreGraphics
import Foundation

// Key-value coding for Linux (corelibs NSObject has none): built-in keys through the
// `builtInKeys` table, Apple's structure sub-keys (`position.x`, `bounds.size.width`,
// `transform.rotation.z`, …), and arbitrary custom keys stored per layer.
extension CALayer {
    func builtInValue(forKey key: String) -> Any? {
        if let k = CALayer.builtInKeys[key] { return k.get(self) }
        return customValues[key] ?? type(of: self).defaultValue(forKey: key)
    }

    func setBuiltInValue(_ value: Any?, forKey key: String) {
        if let k = CALayer.builtInKeys[key] {
            if !k.set(self, value) { CGDiagnostics.record(.invalidKeyValue) }
            return
        }
        if value == nil || value is NSNull { customValues[key] = nil } else { customValues[key] = value }
        didChange(key)
    }

    func valueAtPath(_ keyPath: String) -> Any? {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first else { return nil }
        var value = value(forKey: first)
        var i = 1
        while i < parts.count {
            if let layer = value as? CALayer {
                return layer.value(forKeyPath: parts[i...].joined(separator: "."))
            }
            guard let (v, used) = StructKeys.get(value, parts[i...]) else { return nil }
            value = v
            i += used
        }
        return value
    }

    func setValueAtPath(_ value: Any?, _ keyPath: String) {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first else { return }
        if parts.count == 1 { setValue(value, forKey: first); return }
        let base = self.value(forKey: first)
        if let layer = base as? CALayer {
            layer.setValue(value, forKeyPath: parts.dropFirst().joined(separator: "."))
            return
        }
        guard let updated = StructKeys.set(base, parts.dropFirst(), to: value) else {
            CGDiagnostics.record(.invalidKeyValue)
            return
        }
        setValue(updated, forKey: first)
    }
}

/// Apple's key-value extensions for CGPoint, CGSize, CGRect and CATransform3D values.
enum StructKeys {
    /// Reads sub-keys from the front of `path`; returns the value and how many components were used.
    static func get(_ value: Any?, _ path: ArraySlice<String>) -> (Any?, Int)? {
        guard let key = path.first else { return nil }
        switch value {
        case let p as CGPoint:
            switch key { case "x": return (p.x, 1); case "y": return (p.y, 1); default: return nil }
        case let s as CGSize:
            switch key { case "width": return (s.width, 1); case "height": return (s.height, 1); default: return nil }
        case let r as CGRect:
            switch key { case "origin": return (r.origin, 1); case "size": return (r.size, 1); default: return nil }
        case let t as CATransform3D:
            let d = TransformComponents(t)
            let sub = path.dropFirst().first
            switch (key, sub) {
            case ("rotation", "x"): return (d.rotation.x, 2)
            case ("rotation", "y"): return (d.rotation.y, 2)
            case ("rotation", "z"): return (d.rotation.z, 2)
            case ("rotation", _): return (d.rotation.z, 1)
            case ("scale", "x"): return (d.scale.x, 2)
            case ("scale", "y"): return (d.scale.y, 2)
            case ("scale", "z"): return (d.scale.z, 2)
            case ("scale", _): return ((d.scale.x + d.scale.y + d.scale.z) / 3, 1)
            case ("translation", "x"): return (t.m41, 2)
            case ("translation", "y"): return (t.m42, 2)
            case ("translation", "z"): return (t.m43, 2)
            case ("translation", _): return (CGSize(width: t.m41, height: t.m42), 1)
            default: return nil
            }
        default:
            if let dict = value as? [String: Any] { return (dict[key], 1) }
            return nil
        }
    }

    /// `value` with the sub-key `path` replaced by `newValue`; nil when the path or type does not fit.
    static func set(_ value: Any?, _ path: ArraySlice<String>, to newValue: Any?) -> Any? {
        guard let key = path.first else { return newValue }
        let rest = path.dropFirst()
        switch value {
        case var p as CGPoint:
            guard rest.isEmpty, let v = Coerce.cgFloat(newValue) else { return nil }
            switch key { case "x": p.x = v; case "y": p.y = v; default: return nil }
            return p
        case var s as CGSize:
            guard rest.isEmpty, let v = Coerce.cgFloat(newValue) else { return nil }
            switch key { case "width": s.width = v; case "height": s.height = v; default: return nil }
            return s
        case var r as CGRect:
            switch key {
            case "origin":
                guard let o = set(r.origin, rest, to: newValue) as? CGPoint else { return nil }
                r.origin = o
            case "size":
                guard let s = set(r.size, rest, to: newValue) as? CGSize else { return nil }
                r.size = s
            default: return nil
            }
            return r
        case let t as CATransform3D:
            var d = TransformComponents(t)
            if key == "translation" && rest.isEmpty, let s = Coerce.size(newValue) {
                d.translation.x = s.width; d.translation.y = s.height
                return d.transform
            }
            guard let v = Coerce.cgFloat(newValue) else { return nil }
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
            return d.transform
        default:
            return nil
        }
    }
}
