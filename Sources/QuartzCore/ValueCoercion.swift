import CoreGraphics
import Foundation

/// Converts values handed to key-value coding into a property's real Swift type.
///
/// Linux has no Objective-C bridging: `NSNumber as? CGFloat` and `Double as? CGFloat` are nil,
/// so numbers are converted explicitly. A value that cannot be converted yields nil and the
/// caller ignores the assignment (counted as `.invalidKeyValue`).
enum Coerce {
    static func double(_ v: Any?) -> Double? {
        switch v {
        case let x as CGFloat: return Double(x)
        case let x as Double: return x
        case let x as Float: return Double(x)
        case let x as Int: return Double(x)
        case let x as Int32: return Double(x)
        case let x as UInt32: return Double(x)
        case let x as UInt: return Double(x)
        case let x as Bool: return x ? 1 : 0
        case let x as NSNumber: return x.doubleValue
        default: return nil
        }
    }

    static func cgFloat(_ v: Any?) -> CGFloat? { double(v).map { CGFloat($0) } }
    static func float(_ v: Any?) -> Float? { double(v).map { Float($0) } }

    static func bool(_ v: Any?) -> Bool? {
        if let b = v as? Bool { return b }
        return double(v).map { $0 != 0 }
    }

    /// The structure inside an NSValue (Apple code boxes them), else the value itself.
    static func unboxed(_ v: Any?) -> Any? { (v as? NSValue)?.structure ?? v }

    static func point(_ v: Any?) -> CGPoint? {
        let v = unboxed(v)
        if let p = v as? CGPoint { return p }
        if let s = v as? CGSize { return CGPoint(x: s.width, y: s.height) }
        return nil
    }

    static func size(_ v: Any?) -> CGSize? {
        let v = unboxed(v)
        if let s = v as? CGSize { return s }
        if let p = v as? CGPoint { return CGSize(width: p.x, height: p.y) }
        return nil
    }

    static func rect(_ v: Any?) -> CGRect? { unboxed(v) as? CGRect }

    static func transform(_ v: Any?) -> CATransform3D? {
        let v = unboxed(v)
        if let t = v as? CATransform3D { return t }
        if let a = v as? CGAffineTransform { return CATransform3DMakeAffineTransform(a) }
        return nil
    }

    /// A colour, or nil for "no colour" (`.some(nil)`); `.none` when the value is not a colour.
    static func color(_ v: Any?) -> CGColor?? {
        if v == nil || v is NSNull { return .some(nil) }
        if let c = v as? CGColor { return .some(c) }
        return .none
    }

    /// A string-backed constant from its typed value or its raw String.
    static func raw<T: RawRepresentable>(_ v: Any?) -> T? where T.RawValue == String {
        if let t = v as? T { return t }
        return (v as? String).flatMap { T(rawValue: $0) }
    }

    /// An option set from itself or its raw value as a number.
    static func options<T: OptionSet>(_ v: Any?) -> T? where T.RawValue: FixedWidthInteger {
        if let t = v as? T { return t }
        guard let d = double(v), d >= 0, d <= Double(T.RawValue.max) else { return nil }
        return T(rawValue: T.RawValue(d))
    }

    /// An optional object: `.some(nil)` for nil/NSNull, `.some(t)` for a `T`, `.none` otherwise.
    static func object<T>(_ v: Any?) -> T?? {
        if v == nil || v is NSNull { return .some(nil) }
        if let t = v as? T { return .some(t) }
        return .none
    }

    /// An optional array of numbers (NSNumber or any Swift number); `.none` when an element is not a number.
    static func numbers(_ v: Any?) -> [NSNumber]?? {
        if v == nil || v is NSNull { return .some(nil) }
        if let n = v as? [NSNumber] { return .some(n) }
        guard let a = v as? [Any] else { return .none }
        var out: [NSNumber] = []
        for x in a {
            guard let d = double(x) else { return .none }
            out.append(NSNumber(value: d))
        }
        return .some(out)
    }
}

/// Equality of key-value values of any type (used to compare defaults).
func valuesEqual(_ a: Any?, _ b: Any?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case let (x as AnyHashable, y as AnyHashable): return x == y
    default: return false
    }
}
