import Foundation

// Stroke outlines and dashes as new paths.
//
// The outline is built as a union of pieces (one quad per segment, one polygon or
// circle per join and cap), every piece wound the same way, so that filling it with
// the non-zero rule paints exactly the stroked area. Apple returns a single traced
// contour; filling, clipping and `contains` agree with it, element counts do not.
// Curves are flattened first (tolerance 0.05 units), so outlines are polygonal
// except for round joins and caps, which stay true arcs.

/// Takes path elements one at a time, as they are made: a path being built, or a rasteriser
/// that needs no path in between.
package protocol PathSink {
    mutating func add(_ op: PathOp)
}

/// Appends elements to a mutable path, as its public building calls do.
private struct PathAppender: PathSink {
    let path: CGMutablePath
    func add(_ op: PathOp) {
        switch op {
        case .move(let p): path.appendMove(p, .identity)
        case .line(let p): path.appendLine(p, .identity)
        case .quad(let c, let p): path.appendQuad(c, p, .identity)
        case .cubic(let a, let b, let p): path.appendCubic(a, b, p, .identity)
        case .close: path.appendClose()
        }
    }
}

extension CGPath {
    /// The outline of the path stroked with the given width, cap, join and miter limit, mapped by `transform`.
    /// A non-finite or non-positive width gives an empty path.
    public func copy(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin,
                     miterLimit: CGFloat, transform: CGAffineTransform = .identity) -> CGPath {
        let out = CGMutablePath()
        var appender = PathAppender(path: out)
        stroke(width: lineWidth, cap: lineCap, join: lineJoin, miterLimit: miterLimit, into: &appender)
        out.transformInPlace(transform)
        return out
    }

    /// The pieces of the stroke's outline (path space), handed to `sink` as they are made: what
    /// `copy(strokingWithWidth:…)` would hold, without building it. Nothing for a non-finite or
    /// non-positive width (a non-finite one is counted).
    package func stroke<Sink: PathSink>(width lineWidth: CGFloat, cap: CGLineCap, join: CGLineJoin, miterLimit: CGFloat,
                                        into sink: inout Sink) {
        guard lineWidth.isFinite, lineWidth > 0 else {
            if !lineWidth.isFinite { CGDiagnostics.record(.nonFiniteGeometry) }
            return
        }
        var stroker = Stroker(halfWidth: lineWidth / 2, cap: cap, join: join,
                              miterLimit: miterLimit.isFinite ? miterLimit : 10, out: sink)
        for poly in flattened() { stroker.stroke(poly) }
        sink = stroker.out
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
private struct Stroker<Sink: PathSink> {
    let halfWidth: CGFloat
    let cap: CGLineCap
    let join: CGLineJoin
    let miterLimit: CGFloat
    var out: Sink

    mutating func stroke(_ poly: Polyline) {
        var pts: [CGPoint] = []
        pts.reserveCapacity(poly.points.count)
        for p in poly.points where pts.last != p { pts.append(p) }
        if poly.closed, pts.count > 1, pts.first == pts.last { pts.removeLast() }
        guard pts.count > 1 else {
            if let p = poly.points.first { dot(p) }
            return
        }
        let n = pts.count
        let segments = poly.closed ? n : n - 1
        // Each segment's direction, worked out once for its quad and the joins at both ends.
        var units: [CGPoint] = []
        units.reserveCapacity(segments)
        for i in 0..<segments {
            let a = pts[i], b = pts[(i + 1) % n]
            let d = unit(a, b)
            units.append(d)
            let nrm = normal(d)
            polygon(add(a, nrm), add(b, nrm), sub(b, nrm), sub(a, nrm))
        }
        for i in poly.closed ? 0..<n : 1..<(n - 1) {
            joinAt(pts[i], units[(i - 1 + segments) % segments], units[i])
        }
        if !poly.closed {
            capAt(pts[0], from: pts[1])
            capAt(pts[n - 1], from: pts[n - 2])
        }
    }

    private mutating func dot(_ p: CGPoint) {
        switch cap {
        case .butt: break
        case .round: circle(p)
        case .square:
            polygon(CGPoint(x: p.x - halfWidth, y: p.y - halfWidth), CGPoint(x: p.x + halfWidth, y: p.y - halfWidth),
                    CGPoint(x: p.x + halfWidth, y: p.y + halfWidth), CGPoint(x: p.x - halfWidth, y: p.y + halfWidth))
        }
    }

    private mutating func capAt(_ end: CGPoint, from prev: CGPoint) {
        switch cap {
        case .butt: break
        case .round: circle(end)
        case .square:
            let len = hypot(end.x - prev.x, end.y - prev.y)
            let d = CGPoint(x: (end.x - prev.x) / len * halfWidth, y: (end.y - prev.y) / len * halfWidth)
            let nrm = normal(unit(prev, end))
            let far = add(end, d)
            polygon(add(end, nrm), add(far, nrm), sub(far, nrm), sub(end, nrm))
        }
    }

    /// The join at `p` between the segment arriving in direction `d0` and the one leaving in `d1`.
    private mutating func joinAt(_ p: CGPoint, _ d0: CGPoint, _ d1: CGPoint) {
        let n0 = normal(d0), n1 = normal(d1)
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
            polygon(p, o0, o1)
        case .miter:
            // cos of half the turn angle; miter length / line width = 1 / that.
            let cosHalf = ((1 + dot) / 2).squareRoot()
            if cosHalf > 1e-9 && 1 / cosHalf <= miterLimit {
                let bis = CGPoint(x: n0.x + n1.x, y: n0.y + n1.y)
                let bl = hypot(bis.x, bis.y)
                let len = halfWidth / cosHalf
                let tip = CGPoint(x: p.x + s * bis.x / bl * len, y: p.y + s * bis.y / bl * len)
                polygon(p, o0, tip, o1)
            } else {
                polygon(p, o0, o1)
            }
        }
    }

    private mutating func circle(_ c: CGPoint) {
        CGPath.ellipse(CGRect(x: c.x - halfWidth, y: c.y - halfWidth, width: 2 * halfWidth, height: 2 * halfWidth)) { out.add($0) }
    }

    /// Adds a closed triangle or quad (`d` nil: a triangle) wound with positive signed area, so
    /// that all pieces add under non-zero.
    private mutating func polygon(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint, _ d: CGPoint? = nil) {
        @inline(__always) func term(_ p: CGPoint, _ q: CGPoint) -> CGFloat { p.x * q.y - q.x * p.y }
        var area: CGFloat = 0
        area += term(a, b)
        area += term(b, c)
        if let d { area += term(c, d); area += term(d, a) } else { area += term(c, a) }
        if area == 0 { return }
        if area > 0 {
            out.add(.move(a)); out.add(.line(b)); out.add(.line(c))
            if let d { out.add(.line(d)) }
        } else {
            if let d { out.add(.move(d)); out.add(.line(c)) } else { out.add(.move(c)) }
            out.add(.line(b)); out.add(.line(a))
        }
        out.add(.close)
    }

    private func unit(_ a: CGPoint, _ b: CGPoint) -> CGPoint {
        let l = hypot(b.x - a.x, b.y - a.y)
        return CGPoint(x: (b.x - a.x) / l, y: (b.y - a.y) / l)
    }

    /// The left normal of direction `d`, half the width long.
    private func normal(_ d: CGPoint) -> CGPoint { CGPoint(x: -d.y * halfWidth, y: d.x * halfWidth) }

    private func add(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
    private func sub(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
}
