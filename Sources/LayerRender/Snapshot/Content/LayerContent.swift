import CoreGraphics
import Foundation

/// The properties a CALayer subclass adds: what a content layer (CAShapeLayer, CATextLayer,
/// CAGradientLayer) draws above the background and below the sublayers, or how a
/// CAReplicatorLayer repeats its sublayers.
///
/// Part of the committed state, so animations of these properties are applied by the engine
/// (the picture is redrawn from the presentation values at each frame).
package enum LayerContent: Equatable, Sendable {
    case shape(ShapeContent)
    case text(TextContent)
    case gradient(GradientContent)
    case replicator(ReplicatorContent)
    /// A CATransformLayer: no picture, sublayers kept in 3D.
    case transformLayer
    case emitter(EmitterContent)
    case tiled(TiledContent)

    /// Which case it is, without its payload.
    package enum Kind: Sendable { case shape, text, gradient, replicator, transformLayer, emitter, tiled }

    /// Which case it is.
    package var kind: Kind {
        switch self {
        case .shape: return .shape
        case .text: return .text
        case .gradient: return .gradient
        case .replicator: return .replicator
        case .transformLayer: return .transformLayer
        case .emitter: return .emitter
        case .tiled: return .tiled
        }
    }

    /// The engine value of an animatable content property; nil for keys this content lacks.
    func value(forKey key: String) -> AnimatableValue? {
        switch self {
        case .shape(let c): return c.value(forKey: key)
        case .text(let c): return c.value(forKey: key)
        case .gradient(let c): return c.value(forKey: key)
        case .replicator(let c): return c.value(forKey: key)
        case .transformLayer: return nil
        case .emitter(let c): return c.value(forKey: key)
        case .tiled: return nil
        }
    }

    /// Sets an animatable content property; false when this content has no such key.
    mutating func set(_ key: String, _ v: AnimatableValue) -> Bool {
        switch self {
        case .shape(var c): defer { self = .shape(c) }; return c.set(key, v)
        case .text(var c): defer { self = .text(c) }; return c.set(key, v)
        case .gradient(var c): defer { self = .gradient(c) }; return c.set(key, v)
        case .replicator(var c): defer { self = .replicator(c) }; return c.set(key, v)
        case .transformLayer: return false
        case .emitter(var c): defer { self = .emitter(c) }; return c.set(key, v)
        case .tiled: return false
        }
    }
}

/// Reading and writing engine values of typed fields (shared by the content structs).
enum ContentValue {
    static func number(_ v: AnimatableValue) -> CGFloat? {
        if case .number(let d) = v, d.isFinite { return CGFloat(d) }
        return nil
    }

    static func point(_ v: AnimatableValue) -> CGPoint? {
        if case .point(let p) = v, p.x.isFinite, p.y.isFinite { return p }
        return nil
    }

    /// Sets an optional colour from `.color` or `.none`; false for other values.
    static func setColor(_ c: inout CGColor?, _ v: AnimatableValue) -> Bool {
        guard let color = LayerState.cgColor(v) else { return false }
        c = color
        return true
    }
}
