import CGSupport
import CoreGraphics
import Foundation

// The compositor's path rasteriser: exact area coverage of polygons, accumulated per cell.
//
// Every edge adds, to the cells of each row it crosses, the change of signed covered area from
// one cell to the next; a running sum along the row then gives each pixel's signed coverage
// (the winding-weighted area of the pixel inside the polygon). Coverage is |sum| clamped to 1:
// exact for simple polygons and for CGPath's stroke outlines (a contour per side, wound once
// where its inner joins meet at the crossing of their offset lines), the non-zero rule for
// everything else up to anti-aliasing where a region is wound more than once (an inner join
// through its vertex, a round join's circle where a path folds back).
// Even-odd fills are left to CoreGraphics. Inner loop of the shape layers: long by design.
//
// The area maths: a piece of edge inside one row, of signed height h and running from x = a to
// x = b, covers of pixel column c the fraction averaged over the piece of clamp(c + 1 − x, 0, 1);
// with u = x − c its antiderivative is G(u) = u (u ≤ 0), u − u²/2 (0 < u < 1), ½ (u ≥ 1), so
// the pixel gets h · (G(b − c) − G(a − c)) / (b − a), and every column right of the piece gets h.

/// What `PathRasterizer.resolve(into:)` hands each row's coverage to, in order along the row
/// (frame columns; coverage in [0, 1]). A struct passed inout: its state stays in registers,
/// without the boxes and exclusivity checks of variables captured by closures.
protocol CoverageConsumer {
    /// Row `y` (frame) is next: the calls that follow, up to the next `begin`, are about it.
    mutating func begin(row y: Int)
    /// Columns x ..< x + 4 (all inside the rasteriser's box), one coverage per lane, possibly 0.
    mutating func quad(_ x: Int, _ coverage: SIMD4<Float>)
    /// Column x, one of a last group that the box's right side cuts short; possibly 0.
    mutating func pixel(_ x: Int, _ coverage: Float)
    /// Columns `xs`, all of one coverage of at least `PathRasterizer.residue`.
    mutating func run(_ xs: Range<Int>, _ coverage: Float)
    /// Columns x ..< x + count (count a multiple of 4, all inside the box), whose coverage is
    /// the running sum from `sum` on through `cells` (one per column), each sum as
    /// `PathRasterizer.coverage` gives it; returns the last sum, and leaves the cells zero (the
    /// scratch's cells stay clear between shapes: `quads` and `cgs_cover_opaque_span` do). By
    /// default `quads`: one `quad` per four columns.
    mutating func span(_ x: Int, _ cells: UnsafeMutablePointer<Float>, _ count: Int, _ sum: Float) -> Float
}

extension CoverageConsumer {
    mutating func span(_ x: Int, _ cells: UnsafeMutablePointer<Float>, _ count: Int, _ sum: Float) -> Float {
        quads(x, cells, count, sum)
    }

    /// `span` four columns at a time through `quad`: the sums added one cell at a time, in order;
    /// the cells are left zero (see `RasterScratch`).
    @inline(__always)
    mutating func quads(_ x: Int, _ cells: UnsafeMutablePointer<Float>, _ count: Int, _ sum: Float) -> Float {
        var sum = sum, i = 0
        while i < count {
            let s0 = sum + cells[i], s1 = s0 + cells[i &+ 1], s2 = s1 + cells[i &+ 2], s3 = s2 + cells[i &+ 3]
            UnsafeMutableRawPointer(cells + i).storeBytes(of: SIMD4<Float>(), as: SIMD4<Float>.self)
            sum = s3
            quad(x &+ i, PathRasterizer.coverage(SIMD4(s0, s1, s2, s3)))
            i &+= 4
        }
        return sum
    }
}

/// Reusable cell memory for rasterisers (one per compositor: no allocation per shape).
/// Its fields are unchecked for exclusive access: one compositor (one thread) owns a scratch, and
/// the runtime's bookkeeping cost more than the clearing itself for small shapes.
///
/// The cells stay zero between shapes without being cleared: `PathRasterizer.resolve(into:)` zeroes
/// every cell it reads, and reads every cell an edge touched, so after it the cells are as they
/// were (`clean`). Only a rasteriser left unresolved, or resolved through `resolve(_:)` (which
/// leaves coverage in its cells), makes the next one clear them — clearing a shape's box of
/// cells before every shape was 4–5 % of S5's time, and pushed the frame's rows out of the
/// first-level cache.
final class RasterScratch {
    @exclusivity(unchecked) private var cells: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) private var capacity = 1 << 14
    /// How many of the first cells may not be zero (0: all are).
    @exclusivity(unchecked) private var dirty = 0
    /// One bit per cell: whether an edge touched it.
    @exclusivity(unchecked) private var marks: UnsafeMutablePointer<UInt64>
    @exclusivity(unchecked) private var markCapacity = 1 << 9
    init() {
        cells = .allocate(capacity: capacity)
        cells.initialize(repeating: 0, count: capacity)
        marks = .allocate(capacity: markCapacity)
    }
    deinit { cells.deallocate(); marks.deallocate() }
    /// At least `n` zeroed cells, counted as in use (possibly not zero) until `clean()`.
    func zeroed(_ n: Int) -> UnsafeMutablePointer<Float> {
        if !RasterScratch.grow(&cells, &capacity, to: n, zero: 0), dirty > 0 {
            cells.update(repeating: 0, count: min(dirty, capacity))
        }
        dirty = n
        return cells
    }
    /// Declares the cells zero again (a resolve read and cleared every one that was touched).
    func clean() { dirty = 0 }
    /// `n` words of marks, all clear.
    func unmarked(_ n: Int) -> UnsafeMutablePointer<UInt64> { RasterScratch.cleared(&marks, &markCapacity, n, 0) }

    /// Memory kept all `zero` by its users: reallocated (at least doubling) and set to `zero`
    /// when it holds fewer than `n` elements; true when it was. (Also `MaskPlane.RowBuffer`.)
    static func grow<T>(_ memory: inout UnsafeMutablePointer<T>, _ capacity: inout Int, to n: Int, zero: T) -> Bool {
        guard n > capacity else { return false }
        memory.deallocate()
        capacity = max(n, capacity * 2)
        memory = .allocate(capacity: capacity)
        memory.initialize(repeating: zero, count: capacity)
        return true
    }

    /// The first `n` elements of `memory` set to `zero`; reallocated (at least doubling) when it
    /// holds fewer.
    static func cleared<T>(_ memory: inout UnsafeMutablePointer<T>, _ capacity: inout Int, _ n: Int,
                                   _ zero: T) -> UnsafeMutablePointer<T> {
        if n > capacity {
            memory.deallocate()
            capacity = max(n, capacity * 2)
            memory = .allocate(capacity: capacity)
        }
        memory.update(repeating: zero, count: n)
        return memory
    }
}

/// Accumulates polygon edges over a box of pixels and yields per-row coverage.
struct PathRasterizer {
    let box: PixelBox
    let width: Int, height: Int
    /// (width + 2) cells per row: the running sum reaches one column past the box.
    private let cells: UnsafeMutablePointer<Float>
    /// Rows that received an edge (rows outside stay empty and are skipped).
    private(set) var rowMin = Int.max, rowMax = Int.min
    /// Per row, a bit per cell an edge touched: between touched cells the running sum stays
    /// what it was, so the coverage there is one constant (often 0: the inside of an outline).
    private let marks: UnsafeMutablePointer<UInt64>
    /// Words of marks per row.
    private let words: Int
    /// Where the cells come from, told when a resolve leaves them zero again.
    private unowned(unsafe) let scratch: RasterScratch

    /// A zeroed accumulator over `box` in `scratch`'s memory (valid until the scratch is reused;
    /// the scratch must outlive it, as its memory must: it is held unretained).
    init(box: PixelBox, scratch: RasterScratch) {
        self.box = box; self.scratch = scratch
        width = max(box.x1 - box.x0, 0); height = max(box.y1 - box.y0, 0)
        cells = scratch.zeroed((width + 2) * height + 2)   // + 2: what `cgs_place_narrow` adds 0 to past the last row
        words = (width + 2 + 63) >> 6
        marks = scratch.unmarked(words * height + 1)   // + 1: what `mark` reads past the last row
    }

    /// Coverage under this is dropped when a row's sum is carried past its last edge: what the
    /// additions of a closed outline leave over (they cancel up to rounding). It changes no 8-bit
    /// pixel: a blend at coverage c moves a channel by at most 255·c < 0.03 of a level.
    static let residue: Float = 1e-4

    /// Coverage above this counts as full: the sums carry rounding of the cells' Float x (a few
    /// millionths over a box tens of pixels wide, more over wider ones), and inside a shape a
    /// pixel should come out exactly its colour (a channel at a rounding tie, such as 0.1 × 255,
    /// would otherwise come out one level lower). As with `residue`, a blend moves by at most
    /// 255 · 10⁻⁴ < 0.03 of a level: no 8-bit pixel changes but at such a tie.
    static let full: Float = 1 - residue

    /// The coverage of a running sum: |sum| at most 1, and 1 above `full`.
    @inline(__always)
    static func coverage(_ sum: Float) -> Float {
        let c = min(abs(sum), 1)
        return c > full ? 1 : c
    }

    /// `coverage` of four sums.
    @inline(__always)
    static func coverage(_ sums: SIMD4<Float>) -> SIMD4<Float> { cgs_coverage_f32x4(sums, full) }

    /// ⌈v⌉ for v in [0, 2³¹) without a call into libm (no rounding instruction in baseline x86-64).
    @inline(__always)
    private static func ceiling(_ v: Float) -> Int {
        let t = floorInt(v)
        return Float(t) < v ? t + 1 : t
    }

    /// ⌊v⌋ for v in [0, 2³¹) (callers know the range: x within the box): no range checks.
    @inline(__always)
    private static func floorInt(_ v: Float) -> Int { Int(cgs_truncate_f32(v)) }

    /// Adds the edge from `p` to `q` (frame pixel coordinates). Edges with a coordinate that is
    /// not finite (as a Double, or once box-relative as a Float) are dropped.
    mutating func addLine(_ p: CGPoint, _ q: CGPoint) {
        let ox = CGFloat(box.x0), oy = CGFloat(box.y0)
        let x0 = Float(p.x - ox), y0 = Float(p.y - oy), x1 = Float(q.x - ox), y1 = Float(q.y - oy)
        guard y0 != y1 else { return }
        let w = Float(width)
        // Most edges lie within the box's columns: straight in (false for a NaN x; a y that is
        // not finite makes the difference so).
        if x0 >= 0, x1 >= 0, x0 <= w, x1 <= w, (y1 - y0).isFinite {
            addInside(x0, y0, x1, y1)
            return
        }
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return }
        // Cut the edge where it crosses the box's left and right sides: the part left of the box
        // runs down its left side (every pixel of those rows lies right of it), the part right of
        // the box touches no pixel of it. Clamping x without cutting would bend the edge.
        // The piece of the edge between parameters ta and tb, which does not cross a side.
        @inline(__always) func piece(_ ta: Float, _ tb: Float) {
            var xa = x0 + (x1 - x0) * ta, xb = x0 + (x1 - x0) * tb
            let ya = y0 + (y1 - y0) * ta, yb = y0 + (y1 - y0) * tb
            let mid = (xa + xb) / 2
            if mid >= w { return }
            if mid <= 0 { xa = 0; xb = 0 }
            addInside(min(max(xa, 0), w), ya, min(max(xb, 0), w), yb)
        }
        // Parameters where the edge crosses x = 0 and x = w (at most one each), in order.
        var t1: Float = 2, t2: Float = 2
        if (x0 < 0) != (x1 < 0), x0 != x1 { t1 = -x0 / (x1 - x0) }
        if (x0 < w) != (x1 < w), x0 != x1 { t2 = (w - x0) / (x1 - x0) }
        if t2 < t1 { swap(&t1, &t2) }
        var ta: Float = 0
        for k in 0..<3 {
            let tb: Float = k == 0 ? t1 : k == 1 ? t2 : 1
            guard tb <= 1, tb > ta else { continue }
            piece(ta, tb)
            ta = tb
        }
    }

    /// Adds an edge that lies within the box's columns (box-local coordinates).
    private mutating func addInside(_ px0: Float, _ py0: Float, _ px1: Float, _ py1: Float) {
        var x0 = px0, y0 = py0, x1 = px1, y1 = py1
        guard y0 != y1 else { return }
        var sign: Float = 1
        if y0 > y1 { swap(&x0, &x1); swap(&y0, &y1); sign = -1 }
        let h = Float(height)
        guard y1 > 0, y0 < h else { return }
        let slope = (x1 - x0) / (y1 - y0)
        let top = max(y0, 0), bottom = min(y1, h)
        let firstRow = PathRasterizer.floorInt(top), lastRow = min(PathRasterizer.ceiling(bottom), height) - 1
        guard firstRow <= lastRow else { return }
        rowMin = min(rowMin, firstRow); rowMax = max(rowMax, lastRow)
        // The accumulator's fields as locals: kept in registers across the rows.
        let w = Float(width), stride = width + 2, cells = self.cells, marks = self.marks, words = self.words
        // Adds to a row (its cells `line`, its marks `bits`) the piece of edge from x = a to
        // x = b, 0 ≤ a ≤ b ≤ width, of signed height dh; c0 and cb are ⌊a⌋ and ⌊b⌋ (a row's
        // bottom is the next row's top, so the whole-row loops convert each x once), and perUnit
        // is d = dh / (b − a), the coverage per unit of x, or 0 to have it worked out here (rows
        // crossed whole pass it in, worked out once per edge).
        @inline(__always) func place(_ line: UnsafeMutablePointer<Float>, _ bits: UnsafeMutablePointer<UInt64>,
                                     _ a: Float, _ b: Float, _ c0: Int, _ cb: Int, _ dh: Float, _ perUnit: Float) {
            // a, b ≤ width, so cb + 1 stays below the stride.
            cgs_place(line, bits, c0, cb, a, b, dh, perUnit != 0 ? perUnit : dh / (b - a))
        }
        // Adds to row `row` the piece of edge from x = xa to x = xb of signed height dh.
        @inline(__always) func deposit(_ row: Int, _ xa: Float, _ xb: Float, _ dh: Float) {
            // Rounding only: the edge lies inside. Except that an edge far flatter than a row
            // (a rise of 10⁻⁴⁰ over ten pixels, found by fuzzing) has a slope that overflows,
            // and 0 × ∞ makes its ends NaN: those go to the left side (min and max would pass a
            // NaN on, to an index far outside the row). Its height, all it adds, is kept.
            @inline(__always) func inside(_ x: Float) -> Float { x >= 0 ? (x <= w ? x : w) : 0 }
            let a = inside(xa), b = inside(xb)
            let lo = min(a, b), hi = max(a, b)
            place(cells + row &* stride, marks + row &* words, lo, hi, PathRasterizer.floorInt(lo), PathRasterizer.floorInt(hi), dh, 0)
        }
        // Where the edge crosses the top of the row's piece. A row's bottom is the next row's
        // top (both are Float(row + 1) below the last row), so it is carried, not recomputed.
        // Rows strictly between the first and the last are crossed whole: their piece runs from
        // Float(row) to Float(row + 1), of height exactly 1.
        let xTop = x0 + (max(Float(firstRow), top) - y0) * slope
        if firstRow == lastRow {
            let dh = (bottom - top) * sign
            if dh != 0 { deposit(firstRow, xTop, x0 + (bottom - y0) * slope, dh) }
            return
        }
        var xa = x0 + (Float(firstRow + 1) - y0) * slope
        let dh0 = (Float(firstRow + 1) - top) * sign
        if dh0 != 0 { deposit(firstRow, xTop, xa, dh0) }
        var row = firstRow + 1
        // Rows crossed whole stay within the edge's columns up to rounding (4·10⁻⁷ of the width
        // at most): away from the box's sides the clamps change nothing, and the slope's sign
        // orders each piece's ends (rounding is monotone), so both are left out there.
        let margin = w * 1e-6 + 1e-3
        if row < lastRow, min(x0, x1) >= margin, max(x0, x1) <= w - margin {
            var line = cells + row &* stride, bits = marks + row &* words
            // Two loops, not one choosing the ends per row (+1.3 % instructions on S5).
            // The row's bottom as a Float, counted up (exact: rows are far below 2²⁴).
            // A whole row's piece spans |slope| columns: its coverage per unit of x is one constant.
            // Not for steep edges: their pieces cross a column only now and then, and the rounded
            // ends of such a piece may lie many times |slope| apart (an ulp of x against an edge
            // moving 10⁻⁸ pixel a row), which would give its first column far more than its area.
            var ca = PathRasterizer.floorInt(xa), next = Float(row + 1)
            let d = abs(slope) >= 1.0 / 64 ? sign / abs(slope) : 0
            // Less than two columns a row (most rows of most shapes; 70 % are steeper than a
            // diagonal): every whole row's piece lies within one or two columns, or two or three,
            // and C takes the rows four at a time (when there are four: the call costs more than
            // the rows of a short edge), as `place` would one by one; the loops below finish what
            // it leaves.
            if abs(slope) < 2, lastRow &- row >= 4 {
                let n = cgs_edge_rows4(line, bits, stride, words, lastRow &- row, x0, y0, slope, next, xa, sign, d,
                                       abs(slope) < 1 ? 0 : 1)
                if n > 0 {
                    let lastNext = next + Float(n &- 1)
                    xa = x0 + (lastNext - y0) * slope
                    ca = PathRasterizer.floorInt(xa)
                    row &+= n; next = lastNext + 1; line += n &* stride; bits += n &* words
                }
            }
            if slope >= 0 {
                while row < lastRow {
                    let xb = x0 + (next - y0) * slope, cb = PathRasterizer.floorInt(xb)
                    place(line, bits, xa, xb, ca, cb, sign, d)
                    xa = xb; ca = cb; row += 1; next += 1; line += stride; bits += words
                }
            } else {
                while row < lastRow {
                    let xb = x0 + (next - y0) * slope, cb = PathRasterizer.floorInt(xb)
                    place(line, bits, xb, xa, cb, ca, sign, d)
                    xa = xb; ca = cb; row += 1; next += 1; line += stride; bits += words
                }
            }
        }
        while row < lastRow {
            let xb = x0 + (Float(row + 1) - y0) * slope
            deposit(row, xa, xb, sign)
            xa = xb
            row += 1
        }
        let dh1 = (bottom - Float(lastRow)) * sign
        if dh1 != 0 { deposit(lastRow, xa, x0 + (bottom - y0) * slope, dh1) }
    }

    /// Adds every edge of `path` (layer space) mapped by `transform` into frame pixels, each
    /// subpath closed; curves are flattened to within `tolerance` pixels (area error under 0.2 % for a
    /// 20-pixel circle).
    mutating func addPath(_ path: CGPath, transform t: CGAffineTransform, tolerance: CGFloat = 0.05) {
        var feed = Feed(raster: self, transform: t, tolerance: tolerance)
        for op in path.ops { feed.add(op) }
        self = feed.finished()
    }

    /// Path elements (layer space) fed to a rasteriser as they come, mapped by `transform` into
    /// frame pixels; each subpath is closed. `finished()` closes the last one and gives the
    /// rasteriser back.
    struct Feed: PathSink {
        private var raster: PathRasterizer
        let transform: CGAffineTransform
        let tolerance: CGFloat
        private var start = CGPoint.zero, last = CGPoint.zero
        private var open = false

        init(raster: PathRasterizer, transform: CGAffineTransform, tolerance: CGFloat = 0.05) {
            self.raster = raster; self.transform = transform; self.tolerance = tolerance
        }

        mutating func add(_ op: PathOp) {
            let t = transform
            switch op {
            case .move(let p):
                if open { raster.addLine(last, start) }
                start = p.applying(t); last = start; open = true
            case .line(let p):
                let q = p.applying(t); raster.addLine(last, q); last = q; open = true
            case .quad(let c, let p):
                let c1 = c.applying(t), q = p.applying(t)
                let k = PathRasterizer.segments(last, c1, c1, q, tolerance)
                var prev = last
                for i in 1...k {
                    let s = CGFloat(i) / CGFloat(k), u = 1 - s
                    let r = i == k ? q : CGPoint(x: u * u * last.x + 2 * u * s * c1.x + s * s * q.x,
                                                 y: u * u * last.y + 2 * u * s * c1.y + s * s * q.y)
                    raster.addLine(prev, r); prev = r
                }
                last = q; open = true
            case .cubic(let c1, let c2, let p):
                let a = c1.applying(t), b = c2.applying(t), q = p.applying(t)
                let k = PathRasterizer.segments(last, a, b, q, tolerance)
                var prev = last
                for i in 1...k {
                    let s = CGFloat(i) / CGFloat(k), u = 1 - s
                    let r = i == k ? q : CGPoint(
                        x: u * u * u * last.x + 3 * u * u * s * a.x + 3 * u * s * s * b.x + s * s * s * q.x,
                        y: u * u * u * last.y + 3 * u * u * s * a.y + 3 * u * s * s * b.y + s * s * s * q.y)
                    raster.addLine(prev, r); prev = r
                }
                last = q; open = true
            case .close:
                if open { raster.addLine(last, start) }
                last = start; open = false
            }
        }

        /// The rasteriser with every edge added, the last subpath closed.
        func finished() -> PathRasterizer {
            var r = raster
            if open { r.addLine(last, start) }
            return r
        }
    }

    /// Segments that keep a flattened cubic within `tolerance` (Wang's bound), capped.
    fileprivate static func segments(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p1: CGPoint, _ tolerance: CGFloat) -> Int {
        let ddx = max(abs(p0.x - 2 * c1.x + c2.x), abs(c1.x - 2 * c2.x + p1.x))
        let ddy = max(abs(p0.y - 2 * c1.y + c2.y), abs(c1.y - 2 * c2.y + p1.y))
        let n = (0.75 * (ddx * ddx + ddy * ddy).squareRoot() / tolerance).squareRoot().rounded(.up)
        return CGClampToInt(Double(n), in: 1...1024)
    }

    /// Runs the sums: for each row that may be covered, calls `body(y, coverage, columns)` once
    /// per stretch of columns (box-relative, in order) where the coverage can be above 0, after
    /// the whole row is summed; `coverage` points at the box's first column (frame column x is
    /// `coverage[x − box.x0]`), values in [0, 1], 0 outside the stretches. Consumes the
    /// accumulator (the cells hold coverage afterwards).
    ///
    /// Only touched cells are summed one by one; between them the sum is a constant, filled in
    /// when it is at least `residue` and skipped otherwise (the cells there are still 0), so the
    /// inside of a stroked outline costs nothing.
    mutating func resolve(_ body: (Int, UnsafePointer<Float>, Range<Int>) -> Void) {
        guard rowMin <= rowMax else { return }
        let stride = width + 2
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: 64) { spans in
            for row in rowMin...rowMax {
                let line = cells + row * stride, bits = marks + row * words
                var count = 0
                var open = -1   // start of the stretch being built, or -1
                func close(_ end: Int) {
                    guard open >= 0 else { return }
                    if count == spans.count { spans[count - 1] = spans[count - 1].lowerBound..<end } else { spans[count] = open..<end; count += 1 }
                    open = -1
                }
                var sum: Float = 0
                var x = 0
                while x < width {
                    // The next run of touched cells [a, b).
                    guard let a = PathRasterizer.next(bits, from: x, set: true, limit: width) else { break }
                    let b = PathRasterizer.next(bits, from: a, set: false, limit: width) ?? width
                    if x < a { gap(x, a) }
                    if open < 0 { open = a }
                    for c in a..<b {
                        sum += line[c]
                        line[c] = PathRasterizer.coverage(sum)
                    }
                    x = b
                }
                if x < width { gap(x, width) }
                close(width)
                func gap(_ lo: Int, _ hi: Int) {
                    let rest = PathRasterizer.coverage(sum)
                    if rest >= PathRasterizer.residue {
                        (line + lo).update(repeating: rest, count: hi - lo)
                        if open < 0 { open = lo }
                    } else {
                        close(lo)
                    }
                }
                for i in 0..<count { body(box.y0 + row, UnsafePointer(line), spans[i]) }
            }
        }
    }

    /// Runs the sums four columns at a time into `consumer` (which blends four pixels at once):
    /// per row that may be covered, `begin(row:)`, then in order along the row `span` for each
    /// stretch of groups of four columns from a touched cell on, while the groups hold one (a
    /// single group without one between two that do is taken along; all inside the box),
    /// `pixel` for the columns of a group the box's right side cuts short, and `run` for each
    /// stretch between spans where the coverage is one constant of at least `residue`. Each
    /// column is handed over at most once, with the coverage `resolve` gives it (the same sums
    /// in the same order) — except that a group's columns after a run of touched cells carry the
    /// sum as it is, which may be a residue under `residue` where `resolve` leaves 0 (it changes
    /// no 8-bit pixel). Consumes the accumulator.
    @inline(__always)
    mutating func resolve<Consumer: CoverageConsumer>(into consumer: inout Consumer) {
        guard rowMin <= rowMax else { return }
        // Columns are box-relative and below the box's width (a PixelBox within 2³¹), frame
        // columns x0 + x likewise: the arithmetic below wraps (`&+`) rather than checks.
        let stride = width + 2, x0 = box.x0
        for row in rowMin...rowMax {
            let line = cells + row * stride, bits = marks + row * words
            consumer.begin(row: box.y0 + row)
            var sum: Float = 0
            var x = 0
            while x < width {
                guard let a = PathRasterizer.next(bits, from: x, set: true, limit: width) else { break }
                if x < a {
                    let rest = PathRasterizer.coverage(sum)
                    if rest >= PathRasterizer.residue { consumer.run((x0 &+ x)..<(x0 &+ a), rest) }
                }
                // Groups of four from the touched cell on, while they hold touched cells.
                let end = PathRasterizer.groupsEnd(bits, from: a, limit: width)
                // The groups inside the box as one span, a last one the box's side cuts short
                // column by column.
                let whole = min(end, a &+ ((width &- a) & ~3))
                sum = consumer.span(x0 &+ a, line + a, whole &- a, sum)
                x = whole
                while x < min(end, width) {
                    sum += line[x]
                    line[x] = 0
                    consumer.pixel(x0 &+ x, PathRasterizer.coverage(sum))
                    x &+= 1
                }
            }
            if x < width {
                let rest = PathRasterizer.coverage(sum)
                if rest >= PathRasterizer.residue { consumer.run((x0 &+ x)..<(x0 &+ width), rest) }
            }
            // The two cells past the box: touched, never summed.
            line[width] = 0
            line[width &+ 1] = 0
        }
        // Every touched cell was read through a span (which clears its cells), the loop above,
        // or is one of the two past the box.
        scratch.clean()
    }

    /// The end of the groups of four cells from `a` (a touched cell) on that hold touched cells,
    /// bridging single clear groups: the first a + 4k where two groups in a row have none, or at
    /// least `limit`. (A clear group between touched ones, often the inside of a thin stroke, is
    /// cheaper summed with them than handed over as a run between two spans; its cells are 0, so
    /// the sums are the same.) Thirteen groups at a time from the 64 bits that start at the byte
    /// holding cell a, read unaligned as `mark` writes them: a group's bits are or-ed into its
    /// first, and the first clear group followed by another ends it.
    @inline(__always)
    private static func groupsEnd(_ bits: UnsafeMutablePointer<UInt64>, from a: Int, limit: Int) -> Int {
        var end = a
        while true {
            let word = (UnsafeRawPointer(bits) + (end >> 3)).loadUnaligned(as: UInt64.self) >> UInt64(truncatingIfNeeded: end & 7)
            let touched = word | word >> 1 | word >> 2 | word >> 3
            let clear = ~touched & 0x0011_1111_1111_1111   // groups 0 ..< 14: bits 0 ..< 56 of the 57 read
            let pairs = clear & clear >> 4                  // groups 0 ..< 13 followed by a clear one
            if pairs != 0 { return end &+ pairs.trailingZeroBitCount }
            end &+= 52
            if end >= limit { return end }
        }
    }

    /// The first cell at or after `x` (below `limit`) whose mark is `set`; nil when none.
    @inline(__always)
    private static func next(_ bits: UnsafeMutablePointer<UInt64>, from x: Int, set: Bool, limit: Int) -> Int? {
        var w = x >> 6
        var word = (set ? bits[w] : ~bits[w]) & (~0 << UInt64(x & 63))
        let last = (limit &- 1) >> 6
        while word == 0 {
            w &+= 1
            if w > last { return nil }
            word = set ? bits[w] : ~bits[w]
        }
        let c = w << 6 &+ word.trailingZeroBitCount
        return c < limit ? c : nil
    }
}
