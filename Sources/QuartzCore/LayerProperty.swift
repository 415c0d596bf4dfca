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
    /// The value where it lives (converted, when the engine keeps another form).
    let read: (L) -> Value
    /// Stores a value where it lives.
    let write: (L, Value) -> Void
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

    /// A property stored as it is given, at `stored`.
    init(_ key: String, _ stored: ReferenceWritableKeyPath<L, Value>, _ accessor: ReferenceWritableKeyPath<L, Value>,
         _ coerce: @escaping (Any?) -> Value?, animatable: Bool = false, accepts: @escaping (Value) -> Bool = { _ in true },
         adjust: @escaping (Value) -> Value = { $0 }, didStore: ((L, Value) -> Void)? = nil) {
        self.init(key, read: { $0[keyPath: stored] }, write: { $0[keyPath: stored] = $1 }, accessor, coerce,
                  animatable: animatable, accepts: accepts, adjust: adjust, didStore: didStore)
    }

    /// A property stored in another form: `read` and `write` convert.
    init(_ key: String, read: @escaping (L) -> Value, write: @escaping (L, Value) -> Void, _ accessor: ReferenceWritableKeyPath<L, Value>,
         _ coerce: @escaping (Any?) -> Value?, animatable: Bool = false, accepts: @escaping (Value) -> Bool = { _ in true },
         adjust: @escaping (Value) -> Value = { $0 }, didStore: ((L, Value) -> Void)? = nil) {
        self.key = key; self.read = read; self.write = write; self.accessor = accessor; self.coerce = coerce
        self.animatable = animatable; self.accepts = accepts; self.adjust = adjust; self.didStore = didStore
    }

    /// The setter idiom (under the caller's lock).
    func store(_ value: Value, in layer: L) {
        guard accepts(value) else { return layer.rejectNonFinite() }
        let old = read(layer)
        write(layer, adjust(value))
        didStore?(layer, old)
        layer.didChange(key)
    }

    /// A string constant (fill rule, mode…) the engine keeps as its raw string.
    init(_ key: String, raw stored: ReferenceWritableKeyPath<L, String>, _ accessor: ReferenceWritableKeyPath<L, Value>)
    where Value: StringConstant {
        self.init(key, read: { Value(rawValue: $0[keyPath: stored]) }, write: { $0[keyPath: stored] = $1.rawValue }, accessor,
                  Coerce.raw)
    }

    /// A `Float` the engine keeps as a `Double`; non-finite values are refused.
    init(_ key: String, double stored: ReferenceWritableKeyPath<L, Double>, _ accessor: ReferenceWritableKeyPath<L, Float>,
         animatable: Bool) where Value == Float {
        self.init(key, read: { Float($0[keyPath: stored]) }, write: { $0[keyPath: stored] = Double($1) }, accessor, Coerce.float,
                  animatable: animatable, accepts: { $0.isFinite })
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

/// Apple's string constants (`CAShapeLayerLineCap`, `CAEmitterLayerEmitterMode`…): any raw
/// string makes one, as on Apple systems (an unknown one draws as the default).
protocol StringConstant: RawRepresentable, SendableMetatype where RawValue == String {
    init(rawValue: String)
}

extension CAShapeLayerFillRule: StringConstant {}
extension CAShapeLayerLineCap: StringConstant {}
extension CAShapeLayerLineJoin: StringConstant {}
extension CATextLayerTruncationMode: StringConstant {}
extension CATextLayerAlignmentMode: StringConstant {}
extension CAGradientLayerType: StringConstant {}
extension CAEmitterLayerEmitterShape: StringConstant {}
extension CAEmitterLayerEmitterMode: StringConstant {}
extension CAEmitterLayerRenderMode: StringConstant {}

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
        get { locked { property.read(unsafeDowncast(self, to: L.self)) } }
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
