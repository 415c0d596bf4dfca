import Foundation

// Cutting a path to a fraction of its length: what Core Animation's strokeStart/strokeEnd draw.
//
// Lengths are arc lengths measured on a fine flattening (0.01 units); pieces are cut in curve
// space (de Casteljau at the parameter that reaches the length), so a trimmed curve is still a
// curve and strokes as smoothly as the untrimmed one.
extension CGPath {
    /// The part of the path between fractions `start` and `end` of its total length (0…1, clamped).
    /// The whole path (start ≤ 0, end ≥ 1) is returned unchanged, closes included; a closed
    /// subpath kept whole stays closed. Empty when start ≥ end or the inputs are not finite.
    package func trimmed(from start: CGFloat, to end: CGFloat) -> CGPath {
        guard start.isFinite, end.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return CGPath() }
        let s = min(max(start, 0), 1), e = min(max(end, 0), 1)
        if s <= 0 && e >= 1 { return self }
        guard s < e else { return CGPath() }
        let segments = TrimSegment.segments(of: ops)
        let total = segments.reduce(0) { $0 + $1.length }
        guard total > 0 else { return CGPath() }
        let a = s * total, b = e * total
        var out: [PathOp] = []
        var offset: CGFloat = 0
        var lastEmitted: Int? = nil
        var subpathWholeFrom: Int? = nil   // index of the first segment when a subpath is kept from its start
        for (i, seg) in segments.enumerated() {
            defer { offset += seg.length }
            let lo = max(a - offset, 0), hi = min(b - offset, seg.length)
            guard hi > lo || (seg.length == 0 && a <= offset && offset <= b) else { continue }
            let t0 = seg.parameter(atLength: lo), t1 = seg.parameter(atLength: hi)
            let contiguous = lastEmitted == i - 1 && !seg.startsSubpath
            if !contiguous {
                out.append(.move(seg.point(t0)))
                subpathWholeFrom = (seg.startsSubpath && lo == 0) ? i : nil
            }
            if seg.isClosing && t1 >= 1 && subpathWholeFrom != nil {
                out.append(.close)
            } else {
                out.append(seg.piece(t0, t1))
            }
            lastEmitted = i
        }
        return CGPath.make(out)
    }
}

/// One measurable element of a path: a line or a cubic (quadratics are degree-elevated).
private struct TrimSegment {
    var p0: CGPoint, c1: CGPoint, c2: CGPoint, p1: CGPoint
    var isLine: Bool
    var startsSubpath: Bool
    /// The implicit line of a `close` back to the subpath's start.
    var isClosing: Bool
    /// Cumulative arc lengths at parameters i / (n − 1) (cubics only).
    var table: [CGFloat] = []
    var length: CGFloat = 0

    static func segments(of ops: [PathOp]) -> [TrimSegment] {
        var result: [TrimSegment] = []
        var current = CGPoint.zero, start = CGPoint.zero
        var fresh = true
        func add(_ s: TrimSegment) { var s = s; s.measure(); result.append(s); fresh = false }
        for op in ops {
            switch op {
            case .move(let p): current = p; start = p; fresh = true
            case .line(let p):
                add(TrimSegment(p0: current, c1: current, c2: p, p1: p, isLine: true, startsSubpath: fresh, isClosing: false))
                current = p
            case .quad(let c, let p):
                let c1 = CGPoint(x: current.x + 2 / 3 * (c.x - current.x), y: current.y + 2 / 3 * (c.y - current.y))
                let c2 = CGPoint(x: p.x + 2 / 3 * (c.x - p.x), y: p.y + 2 / 3 * (c.y - p.y))
                add(TrimSegment(p0: current, c1: c1, c2: c2, p1: p, isLine: false, startsSubpath: fresh, isClosing: false))
                current = p
            case .cubic(let c1, let c2, let p):
                add(TrimSegment(p0: current, c1: c1, c2: c2, p1: p, isLine: false, startsSubpath: fresh, isClosing: false))
                current = p
            case .close:
                add(TrimSegment(p0: current, c1: current, c2: start, p1: start, isLine: true, startsSubpath: fresh, isClosing: true))
                current = start
                fresh = true
            }
        }
        return result
    }

    mutating func measure() {
        if isLine { length = hypot(p1.x - p0.x, p1.y - p0.y); return }
        let n = Bezier.segmentCount(p0, c1, c2, p1, tolerance: 0.01)
        table = [0]
        table.reserveCapacity(n + 1)
        var prev = p0
        for i in 1...n {
            let q = Bezier.cubic(p0, c1, c2, p1, CGFloat(i) / CGFloat(n))
            table.append(table[i - 1] + hypot(q.x - prev.x, q.y - prev.y))
            prev = q
        }
        length = table[n]
    }

    /// The parameter at arc length `d` from the segment's start.
    func parameter(atLength d: CGFloat) -> CGFloat {
        guard length > 0 else { return d > 0 ? 1 : 0 }
        if isLine { return min(max(d / length, 0), 1) }
        // Binary search in the table, linear in between.
        var lo = 0, hi = table.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if table[mid] < d { lo = mid } else { hi = mid }
        }
        let span = table[hi] - table[lo]
        let f = span > 0 ? (d - table[lo]) / span : 0
        return min(max((CGFloat(lo) + f) / CGFloat(table.count - 1), 0), 1)
    }

    func point(_ t: CGFloat) -> CGPoint {
        isLine ? CGPoint(x: p0.x + (p1.x - p0.x) * t, y: p0.y + (p1.y - p0.y) * t) : Bezier.cubic(p0, c1, c2, p1, t)
    }

    /// The element drawing the segment between parameters t0 and t1 (from the point at t0).
    func piece(_ t0: CGFloat, _ t1: CGFloat) -> PathOp {
        if isLine { return .line(point(t1)) }
        // Blossoming: the cubic restricted to [t0, t1] has control points B(t0,t0,t1) and B(t0,t1,t1).
        func blossom(_ u: CGFloat, _ v: CGFloat, _ w: CGFloat) -> CGPoint {
            func lerp(_ a: CGPoint, _ b: CGPoint, _ t: CGFloat) -> CGPoint { CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t) }
            let a = lerp(p0, c1, u), b = lerp(c1, c2, u), c = lerp(c2, p1, u)
            let d = lerp(a, b, v), e = lerp(b, c, v)
            return lerp(d, e, w)
        }
        return .cubic(blossom(t0, t0, t1), blossom(t0, t1, t1), point(t1))
    }
}
