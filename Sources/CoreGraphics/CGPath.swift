import Foundation

/// The kind of a path element.
public enum CGPathElementType: Int32, Sendable {
    /// Starts a subpath at one point.
    case moveToPoint = 0
    /// A line to one point.
    case addLineToPoint = 1
    /// A quadratic Bézier: control point, end point.
    case addQuadCurveToPoint = 2
    /// A cubic Bézier: two control points, end point.
    case addCurveToPoint = 3
    /// Closes the current subpath (no points).
    case closeSubpath = 4
}

/// One element of a path as handed to `applyWithBlock`; `points` holds 0–3 points.
public struct CGPathElement {
    /// The element kind.
    public var type: CGPathElementType
    /// The element's points (valid only during the callback).
    public var points: UnsafeMutablePointer<CGPoint>
}

/// The rule deciding which points a path encloses.
public enum CGPathFillRule: Int, Sendable {
    /// Non-zero winding number.
    case winding = 0
    /// Odd crossing count.
    case evenOdd = 1
}

/// How the ends of open subpaths are drawn when stroking.
public enum CGLineCap: Int32, Sendable { case butt = 0, round = 1, square = 2 }
/// How segments meet when stroking.
public enum CGLineJoin: Int32, Sendable { case miter = 0, round = 1, bevel = 2 }

/// A stored path element (points in the path's own coordinate space).
@usableFromInline
package enum PathOp: Equatable, Sendable {
    case move(CGPoint)
    case line(CGPoint)
    case quad(CGPoint, CGPoint)
    case cubic(CGPoint, CGPoint, CGPoint)
    case close
}

/// An immutable graphics path: a sequence of subpaths made of lines and Bézier curves.
///
/// Coordinates are whatever space the path was built in (user space of the code that
/// built it); a path knows nothing of pixels. Non-finite points passed to the builders
/// are ignored (counted as `.nonFiniteGeometry`).
open class CGPath: Equatable, Hashable, @unchecked Sendable, CustomStringConvertible {   // builders mutate only CGMutablePath, used from one thread as Apple's; caches are locked
    /// The elements, in order (package-visible for interpolation and rasterisation). Unchecked
    /// for exclusive access: only the path's own builders write it, and renderers read it for
    /// every shape of every frame, where the runtime's bookkeeping was a measurable cost.
    @exclusivity(unchecked) package internal(set) var ops: [PathOp] = [] { didSet { version &+= 1 } }
    /// Bumped by every change of `ops`: what a cache of the path's flattening is checked against.
    private(set) var version = 0
    /// The flattening `contains(_:using:transform:)` tests against, kept until the path changes
    /// (hit tests ask the same path for many points). Locked: paths are shared across threads.
    let containsCache = Locked<(version: Int, polylines: [Polyline])?>(nil)
    /// Start of the current subpath, where `closeSubpath` returns to.
    var subpathStart: CGPoint = .zero
    var current: CGPoint? = nil

    init() {}

    /// A path made of `ops` (package-internal: used to build interpolated paths).
    package static func make(_ ops: [PathOp]) -> CGPath {
        let p = CGPath()
        p.ops = ops
        if case .move(let q)? = ops.first { p.subpathStart = q }
        p.current = ops.last.map { op -> CGPoint in
            switch op {
            case .move(let q), .line(let q), .quad(_, let q), .cubic(_, _, let q): return q
            case .close: return p.subpathStart
            }
        }
        return p
    }

    init(copying other: CGPath) {
        ops = other.ops
        subpathStart = other.subpathStart
        current = other.current
    }

    /// Creates a rectangle path (a closed subpath of four lines), optionally transformed.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init()
        appendRect(rect, transform?.pointee ?? .identity)
    }

    /// Creates an ellipse path inscribed in `rect`, optionally transformed.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init()
        appendEllipse(rect, transform?.pointee ?? .identity)
    }

    /// Creates a rounded-rectangle path; corner sizes are clamped to half the rect.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: UnsafePointer<CGAffineTransform>?) {
        self.init()
        appendRoundedRect(rect, cornerWidth, cornerHeight, transform?.pointee ?? .identity)
    }

    /// An immutable copy.
    public func copy() -> CGPath? { CGPath(copying: self) }

    /// An immutable copy with every point mapped by `transform`.
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        let p = CGPath(copying: self)
        if let t = transform?.pointee { p.transformInPlace(t) }
        return p
    }

    /// A mutable copy.
    public func mutableCopy() -> CGMutablePath? {
        let m = CGMutablePath()
        m.ops = ops; m.subpathStart = subpathStart; m.current = current
        return m
    }

    /// A mutable copy with every point mapped by `transform`.
    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        let m = mutableCopy()!
        if let t = transform?.pointee { m.transformInPlace(t) }
        return m
    }

    /// True when the path has no elements.
    public var isEmpty: Bool { ops.isEmpty }

    /// The end point of the last element (`.zero` for an empty path, as Apple).
    public var currentPoint: CGPoint { current ?? .zero }

    /// Calls `block` once per element, in order.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        var pts = [CGPoint](repeating: .zero, count: 3)
        pts.withUnsafeMutableBufferPointer { buf in
            let base = buf.baseAddress!
            for op in ops {
                var element: CGPathElement
                switch op {
                case .move(let p): base[0] = p; element = CGPathElement(type: .moveToPoint, points: base)
                case .line(let p): base[0] = p; element = CGPathElement(type: .addLineToPoint, points: base)
                case .quad(let c, let p):
                    base[0] = c; base[1] = p; element = CGPathElement(type: .addQuadCurveToPoint, points: base)
                case .cubic(let c1, let c2, let p):
                    base[0] = c1; base[1] = c2; base[2] = p
                    element = CGPathElement(type: .addCurveToPoint, points: base)
                case .close: element = CGPathElement(type: .closeSubpath, points: base)
                }
                withUnsafePointer(to: &element) { block($0) }
            }
        }
    }

    /// The smallest rect holding every point of the path, control points included; `.null` when empty.
    public var boundingBox: CGRect {
        var b = Bounds()
        for op in ops {
            switch op {
            case .move(let p), .line(let p): b.add(p)
            case .quad(let c, let p): b.add(c); b.add(p)
            case .cubic(let c1, let c2, let p): b.add(c1); b.add(c2); b.add(p)
            case .close: break
            }
        }
        return b.rect
    }

    /// The smallest rect holding the path's curves themselves (control points excluded); `.null` when empty.
    public var boundingBoxOfPath: CGRect {
        var b = Bounds()
        var last = CGPoint.zero
        for op in ops {
            switch op {
            case .move(let p), .line(let p): b.add(p); last = p
            case .quad(let c, let p):
                b.add(p)
                for t in Bezier.quadExtrema(last, c, p) { b.add(Bezier.quad(last, c, p, t)) }
                last = p
            case .cubic(let c1, let c2, let p):
                b.add(p)
                for t in Bezier.cubicExtrema(last, c1, c2, p) { b.add(Bezier.cubic(last, c1, c2, p, t)) }
                last = p
            case .close: break
            }
        }
        return b.rect
    }

    /// True when the path is exactly one closed axis-aligned rectangle; `rect` receives it.
    public func isRect(_ rect: UnsafeMutablePointer<CGRect>?) -> Bool {
        var pts: [CGPoint] = []
        for (i, op) in ops.enumerated() {
            switch op {
            case .move(let p) where i == 0: pts.append(p)
            case .line(let p) where i > 0: pts.append(p)
            case .close where i == ops.count - 1: break
            default: return false
            }
        }
        if pts.count == 5, pts[4] == pts[0] { pts.removeLast() }
        guard pts.count == 4 else { return false }
        let horizontalFirst = pts[0].y == pts[1].y && pts[1].x == pts[2].x && pts[2].y == pts[3].y && pts[3].x == pts[0].x
        let verticalFirst = pts[0].x == pts[1].x && pts[1].y == pts[2].y && pts[2].x == pts[3].x && pts[3].y == pts[0].y
        guard horizontalFirst || verticalFirst else { return false }
        let r = CGRect(x: pts[0].x, y: pts[0].y, width: pts[2].x - pts[0].x, height: pts[2].y - pts[0].y).standardized
        rect?.pointee = r
        return true
    }

    /// Equality as Apple defines it for this type.
    public static func == (lhs: CGPath, rhs: CGPath) -> Bool { lhs === rhs || lhs.ops == rhs.ops }
    /// Hashes the values that equality compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(ops.count) }
    /// A readable description for logs and debugging.
    public var description: String { "CGPath(\(ops.count) elements, bounds \(boundingBox))" }

    func transformInPlace(_ t: CGAffineTransform) {
        guard !t.isIdentity else { return }
        ops = ops.map { op in
            switch op {
            case .move(let p): return .move(p.applying(t))
            case .line(let p): return .line(p.applying(t))
            case .quad(let c, let p): return .quad(c.applying(t), p.applying(t))
            case .cubic(let a, let b, let p): return .cubic(a.applying(t), b.applying(t), p.applying(t))
            case .close: return .close
            }
        }
        subpathStart = subpathStart.applying(t)
        current = current?.applying(t)
    }
}

/// Accumulates a bounding box; `.null` when nothing was added.
struct Bounds {
    var minX = CGFloat.infinity, minY = CGFloat.infinity
    var maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
    mutating func add(_ p: CGPoint) {
        minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
    }
    var rect: CGRect {
        minX > maxX ? .null : CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
