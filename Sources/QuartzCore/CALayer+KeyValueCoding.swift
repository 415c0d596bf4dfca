import CoreGraphics
import Foundation
import LayerRender

// Key-value coding for Linux (corelibs NSObject has none): built-in keys through the
// class's `keyTable`, Apple's structure sub-keys (`position.x`, `bounds.size.width`,
// `transform.rotation.z`, …), and arbitrary custom keys stored per layer.
extension CALayer {
    func builtInValue(forKey key: String) -> Any? {
        if let k = type(of: self).keyTable[key] { return k.get(self) }
        if let property = customProperty(forKey: key) { return property }
        return customValues[key] ?? type(of: self).defaultValue(forKey: key)
    }

    func setBuiltInValue(_ value: Any?, forKey key: String) {
        if let k = type(of: self).keyTable[key] {
            if !k.set(self, value) { CGDiagnostics.record(.invalidKeyValue) }
            return
        }
        if setCustomProperty(value, forKey: key) { return }
        if value == nil || value is NSNull { customValues[key] = nil } else { customValues[key] = value }
        didChange(key)
    }

    func valueAtPath(_ keyPath: String) -> Any? {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first else { return nil }
        if first == "emitterCells", parts.count >= 3, let emitter = self as? CAEmitterLayer,
           let top = emitter.emitterCells?.first(where: { $0.name == parts[1] }),
           let cell = top.cell(at: parts.dropFirst(2).dropLast()) {
            return cell.value(forKey: parts[parts.count - 1])
        }
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
        if first == "emitterCells", let emitter = self as? CAEmitterLayer {
            if !emitter.setCellValue(value, path: parts.dropFirst()) { CGDiagnostics.record(.invalidKeyValue) }
            return
        }
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

/// Apple's key-value extensions for CGPoint, CGSize, CGRect and CATransform3D values; the
/// sub-key logic itself lives in the render engine (`AnimatableValue+KeyPath`), shared with animation.
enum StructKeys {
    /// Reads sub-keys from the front of `path`; returns the value and how many components were used.
    static func get(_ value: Any?, _ path: ArraySlice<String>) -> (Any?, Int)? {
        if let dict = value as? [String: Any], let key = path.first { return (dict[key], 1) }
        guard let base = ValueBridge.structValue(value), let (v, used) = base.subValue(path) else { return nil }
        return (ValueBridge.swiftValue(v, like: nil), used)
    }

    /// `value` with the sub-key `path` replaced by `newValue`; nil when the path or type does not fit.
    static func set(_ value: Any?, _ path: ArraySlice<String>, to newValue: Any?) -> Any? {
        guard let base = ValueBridge.structValue(value), let replacement = ValueBridge.animatable(newValue),
              let updated = base.setting(path, to: replacement) else { return nil }
        return ValueBridge.swiftValue(updated, like: value)
    }
}
