import Foundation

/// A path that can be built element by element. Every builder takes an optional
/// `transform` applied to its points before they are stored.
open class CGMutablePath: CGPath, @unchecked Sendable {   // like Apple's: build a mutable path on one thread, share it once built
    /// Creates an empty path.
    public override init() { super.init() }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) { appendMove(point, transform) }

    /// Adds a line from the current point to `point` (ignored without a current point).
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) { appendLine(point, transform) }

    /// Adds a quadratic Bézier curve to `end`.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        appendQuad(control, end, transform)
    }

    /// Adds a cubic Bézier curve to `end`.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint,
                         transform: CGAffineTransform = .identity) {
        appendCubic(control1, control2, end, transform)
    }

    /// Closes the current subpath with a line back to its start.
    public func closeSubpath() { appendClose() }

    /// Adds a closed rectangle subpath.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) { appendRect(rect, transform) }

    /// Adds one closed subpath per rectangle.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for r in rects { appendRect(r, transform) }
    }

    /// Adds an open polyline through `points` (a move to the first, lines to the rest).
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        appendMove(first, transform)
        for p in points.dropFirst() { appendLine(p, transform) }
    }

    /// Adds a closed ellipse inscribed in `rect`.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        appendEllipse(rect, transform)
    }

    /// Adds a closed rounded rectangle; corner sizes are clamped to half the rect.
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                               transform: CGAffineTransform = .identity) {
        appendRoundedRect(rect, cornerWidth, cornerHeight, transform)
    }

    /// Adds a circular arc from `startAngle` to `endAngle` (radians, from +x toward +y);
    /// `clockwise` means decreasing angle (clockwise in y-up space, counter-clockwise on a y-down screen).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                       clockwise: Bool, transform: CGAffineTransform = .identity) {
        guard startAngle.isFinite, endAngle.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return }
        let sweep = CGPath.arcSweep(start: startAngle, end: endAngle, clockwise: clockwise)
        appendArc(center: center, radius: radius, start: startAngle, delta: sweep, transform)
    }

    /// Adds an arc of `delta` radians starting at `startAngle`.
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
                               transform: CGAffineTransform = .identity) {
        appendArc(center: center, radius: radius, start: startAngle, delta: delta, transform)
    }

    /// Adds an arc tangent to the lines current point → `tangent1End` and `tangent1End` → `tangent2End`.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat,
                       transform: CGAffineTransform = .identity) {
        appendArcTangents(tangent1End, tangent2End, radius: radius, transform)
    }

    /// Appends every element of `path`, mapped by `transform`.
    /// A path that would pass `CGPath.maxElements` is refused whole (counted).
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        guard hasRoom(for: path.ops.count) else { return }
        for op in path.ops {
            switch op {
            case .move(let p): appendMove(p, transform)
            case .line(let p): appendLine(p, transform)
            case .quad(let c, let p): appendQuad(c, p, transform)
            case .cubic(let a, let b, let p): appendCubic(a, b, p, transform)
            case .close: appendClose()
            }
        }
    }
}
