import CoreGraphics
import Foundation

// The compositor's path rasteriser: exact area coverage of polygons, accumulated per cell.
//
// Every edge adds, to the cells of each row it crosses, the change of signed covered area from
// one cell to the next; a running sum along the row then gives each pixel's signed coverage
// (the winding-weighted area of the pixel inside the polygon). Coverage is |sum| clamped to 1:
// exact for simple polygons and for unions of pieces wound the same way (how CGPath's stroker
// builds outlines), the non-zero rule for everything else up to anti-aliasing at overlaps.
// Even-odd fills are left to CoreGraphics. Inner loop of the shape layers: long by design.
//
// The area maths: a piece of edge inside one row, of signed height h and running from x = a to
// x = b, covers of pixel column c the fraction averaged over the piece of clamp(c + 1 − x, 0, 1);
// with u = x − c its antiderivative is G(u) = u (u ≤ 0), u − u²/2 (0 < u < 1), ½ (u ≥ 1), so
// the pixel gets h · (G(b − c) − G(a − c)) / (b − a), and every column right of the piece gets h.

/// Reusable cell memory for rasterisers (one per compositor: no allocation per shape).
final class RasterScratch {
    private(set) var cells: UnsafeMutablePointer<Float>
    private(set) var capacity: Int
    /// Per row, the first and one past the last cell an edge touched.
    private(set) var touched: UnsafeMutablePointer<(Int32, Int32)>
    private(set) var rows: Int
    init() {
        capacity = 1 << 14; cells = .allocate(capacity: capacity)
        rows = 256; touched = .allocate(capacity: rows)
    }
    deinit { cells.deallocate(); touched.deallocate() }
    /// At least `n` zeroed cells.
    func zeroed(_ n: Int) -> UnsafeMutablePointer<Float> {
        if n > capacity {
            cells.deallocate()
            capacity = max(n, capacity * 2)
            cells = .allocate(capacity: capacity)
        }
        cells.update(repeating: 0, count: n)
        return cells
    }
    /// `n` rows of touched columns, all empty.
    func untouched(_ n: Int) -> UnsafeMutablePointer<(Int32, Int32)> {
        if n > rows {
            touched.deallocate()
            rows = max(n, rows * 2)
            touched = .allocate(capacity: rows)
        }
        touched.update(repeating: (Int32.max, Int32.min), count: n)
        return touched
    }
}

/// Accumulates polygon edges over a box of pixels and yields per-row coverage.
struct Rasterizer {
    let box: PixelBox
    let width: Int, height: Int
    /// (width + 2) cells per row: the running sum reaches one column past the box.
    private let cells: UnsafeMutablePointer<Float>
    /// Rows that received an edge (rows outside stay empty and are skipped).
    private(set) var rowMin = Int.max, rowMax = Int.min
    /// Per row, the cells edges touched: the running sum is 0 before them and constant after.
    private let touched: UnsafeMutablePointer<(Int32, Int32)>

    /// A zeroed accumulator over `box` in `scratch`'s memory (valid until the scratch is reused).
    init(box: PixelBox, scratch: RasterScratch) {
        self.box = box
        width = max(box.x1 - box.x0, 0); height = max(box.y1 - box.y0, 0)
        cells = scratch.zeroed((width + 2) * height)
        touched = scratch.untouched(height)
    }

    /// Coverage under this is dropped when a row's sum is carried past its last edge: what the
    /// additions of a closed outline leave over (they cancel up to rounding). It changes no 8-bit
    /// pixel: a blend at coverage c moves a channel by at most 255·c < 0.03 of a level.
    static let residue: Float = 1e-4

    /// ⌈v⌉ for v in [0, 2³¹) without a call into libm (no rounding instruction in baseline x86-64).
    @inline(__always)
    private static func ceiling(_ v: Float) -> Int {
        let t = Int(v)
        return Float(t) < v ? t + 1 : t
    }

    @inline(__always)
    private static func g(_ u: Float) -> Float {
        if u <= 0 { return u }
        if u >= 1 { return 0.5 }
        return u - u * u / 2
    }

    /// Adds the edge from `p` to `q` (frame pixel coordinates).
    mutating func addLine(_ p: CGPoint, _ q: CGPoint) {
        guard p.y != q.y, p.x.isFinite, p.y.isFinite, q.x.isFinite, q.y.isFinite else { return }
        let ox = CGFloat(box.x0), oy = CGFloat(box.y0)
        let x0 = Float(p.x - ox), y0 = Float(p.y - oy), x1 = Float(q.x - ox), y1 = Float(q.y - oy)
        // Cut the edge where it crosses the box's left and right sides: the part left of the box
        // runs down its left side (every pixel of those rows lies right of it), the part right of
        // the box touches no pixel of it. Clamping x without cutting would bend the edge.
        let w = Float(width)
        // Parameters where the edge crosses x = 0 and x = w (at most one each), in order.
        var t1: Float = 2, t2: Float = 2
        if (x0 < 0) != (x1 < 0), x0 != x1 { t1 = -x0 / (x1 - x0) }
        if (x0 < w) != (x1 < w), x0 != x1 { t2 = (w - x0) / (x1 - x0) }
        if t2 < t1 { swap(&t1, &t2) }
        var ta: Float = 0
        for k in 0..<3 {
            let tb: Float = k == 0 ? t1 : k == 1 ? t2 : 1
            guard tb <= 1, tb > ta else { continue }
            var xa = x0 + (x1 - x0) * ta, xb = x0 + (x1 - x0) * tb
            let ya = y0 + (y1 - y0) * ta, yb = y0 + (y1 - y0) * tb
            ta = tb
            let mid = (xa + xb) / 2
            if mid >= w { continue }
            if mid <= 0 { xa = 0; xb = 0 }
            addInside(min(max(xa, 0), w), ya, min(max(xb, 0), w), yb)
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
        let firstRow = Int(top), lastRow = min(Rasterizer.ceiling(bottom), height) - 1
        guard firstRow <= lastRow else { return }
        rowMin = min(rowMin, firstRow); rowMax = max(rowMax, lastRow)
        let w = Float(width), stride = width + 2
        for row in firstRow...lastRow {
            let ya = max(Float(row), top), yb = min(Float(row + 1), bottom)
            let dh = (yb - ya) * sign
            if dh == 0 { continue }
            var a = x0 + (ya - y0) * slope, b = x0 + (yb - y0) * slope
            a = min(max(a, 0), w); b = min(max(b, 0), w)   // rounding only: the edge lies inside
            if a > b { swap(&a, &b) }
            let line = cells + row * stride
            let c0 = Int(a), c1 = min(Rasterizer.ceiling(b), width + 1)
            let t = touched[row]
            touched[row] = (min(t.0, Int32(c0)), max(t.1, Int32(min(max(c1, c0 + 1) + 1, stride))))
            if c1 <= c0 + 1 {
                // Within one column (or on a column boundary): the mean x decides the split.
                let f = (a + b) / 2 - Float(c0)
                line[c0] += dh * (1 - f)
                if c0 + 1 < stride { line[c0 + 1] += dh * f }
                continue
            }
            let inv = 1 / (b - a)
            // Column c gets dh·(G(b − c) − G(a − c))/(b − a). Between the first and the last
            // column, b − c ≥ 1 and a − c < 0, where G is ½ and u: the same values without the
            // branches of G.
            var previous = dh * (Rasterizer.g(b - Float(c0)) - Rasterizer.g(a - Float(c0))) * inv
            line[c0] += previous
            if c0 + 2 < c1 {
                for c in (c0 + 1)..<(c1 - 1) {
                    let cov = dh * (0.5 - (a - Float(c))) * inv
                    line[c] += cov - previous
                    previous = cov
                }
            }
            let cl = Float(c1 - 1)
            let last = dh * (Rasterizer.g(b - cl) - Rasterizer.g(a - cl)) * inv
            line[c1 - 1] += last - previous
            if c1 < stride { line[c1] += dh - last }
        }
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
        private var raster: Rasterizer
        let transform: CGAffineTransform
        let tolerance: CGFloat
        private var start = CGPoint.zero, last = CGPoint.zero
        private var open = false

        init(raster: Rasterizer, transform: CGAffineTransform, tolerance: CGFloat = 0.05) {
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
                let k = Rasterizer.segments(last, c1, c1, q, tolerance)
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
                let k = Rasterizer.segments(last, a, b, q, tolerance)
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
        func finished() -> Rasterizer {
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

    /// Runs the sums: calls `body(y, coverage, columns)` for each row that may be covered, with
    /// `coverage` pointing at the box's first column (frame column x is `coverage[x − box.x0]`),
    /// values in [0, 1], zero outside `columns` (box-relative). Consumes the accumulator (the
    /// cells hold coverage afterwards).
    mutating func resolve(_ body: (Int, UnsafePointer<Float>, Range<Int>) -> Void) {
        guard rowMin <= rowMax else { return }
        let stride = width + 2
        for row in rowMin...rowMax {
            let line = cells + row * stride
            let t = touched[row]
            // Only the touched cells need the running sum: before them it is 0, after them it
            // stays what it reached (coverage of a shape running past the box's right side).
            let lo = min(max(Int(t.0), 0), width), hi = min(max(Int(t.1), lo), width)
            var sum: Float = 0
            for x in lo..<hi {
                sum += line[x]
                line[x] = min(abs(sum), 1)
            }
            var end = hi
            let rest = min(abs(sum), 1)
            if rest >= Rasterizer.residue {
                (line + hi).update(repeating: rest, count: width - hi)
                end = width
            }
            body(box.y0 + row, UnsafePointer(line), lo..<end)
        }
    }
}
