import Foundation

// The element builders shared by CGPath's convenience initialisers and CGMutablePath.
// All points are mapped by `t` before they are stored, as Core Graphics does.
extension CGPath {
    /// Quarter-circle Bézier handle length for a unit radius.
    static let kappa: CGFloat = 0.5522847498307936

    /// The most elements one path holds (about 110 MB): an element past it is refused, counted as
    /// `.budgetExceeded` (a path that keeps adding itself to itself would otherwise double forever).
    #if FUZZING
    public static let maxElements = 1 << 16   // fuzzing builds: inputs that reach it stay cheap to explore
    #else
    public static let maxElements = 1 << 21
    #endif

    /// Whether `n` more elements fit the budget; counts a refusal.
    func hasRoom(for n: Int = 1) -> Bool {
        if ops.count + n <= CGPath.maxElements { return true }
        CGDiagnostics.record(.budgetExceeded)
        return false
    }

    func appendMove(_ p: CGPoint, _ t: CGAffineTransform) {
        guard p.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return }
        let q = p.applying(t)
        // Consecutive moves collapse into one, as in Core Graphics.
        if case .move = ops.last { ops[ops.count - 1] = .move(q) } else { guard hasRoom(for: 2) else { return }; ops.append(.move(q)) }
        subpathStart = q
        current = q
    }

    /// Ensures there is a current point before a segment; Core Graphics ignores segments without one.
    func requireCurrentPoint() -> Bool {
        if current == nil { CGDiagnostics.record(.invalidDrawingState); return false }
        guard hasRoom(for: 2) else { return false }
        if case .close = ops.last { ops.append(.move(current!)); subpathStart = current! }
        return true
    }

    func appendLine(_ p: CGPoint, _ t: CGAffineTransform) {
        guard p.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return }
        guard requireCurrentPoint() else { return }
        let q = p.applying(t)
        ops.append(.line(q)); current = q
    }

    func appendQuad(_ c: CGPoint, _ p: CGPoint, _ t: CGAffineTransform) {
        guard c.isFinite, p.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return }
        guard requireCurrentPoint() else { return }
        let q = p.applying(t)
        ops.append(.quad(c.applying(t), q)); current = q
    }

    func appendCubic(_ c1: CGPoint, _ c2: CGPoint, _ p: CGPoint, _ t: CGAffineTransform) {
        guard c1.isFinite, c2.isFinite, p.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return }
        guard requireCurrentPoint() else { return }
        let q = p.applying(t)
        ops.append(.cubic(c1.applying(t), c2.applying(t), q)); current = q
    }

    func appendClose() {
        guard current != nil else { return }
        if case .close = ops.last { return }
        guard hasRoom() else { return }
        ops.append(.close)
        current = subpathStart
    }

    func appendRect(_ rect: CGRect, _ t: CGAffineTransform) {
        guard rect.isFiniteRect else { CGDiagnostics.record(.nonFiniteGeometry); return }
        appendMove(CGPoint(x: rect.minX, y: rect.minY), t)
        appendLine(CGPoint(x: rect.maxX, y: rect.minY), t)
        appendLine(CGPoint(x: rect.maxX, y: rect.maxY), t)
        appendLine(CGPoint(x: rect.minX, y: rect.maxY), t)
        appendClose()
    }

    /// Four cubic quarter-arcs from (maxX, midY) toward increasing y (Core Graphics' order).
    func appendEllipse(_ rect: CGRect, _ t: CGAffineTransform) {
        guard rect.isFiniteRect else { CGDiagnostics.record(.nonFiniteGeometry); return }
        CGPath.ellipse(rect) { op in
            switch op {
            case .move(let p): appendMove(p, t)
            case .cubic(let a, let b, let p): appendCubic(a, b, p, t)
            default: appendClose()
            }
        }
    }

    /// The elements of an ellipse in `rect`: a move, four cubics (from +x towards +y) and a close.
    @usableFromInline
    static func ellipse(_ rect: CGRect, _ emit: (PathOp) -> Void) {
        let r = rect.standardized
        let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2
        let kx = rx * CGPath.kappa, ky = ry * CGPath.kappa
        emit(.move(CGPoint(x: cx + rx, y: cy)))
        emit(.cubic(CGPoint(x: cx + rx, y: cy + ky), CGPoint(x: cx + kx, y: cy + ry), CGPoint(x: cx, y: cy + ry)))
        emit(.cubic(CGPoint(x: cx - kx, y: cy + ry), CGPoint(x: cx - rx, y: cy + ky), CGPoint(x: cx - rx, y: cy)))
        emit(.cubic(CGPoint(x: cx - rx, y: cy - ky), CGPoint(x: cx - kx, y: cy - ry), CGPoint(x: cx, y: cy - ry)))
        emit(.cubic(CGPoint(x: cx + kx, y: cy - ry), CGPoint(x: cx + rx, y: cy - ky), CGPoint(x: cx + rx, y: cy)))
        emit(.close)
    }

    /// A rounded rect; corner sizes are clamped to [0, half the side] (Apple asserts instead).
    func appendRoundedRect(_ rect: CGRect, _ cw: CGFloat, _ ch: CGFloat, _ t: CGAffineTransform) {
        guard rect.isFiniteRect, cw.isFinite, ch.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return }
        let r = rect.standardized
        let w = min(max(cw, 0), r.width / 2), h = min(max(ch, 0), r.height / 2)
        if w == 0 || h == 0 { appendRect(r, t); return }
        let kw = w * CGPath.kappa, kh = h * CGPath.kappa
        appendMove(CGPoint(x: r.minX + w, y: r.minY), t)
        appendLine(CGPoint(x: r.maxX - w, y: r.minY), t)
        appendCubic(CGPoint(x: r.maxX - w + kw, y: r.minY), CGPoint(x: r.maxX, y: r.minY + h - kh),
                    CGPoint(x: r.maxX, y: r.minY + h), t)
        appendLine(CGPoint(x: r.maxX, y: r.maxY - h), t)
        appendCubic(CGPoint(x: r.maxX, y: r.maxY - h + kh), CGPoint(x: r.maxX - w + kw, y: r.maxY),
                    CGPoint(x: r.maxX - w, y: r.maxY), t)
        appendLine(CGPoint(x: r.minX + w, y: r.maxY), t)
        appendCubic(CGPoint(x: r.minX + w - kw, y: r.maxY), CGPoint(x: r.minX, y: r.maxY - h + kh),
                    CGPoint(x: r.minX, y: r.maxY - h), t)
        appendLine(CGPoint(x: r.minX, y: r.minY + h), t)
        appendCubic(CGPoint(x: r.minX, y: r.minY + h - kh), CGPoint(x: r.minX + w - kw, y: r.minY),
                    CGPoint(x: r.minX + w, y: r.minY), t)
        appendClose()
    }

    /// A circular arc of `delta` radians from `start`, as cubic segments of at most 90°.
    /// Connects from the current point with a line, or starts a subpath when there is none.
    func appendArc(center: CGPoint, radius: CGFloat, start: CGFloat, delta: CGFloat, _ t: CGAffineTransform) {
        guard center.isFinite, radius.isFinite, start.isFinite, delta.isFinite else {
            CGDiagnostics.record(.nonFiniteGeometry); return
        }
        let r = abs(radius)
        let p0 = CGPoint(x: center.x + r * cos(start), y: center.y + r * sin(start))
        if current == nil { appendMove(p0, t) } else { appendLine(p0, t) }
        if delta == 0 || r == 0 { return }
        // A sweep of more than a turn is drawn as one turn plus the remainder: the same pixels and
        // the same end point, in a bounded number of segments.
        var sweep = delta
        let turn = 2 * CGFloat.pi
        if abs(sweep) > 2 * turn { sweep = (turn + abs(sweep).truncatingRemainder(dividingBy: turn)) * (sweep < 0 ? -1 : 1) }
        let segments = CGClampToInt(Double(abs(sweep) / (.pi / 2)).rounded(.up), in: 1...8)
        let step = sweep / CGFloat(segments)
        let k = 4.0 / 3.0 * tan(step / 4) * r
        var a = start
        for _ in 0..<segments {
            let b = a + step
            let pa = CGPoint(x: center.x + r * cos(a), y: center.y + r * sin(a))
            let pb = CGPoint(x: center.x + r * cos(b), y: center.y + r * sin(b))
            let c1 = CGPoint(x: pa.x - k * sin(a), y: pa.y + k * cos(a))
            let c2 = CGPoint(x: pb.x + k * sin(b), y: pb.y - k * cos(b))
            appendCubic(c1, c2, pb, t)
            a = b
        }
    }

    /// The sweep from `start` to `end`: `clockwise` means decreasing angle (clockwise in y-up space).
    /// Sweeps are reduced to at most one full turn, keeping the end point at `end`.
    static func arcSweep(start: CGFloat, end: CGFloat, clockwise: Bool) -> CGFloat {
        if end == start { return 0 }
        let full = 2 * CGFloat.pi
        var d = (end - start).truncatingRemainder(dividingBy: full)
        if clockwise {
            if d >= 0 { d -= full }
        } else {
            if d <= 0 { d += full }
        }
        return d
    }

    /// Apple's arc-to-tangents: a line toward the first tangent point, then the arc joining the two tangents.
    func appendArcTangents(_ p1: CGPoint, _ p2: CGPoint, radius: CGFloat, _ t: CGAffineTransform) {
        guard p1.isFinite, p2.isFinite, radius.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return }
        guard let cur = current else { appendMove(p1, t); return }
        // Tangent geometry is solved in the path's (already transformed) space only when t is the
        // identity; otherwise in the input space, mapping the inverse of the stored current point.
        let p0 = t.isIdentity ? cur : cur.applying(t.inverted())
        let v1 = CGPoint(x: p0.x - p1.x, y: p0.y - p1.y), v2 = CGPoint(x: p2.x - p1.x, y: p2.y - p1.y)
        let l1 = hypot(v1.x, v1.y), l2 = hypot(v2.x, v2.y)
        let cross = v1.x * v2.y - v1.y * v2.x
        guard l1 > 0, l2 > 0, abs(cross) > 1e-12 * l1 * l2, radius > 0 else { appendLine(p1, t); return }
        let u1 = CGPoint(x: v1.x / l1, y: v1.y / l1), u2 = CGPoint(x: v2.x / l2, y: v2.y / l2)
        let cosTheta = max(-1, min(1, u1.x * u2.x + u1.y * u2.y))
        let half = acos(cosTheta) / 2
        let dist = radius / tan(half)
        let t1 = CGPoint(x: p1.x + u1.x * dist, y: p1.y + u1.y * dist)
        let t2 = CGPoint(x: p1.x + u2.x * dist, y: p1.y + u2.y * dist)
        let bis = CGPoint(x: u1.x + u2.x, y: u1.y + u2.y)
        let bl = hypot(bis.x, bis.y)
        let cd = radius / sin(half)
        let c = CGPoint(x: p1.x + bis.x / bl * cd, y: p1.y + bis.y / bl * cd)
        let a0 = atan2(t1.y - c.y, t1.x - c.x), a1 = atan2(t2.y - c.y, t2.x - c.x)
        var d = a1 - a0
        while d > .pi { d -= 2 * .pi }
        while d < -.pi { d += 2 * .pi }
        appendLine(t1, t)
        appendArc(center: c, radius: radius, start: a0, delta: d, t)
    }
}
