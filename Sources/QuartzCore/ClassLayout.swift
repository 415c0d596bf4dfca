import CGSupport
import Foundation

// What Swift on Linux lacks for app-defined layer subclasses, and how this file supplies it.
//
// On Apple systems a subclass's `@objc`/`@NSManaged` properties are reached by name through the
// Objective-C runtime (key-value coding, actions, animations), and Core Animation makes its
// presentation copies by calling the subclass's `init(layer:)`. Swift on Linux has neither: a
// stored property has no setter hook, and a non-required initialiser cannot be called through a
// metatype. The Swift runtime does publish every class's stored properties (name, byte offset,
// type, whether the reference is strong) for reflection; this file reads that table once per
// class and uses it to read and write a property by name, and to copy an instance field by field
// (each field copied through its own type, so references are retained as Swift would).
//
// The reflection entry points below are the ones the standard library's own `_forEachField` uses
// (allocation and weak copies go through CGSupport's C wrappers);
// the class metadata layout read here (instance size and alignment) is the one of platforms
// without Objective-C interoperability. When anything read does not add up, `clone` returns nil
// and the caller falls back to what a framework class can do.

private typealias NameFree = @convention(c) (UnsafePointer<CChar>?) -> Void

/// The runtime's description of one stored field (layout of the standard library's `_FieldReflectionMetadata`).
private struct FieldReflectionMetadata {
    var name: UnsafePointer<CChar>? = nil
    var freeFunc: NameFree? = nil
    var isStrong = false
    var isVar = false
}

@_silgen_name("swift_reflectionMirror_recursiveCount")
private func _fieldCount(_: Any.Type) -> Int
@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func _fieldMetadata(_: Any.Type, index: Int, fieldMetadata: UnsafeMutablePointer<FieldReflectionMetadata>) -> Any.Type
@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func _fieldOffset(_: Any.Type, index: Int) -> Int

/// One stored property of a class (its superclasses' included).
struct StoredField: @unchecked Sendable {   // Any.Type values are immutable metadata pointers
    /// The property's name as declared.
    let name: String
    /// Byte offset from the start of the object.
    let offset: Int
    /// The declared type (for `weak var x: T?`, `T?`).
    let type: Any.Type
    /// False for `weak` and `unowned` references, whose storage is not the declared type's.
    let isStrong: Bool
    /// False for `let`.
    let isVar: Bool
}

/// The stored fields of one class, read once from the runtime.
struct ClassLayout: @unchecked Sendable {   // Any.Type values are immutable metadata pointers
    /// Every stored field, superclasses' first, in declaration order.
    let fields: [StoredField]
    /// Bytes to allocate for an instance, and the alignment mask (from the class metadata).
    let instanceSize: Int
    let alignMask: Int

    init(of cls: AnyClass) {
        var list: [StoredField] = []
        for i in 0..<_fieldCount(cls) {
            var meta = FieldReflectionMetadata()
            let type = _fieldMetadata(cls, index: i, fieldMetadata: &meta)
            let name = meta.name.map { String(cString: $0) } ?? ""
            meta.freeFunc?(meta.name)
            list.append(StoredField(name: name, offset: _fieldOffset(cls, index: i), type: type,
                                    isStrong: meta.isStrong, isVar: meta.isVar))
        }
        fields = list
        let metadata = unsafeBitCast(cls, to: UnsafeRawPointer.self)
        instanceSize = Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
        alignMask = Int(metadata.load(fromByteOffset: 28, as: UInt16.self))
    }

    /// True when the metadata read agrees with the fields (every field ends inside the instance).
    var isConsistent: Bool {
        let end = fields.map { $0.offset + size(of: $0.type) }.max() ?? 16
        return instanceSize >= end && instanceSize <= 1 << 20 && alignMask < 4096 && (alignMask + 1) & alignMask == 0
    }

    /// A new instance of `object`'s class whose fields are copies of `object`'s (references
    /// retained, weak references copied as weak), except those `skipWeak` names, which are nil.
    /// No initialiser runs. Nil when the layout is not consistent.
    func clone<T: AnyObject>(_ object: T, leavingNil skipWeak: Set<String> = []) -> T? {
        guard isConsistent else { return nil }
        let metadata = unsafeBitCast(type(of: object) as AnyClass, to: UnsafeRawPointer.self)
        guard let raw = cgs_alloc_object(metadata, instanceSize, alignMask) else { return nil }
        // Zero first: a nil weak reference is all zero bits.
        let header = 2 * MemoryLayout<Int>.size
        (raw + header).initializeMemory(as: UInt8.self, repeating: 0, count: instanceSize - header)
        let source = Unmanaged.passUnretained(object).toOpaque()
        for f in fields {
            let to = raw + f.offset, from = source + f.offset
            if f.isStrong {
                func copy<V>(_: V.Type) { to.assumingMemoryBound(to: V.self).initialize(to: from.assumingMemoryBound(to: V.self).pointee) }
                _openExistential(f.type, do: copy)
            } else if !skipWeak.contains(f.name) {
                // weak: the reference (first word) through the runtime, any witness table after it as bits.
                cgs_weak_copy_init(to, from)
                let extra = size(of: f.type) - MemoryLayout<Int>.size
                if extra > 0 { (to + MemoryLayout<Int>.size).copyMemory(from: from + MemoryLayout<Int>.size, byteCount: extra) }
            }
        }
        return Unmanaged<T>.fromOpaque(raw).takeRetainedValue()
    }

    /// The value of a strong field of `object`; nil for an optional field holding nil.
    static func read(_ field: StoredField, of object: AnyObject) -> Any? {
        let p = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()) + field.offset
        func load<V>(_: V.Type) -> Any { p.assumingMemoryBound(to: V.self).pointee }
        return unwrapped(_openExistential(field.type, do: load))
    }

    /// `value` without its optional wrappers (an `Any` holding `T?.none` is nil).
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.flatMap { unwrapped($0.value) }
    }

    /// Stores `value` into a strong `var` field of `object` when it has the field's type (nil
    /// for an optional field); returns false, leaving the field, otherwise.
    static func write(_ value: Any?, to field: StoredField, of object: AnyObject) -> Bool {
        guard field.isStrong, field.isVar else { return false }
        let p = Unmanaged.passUnretained(object).toOpaque() + field.offset
        func store<V>(_: V.Type) -> Bool {
            let typed: V
            if let value, let v = value as? V {
                typed = v
            } else if value == nil, let nilable = V.self as? any ExpressibleByNilLiteral.Type,
                      let none = nilable.init(nilLiteral: ()) as? V {
                typed = none
            } else {
                return false
            }
            p.assumingMemoryBound(to: V.self).pointee = typed
            return true
        }
        return _openExistential(field.type, do: store)
    }
}

private func size(of type: Any.Type) -> Int {
    func measure<V>(_: V.Type) -> Int { MemoryLayout<V>.size }
    return _openExistential(type, do: measure)
}
