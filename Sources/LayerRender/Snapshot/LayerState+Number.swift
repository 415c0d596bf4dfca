import CoreGraphics
import Foundation

// One number of a layer state named by a key path ("opacity", "position.x",
// "bounds.size.width", "transform.rotation.z"), resolved once when an animation is committed.
// A frame then reads and writes that number directly: no `AnimatableValue` boxed and copied on
// the way, no sub-key matched as a string. Reads and writes are the ones the key path's general
// route (`animatableValue(at:)`, `setAnimatableValue(_:at:)`) makes — the same conversions and,
// for transform sub-keys, the same decomposition and recomposition — so both give the same bits.
extension LayerState {
    /// A number inside a layer state, by the key path that names it.
    package enum NumberSlot: Equatable, Sendable {
        /// A field that is a number (`opacity`, `cornerRadius`, `zPosition`…).
        case number(Field)
        /// `x` (false) or `y` (true) of a point field (`position`, `anchorPoint`).
        case point(Field, y: Bool)
        /// `width` (false) or `height` (true) of a size field (`shadowOffset`).
        case size(Field, height: Bool)
        /// A rect field's `origin.x` (0), `origin.y` (1), `size.width` (2) or `size.height` (3).
        case rect(Field, part: Int)
        /// A transform field's rotation about x (0), y (1) or z (2), radians.
        case rotation(Field, axis: Int)
        /// A transform field's scale along x (0), y (1), z (2), or all three (nil: their mean when read).
        case scale(Field, axis: Int?)
        /// A transform field's translation along x (0), y (1) or z (2), points.
        case translation(Field, axis: Int)

        /// The slot `keyPath` names (its first component already resolved to `field`), or nil
        /// when the path does not end on a number of the state.
        package init?(keyPath: [String], field: Field?) {
            guard let field else { return nil }
            let rest = keyPath.dropFirst()
            func axis(_ key: String?) -> Int? { ["x": 0, "y": 1, "z": 2][key ?? ""] }
            switch field {
            case .zPosition, .anchorPointZ, .contentsScale, .minificationFilterBias, .opacity, .cornerRadius, .borderWidth,
                 .shadowOpacity, .shadowRadius, .rasterizationScale:
                guard rest.isEmpty else { return nil }
                self = .number(field)
            case .position, .anchorPoint:
                guard rest.count == 1, let a = axis(rest.first), a < 2 else { return nil }
                self = .point(field, y: a == 1)
            case .shadowOffset:
                guard rest.count == 1, rest.first == "width" || rest.first == "height" else { return nil }
                self = .size(field, height: rest.first == "height")
            case .bounds, .contentsRect, .contentsCenter:
                guard rest.count == 2 else { return nil }
                switch (rest.first!, rest.last!) {
                case ("origin", "x"): self = .rect(field, part: 0)
                case ("origin", "y"): self = .rect(field, part: 1)
                case ("size", "width"): self = .rect(field, part: 2)
                case ("size", "height"): self = .rect(field, part: 3)
                default: return nil
                }
            case .transform, .sublayerTransform:
                guard let key = rest.first, rest.count <= 2 else { return nil }
                let sub = rest.dropFirst().first
                if sub != nil && axis(sub) == nil { return nil }
                switch key {
                case "rotation": self = .rotation(field, axis: axis(sub) ?? 2)
                case "scale": self = .scale(field, axis: axis(sub))
                case "translation":
                    guard let a = axis(sub) else { return nil }   // without an axis: a size, not a number
                    self = .translation(field, axis: a)
                default: return nil
                }
            default:
                return nil
            }
        }
    }

    /// The number in `slot`, as `animatableValue(at:)` reads it.
    package func number(at slot: NumberSlot) -> Double {
        switch slot {
        case .number(let f):
            switch f {
            case .zPosition: return Double(zPosition)
            case .anchorPointZ: return Double(anchorPointZ)
            case .contentsScale: return Double(contentsScale)
            case .minificationFilterBias: return minificationFilterBias
            case .opacity: return opacity
            case .cornerRadius: return Double(cornerRadius)
            case .borderWidth: return Double(borderWidth)
            case .shadowOpacity: return shadowOpacity
            case .shadowRadius: return Double(shadowRadius)
            default: return Double(rasterizationScale)
            }
        case let .point(f, y):
            let p = f == .position ? position : anchorPoint
            return Double(y ? p.y : p.x)
        case .size(_, let height):
            return Double(height ? shadowOffset.height : shadowOffset.width)
        case let .rect(f, part):
            let r = rect(f)
            switch part {
            case 0: return Double(r.origin.x)
            case 1: return Double(r.origin.y)
            case 2: return Double(r.size.width)
            default: return Double(r.size.height)
            }
        case let .rotation(f, axis):
            return Double(LayerState.component(TransformComponents(f == .transform ? transform : sublayerTransform).rotation, axis))
        case let .scale(f, axis):
            let d = TransformComponents(f == .transform ? transform : sublayerTransform)
            guard let axis else { return Double((d.scale.x + d.scale.y + d.scale.z) / 3) }
            return Double(LayerState.component(d.scale, axis))
        case let .translation(f, axis):
            let t = f == .transform ? transform : sublayerTransform
            return Double(LayerState.component((t.m41, t.m42, t.m43), axis))
        }
    }

    /// Writes `value` into `slot`, as `setAnimatableValue(.number(value), at:)` does.
    package mutating func setNumber(_ value: Double, at slot: NumberSlot) {
        let v = CGFloat(value)
        switch slot {
        case .number(let f):
            switch f {
            case .zPosition: zPosition = v
            case .anchorPointZ: anchorPointZ = v
            case .contentsScale: contentsScale = v
            case .minificationFilterBias: minificationFilterBias = Double(v)
            case .opacity: opacity = Double(v)
            case .cornerRadius: cornerRadius = v
            case .borderWidth: borderWidth = v
            case .shadowOpacity: shadowOpacity = Double(v)
            case .shadowRadius: shadowRadius = v
            default: rasterizationScale = v
            }
        case let .point(f, y):
            if f == .position {
                if y { position.y = v } else { position.x = v }
            } else {
                if y { anchorPoint.y = v } else { anchorPoint.x = v }
            }
        case .size(_, let height):
            if height { shadowOffset.height = v } else { shadowOffset.width = v }
        case let .rect(f, part):
            var r = rect(f)
            switch part {
            case 0: r.origin.x = v
            case 1: r.origin.y = v
            case 2: r.size.width = v
            default: r.size.height = v
            }
            switch f {
            case .bounds: bounds = r
            case .contentsRect: contentsRect = r
            default: contentsCenter = r
            }
        case let .rotation(f, axis):
            recompose(f) { LayerState.set(&$0.rotation, axis, v) }
        case let .scale(f, axis):
            recompose(f) { d in
                if let axis { LayerState.set(&d.scale, axis, v) } else { d.scale = (v, v, v) }
            }
        case let .translation(f, axis):
            recompose(f) { LayerState.set(&$0.translation, axis, v) }
        }
    }

    /// Component `axis` (0: x, 1: y, else z) of `t`.
    private static func component(_ t: (x: CGFloat, y: CGFloat, z: CGFloat), _ axis: Int) -> CGFloat {
        axis == 0 ? t.x : axis == 1 ? t.y : t.z
    }

    /// Sets component `axis` (0: x, 1: y, else z) of `t` to `v`.
    private static func set(_ t: inout (x: CGFloat, y: CGFloat, z: CGFloat), _ axis: Int, _ v: CGFloat) {
        switch axis {
        case 0: t.x = v
        case 1: t.y = v
        default: t.z = v
        }
    }

    private func rect(_ f: Field) -> CGRect {
        switch f {
        case .bounds: return bounds
        case .contentsRect: return contentsRect
        default: return contentsCenter
        }
    }

    /// The transform field `f` split into components, changed by `change`, and put together again.
    private mutating func recompose(_ f: Field, _ change: (inout TransformComponents) -> Void) {
        var d = TransformComponents(f == .transform ? transform : sublayerTransform)
        change(&d)
        if f == .transform { transform = d.transform } else { sublayerTransform = d.transform }
    }
}
