import Foundation

// Stroke outlines and dashes as new paths.
//
// The outline is traced as one contour per side of each polyline (one ring for an
// open one), wound so that filling it with the non-zero rule paints exactly the
// stroked area; round joins and caps add their circles as separate contours. Apple
// returns a single traced contour; filling, clipping and `contains` agree with it,
// element counts do not.
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

    /// The stroke's outline (path space), handed to `sink` element by element as it is made: what
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

/// Emits the stroke outlines of polylines into `out`.
///
/// Why rings: the stroked area is the union of one quad per segment and one wedge per join (and
/// caps), all wound the same way. Where two pieces meet they share an edge, walked in opposite
/// directions, so those edges cancel: what remains is one contour per side of the polyline (the
/// right side forwards, the left side backwards; one ring for an open polyline), with the outer
/// side of each join going round its miter tip or bevel and the inner side through the vertex.
/// That contour has the same non-zero area as the pieces together, with about a third fewer
/// edges and none inside the stroke. Round joins and caps keep their circles as separate pieces
/// (a circle is not a piece that shares edges with the quads), both sides of a round join going
/// through the vertex.
///
/// Corners: where a side goes round a miter tip, the segment's offset end and the next one's
/// offset start lie on the lines to the tip, so the side goes straight to the tip and on. The
/// inner side of a join does the same at the point where its two offset lines cross, when that
/// point lies within the nearer half of both segments: through the vertex, the side walked a
/// little loop round the crossing wound a second time (inside the stroke, so the same non-zero
/// area, but counted twice by anti-aliased coverage in the pixels it crosses), two edges more
/// per inner join — and every vertex of a flattened curve has one. Where every inner join meets
/// at its crossing, the contour is wound once everywhere. A closed ring starts and ends at
/// vertex 0's corner.
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
        let closed = poly.closed
        let segments = closed ? n : n - 1
        // Each segment's direction and length, worked out once for both sides and the joins at
        // both ends.
        var units: [CGPoint] = [], lengths: [CGFloat] = []
        units.reserveCapacity(segments); lengths.reserveCapacity(segments)
        for i in 0..<segments {
            let a = pts[i], b = pts[(i + 1) % n]
            let l = Stroker.length(b.x - a.x, b.y - a.y)
            units.append(CGPoint(x: (b.x - a.x) / l, y: (b.y - a.y) / l)); lengths.append(l)
        }
        let joins = closed ? 0..<n : 1..<(n - 1)
        // The join at vertex v on a side, between the segment arriving there and the one leaving.
        @inline(__always) func joinAt(vertex v: Int, side: CGFloat) -> StrokeJoin {
            guard joins.contains(v) else { return .none }
            let a = (v - 1 + segments) % segments, b = v % segments
            return StrokeJoin(pts[v], units[a], units[b], side: side, reach: min(lengths[a], lengths[b]) / 2,
                              halfWidth: halfWidth, join: join, miterLimit: miterLimit)
        }
        // The right side, forwards: segment i runs from pts[i] − normal to pts[i + 1] − normal.
        let first = closed ? joinAt(vertex: 0, side: -1) : .none
        out.add(.move(first.corner ?? sub(pts[0], normal(units[0]))))
        var fromCorner = first.corner != nil
        for i in 0..<segments {
            let end = (i + 1) % n
            if i > 0 && !fromCorner { out.add(.line(sub(pts[i], normal(units[i])))) }
            // A ring that started at vertex 0's corner is closed by the line back to it.
            if end == 0 && first.corner != nil { break }
            fromCorner = finish(at: sub(pts[end], normal(units[i])), end == 0 ? first : joinAt(vertex: end, side: -1))
        }
        if closed { out.add(.close) } else { capAt(pts[n - 1], direction: units[segments - 1]) }
        // The left side, backwards (its own ring when closed, from where segment n − 1 ends).
        let last = closed ? joinAt(vertex: 0, side: 1) : .none
        if closed { out.add(.move(last.corner ?? add(pts[0], normal(units[segments - 1])))) }
        fromCorner = last.corner != nil
        for i in stride(from: segments - 1, through: 0, by: -1) {
            if (i < segments - 1 || !closed) && !fromCorner { out.add(.line(add(pts[(i + 1) % n], normal(units[i])))) }
            if i == 0 && last.corner != nil { break }
            fromCorner = finish(at: add(pts[i], normal(units[i])), i == 0 ? last : joinAt(vertex: i, side: 1))
        }
        if !closed { capAt(pts[0], direction: CGPoint(x: -units[0].x, y: -units[0].y)) }
        out.add(.close)
        if cap == .round && !closed { circle(pts[0]); circle(pts[n - 1]) }
        if join == .round { for i in joins { circle(pts[i]) } }
    }

    private mutating func dot(_ p: CGPoint) {
        switch cap {
        case .butt: break
        case .round: circle(p)
        case .square:
            // Wound as the outlines are (positive signed area), so that it adds under non-zero.
            out.add(.move(CGPoint(x: p.x - halfWidth, y: p.y - halfWidth)))
            out.add(.line(CGPoint(x: p.x + halfWidth, y: p.y - halfWidth)))
            out.add(.line(CGPoint(x: p.x + halfWidth, y: p.y + halfWidth)))
            out.add(.line(CGPoint(x: p.x - halfWidth, y: p.y + halfWidth)))
            out.add(.close)
        }
    }

    /// The cap at `end`, reached along `direction` on the side opposite its normal: leads the
    /// outline across to the normal's side (round the square's far corners first).
    private mutating func capAt(_ end: CGPoint, direction d: CGPoint) {
        let nrm = normal(d)
        if cap == .square {
            let far = CGPoint(x: end.x + d.x * halfWidth, y: end.y + d.y * halfWidth)
            out.add(.line(sub(far, nrm)))
            out.add(.line(add(far, nrm)))
        }
        out.add(.line(add(end, nrm)))
    }

    /// Ends a segment's offset line at `end` and adds `join`'s point after it, or goes straight
    /// to the join's corner instead (the offset end lies on the line to it). True when it did:
    /// the next segment's offset start, on the line from the corner, is left out.
    private mutating func finish(at end: CGPoint, _ join: StrokeJoin) -> Bool {
        switch join {
        case .corner(let p):
            out.add(.line(p))
            return true
        case .none:
            out.add(.line(end))
        case .vertex(let p):
            out.add(.line(end))
            out.add(.line(p))
        }
        return false
    }

    private mutating func circle(_ c: CGPoint) {
        CGPath.ellipse(CGRect(x: c.x - halfWidth, y: c.y - halfWidth, width: 2 * halfWidth, height: 2 * halfWidth)) { out.add($0) }
    }

    /// √(x² + y²): the square root of the sum where it neither overflows nor underflows (every
    /// length a layer draws), `hypot` otherwise — a call into libm that showed in profiles.
    private static func length(_ x: CGFloat, _ y: CGFloat) -> CGFloat {
        let s = x * x + y * y
        return s.isNormal && s < 1e300 ? s.squareRoot() : hypot(x, y)
    }

    /// The left normal of direction `d`, half the width long.
    private func normal(_ d: CGPoint) -> CGPoint { CGPoint(x: -d.y * halfWidth, y: d.x * halfWidth) }

    private func add(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
    private func sub(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
}

/// What one side of a stroke's join adds between the two segments' offset ends (not nested in
/// the generic `Stroker`: a nested type would be generic too, its metadata looked up at run time).
private enum StrokeJoin {
    /// Nothing: a straight continuation, or a bevel.
    case none
    /// The vertex itself: the inner side, and both sides of a round join.
    case vertex(CGPoint)
    /// Where the side's two offset lines meet: the miter tip on the outer side of a miter join
    /// within the limit, their crossing on the inner side of a join that leaves room.
    case corner(CGPoint)

    /// The point the side goes through instead of the offset ends, if any.
    var corner: CGPoint? { if case .corner(let p) = self { p } else { nil } }

    /// The join on one `side` (−1 right, 1 left of the path's direction) at `p`, where the
    /// segment arriving in direction `d0` meets the one leaving in `d1`: the miter tip on the
    /// outer side (none for a bevel); on the inner side the crossing of the offset lines when it
    /// lies within `reach` of the vertex along both segments, the vertex itself otherwise and for
    /// round joins (whose circle is added apart).
    init(_ p: CGPoint, _ d0: CGPoint, _ d1: CGPoint, side: CGFloat, reach: CGFloat, halfWidth: CGFloat, join: CGLineJoin,
         miterLimit: CGFloat) {
        let cross = d0.x * d1.y - d0.y * d1.x
        let dot = d0.x * d1.x + d0.y * d1.y
        if abs(cross) < 1e-9 && dot > 0 { self = .none; return }
        // The outer side of the turn is opposite to the turning direction.
        let s: CGFloat = cross > 0 ? -1 : 1
        if join == .round { self = .vertex(p); return }
        // cos of half the turn angle; miter length / line width = 1 / that. A side's offset lines
        // meet on the bisector of the normals, halfWidth / cosHalf from the vertex.
        let cosHalf = ((1 + dot) / 2).squareRoot()
        guard cosHalf > 1e-9 else { self = s == side ? .none : .vertex(p); return }
        let bis = CGPoint(x: -d0.y - d1.y, y: d0.x + d1.x)
        let bl = (bis.x * bis.x + bis.y * bis.y).squareRoot()
        let len = halfWidth / cosHalf
        let meet = CGPoint(x: p.x + side * bis.x / bl * len, y: p.y + side * bis.y / bl * len)
        guard s == side else {
            // How far back along the arriving segment (and on along the leaving one) the lines
            // cross: halfWidth · tan(turn / 2).
            let back = (p.x - meet.x) * d0.x + (p.y - meet.y) * d0.y
            self = back >= 0 && back <= reach ? .corner(meet) : .vertex(p)
            return
        }
        self = join == .miter && 1 / cosHalf <= miterLimit ? .corner(meet) : .none
    }
}
