import CoreGraphics
import Foundation

/// One built-in property of a layer class `L`, declared once: Apple's key-value coding name,
/// where the value is stored, which values the setter refuses, how key-value coding converts a
/// value to it, and whether a change runs an implicit animation.
///
/// Everything that handles properties by key reads this declaration: the public property's
/// getter and setter (`layer[property]`), `value(forKey:)`/`setValue(_:forKey:)` (through
/// `erased`), and the implicit-action test. The setter idiom is the same for every property:
/// under the layer tree lock, refuse (and count) a value `accepts` rejects, store it, run
/// `didStore`, and report the change (`didChange(_:)`: needsDisplay, snapshot, action).
struct LayerProperty<L: CALayer, Value>: @unchecked Sendable {   // immutable: key paths and pure closures
    /// Apple's key-value coding name (`"opacity"`, `"geometryFlipped"`).
    let key: String
    /// Where the value lives.
    let stored: ReferenceWritableKeyPath<L, Value>
    /// The public property: key-value coding sets through it, so a subclass's override runs.
    let accessor: ReferenceWritableKeyPath<L, Value>
    /// The value `setValue(_:forKey:)` stores for what it was given (nil: refused).
    let coerce: (Any?) -> Value?
    /// Whether a change on a hosted layer runs Core Animation's implicit animation.
    let animatable: Bool
    /// Whether the setter takes the value (refusals are counted as non-finite geometry).
    let accepts: (Value) -> Bool
    /// The value as stored (e.g. an unknown gravity read back as `center`).
    let adjust: (Value) -> Value
    /// Work after the store, given the previous value (caches derived from the value).
    let didStore: ((L, Value) -> Void)?

    init(_ key: String, _ stored: ReferenceWritableKeyPath<L, Value>, _ accessor: ReferenceWritableKeyPath<L, Value>,
         _ coerce: @escaping (Any?) -> Value?, animatable: Bool = false, accepts: @escaping (Value) -> Bool = { _ in true },
         adjust: @escaping (Value) -> Value = { $0 }, didStore: ((L, Value) -> Void)? = nil) {
        self.key = key; self.stored = stored; self.accessor = accessor; self.coerce = coerce
        self.animatable = animatable; self.accepts = accepts; self.adjust = adjust; self.didStore = didStore
    }

    /// The setter idiom (under the caller's lock).
    func store(_ value: Value, in layer: L) {
        guard accepts(value) else { return layer.rejectNonFinite() }
        let old = layer[keyPath: stored]
        layer[keyPath: stored] = adjust(value)
        didStore?(layer, old)
        layer.didChange(key)
    }

    /// The property as key-value coding and the action search see it.
    var erased: LayerKey {
        LayerKey(get: { l in (l as? L).flatMap { unwrapped($0[keyPath: accessor]) } }, set: { l, v in
            guard let l = l as? L, let value = coerce(v) else { return false }
            l[keyPath: accessor] = value
            return true
        }, key: key, animatable: animatable)
    }
}

/// Value rules shared by many declarations.
enum Accepts {
    static func finite(_ v: CGFloat) -> Bool { v.isFinite }
    static func finite(_ v: CGPoint) -> Bool { v.isFinite }
    static func finite(_ v: CGSize) -> Bool { v.isFinite }
    static func finite(_ v: CGRect) -> Bool { v.isFiniteRect }
    static func finite(_ v: CATransform3D) -> Bool { v.isFinite }
    static func positive(_ v: CGFloat) -> Bool { v.isFinite && v > 0 }
    static func number(_ v: Float) -> Bool { !v.isNaN }
    static func number(_ v: Double) -> Bool { !v.isNaN }
}

extension CALayer {
    /// A declared property's value, read under the layer tree lock.
    subscript<L: CALayer, Value>(property: LayerProperty<L, Value>) -> Value {
        get { locked { unsafeDowncast(self, to: L.self)[keyPath: property.stored] } }
        set { locked { property.store(newValue, in: unsafeDowncast(self, to: L.self)) } }
    }
}

/// An optional value seen through `Any`: lets `unwrapped` tell `.some(nil)` from a value.
private protocol OptionalValue { var wrappedValue: Any? { get } }
extension Optional: OptionalValue {
    fileprivate var wrappedValue: Any? { self.map { $0 } }
}

/// `value` with nested optionals removed: a nil property reads back as nil, as Apple's
/// `value(forKey:)` returns it (not as an optional holding nil).
func unwrapped(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let o = value as? any OptionalValue { return unwrapped(o.wrappedValue) }
    return value
}
