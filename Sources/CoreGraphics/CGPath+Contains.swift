import Foundation

extension CGPath {
    /// True when `point` is inside the path's fill under `rule`, after mapping the path by `transform`.
    /// Every subpath is treated as closed, as for filling. Non-finite points are outside.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding,
                         transform: CGAffineTransform = .identity) -> Bool {
        guard point.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return false }
        // Test in the path's own space so curves are flattened once at a tolerance relative to it.
        let inv = transform.inverted()
        let q = transform.isIdentity ? point : point.applying(inv)
        let bounds = boundingBox
        if bounds.isNull || q.x < bounds.minX || q.x > bounds.maxX || q.y < bounds.minY || q.y > bounds.maxY {
            return false
        }
        var winding = 0
        let current = version
        let polylines = containsCache.withLock { $0?.version == current ? $0?.polylines : nil } ?? {
            let fresh = flattened(tolerance: 0.01)
            containsCache.withLock { $0 = (current, fresh) }
            return fresh
        }()
        for poly in polylines {
            let pts = poly.points
            guard pts.count > 1 else { continue }
            for i in 0..<pts.count {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                // Half-open crossing rule: an edge counts when it spans q.y with a ≤ q.y < b (or reverse).
                if a.y <= q.y {
                    if b.y > q.y && cross(a, b, q) > 0 { winding += 1 }
                } else if b.y <= q.y && cross(a, b, q) < 0 {
                    winding -= 1
                }
            }
        }
        return rule == .winding ? winding != 0 : winding & 1 != 0
    }

    private func cross(_ a: CGPoint, _ b: CGPoint, _ p: CGPoint) -> CGFloat {
        (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
    }
}
