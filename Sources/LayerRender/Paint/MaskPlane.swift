import CGSupport
import CoreGraphics
import Foundation

/// A shape mask's alpha over a box of pixels (frame coordinates), with, per row, the columns
/// where it is not zero.
///
/// Why the rows: a masked layer is painted into an offscreen and then multiplied by its mask,
/// so whatever it paints where the mask is zero is thrown away. Knowing the rows first, kernels
/// can skip those pixels (`Compositor.Context.rows`) and the multiply and the composite can visit
/// only the columns that matter. Skipping changes no pixel: the rows are only a hint of where
/// work is wasted, and every pixel outside them is either zeroed by `multiply` or never read.
struct MaskPlane {
    /// Per row of a box, the columns [lo, hi) where a mask is not zero (lo ≥ hi: none).
    struct Rows {
        let y0: Int
        var spans: [(lo: Int32, hi: Int32)]

        /// Calls `body(y, lo, hi)` for each row of `box` with its columns, narrowed to those of
        /// `rows` when given (rows where the mask is zero are skipped).
        @inline(__always)
        static func visit(_ box: PixelBox, _ rows: Rows?, _ body: (Int, Int, Int) -> Void) {
            for y in box.y0..<box.y1 {
                guard let rows else { body(y, box.x0, box.x1); continue }
                let xs = rows.columns(y, box.x0, box.x1)
                if !xs.isEmpty { body(y, xs.lowerBound, xs.upperBound) }
            }
        }

        /// Row `y`'s columns within `lo..<hi`; empty where the mask is zero or `y` is outside.
        @inline(__always)
        func columns(_ y: Int, _ lo: Int, _ hi: Int) -> Range<Int> {
            let i = y - y0
            guard i >= 0, i < spans.count else { return lo..<lo }
            let s = spans[i]
            let a = max(lo, Int(s.lo)), b = min(hi, Int(s.hi))
            return a < b ? a..<b : a..<a
        }
    }

    let box: PixelBox
    /// Alpha in 0…255, row-major over `box`.
    var alpha: [UInt8]
    var rows: Rows

    /// An all-zero plane over `box`.
    init(box: PixelBox) {
        self.box = box
        let w = box.x1 - box.x0, h = max(box.y1 - box.y0, 0)
        alpha = [UInt8](repeating: 0, count: w * h)
        rows = Rows(y0: box.y0, spans: Array(repeating: (lo: Int32(box.x1), hi: Int32(box.x0)), count: h))
    }

    /// Sets row `y`'s alpha at columns `x0 ..< x0 + count` from coverage in [0, 1] (rounded as
    /// an opaque fill blended onto nothing is), and widens the row's span to what is not zero.
    mutating func setRow(_ y: Int, from x0: Int, coverage: UnsafePointer<Float>, count: Int) {
        let w = box.x1 - box.x0, base = (y - box.y0) * w - box.x0
        var lo = Int(rows.spans[y - box.y0].lo), hi = Int(rows.spans[y - box.y0].hi)
        alpha.withUnsafeMutableBufferPointer { a in
            let out = a.baseAddress! + base + x0
            Raster.coverageBytes(coverage, out, count: count)
            // The span: from the first to the last byte that is not zero.
            var first = 0, last = count
            while first < last, out[first] == 0 { first += 1 }
            while last > first, out[last - 1] == 0 { last -= 1 }
            if first < last { lo = min(lo, x0 + first); hi = max(hi, x0 + last) }
        }
        rows.spans[y - box.y0] = (Int32(lo), Int32(hi))
    }

    /// Multiplies `target`'s pixels by the alpha: all of `box` (pixels outside the rows become
    /// zero), or with `rowsOnly` just the rows' columns (when nothing reads the others).
    func multiply(_ target: RenderTarget, rowsOnly: Bool) {
        let w = box.x1 - box.x0
        alpha.withUnsafeBufferPointer { alpha in
            for y in box.y0..<box.y1 {
                let row = target.row(y), a = alpha.baseAddress! + (y - box.y0) * w - box.x0
                let xs = rows.columns(y, box.x0, box.x1)
                if !rowsOnly {
                    for x in box.x0..<xs.lowerBound where row[x] != 0 { row[x] = 0 }
                    for x in xs.upperBound..<box.x1 where row[x] != 0 { row[x] = 0 }
                }
                for x in xs where row[x] != 0 && a[x] != 255 { row[x] = Raster.scaled(row[x], by: UInt32(a[x])) }
            }
        }
    }

    /// Composites the multiplied `source` onto `target` within `limit` at `alpha`, visiting only
    /// the rows' columns (the pixels `multiply` left; the others are zero or never written).
    func composite(_ source: RenderTarget, onto target: RenderTarget, limit: PixelBox, alpha: Float) {
        let b = box.intersection(limit)
        guard !b.isEmpty else { return }
        for y in b.y0..<b.y1 {
            let xs = rows.columns(y, b.x0, b.x1)
            if !xs.isEmpty { Raster.compositeRun(source.row(y), target.row(y), xs, alpha) }
        }
    }
}

extension MaskPlane {
    /// One row of a masked layer's pixels, painted, multiplied and composited without an offscreen.
    ///
    /// Why: a layer that paints only per-pixel content (a gradient) does not need its whole
    /// offscreen at once. Its kernel paints a stretch of a row into `buffer(over:)` (a target
    /// whose every row is the same words), then `finish` multiplies it by the alpha and
    /// composites it, with the operations of `multiply` and `composite` in the same order, so the
    /// pixels are the offscreen path's.
    ///
    /// One per compositor, lent to each masked layer in turn (no allocation per layer and frame).
    /// It stays zero between layers without being cleared: every stretch painted into it is
    /// zeroed again once used (`finish`, `MaskedConstantRows`) — clearing a frame-wide row for
    /// each of S5's 200 masked gradients was a megabyte of stores a frame.
    final class RowBuffer {
        // Unchecked for exclusive access, as `RasterScratch`: one compositor owns it.
        @exclusivity(unchecked) private var words: UnsafeMutablePointer<UInt32>
        @exclusivity(unchecked) private var capacity = 1 << 10

        init() {
            words = .allocate(capacity: capacity)
            words.initialize(repeating: 0, count: capacity)
        }
        deinit { words.deallocate() }

        /// A zeroed row over the columns of `box` (valid until the next call; to be left zero).
        func buffer(over box: PixelBox) -> RenderTarget {
            let w = max(box.x1 - box.x0, 1)
            _ = RasterScratch.grow(&words, &capacity, to: w, zero: 0)
            return RenderTarget(pixels: words, width: w, height: 1, stride: 0, originX: box.x0, originY: box.y0)
        }
    }

    /// Multiplies columns `xs` of row `y` of `row` (a `RowBuffer`'s buffer) by `alpha` (bytes
    /// indexed by frame column) and composites them onto `target` at `opacity` within `limit`,
    /// then zeroes them (the buffer is ready for the next stretch). The operations of `multiply`
    /// and `composite` for those pixels, in the same order.
    static func finish(_ y: Int, _ xs: Range<Int>, alpha a: UnsafePointer<UInt8>, _ row: RenderTarget, onto target: RenderTarget,
                       limit: PixelBox, opacity: Float) {
        let source = row.row(y)
        guard !xs.isEmpty else { return }
        defer { (source + xs.lowerBound).update(repeating: 0, count: xs.count) }
        guard y >= limit.y0, y < limit.y1 else { return }
        let lo = max(xs.lowerBound, limit.x0), hi = max(min(xs.upperBound, limit.x1), lo)
        let copies = opacity == 1, out = target.row(y)
        // The frame's rows are cold when a layer first reaches them: ask for the ends of the row
        // two below while this one is finished (the mask's edges move little from row to row).
        if y + 2 < limit.y1 {
            let ahead = target.row(y + 2)
            cgs_prefetch(ahead + lo); cgs_prefetch(ahead + hi - 1)
        }
        var x = lo
        while x < hi {
            // Inside the mask, four opaque pixels under full alpha at a time are copied as they are.
            if copies, x + 4 <= hi, UnsafeRawPointer(a + x).loadUnaligned(as: UInt32.self) == .max {
                let words = UnsafeRawPointer(source + x).loadUnaligned(as: SIMD4<UInt32>.self)
                if all(words .>= 0xFF00_0000) {
                    UnsafeMutableRawPointer(out + x).storeBytes(of: words, as: SIMD4<UInt32>.self)
                    x += 4
                    continue
                }
            }
            let p = source[x]
            if p != 0 { Raster.compositePixel(a[x] == 255 ? p : Raster.scaled(p, by: UInt32(a[x])), out + x, opacity, copies: copies) }
            x += 1
        }
    }
}
