import Foundation

// Stroke outlines and dashes as new paths.
//
// The outline is traced as one contour per side of each polyline (one ring for an
// open one), wound so that filling it with the non-zero rule paints exactly the
// stroked area; round joins and caps go round their arcs. Apple returns a single
// traced contour; filling, clipping and `contains` agree with it, element counts do not.
// Curves are flattened first (0.05 units, or what a drawer asks: the compositor asks
// for 0.05 pixel in layer units), so outlines are polygonal except for round joins and
// caps, which stay true arcs.

/// Takes path elements one at a time, as they are made: a path being built, or a rasteriser
/// that needs no path in between.
@usableFromInline
package protocol PathSink {
    mutating func add(_ op: PathOp)
    /// Whether the sink takes no more elements: the stroker stops instead of making the rest.
    var isFull: Bool { get }
}

extension PathSink {
    /// A sink that takes every element (the rasteriser's feed).
    @inlinable package var isFull: Bool { false }
}

/// Appends elements to a mutable path, as its public building calls do.
private struct PathAppender: PathSink {
    let path: CGMutablePath
    /// Full at the element budget: past it every element would only be refused and counted.
    var isFull: Bool { path.ops.count >= CGPath.maxElements }
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
    /// `copy(strokingWithWidth:…)` would hold, without building it. Curves are followed within
    /// `tolerance` (path units: a drawer scaling the path up passes a smaller one, so the outline
    /// stays within the same fraction of a pixel). Nothing for a non-finite or non-positive width
    /// (a non-finite one is counted).
    ///
    /// Inlinable, with `Stroker`: the compositor's sink is a rasteriser in another module, and
    /// unspecialised every element went through a witness table and the sink was copied through
    /// value witnesses (S5: 1.2 % of the frame's instructions).
    @inlinable
    package func stroke<Sink: PathSink>(width lineWidth: CGFloat, cap: CGLineCap, join: CGLineJoin, miterLimit: CGFloat,
                                        tolerance: CGFloat = 0.05, into sink: inout Sink) {
        guard lineWidth.isFinite, lineWidth > 0 else {
            if !lineWidth.isFinite { CGDiagnostics.record(.nonFiniteGeometry) }
            return
        }
        var stroker = Stroker(halfWidth: lineWidth / 2, cap: cap, join: join,
                              miterLimit: miterLimit.isFinite ? miterLimit : 10, out: sink)
        for poly in flattened(tolerance: tolerance) {
            // A full sink would refuse the rest element by element: stop, counted once.
            if stroker.out.isFull { CGDiagnostics.record(.budgetExceeded); break }
            stroker.stroke(poly)
        }
        sink = stroker.out
    }

    /// The path cut into dashes: `lengths` alternates on/off lengths, `phase` is how far into the pattern
    /// to start. A pattern that is empty, all zero, negative or non-finite returns the path unchanged (counted).
    public func copy(dashingWithPhase phase: CGFloat, lengths: [CGFloat],
                     transform: CGAffineTransform = .identity) -> CGPath {
        dashed(phase: phase, lengths: lengths, transform: transform)
    }

    /// `copy(dashingWithPhase:lengths:transform:)` with curves followed within `tolerance` (path
    /// units), as `stroke(width:…)` takes it.
    package func dashed(phase: CGFloat, lengths: [CGFloat], transform: CGAffineTransform = .identity,
                        tolerance: CGFloat = 0.05) -> CGPath {
        let total = lengths.reduce(0, +)
        guard !lengths.isEmpty, lengths.allSatisfy({ $0.isFinite && $0 >= 0 }), total > 0, phase.isFinite else {
            CGDiagnostics.record(.invalidParameter)
            let copy = CGPath(copying: self)
            copy.transformInPlace(transform)
            return copy
        }
        let lengths = CGPath.boundedDashLengths(lengths)
        let pattern = lengths.count % 2 == 0 ? lengths : lengths + lengths
        let polys = flattened(tolerance: tolerance)
        guard !CGPath.exceedsDashBudget(length: polys.reduce(0) { $0 + $1.length }, lengths: lengths) else {
            let copy = CGPath(copying: self)
            copy.transformInPlace(transform)
            return copy
        }
        let out = CGMutablePath()
        for poly in polys {
            var pts = poly.points
            if poly.closed, let first = pts.first { pts.append(first) }
            var dasher = Dasher(pattern: pattern, total: pattern.reduce(0, +), phase: phase)
            dasher.dash(pts, into: out)
        }
        out.transformInPlace(transform)
        return out
    }
}

extension CGPath {
    /// The most dashes one dashed path may have; a pattern that would cut a path into more
    /// (lengths of 1e-9 along a long path) draws the path undashed, counted as `.budgetExceeded`.
    #if FUZZING
    public static let maxDashes = 1 << 14   // fuzzing builds: inputs that reach it stay cheap to explore
    #else
    public static let maxDashes = 1 << 18
    #endif

    /// The longest dash or gap (path units); longer ones are shortened to it, so that a pattern's
    /// period (doubled for an odd count, as Core Graphics and cairo repeat it) stays finite: 1e308
    /// twice is ∞, and cairo's dasher never ends on an infinite period. Longer than any path
    /// drawn: only a phase past 10¹⁵ can land elsewhere in the shortened pattern.
    public static let maxDashLength: CGFloat = 1e15

    /// `lengths` with each one shortened to `maxDashLength`.
    package static func boundedDashLengths(_ lengths: [CGFloat]) -> [CGFloat] { lengths.map { min($0, maxDashLength) } }

    /// Whether dashing `length` (path units) with `lengths` makes more than `maxDashes` dashes
    /// (counted). An infinite length always does: its dashes never end.
    package static func exceedsDashBudget(length: CGFloat, lengths: [CGFloat]) -> Bool {
        let period = lengths.reduce(0, +)
        guard period > 0 else { return false }
        let dashes = length.isNaN ? 0 : Double(length / period) * Double(lengths.count)
        if dashes > Double(maxDashes) { CGDiagnostics.record(.budgetExceeded); return true }
        return false
    }

    /// The length of the path's control polygon (path units): at least the length of its curves,
    /// found without flattening them (closing segments included; pieces with a NaN end skipped).
    package var controlPolygonLength: CGFloat {
        var total: CGFloat = 0, last = CGPoint.zero, start = CGPoint.zero
        func to(_ p: CGPoint) {
            let l = hypot(p.x - last.x, p.y - last.y)
            if !l.isNaN { total += l }   // as Polyline.length: a NaN point hides nothing else
            last = p
        }
        for op in ops {
            switch op {
            case .move(let p): last = p; start = p
            case .line(let p): to(p)
            case .quad(let c, let p): to(c); to(p)
            case .cubic(let a, let b, let p): to(a); to(b); to(p)
            case .close: to(start)
            }
        }
        return total
    }
}

extension Polyline {
    /// The polyline's length, its closing segment included, as the dasher walks it: a segment
    /// with a NaN end has no length and is skipped (so one such point cannot hide the length of
    /// the rest from the dash budget); an infinite segment makes the length infinite.
    var length: CGFloat {
        var total: CGFloat = 0
        func add(_ a: CGPoint, _ b: CGPoint) {
            let l = hypot(b.x - a.x, b.y - a.y)
            if !l.isNaN { total += l }
        }
        for (a, b) in zip(points, points.dropFirst()) { add(a, b) }
        if closed, let first = points.first, let last = points.last { add(last, first) }
        return total
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
/// edges and none inside the stroke. A round join's outer side and a round cap go round their
/// arcs of the circle about the vertex or end (cubic curves, flattened by whoever draws them at
/// their own tolerance); only where a path folds straight back is a round join's circle added
/// as a piece of its own.
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
@usableFromInline
struct Stroker<Sink: PathSink> {
    @usableFromInline let halfWidth: CGFloat
    @usableFromInline let cap: CGLineCap
    @usableFromInline let join: CGLineJoin
    @usableFromInline let miterLimit: CGFloat
    @usableFromInline var out: Sink

    @inlinable
    init(halfWidth: CGFloat, cap: CGLineCap, join: CGLineJoin, miterLimit: CGFloat, out: Sink) {
        self.halfWidth = halfWidth; self.cap = cap; self.join = join; self.miterLimit = miterLimit; self.out = out
    }

    @inlinable
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
            let a = pts[i], b = pts[Stroker.wrap(i + 1, n)]
            let l = Stroker.length(b.x - a.x, b.y - a.y)
            units.append(CGPoint(x: (b.x - a.x) / l, y: (b.y - a.y) / l)); lengths.append(l)
        }
        let joins = closed ? 0..<n : 1..<(n - 1)
        // The join at vertex v on a side, between the segment arriving there and the one leaving.
        @inline(__always) func joinAt(vertex v: Int, side: CGFloat) -> StrokeJoin {
            guard joins.contains(v) else { return .none }
            let a = Stroker.wrap(v - 1 + segments, segments), b = Stroker.wrap(v, segments)
            return StrokeJoin(pts[v], units[a], units[b], side: side, reach: min(lengths[a], lengths[b]) / 2,
                              halfWidth: halfWidth, join: join, miterLimit: miterLimit)
        }
        // The right side, forwards: segment i runs from pts[i] − normal to pts[i + 1] − normal.
        let first = closed ? joinAt(vertex: 0, side: -1) : .none
        out.add(.move(first.corner ?? sub(pts[0], normal(units[0]))))
        var fromCorner = first.corner != nil
        for i in 0..<segments {
            let end = Stroker.wrap(i + 1, n)
            if i > 0 && !fromCorner { out.add(.line(sub(pts[i], normal(units[i])))) }
            // A ring that started at vertex 0's corner is closed by the line back to it.
            if end == 0 && first.corner != nil { break }
            fromCorner = finish(at: sub(pts[end], normal(units[i])), end == 0 ? first : joinAt(vertex: end, side: -1),
                                next: sub(pts[end], normal(units[Stroker.wrap(end, segments)])))
        }
        if closed { out.add(.close) } else { capAt(pts[n - 1], direction: units[segments - 1]) }
        // The left side, backwards (its own ring when closed, from where segment n − 1 ends).
        let last = closed ? joinAt(vertex: 0, side: 1) : .none
        if closed { out.add(.move(last.corner ?? add(pts[0], normal(units[segments - 1])))) }
        fromCorner = last.corner != nil
        for i in stride(from: segments - 1, through: 0, by: -1) {
            if (i < segments - 1 || !closed) && !fromCorner { out.add(.line(add(pts[Stroker.wrap(i + 1, n)], normal(units[i])))) }
            if i == 0 && last.corner != nil { break }
            fromCorner = finish(at: add(pts[i], normal(units[i])), i == 0 ? last : joinAt(vertex: i, side: 1),
                                next: add(pts[i], normal(units[Stroker.wrap(i - 1 + segments, segments)])))
        }
        if !closed { capAt(pts[0], direction: CGPoint(x: -units[0].x, y: -units[0].y)) }
        out.add(.close)
        // A path folding straight back has no outer side to go round: a round join there is the
        // vertex's circle, added apart.
        if join == .round {
            for i in joins where StrokeJoin.folds(units[Stroker.wrap(i - 1 + segments, segments)], units[Stroker.wrap(i, segments)]) { circle(pts[i]) }
        }
    }

    @inlinable
    mutating func dot(_ p: CGPoint) {
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
    /// outline across to the normal's side (round the square's far corners first, or along the
    /// half circle beyond `end`).
    @inlinable
    mutating func capAt(_ end: CGPoint, direction d: CGPoint) {
        let nrm = normal(d)
        switch cap {
        case .square:
            let far = CGPoint(x: end.x + d.x * halfWidth, y: end.y + d.y * halfWidth)
            out.add(.line(sub(far, nrm)))
            out.add(.line(add(far, nrm)))
            out.add(.line(add(end, nrm)))
        case .round:
            // −normal to +normal through +direction: a half turn the way the normal turns from d.
            arc(from: sub(end, nrm), to: add(end, nrm), center: end, sweep: .pi)
        default:
            out.add(.line(add(end, nrm)))
        }
    }

    /// The circle of radius halfWidth about `c` from `a` to `b` (both on it), turning by `sweep`
    /// radians (the short way round when nil), as cubic Béziers of at most a quarter turn each
    /// (4/3·tan(θ/4) handles: the radius is off by under 3·10⁻⁴ of it). Curves, not points: the
    /// rasteriser flattens them at its own pixel tolerance, so round joins and caps stay round
    /// at any scale.
    @inlinable
    mutating func arc(from a: CGPoint, to b: CGPoint, center c: CGPoint, sweep: CGFloat? = nil) {
        let u0 = sub(a, c), u1 = sub(b, c)
        let total = sweep ?? atan2(u0.x * u1.y - u0.y * u1.x, u0.x * u1.x + u0.y * u1.y)
        // Points past ±1e154 overflow the products above to ∞ and the angle to NaN: no arc, a line.
        guard total.isFinite else { return out.add(.line(b)) }
        // At least one piece (a zero turn rounds to none: expected, not counted), at most four.
        let pieces = CGClampToInt(Double((abs(total) / (.pi / 2) - 1e-9).rounded(.up)), in: 1...4, counted: false)
        let step = total / CGFloat(pieces), h = 4 / 3 * tan(step / 4)
        let start = atan2(u0.y, u0.x)
        var p0 = a
        for k in 1...pieces {
            let a0 = start + step * CGFloat(k - 1), a1 = start + step * CGFloat(k)
            let p1 = k == pieces ? b : CGPoint(x: c.x + halfWidth * cos(a1), y: c.y + halfWidth * sin(a1))
            out.add(.cubic(CGPoint(x: p0.x - h * halfWidth * sin(a0), y: p0.y + h * halfWidth * cos(a0)),
                           CGPoint(x: p1.x + h * halfWidth * sin(a1), y: p1.y - h * halfWidth * cos(a1)), p1))
            p0 = p1
        }
    }

    /// Ends a segment's offset line at `end` and adds `join`'s point after it, or goes straight
    /// to the join's corner instead (the offset end lies on the line to it), or round its arc to
    /// `next`, the next segment's offset start. True when the next segment's start is left out
    /// (on the line from the corner, or reached).
    @inlinable
    mutating func finish(at end: CGPoint, _ join: StrokeJoin, next: CGPoint) -> Bool {
        switch join {
        case .corner(let p):
            out.add(.line(p))
            return true
        case .arc(let c):
            out.add(.line(end))
            arc(from: end, to: next, center: c)
            return true
        case .none:
            out.add(.line(end))
        case .vertex(let p):
            out.add(.line(end))
            out.add(.line(p))
        }
        return false
    }

    @inlinable
    mutating func circle(_ c: CGPoint) {
        CGPath.ellipse(CGRect(x: c.x - halfWidth, y: c.y - halfWidth, width: 2 * halfWidth, height: 2 * halfWidth)) { out.add($0) }
    }

    /// `i` modulo `n` for i in 0 ..< 2n: the indices round a closed polyline, without the
    /// integer division `%` compiles to (tens of cycles each, five a segment side).
    @inlinable
    static func wrap(_ i: Int, _ n: Int) -> Int { i >= n ? i - n : i }

    /// √(x² + y²): the square root of the sum where it neither overflows nor underflows (every
    /// length a layer draws), `hypot` otherwise — a call into libm that showed in profiles.
    @inlinable
    static func length(_ x: CGFloat, _ y: CGFloat) -> CGFloat {
        let s = x * x + y * y
        return s.isNormal && s < 1e300 ? s.squareRoot() : hypot(x, y)
    }

    /// The left normal of direction `d`, half the width long.
    @inlinable
    func normal(_ d: CGPoint) -> CGPoint { CGPoint(x: -d.y * halfWidth, y: d.x * halfWidth) }

    @inlinable
    func add(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
    @inlinable
    func sub(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
}

/// What one side of a stroke's join adds between the two segments' offset ends (not nested in
/// the generic `Stroker`: a nested type would be generic too, its metadata looked up at run time).
@usableFromInline
enum StrokeJoin {
    /// Nothing: a straight continuation, a bevel, the outer side of a fold.
    case none
    /// The vertex itself: the inner side where its offset lines cross too far along a segment,
    /// and a fold's.
    case vertex(CGPoint)
    /// Where the side's two offset lines meet: the miter tip on the outer side of a miter join
    /// within the limit, their crossing on the inner side of a join that leaves room.
    case corner(CGPoint)
    /// Round the circle about the vertex: the outer side of a round join.
    case arc(CGPoint)

    /// Whether a path going along `d0` and then `d1` (unit directions) folds straight back,
    /// leaving a join no outer side.
    @inlinable
    static func folds(_ d0: CGPoint, _ d1: CGPoint) -> Bool {
        abs(d0.x * d1.y - d0.y * d1.x) < 1e-9 && d0.x * d1.x + d0.y * d1.y < 0
    }

    /// The point the side goes through instead of the offset ends, if any.
    @inlinable
    var corner: CGPoint? { if case .corner(let p) = self { p } else { nil } }

    /// The join on one `side` (−1 right, 1 left of the path's direction) at `p`, where the
    /// segment arriving in direction `d0` meets the one leaving in `d1`: the miter tip on the
    /// outer side of a miter join (none for a bevel or beyond the limit), the arc of a round one;
    /// on the inner side the crossing of the offset lines when it lies within `reach` of the
    /// vertex along both segments, the vertex itself otherwise.
    @inlinable
    init(_ p: CGPoint, _ d0: CGPoint, _ d1: CGPoint, side: CGFloat, reach: CGFloat, halfWidth: CGFloat, join: CGLineJoin,
         miterLimit: CGFloat) {
        let cross = d0.x * d1.y - d0.y * d1.x
        let dot = d0.x * d1.x + d0.y * d1.y
        if abs(cross) < 1e-9 && dot > 0 { self = .none; return }
        // The outer side of the turn is opposite to the turning direction.
        let s: CGFloat = cross > 0 ? -1 : 1
        // cos of half the turn angle; miter length / line width = 1 / that. A side's offset lines
        // meet on the bisector of the normals, halfWidth / cosHalf from the vertex.
        let cosHalf = ((1 + dot) / 2).squareRoot()
        guard cosHalf > 1e-9, !StrokeJoin.folds(d0, d1) else {
            // Folding back: the inner side through the vertex; the outer side straight across
            // (a round join's circle is added apart).
            self = s == side && join != .round ? .none : .vertex(p)
            return
        }
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
        switch join {
        case .round: self = .arc(p)
        case .miter where 1 / cosHalf <= miterLimit: self = .corner(meet)
        default: self = .none
        }
    }
}
