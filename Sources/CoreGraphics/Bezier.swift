import Foundation

/// Bézier evaluation, extrema and flattening, shared by bounds, hit testing, stroking and dashing.
enum Bezier {
    static func quad(_ p0: CGPoint, _ c: CGPoint, _ p1: CGPoint, _ t: CGFloat) -> CGPoint {
        let u = 1 - t
        return CGPoint(x: u * u * p0.x + 2 * u * t * c.x + t * t * p1.x,
                       y: u * u * p0.y + 2 * u * t * c.y + t * t * p1.y)
    }

    static func cubic(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p1: CGPoint, _ t: CGFloat) -> CGPoint {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return CGPoint(x: a * p0.x + b * c1.x + c * c2.x + d * p1.x,
                       y: a * p0.y + b * c1.y + c * c2.y + d * p1.y)
    }

    /// Parameters in (0, 1) where a quadratic's x or y derivative vanishes.
    static func quadExtrema(_ p0: CGPoint, _ c: CGPoint, _ p1: CGPoint) -> [CGFloat] {
        var ts: [CGFloat] = []
        for (a, b, e) in [(p0.x, c.x, p1.x), (p0.y, c.y, p1.y)] {
            let den = a - 2 * b + e
            if den != 0 {
                let t = (a - b) / den
                if t > 0 && t < 1 { ts.append(t) }
            }
        }
        return ts
    }

    /// Parameters in (0, 1) where a cubic's x or y derivative vanishes.
    static func cubicExtrema(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p1: CGPoint) -> [CGFloat] {
        var ts: [CGFloat] = []
        for (a, b, c, d) in [(p0.x, c1.x, c2.x, p1.x), (p0.y, c1.y, c2.y, p1.y)] {
            // Derivative / 3 = qa t² + qb t + qc.
            let qa = -a + 3 * b - 3 * c + d, qb = 2 * (a - 2 * b + c), qc = b - a
            if abs(qa) < 1e-12 {
                if qb != 0 { let t = -qc / qb; if t > 0 && t < 1 { ts.append(t) } }
                continue
            }
            let disc = qb * qb - 4 * qa * qc
            if disc < 0 { continue }
            let s = disc.squareRoot()
            for t in [(-qb + s) / (2 * qa), (-qb - s) / (2 * qa)] where t > 0 && t < 1 { ts.append(t) }
        }
        return ts
    }

    /// Segment count that keeps a flattened cubic within `tolerance` of the curve (Wang's formula).
    static func segmentCount(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p1: CGPoint,
                             tolerance: CGFloat) -> Int {
        let ddx = max(abs(p0.x - 2 * c1.x + c2.x), abs(c1.x - 2 * c2.x + p1.x))
        let ddy = max(abs(p0.y - 2 * c1.y + c2.y), abs(c1.y - 2 * c2.y + p1.y))
        let dd = hypot(ddx, ddy)
        let n = (0.75 * dd / tolerance).squareRoot().rounded(.up)
        return max(1, min(CGClampToInt(Double(n), in: 1...4096), 4096))
    }
}

/// One flattened subpath: a polyline and whether it was closed.
@usableFromInline
struct Polyline: Sendable {
    @usableFromInline var points: [CGPoint]
    @usableFromInline var closed: Bool
}

extension CGPath {
    /// The path as polylines within `tolerance` of the curves (same space as the path).
    /// The most points one flattening makes (64 MB): past it curves are followed by their chords
    /// alone (counted as `.budgetExceeded`) — a path of two million curves each thousands of
    /// points long would otherwise ask for gigabytes.
    #if FUZZING
    public static let maxFlattenedPoints = 1 << 17   // fuzzing builds: inputs that reach it stay cheap to explore
    #else
    public static let maxFlattenedPoints = 1 << 22
    #endif

    @usableFromInline
    func flattened(tolerance: CGFloat = 0.05) -> [Polyline] {
        var result: [Polyline] = []
        var pts: [CGPoint] = []
        var last = CGPoint.zero
        var budget = CGPath.maxFlattenedPoints
        func flush(closed: Bool) {
            if !pts.isEmpty { result.append(Polyline(points: pts, closed: closed)) }
            pts = []
        }
        for op in ops {
            switch op {
            case .move(let p):
                // Room for a small subpath at once (appending from one point grew it five times
                // for a ten-point star); larger ones grow as arrays do.
                flush(closed: false); pts.reserveCapacity(16); pts.append(p); last = p
            case .line(let p):
                if pts.isEmpty { pts = [last] }
                pts.append(p); last = p
            case .quad(let c, let p):
                if pts.isEmpty { pts = [last] }
                // Degree-elevate for one flattening routine.
                let c1 = CGPoint(x: last.x + 2 / 3 * (c.x - last.x), y: last.y + 2 / 3 * (c.y - last.y))
                let c2 = CGPoint(x: p.x + 2 / 3 * (c.x - p.x), y: p.y + 2 / 3 * (c.y - p.y))
                appendCubic(&pts, last, c1, c2, p, tolerance, budget: &budget)
                last = p
            case .cubic(let c1, let c2, let p):
                if pts.isEmpty { pts = [last] }
                appendCubic(&pts, last, c1, c2, p, tolerance, budget: &budget)
                last = p
            case .close:
                if let first = pts.first { last = first }
                flush(closed: true)
            }
        }
        flush(closed: false)
        return result
    }

    private func appendCubic(_ pts: inout [CGPoint], _ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint,
                             _ p1: CGPoint, _ tolerance: CGFloat, budget: inout Int) {
        var n = Bezier.segmentCount(p0, c1, c2, p1, tolerance: tolerance)
        if n > budget {
            if budget >= 0 { CGDiagnostics.record(.budgetExceeded); budget = -1 }   // counted once
            n = 1
        } else {
            budget -= n
        }
        for i in 1...n {
            pts.append(i == n ? p1 : Bezier.cubic(p0, c1, c2, p1, CGFloat(i) / CGFloat(n)))
        }
    }
}
