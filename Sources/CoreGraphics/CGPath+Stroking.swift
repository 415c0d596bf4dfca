import Foundation

// Stroke outlines and dashes as new paths.
//
// The outline is built as a union of pieces (one quad per segment, one polygon or
// circle per join and cap), every piece wound the same way, so that filling it with
// the non-zero rule paints exactly the stroked area. Apple returns a single traced
// contour; filling, clipping and `contains` agree with it, element counts do not.
// Curves are flattened first (tolerance 0.05 units), so outlines are polygonal
// except for round joins and caps, which stay true arcs.
extension CGPath {
    /// The outline of the path stroked with the given width, cap, join and miter limit, mapped by `transform`.
    /// A non-finite or non-positive width gives an empty path.
    public func copy(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin,
                     miterLimit: CGFloat, transform: CGAffineTransform = .identity) -> CGPath {
        let out = CGMutablePath()
        guard lineWidth.isFinite, lineWidth > 0 else {
            if !lineWidth.isFinite { CGDiagnostics.record(.nonFiniteGeometry) }
            return out
        }
        var stroker = Stroker(halfWidth: lineWidth / 2, cap: lineCap, join: lineJoin,
                              miterLimit: miterLimit.isFinite ? miterLimit : 10, out: out)
        for poly in flattened() { stroker.stroke(poly) }
        out.transformInPlace(transform)
        return out
    }

    /// The path cut into dashes: `lengths` alternates on/off lengths, `phase` is how far into the pattern
    /// to start. A pattern that is empty, all zero, negative or non-finite returns the path unchanged (counted).
    public func copy(dashingWithPhase phase: CGFloat, lengths: [CGFloat],
                     transform: CGAffineTransform = .identity) -> CGPath {
        let total = lengths.reduce(0, +)
        guard !lengths.isEmpty, lengths.allSatisfy({ $0.isFinite && $0 >= 0 }), total > 0, phase.isFinite else {
            CGDiagnostics.record(.invalidParameter)
            let copy = CGPath(copying: self)
            copy.transformInPlace(transform)
            return copy
        }
        let pattern = lengths.count % 2 == 0 ? lengths : lengths + lengths
        let out = CGMutablePath()
        for poly in flattened() {
            var pts = poly.points
            if poly.closed, let first = pts.first { pts.append(first) }
            var dasher = Dasher(pattern: pattern, total: pattern.reduce(0, +), phase: phase)
            dasher.dash(pts, into: out)
        }
        out.transformInPlace(transform)
        return out
    }
}

/// Walks a polyline through an on/off pattern, emitting each "on" stretch as an open subpath.
private struct Dasher {
    let pattern: [CGFloat]
    var index = 0
    var remaining: CGFloat = 0

    init(pattern: [CGFloat], total: CGFloat, phase: CGFloat) {
        self.pattern = pattern
        var p = phase.truncatingRemainder(dividingBy: total)
        if p < 0 { p += total }
        while p >= pattern[index] && pattern[index] >= 0 {
            p -= pattern[index]
            index = (index + 1) % pattern.count
            if p == 0 { break }
        }
        remaining = pattern[index] - p
    }

    var isOn: Bool { index % 2 == 0 }

    mutating func dash(_ pts: [CGPoint], into out: CGMutablePath) {
        guard pts.count > 1 else { return }
        var drawing = false
        if isOn { out.move(to: pts[0]); drawing = true }
        for i in 1..<pts.count {
            var a = pts[i - 1]
            let b = pts[i]
            var segLen = hypot(b.x - a.x, b.y - a.y)
            while segLen > 0 {
                if remaining >= segLen {
                    remaining -= segLen
                    if drawing { out.addLine(to: b) }
                    segLen = 0
                } else {
                    let f = remaining / segLen
                    let m = CGPoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
                    if drawing { out.addLine(to: m) }
                    segLen -= remaining
                    a = m
                    index = (index + 1) % pattern.count
                    remaining = pattern[index]
                    drawing = isOn
                    if drawing { out.move(to: m) }
                }
            }
        }
    }
}

/// Emits the stroke pieces of polylines into `out`.
private struct Stroker {
    let halfWidth: CGFloat
    let cap: CGLineCap
    let join: CGLineJoin
    let miterLimit: CGFloat
    let out: CGMutablePath

    mutating func stroke(_ poly: Polyline) {
        var pts: [CGPoint] = []
        for p in poly.points where pts.last != p { pts.append(p) }
        if poly.closed, pts.count > 1, pts.first == pts.last { pts.removeLast() }
        guard pts.count > 1 else {
            if let p = poly.points.first { dot(p) }
            return
        }
        let n = pts.count
        let segments = poly.closed ? n : n - 1
        for i in 0..<segments {
            let a = pts[i], b = pts[(i + 1) % n]
            let nrm = normal(a, b)
            polygon([add(a, nrm), add(b, nrm), sub(b, nrm), sub(a, nrm)])
        }
        let joints = poly.closed ? Array(0..<n) : Array(1..<(n - 1))
        for i in joints {
            joinAt(pts[(i - 1 + n) % n], pts[i], pts[(i + 1) % n])
        }
        if !poly.closed {
            capAt(pts[0], from: pts[1])
            capAt(pts[n - 1], from: pts[n - 2])
        }
    }

    private func dot(_ p: CGPoint) {
        switch cap {
        case .butt: break
        case .round: circle(p)
        case .square:
            polygon([CGPoint(x: p.x - halfWidth, y: p.y - halfWidth), CGPoint(x: p.x + halfWidth, y: p.y - halfWidth),
                     CGPoint(x: p.x + halfWidth, y: p.y + halfWidth), CGPoint(x: p.x - halfWidth, y: p.y + halfWidth)])
        }
    }

    private func capAt(_ end: CGPoint, from prev: CGPoint) {
        switch cap {
        case .butt: break
        case .round: circle(end)
        case .square:
            let len = hypot(end.x - prev.x, end.y - prev.y)
            let d = CGPoint(x: (end.x - prev.x) / len * halfWidth, y: (end.y - prev.y) / len * halfWidth)
            let nrm = normal(prev, end)
            let far = add(end, d)
            polygon([add(end, nrm), add(far, nrm), sub(far, nrm), sub(end, nrm)])
        }
    }

    private func joinAt(_ a: CGPoint, _ p: CGPoint, _ b: CGPoint) {
        let n0 = normal(a, p), n1 = normal(p, b)
        let d0 = unit(a, p), d1 = unit(p, b)
        let cross = d0.x * d1.y - d0.y * d1.x
        let dot = d0.x * d1.x + d0.y * d1.y
        if abs(cross) < 1e-9 && dot > 0 { return }
        // The outer side of the turn is opposite to the turning direction.
        let s: CGFloat = cross > 0 ? -1 : 1
        let o0 = CGPoint(x: p.x + s * n0.x, y: p.y + s * n0.y)
        let o1 = CGPoint(x: p.x + s * n1.x, y: p.y + s * n1.y)
        switch join {
        case .round:
            circle(p)
        case .bevel:
            polygon([p, o0, o1])
        case .miter:
            // cos of half the turn angle; miter length / line width = 1 / that.
            let cosHalf = ((1 + dot) / 2).squareRoot()
            if cosHalf > 1e-9 && 1 / cosHalf <= miterLimit {
                let bis = CGPoint(x: n0.x + n1.x, y: n0.y + n1.y)
                let bl = hypot(bis.x, bis.y)
                let len = halfWidth / cosHalf
                let tip = CGPoint(x: p.x + s * bis.x / bl * len, y: p.y + s * bis.y / bl * len)
                polygon([p, o0, tip, o1])
            } else {
                polygon([p, o0, o1])
            }
        }
    }

    private func circle(_ c: CGPoint) {
        out.addEllipse(in: CGRect(x: c.x - halfWidth, y: c.y - halfWidth, width: 2 * halfWidth, height: 2 * halfWidth))
    }

    /// Adds a closed polygon wound with positive signed area, so that all pieces add under non-zero.
    private func polygon(_ pts: [CGPoint]) {
        var area: CGFloat = 0
        for i in 0..<pts.count {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            area += a.x * b.y - b.x * a.y
        }
        if area == 0 { return }
        let ordered = area > 0 ? pts : pts.reversed()
        out.move(to: ordered[0])
        for p in ordered.dropFirst() { out.addLine(to: p) }
        out.closeSubpath()
    }

    private func unit(_ a: CGPoint, _ b: CGPoint) -> CGPoint {
        let l = hypot(b.x - a.x, b.y - a.y)
        return CGPoint(x: (b.x - a.x) / l, y: (b.y - a.y) / l)
    }

    private func normal(_ a: CGPoint, _ b: CGPoint) -> CGPoint {
        let d = unit(a, b)
        return CGPoint(x: -d.y * halfWidth, y: d.x * halfWidth)
    }

    private func add(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
    private func sub(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
}
