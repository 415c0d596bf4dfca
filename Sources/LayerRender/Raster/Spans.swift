import CoreGraphics
import Foundation

// Row spans: which pixels of a row a shape certainly covers, so that kernels run tight loops
// there and evaluate analytic coverage only near edges.
//
// Along one pixel row the inverse map sends pixel centres to homogeneous layer coordinates
// (X, Y, W) that are linear in the column; "inside the rect [a, b] × [c, d]" is then four linear
// inequalities in the column (multiplied through by W, whose sign is fixed along the row when it
// is the same at both ends). Solving them gives intervals:
// - the *outer* span: every pixel whose coverage can be above 0 (centres in the shape's bounding
//   rect grown by half a pixel, with a relative epsilon for floating-point noise);
// - the *full* spans: pixels whose coverage is exactly 1 — inside the rounded rect by at least
//   half a pixel (the "cross" of the rect inset by the corner radius one way and half a pixel the
//   other), shrunk by a relative epsilon so floating-point noise never promotes an edge pixel.
// Pixels in the outer span but not in a full span go through the exact per-pixel coverage, so
// results are those of the per-pixel path.

/// A rect's edges as numbers, read once per shape: Foundation's `minX` … `maxY` are calls
/// (each standardising the rect), and the span solvers read them for every row.
struct RectEdges {
    var minX: CGFloat, minY: CGFloat, maxX: CGFloat, maxY: CGFloat
    /// Whether the rect it was made from has area (width and height above 0).
    var hasArea: Bool

    init(_ r: CGRect) {
        minX = r.minX; minY = r.minY; maxX = r.maxX; maxY = r.maxY
        hasArea = r.width > 0 && r.height > 0
    }
}

/// The pixel-centre map of one row, linear in the column `i`: (X, Y, W)(i) = base + i · step.
struct RowMap {
    var x0: CGFloat, dx: CGFloat, y0: CGFloat, dy: CGFloat, w0: CGFloat, dw: CGFloat

    /// The row `y` of `inverse`, with W made positive; nil when W changes sign (or vanishes)
    /// between columns `lo` and `hi`.
    init?(_ inverse: Homography, row y: Int, lo: Int, hi: Int) {
        let m = inverse.m
        let cy = CGFloat(y) + 0.5
        x0 = 0.5 * m.0 + cy * m.3 + m.6; dx = m.0
        y0 = 0.5 * m.1 + cy * m.4 + m.7; dy = m.1
        w0 = 0.5 * m.2 + cy * m.5 + m.8; dw = m.2
        let wa = w0 + dw * CGFloat(lo), wb = w0 + dw * CGFloat(hi - 1)
        if wa > 0 && wb > 0 { return }
        guard wa < 0 && wb < 0 else { return nil }
        x0 = -x0; dx = -dx; y0 = -y0; dy = -dy; w0 = -w0; dw = -dw
    }

    /// Columns (real) where p + q·i ≥ 0, intersected into [lo, hi].
    @inline(__always)
    private static func clip(_ p: CGFloat, _ q: CGFloat, _ lo: inout CGFloat, _ hi: inout CGFloat) {
        if q == 0 {
            if !(p >= 0) { lo = 1; hi = 0 }
        } else if q > 0 {
            lo = max(lo, -p / q)
        } else {
            hi = min(hi, -p / q)
        }
    }

    /// The real interval of columns whose centres map inside `r` (W > 0 along the row).
    @inline(__always)
    func interval(_ r: RectEdges) -> (CGFloat, CGFloat) {
        var (lo, hi) = columnInterval(r)
        RowMap.clip(y0 - r.minY * w0, dy - r.minY * dw, &lo, &hi)
        RowMap.clip(r.maxY * w0 - y0, r.maxY * dw - dy, &lo, &hi)
        return (lo, hi)
    }

    /// The part of `interval` that the X bounds of `r` give.
    @inline(__always)
    func columnInterval(_ r: RectEdges) -> (CGFloat, CGFloat) {
        var lo = -CGFloat.greatestFiniteMagnitude, hi = CGFloat.greatestFiniteMagnitude
        RowMap.clip(x0 - r.minX * w0, dx - r.minX * dw, &lo, &hi)      // X ≥ minX·W
        RowMap.clip(r.maxX * w0 - x0, r.maxX * dw - dx, &lo, &hi)      // X ≤ maxX·W
        return (lo, hi)
    }

    /// For a row of an axis-aligned affine map (Y and W the same at every column): whether its
    /// centres lie within a rect's Y bounds `minY ... maxY`, i.e. whether `interval` keeps
    /// `columnInterval`. (The bounds are passed in: Foundation's `minY` and `maxY` are calls.)
    @inline(__always)
    func rowInside(_ minY: CGFloat, _ maxY: CGFloat) -> Bool { y0 - minY * w0 >= 0 && maxY * w0 - y0 >= 0 }

    /// Every column in [lo, hi) whose centre may lie in `r` (its interval widened by a relative epsilon).
    func outer(_ r: RectEdges, lo: Int, hi: Int) -> Range<Int> { RowMap.outer(interval(r), lo: lo, hi: hi) }

    /// `outer` from the interval.
    @inline(__always)
    static func outer(_ interval: (CGFloat, CGFloat), lo: Int, hi: Int) -> Range<Int> {
        let (a, b) = interval
        if a.isNaN || b.isNaN { return lo..<hi }
        guard a <= b else { return lo..<lo }
        // Centres outside the grown rect are more than half a pixel outside the shape (coverage
        // 0), so the columns are those whose centres lie in [a, b], widened by `inner`'s margin
        // (far above the rounding of the interval's sums) rather than by whole columns.
        let margin = 1e-9 * RowMap.magnitude(a, b)
        let a0 = a - margin, b0 = b + margin
        let first = a0 <= CGFloat(lo) ? lo : CGClampToInt(Double(a0.rounded(.up)), in: lo...hi, counted: false)
        let last = b0 >= CGFloat(hi - 1) ? hi : CGClampToInt(Double(b0.rounded(.down)) + 1, in: lo...hi, counted: false)
        return first..<max(first, last)
    }

    /// Columns in [lo, hi) whose centres are certainly inside `r` (strictly, with a margin).
    func inner(_ r: RectEdges, lo: Int, hi: Int) -> Range<Int> {
        guard r.hasArea else { return lo..<lo }
        return RowMap.inner(interval(r), lo: lo, hi: hi)
    }

    /// The larger of |a|, |b| and 1 (neither is NaN), written out: the three-argument `max`
    /// was a call per row.
    @inline(__always)
    private static func magnitude(_ a: CGFloat, _ b: CGFloat) -> CGFloat {
        let x = abs(a), y = abs(b)
        let m = y >= x ? y : x
        return m >= 1 ? m : 1
    }

    /// `inner` from the interval of a rect that is not empty.
    @inline(__always)
    static func inner(_ interval: (CGFloat, CGFloat), lo: Int, hi: Int) -> Range<Int> {
        var (a, b) = interval
        guard a <= b else { return lo..<lo }   // also when either is NaN
        let margin = 1e-9 * RowMap.magnitude(a, b)
        a += margin; b -= margin
        let first = a <= CGFloat(lo) ? lo : CGClampToInt(Double(a.rounded(.up)), in: lo...hi, counted: false)
        let last = b >= CGFloat(hi - 1) ? hi : CGClampToInt(Double(b.rounded(.down)) + 1, in: lo...hi, counted: false)
        return first..<max(first, last)
    }
}

extension RoundedRect {
    /// The rect grown by `e` on every side (where coverage can be above 0 for e = half a pixel).
    func grown(by e: CGFloat) -> CGRect { rect.inset(dx: -e, dy: -e) }

    /// The rects its row spans are solved against, for pixels of half-size `e`.
    func spanRects(e: CGFloat) -> SpanRects {
        let r = max(radii.0, radii.1, radii.2, radii.3, e)
        return SpanRects(grown: RectEdges(grown(by: e)), wide: RectEdges(rect.inset(dx: r, dy: e)),
                         tall: isRounded ? RectEdges(rect.inset(dx: e, dy: r)) : nil)
    }
}

/// A rounded rect's span rects for one pixel size: worked out once per shape, read per row.
struct SpanRects {
    /// The rect grown by half a pixel: where coverage can be above 0.
    var grown: RectEdges
    /// The two arms of the cross where coverage is exactly 1: the rect inset by the corner
    /// radius across and half a pixel down, and (rounded shapes only) the other way round.
    var wide: RectEdges, tall: RectEdges?

    /// Columns of a row where coverage is exactly 1 (at least half a pixel inside).
    func fullSpan(_ map: RowMap, lo: Int, hi: Int) -> Range<Int> {
        let wide = map.inner(self.wide, lo: lo, hi: hi)
        guard let tallRect = self.tall else { return wide }
        // The two arms of the cross overlap in the middle; keep their union when it is one run.
        return SpanRects.union(wide, map.inner(tallRect, lo: lo, hi: hi))
    }

    /// Two runs of full coverage as one: their union when they meet, else the longer (the
    /// columns of the other then go through exact coverage, which gives them 1 too).
    @inline(__always)
    private static func union(_ a: Range<Int>, _ b: Range<Int>) -> Range<Int> {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        if a.lowerBound <= b.upperBound && b.lowerBound <= a.upperBound {
            return min(a.lowerBound, b.lowerBound)..<max(a.upperBound, b.upperBound)
        }
        return a.count >= b.count ? a : b
    }
}

/// The full-coverage spans of one row of a shape under clips: up to two disjoint runs.
struct FullRuns {
    var a: Range<Int>
    var b: Range<Int>

    static let none = FullRuns(a: 0..<0, b: 0..<0)

    /// The shape's full span (from its span rects), narrowed by every clip's full span and with
    /// the outer span of the hole (a border's inner edge, grown by half a pixel) removed; clips
    /// whose map is not linear along the row give none.
    static func of(_ shape: SpanRects, map: RowMap, row y: Int, lo: Int, hi: Int, hole: RectEdges?,
                   clips: [ClipShape], clipRects: [SpanRects]) -> FullRuns {
        var full = shape.fullSpan(map, lo: lo, hi: hi)
        for (clip, rects) in zip(clips, clipRects) where !full.isEmpty {
            guard let cm = RowMap(clip.inverse, row: y, lo: lo, hi: hi) else { return .none }
            full = full.clamped(to: rects.fullSpan(cm, lo: lo, hi: hi))
        }
        guard let hole, !full.isEmpty else { return FullRuns(a: full, b: full.upperBound..<full.upperBound) }
        let cut = map.outer(hole, lo: lo, hi: hi)
        guard !cut.isEmpty, cut.lowerBound < full.upperBound, cut.upperBound > full.lowerBound else {
            return FullRuns(a: full, b: full.upperBound..<full.upperBound)
        }
        return FullRuns(a: full.lowerBound..<max(full.lowerBound, cut.lowerBound),
                        b: min(full.upperBound, cut.upperBound)..<full.upperBound)
    }

    /// Walks `outer` in order: `edge` for columns outside the runs, `full` for the runs.
    @inline(__always)
    func walk(_ outer: Range<Int>, edge: (Range<Int>) -> Void, full: (Range<Int>) -> Void) {
        var x = outer.lowerBound
        let ra = a.clamped(to: outer)
        if !ra.isEmpty {
            if x < ra.lowerBound { edge(x..<ra.lowerBound) }
            full(ra)
            x = ra.upperBound
        }
        let rb = b.clamped(to: outer)
        if !rb.isEmpty && rb.lowerBound >= x {
            if x < rb.lowerBound { edge(x..<rb.lowerBound) }
            full(rb)
            x = rb.upperBound
        }
        if x < outer.upperBound { edge(x..<outer.upperBound) }
    }
}

/// What `Raster.cover` works out once per shape, for visiting its rows one at a time (in any
/// order, any columns).
final class CoverPlan {
    let inverse: Homography
    let pixel: CGFloat
    let shape: RoundedRect
    let hole: RoundedRect?
    let antialias: Bool
    let clips: [ClipShape]
    /// An unrounded shape through an axis-aligned affine map, without clips or a hole: every
    /// row sees the same column intervals (those of the box's first row) or none, so its spans
    /// over the box are solved once (`outer`, and `full` and its rows when the inset rect is not
    /// empty); per row only the outer Y test and clamps to the row's columns remain. The spans of
    /// FullRuns.of, and the edge pixels of coverage 1 beside them (see `init`).
    private let aligned: (grown: (CGFloat, CGFloat), fullRows: Range<Int>, outer: Range<Int>, full: Range<Int>)?
    /// The C kernel's view of the shape, for the common case: an affine map, no clips, no hard
    /// edges (`cgs_rrect_row`, the same coverage bit for bit, four pixels per step).
    private let kernel: CoverageKernel?
    /// The span rects of the shape, the hole's grown rect and the clips' span rects, for
    /// unaligned plans (worked out once, read per row).
    private let spans: SpanRects, holeGrown: RectEdges?, clipRects: [SpanRects]

    init(box: PixelBox, inverse: Homography, pixel: CGFloat, shape: RoundedRect, hole: RoundedRect?, antialias: Bool,
         clips: [ClipShape]) {
        self.inverse = inverse; self.pixel = pixel; self.shape = shape; self.hole = hole
        self.antialias = antialias; self.clips = clips
        kernel = CoverageKernel(inverse: inverse, pixel: pixel, shape: shape, hole: hole, antialias: antialias, clips: clips,
                                width: box.x1 - box.x0)
        let m = inverse.m, e = pixel / 2
        spans = shape.spanRects(e: e)
        holeGrown = hole.map { RectEdges($0.grown(by: e)) }
        clipRects = clips.map { $0.shape.spanRects(e: $0.pixel / 2) }
        if m.1 == 0, m.2 == 0, m.3 == 0, m.5 == 0, m.8 == 1, clips.isEmpty, hole == nil, !shape.isRounded,
           let first = RowMap(inverse, row: box.y0, lo: box.x0, hi: box.x1) {
            let grown = spans.grown, inner = spans.wide   // fullSpan's rect when unrounded: inset by e both ways
            // Solved over the box's columns: clamped to any columns within them, these are the
            // spans solved over those columns (RowMap.outer and .inner clamp the same way).
            let outer = RowMap.outer(first.columnInterval(grown), lo: box.x0, hi: box.x1)
            var full = inner.hasArea ? RowMap.inner(first.columnInterval(inner), lo: box.x0, hi: box.x1) : box.x0..<box.x0
            var fullRows = CoverPlan.rows(box.y0..<box.y1, within: (inner.minY, inner.maxY), inverse: inverse,
                                          lo: box.x0, hi: box.x1)
            if !full.isEmpty, !fullRows.isEmpty, shape.hardEdges == 0 {
                // The margins leave out pixels whose centres lie exactly half a pixel inside (an
                // image's ring, scaled to whole pixels) and, without antialiasing, those nearer
                // the edge: a column or row is taken in when its pixels' coverage, as the edge
                // loop would paint it (a Float), is 1. Here a centre's layer x is the same on
                // every row and its y on every column, the distance is the larger of the x and y
                // distances and coverage falls as it grows: so 1 on the middle row (column) means
                // the x (y) distance passes, and a pixel whose column and row both pass has
                // coverage 1 — as has a pixel of a full row, whose y distance passes too.
                @inline(__always) func covered(_ x: CGFloat, _ y: CGFloat) -> Bool {
                    Float(shape.coverage(x, y, pixel: pixel, antialias: antialias)) == 1
                }
                func column(_ x: Int) -> Bool {
                    guard let q = inverse.project(CGFloat(x) + 0.5, CGFloat(box.y0) + 0.5) else { return false }
                    return covered(q.x, shape.rect.midY)
                }
                func row(_ y: Int) -> Bool {
                    guard let q = inverse.project(CGFloat(box.x0) + 0.5, CGFloat(y) + 0.5) else { return false }
                    return covered(shape.rect.midX, q.y)
                }
                for _ in 0..<2 where full.lowerBound > outer.lowerBound && column(full.lowerBound - 1) {
                    full = full.lowerBound - 1..<full.upperBound
                }
                for _ in 0..<2 where full.upperBound < outer.upperBound && column(full.upperBound) {
                    full = full.lowerBound..<full.upperBound + 1
                }
                for _ in 0..<2 where fullRows.lowerBound > box.y0 && row(fullRows.lowerBound - 1) {
                    fullRows = fullRows.lowerBound - 1..<fullRows.upperBound
                }
                for _ in 0..<2 where fullRows.upperBound < box.y1 && row(fullRows.upperBound) {
                    fullRows = fullRows.lowerBound..<fullRows.upperBound + 1
                }
            }
            aligned = ((grown.minY, grown.maxY), fullRows, outer, full)
        } else {
            aligned = nil
        }
    }

    deinit { kernel?.deallocate() }

    /// Whether `alignedColumns` answers (for every row).
    var isAligned: Bool { aligned != nil }

    /// For an aligned plan, row `y`'s columns within `lo ..< hi` (inside the box's columns) where
    /// coverage can be above 0 and where it is exactly 1 (not clamped to the former); nil for
    /// other plans.
    @inline(__always)
    func alignedColumns(_ y: Int, _ lo: Int, _ hi: Int) -> (outer: Range<Int>, full: Range<Int>)? {
        guard let a = aligned, let map = RowMap(inverse, row: y, lo: lo, hi: hi) else { return nil }
        let outer = map.rowInside(a.grown.0, a.grown.1) ? a.outer.clamped(to: lo..<hi) : lo..<lo
        let full = !a.full.isEmpty && a.fullRows.contains(y) ? a.full.clamped(to: lo..<hi) : lo..<lo
        return (outer, full)
    }

    /// `alignedColumns` of rows `ys` at once: the rows whose outer columns are not empty and
    /// those whose full columns are not empty, and those columns; nil for other plans (the full
    /// rows were found once, by `init`).
    func alignedRows(_ ys: Range<Int>, _ lo: Int, _ hi: Int)
        -> (outerRows: Range<Int>, fullRows: Range<Int>, outer: Range<Int>, full: Range<Int>)? {
        guard let a = aligned else { return nil }
        let outer = a.outer.clamped(to: lo..<hi), full = a.full.clamped(to: lo..<hi)
        let none = ys.lowerBound..<ys.lowerBound
        return (outer.isEmpty ? none : CoverPlan.rows(ys, within: a.grown, inverse: inverse, lo: lo, hi: hi),
                full.isEmpty ? none : a.fullRows.clamped(to: ys), outer, full)
    }

    /// The rows of `ys` whose pixel centres map within `bounds` (layer-space minY, maxY) under an
    /// axis-aligned affine `inverse`: an interval (a centre's layer y moves monotonically with the
    /// row), found from its ends with the rows' own tests.
    private static func rows(_ ys: Range<Int>, within bounds: (CGFloat, CGFloat), inverse: Homography, lo: Int, hi: Int)
        -> Range<Int> {
        @inline(__always) func inside(_ y: Int) -> Bool {
            RowMap(inverse, row: y, lo: lo, hi: hi)?.rowInside(bounds.0, bounds.1) == true
        }
        var top = ys.lowerBound, bottom = ys.upperBound
        while top < bottom, !inside(top) { top += 1 }
        while bottom > top, !inside(bottom - 1) { bottom -= 1 }
        return top..<bottom
    }

    /// Exact coverage of the pixels `xs` of row `y` from the C kernel, one float per column from
    /// `xs`'s first (valid until the next call); nil when the kernel does not apply to the plan
    /// (then `edges` works pixel by pixel).
    @inline(__always)
    func coverage(_ y: Int, _ xs: Range<Int>) -> UnsafePointer<Float>? {
        guard let kernel, !xs.isEmpty, kernel.row(y: CGFloat(y) + 0.5, xs) else { return nil }
        return UnsafePointer(kernel.coverage)
    }

    /// Exact coverage of the pixels `xs` of row `y`: `edge(y, x, coverage)` where it is above 0.
    @inline(__always)
    func edges(_ y: Int, _ xs: Range<Int>, _ edge: (Int, Int, Float) -> Void) {
        let cy = CGFloat(y) + 0.5
        if let c = coverage(y, xs) {
            for x in xs {
                let cov = c[x - xs.lowerBound]
                if cov > 0 { edge(y, x, cov) }
            }
            return
        }
        for x in xs {
            let cx = CGFloat(x) + 0.5
            guard let q = inverse.project(cx, cy) else { continue }
            var cov = shape.coverage(q.x, q.y, pixel: pixel, antialias: antialias)
            if cov == 0 { continue }
            if let hole { cov = max(0, cov - hole.coverage(q.x, q.y, pixel: pixel, antialias: antialias)) }
            if !clips.isEmpty { cov *= Raster.clipCoverage(clips, cx, cy) }
            if cov > 0 { edge(y, x, Float(cov)) }
        }
    }

    /// Visits columns `lo ..< hi` of row `y` (within the box's columns): `full(y, columns)` where
    /// coverage is exactly 1, `edge(y, x, coverage)` for the other pixels with coverage above 0.
    @inline(__always)
    func row(_ y: Int, _ lo: Int, _ hi: Int, full: (Int, Range<Int>) -> Void, edge: (Int, Int, Float) -> Void) {
        row(y, lo, hi, full: full, edgeRuns: { edges($0, $1, edge) })
    }

    /// `row`, handing out the columns between the full runs as runs, `edgeRuns(y, columns)`:
    /// for callers that take a run's coverage at once (`coverage`, else `edges`).
    @inline(__always)
    func row(_ y: Int, _ lo: Int, _ hi: Int, full: (Int, Range<Int>) -> Void, edgeRuns: (Int, Range<Int>) -> Void) {
        if let (outer, f) = alignedColumns(y, lo, hi) {
            if outer.isEmpty { return }
            FullRuns(a: f, b: f.upperBound..<f.upperBound).walk(outer, edge: { edgeRuns(y, $0) }, full: { full(y, $0) })
            return
        }
        guard let map = RowMap(inverse, row: y, lo: lo, hi: hi) else { edgeRuns(y, lo..<hi); return }
        let outer = map.outer(spans.grown, lo: lo, hi: hi)
        if outer.isEmpty { return }
        let runs = FullRuns.of(spans, map: map, row: y, lo: lo, hi: hi, hole: holeGrown, clips: clips, clipRects: clipRects)
        runs.walk(outer, edge: { edgeRuns(y, $0) }, full: { full(y, $0) })
    }
}

extension Raster {
    /// Visits the pixels of `box` covered by `shape` minus `hole` (layer space, mapped to pixels by
    /// the inverse map `inverse`) through `clips`: `full(y, columns)` where coverage is exactly 1,
    /// `edge(y, x, coverage)` for the other pixels with coverage above 0 (exact analytic coverage).
    /// With `rows`, only those columns of each row are visited (the others would be thrown away).
    @inline(__always)
    static func cover(box: PixelBox, inverse: Homography, pixel: CGFloat, shape: RoundedRect, hole: RoundedRect?,
                      antialias: Bool, clips: [ClipShape], rows: MaskPlane.Rows? = nil,
                      full: (Int, Range<Int>) -> Void, edge: (Int, Int, Float) -> Void) {
        guard !box.isEmpty else { return }
        let plan = CoverPlan(box: box, inverse: inverse, pixel: pixel, shape: shape, hole: hole, antialias: antialias, clips: clips)
        // The loop is written out, not MaskPlane.Rows.visit: through that closure the optimiser
        // inlined the edge loop into the fill kernel and stopped inlining min and max there
        // (S2 +34 % instructions).
        for y in box.y0..<box.y1 {
            var lo = box.x0, hi = box.x1
            if let rows {
                let xs = rows.columns(y, lo, hi)
                if xs.isEmpty { continue }
                lo = xs.lowerBound; hi = xs.upperBound
            }
            plan.row(y, lo, hi, full: full, edge: edge)
        }
    }
}
