import CoreGraphics
import Foundation

/// One interpolatable value of an animatable property, in a form the engine can blend.
///
/// Every animatable layer property has exactly one representation here: numbers (CGFloat,
/// Float, Double) as `.number`, geometry as `.point/.size/.rect`, transforms as `.transform`,
/// colours as straight sRGB `.color` (nil colour = `.none`), paths as `.path`, and arrays
/// (gradient colours and locations) as `.array`. Values that cannot be blended (images, flags,
/// strings) are `.discrete` and switch at the end of an interpolation.
package enum AnimatableValue: Equatable, Sendable {
    case number(Double)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    case transform(Transform3D)
    case color(r: Double, g: Double, b: Double, a: Double)
    case path([PathOp])
    case array([AnimatableValue])
    case discrete(Discrete)
    case none

    /// An opaque, comparable wrapper for values that are not interpolated.
    package struct Discrete: Equatable, @unchecked Sendable {   // wraps immutable values (images, flags, strings) for comparison
        package let value: Any
        package let id: AnyHashable?
        package init(_ value: Any) {
            self.value = value
            self.id = value as? AnyHashable
        }
        package static func == (a: Discrete, b: Discrete) -> Bool {
            if let x = a.id, let y = b.id { return x == y }
            return (a.value as AnyObject) === (b.value as AnyObject)
        }
    }

    /// The value `f` of the way from `self` to `to`; f may leave [0, 1] (overshooting curves, springs).
    package func interpolated(to other: AnimatableValue, _ f: Double) -> AnimatableValue {
        let k = CGFloat(f)
        switch (self, other) {
        case let (.number(a), .number(b)): return .number(a + (b - a) * f)
        case let (.point(a), .point(b)): return .point(CGPoint(x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k))
        case let (.size(a), .size(b)):
            return .size(CGSize(width: a.width + (b.width - a.width) * k, height: a.height + (b.height - a.height) * k))
        case let (.rect(a), .rect(b)):
            return .rect(CGRect(x: a.minX + (b.minX - a.minX) * k, y: a.minY + (b.minY - a.minY) * k,
                                width: a.size.width + (b.size.width - a.size.width) * k,
                                height: a.size.height + (b.size.height - a.size.height) * k))
        case let (.transform(a), .transform(b)): return .transform(a.interpolated(to: b, k))
        case let (.color(r1, g1, b1, a1), .color(r2, g2, b2, a2)):
            return .color(r: r1 + (r2 - r1) * f, g: g1 + (g2 - g1) * f, b: b1 + (b2 - b1) * f, a: a1 + (a2 - a1) * f)
        case (.none, .color(let r, let g, let b, _)): return AnimatableValue.color(r: r, g: g, b: b, a: 0).interpolated(to: other, f)
        case (.color(let r, let g, let b, _), .none): return interpolated(to: .color(r: r, g: g, b: b, a: 0), f)
        case let (.path(a), .path(b)) where PathOps.compatible(a, b): return .path(PathOps.interpolate(a, b, k))
        case let (.array(a), .array(b)) where a.count == b.count:
            return .array(zip(a, b).map { $0.interpolated(to: $1, f) })
        default:
            return f < 1 ? self : other
        }
    }

    /// `self + other` (additive and `byValue` animations); transforms concatenate (other first).
    package func adding(_ other: AnimatableValue) -> AnimatableValue {
        switch (self, other) {
        case let (.number(a), .number(b)): return .number(a + b)
        case let (.point(a), .point(b)): return .point(CGPoint(x: a.x + b.x, y: a.y + b.y))
        case let (.size(a), .size(b)): return .size(CGSize(width: a.width + b.width, height: a.height + b.height))
        case let (.rect(a), .rect(b)):
            return .rect(CGRect(x: a.minX + b.minX, y: a.minY + b.minY, width: a.size.width + b.size.width,
                                height: a.size.height + b.size.height))
        case let (.transform(a), .transform(b)): return .transform(b.concatenating(a))
        case let (.color(r1, g1, b1, a1), .color(r2, g2, b2, a2)): return .color(r: r1 + r2, g: g1 + g2, b: b1 + b2, a: a1 + a2)
        case let (.array(a), .array(b)) where a.count == b.count: return .array(zip(a, b).map { $0.adding($1) })
        default: return other == .none ? self : other
        }
    }

    /// `self − other`, the inverse of `adding` (`other.adding(self.subtracting(other)) == self`).
    package func subtracting(_ other: AnimatableValue) -> AnimatableValue {
        switch (self, other) {
        case let (.number(a), .number(b)): return .number(a - b)
        case let (.point(a), .point(b)): return .point(CGPoint(x: a.x - b.x, y: a.y - b.y))
        case let (.size(a), .size(b)): return .size(CGSize(width: a.width - b.width, height: a.height - b.height))
        case let (.rect(a), .rect(b)):
            return .rect(CGRect(x: a.minX - b.minX, y: a.minY - b.minY, width: a.size.width - b.size.width,
                                height: a.size.height - b.size.height))
        case let (.transform(a), .transform(b)):
            return .transform((b.inverse ?? .identity).concatenating(a))
        case let (.color(r1, g1, b1, a1), .color(r2, g2, b2, a2)): return .color(r: r1 - r2, g: g1 - g2, b: b1 - b2, a: a1 - a2)
        case let (.array(a), .array(b)) where a.count == b.count: return .array(zip(a, b).map { $0.subtracting($1) })
        default: return self
        }
    }

    /// `self` added to itself `n` times (cumulative repetitions); n is capped at 10,000.
    package func repeated(_ n: Int) -> AnimatableValue {
        let count = min(max(n, 0), 10_000)
        switch self {
        case .number(let a): return .number(a * Double(count))
        case .point(let p): return .point(CGPoint(x: p.x * CGFloat(count), y: p.y * CGFloat(count)))
        case .size(let s): return .size(CGSize(width: s.width * CGFloat(count), height: s.height * CGFloat(count)))
        default:
            var acc: AnimatableValue? = nil
            for _ in 0..<count { acc = acc.map { $0.adding(self) } ?? self }
            return acc ?? self.subtracting(self)
        }
    }

    /// A distance between two values, for paced keyframes (Euclidean over the components).
    package func distance(to other: AnimatableValue) -> Double {
        switch (self, other) {
        case let (.number(a), .number(b)): return abs(b - a)
        case let (.point(a), .point(b)): return Double(hypot(b.x - a.x, b.y - a.y))
        case let (.size(a), .size(b)): return Double(hypot(b.width - a.width, b.height - a.height))
        case let (.rect(a), .rect(b)):
            let d = [a.minX - b.minX, a.minY - b.minY, a.size.width - b.size.width, a.size.height - b.size.height]
            return Double(d.map { $0 * $0 }.reduce(0, +).squareRoot())
        case let (.color(r1, g1, b1, a1), .color(r2, g2, b2, a2)):
            return ((r2 - r1) * (r2 - r1) + (g2 - g1) * (g2 - g1) + (b2 - b1) * (b2 - b1) + (a2 - a1) * (a2 - a1)).squareRoot()
        case let (.transform(a), .transform(b)):
            return zip(a.entries, b.entries).map { Double(($0 - $1) * ($0 - $1)) }.reduce(0, +).squareRoot()
        default: return self == other ? 0 : 1
        }
    }

    /// The value's numeric components (for cubic keyframes); nil for non-numeric kinds.
    package var components: [Double]? {
        switch self {
        case .number(let a): return [a]
        case .point(let p): return [Double(p.x), Double(p.y)]
        case .size(let s): return [Double(s.width), Double(s.height)]
        case .rect(let r): return [Double(r.minX), Double(r.minY), Double(r.size.width), Double(r.size.height)]
        case let .color(r, g, b, a): return [r, g, b, a]
        default: return nil
        }
    }

    /// A value of the same kind with `components` replaced.
    package func with(components c: [Double]) -> AnimatableValue {
        switch self {
        case .number: return .number(c[0])
        case .point: return .point(CGPoint(x: c[0], y: c[1]))
        case .size: return .size(CGSize(width: c[0], height: c[1]))
        case .rect: return .rect(CGRect(x: c[0], y: c[1], width: c[2], height: c[3]))
        case .color: return .color(r: c[0], g: c[1], b: c[2], a: c[3])
        default: return self
        }
    }
}

/// Element-wise path interpolation: paths blend when their element kinds match one for one.
package enum PathOps {
    package static func compatible(_ a: [PathOp], _ b: [PathOp]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) {
            switch (x, y) {
            case (.move, .move), (.line, .line), (.quad, .quad), (.cubic, .cubic), (.close, .close): continue
            default: return false
            }
        }
        return true
    }

    package static func interpolate(_ a: [PathOp], _ b: [PathOp], _ k: CGFloat) -> [PathOp] {
        func mix(_ p: CGPoint, _ q: CGPoint) -> CGPoint { CGPoint(x: p.x + (q.x - p.x) * k, y: p.y + (q.y - p.y) * k) }
        return zip(a, b).map { x, y in
            switch (x, y) {
            case let (.move(p), .move(q)): return .move(mix(p, q))
            case let (.line(p), .line(q)): return .line(mix(p, q))
            case let (.quad(c, p), .quad(d, q)): return .quad(mix(c, d), mix(p, q))
            case let (.cubic(c1, c2, p), .cubic(d1, d2, q)): return .cubic(mix(c1, d1), mix(c2, d2), mix(p, q))
            default: return .close
            }
        }
    }
}

extension AnimatableValue {
    /// The value as an image, when it is one (a layer's `contents`).
    package var image: CGImage? {
        if case .discrete(let d) = self { return d.value as? CGImage }
        return nil
    }
}
