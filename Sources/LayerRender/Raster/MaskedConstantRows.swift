import CGSupport
import CoreGraphics
import Foundation

// A gradient of one colour per row cut out by a shape mask (S5's stars), finished straight from
// the mask's sums: per pixel the alpha byte `Raster.coverageBytes` gives, then the multiply and
// the composite of `MaskPlane.finish`, so the pixels are those of the general masked path, with
// no coverage, alpha bytes or gradient row in memory. Four pixels at a time where the mask's
// edges are; the few pixels on the gradient layer's own anti-aliased edges are painted one at a
// time by `GradientPaint.row` into a row buffer, as the general path paints them.

/// Finishes a masked gradient with constant rows (`GradientPaint.hasConstantRows`) onto a
/// target, from the coverage of its mask's rasteriser.
struct MaskedConstantRows: CoverageConsumer {
    let paint: GradientPaint
    /// Where the edge pixels are painted (zero again after each).
    let edge: RenderTarget
    let target: RenderTarget
    /// The gradient layer's box within the painter's limit (frame pixels).
    let x0: Int, x1: Int, y0: Int, y1: Int
    /// The rows the painter may write (prefetching stops there).
    let limitY1: Int
    let box: PixelBox
    let opacity: Float
    private let copies: Bool
    /// The row being finished: columns where the gradient can be above 0 (lo ..< hi) and where
    /// it is one colour (fullLo ..< fullHi), that colour's word, the target's row.
    private var y = 0, lo = 0, hi = 0, fullLo = 0, fullHi = 0
    private var word: UInt32 = 0
    /// The columns where `span` may run the opaque kernel: one opaque colour at opacity 1 and
    /// inside lo ..< hi (empty otherwise).
    private var opaqueLo = 0, opaqueHi = 0
    /// What `GradientPaint.constantRows` gives for the whole box, worked out once: the rows
    /// where the gradient can be above 0 and its columns there (within the limit), and the
    /// rows and columns where it is one colour.
    private let outerRows: Range<Int>, fullRows: Range<Int>, outerLo: Int, outerHi: Int, full: Range<Int>
    private var out: UnsafeMutablePointer<UInt32>

    /// Composites `paint`'s pixels of the gradient layer's `box`, painted into `edge` where they
    /// are not one colour, at `opacity` onto `target` within `limit`.
    init(paint: GradientPaint, edge: RenderTarget, box: PixelBox, limit: PixelBox, target: RenderTarget, opacity: Float) {
        self.paint = paint; self.edge = edge; self.box = box; self.target = target; self.opacity = opacity
        x0 = max(box.x0, limit.x0); x1 = min(box.x1, limit.x1); y0 = max(box.y0, limit.y0); y1 = min(box.y1, limit.y1)
        limitY1 = limit.y1
        copies = opacity == 1
        out = target.pixels
        let ys = y0..<max(y1, y0)
        if let c = paint.constantRows(ys, box.x0, box.x1) {
            outerRows = c.outerRows; fullRows = c.fullRows; full = c.full
            outerLo = max(c.outer.lowerBound, x0); outerHi = min(c.outer.upperBound, x1)
        } else {
            // Not a paint with constant rows: every pixel through `row`.
            outerRows = ys; fullRows = 0..<0; full = 0..<0; outerLo = x0; outerHi = x1
        }
        paint.prefetchRamp(rows: ys)
    }

    mutating func begin(row y: Int) {
        self.y = y; lo = 0; hi = 0; opaqueLo = 0; opaqueHi = 0
        guard y >= y0, y < y1 else { return }
        out = target.row(y)
        guard outerRows.contains(y) else { return }
        lo = outerLo; hi = outerHi; fullLo = 0; fullHi = 0
        if fullRows.contains(y), !full.isEmpty {
            fullLo = full.lowerBound; fullHi = full.upperBound
            word = paint.word(row: y, at: fullLo)
            if copies, word >> 24 == 255 { opaqueLo = max(fullLo, lo); opaqueHi = min(fullHi, hi) }
        }
        // The target's rows are cold when a layer first reaches them, and the composite waits
        // on them: every line of this row's columns is asked for three rows ahead (the mask's
        // edges move little from row to row).
        if y + 3 < limitY1 { target.prefetch(row: y + 3, lo..<max(hi, lo)) }
    }

    /// The gradient's pixel at column x of this row (inside lo ..< hi).
    @inline(__always)
    private func source(_ x: Int) -> UInt32 {
        if x >= fullLo && x < fullHi { return word }
        let b = edge.row(y)
        paint.row(y, x, x + 1)
        let p = b[x]
        b[x] = 0
        return p
    }

    /// The source `p` multiplied by alpha byte `a` (not 0), as `MaskPlane.multiply` does.
    @inline(__always)
    private static func masked(_ p: UInt32, _ a: UInt32) -> UInt32 { a == 255 ? p : Raster.scaled(p, by: a) }

    @inline(__always)
    mutating func quad(_ x: Int, _ coverage: SIMD4<Float>) {
        guard x + 4 > lo, x < hi else { return }
        let a = Raster.coverageBytes(coverage)
        if a == .zero { return }
        var words = SIMD4<UInt32>()
        if x >= fullLo, x + 4 <= fullHi {
            // One colour: `scale` by 255 keeps a word and by 0 gives 0, so no lane needs a test.
            if copies, a == SIMD4(repeating: 255), word >> 24 == 255 {
                cgs_store_u32x4(out + x, SIMD4(repeating: word))
                return
            }
            words = Raster.scale(SIMD4(repeating: word), by: a)
        } else {
            for i in 0..<4 where a[i] != 0 && x + i >= lo && x + i < hi {
                let p = source(x + i)
                if p != 0 { words[i] = MaskedConstantRows.masked(p, a[i]) }
            }
        }
        // All four columns may be written: one composite (a word of 0 leaves its pixel as it is).
        if x >= lo, x + 4 <= hi {
            Raster.composite4(out + x, words, opacity)
        } else {
            for i in 0..<4 where words[i] != 0 { Raster.compositePixel(words[i], out + x + i, opacity, copies: copies) }
        }
    }

    /// Where the row is one opaque colour at opacity 1 (the inside of most rows), whole groups
    /// go through `cgs_cover_opaque_span`: `quad`'s multiply and composite without its tests.
    @inline(__always)
    mutating func span(_ x: Int, _ cells: UnsafeMutablePointer<Float>, _ count: Int, _ sum: Float) -> Float {
        if x >= opaqueLo, x &+ count <= opaqueHi {
            return cgs_cover_opaque_span(out + x, cells, count, sum, PathRasterizer.full, word)
        }
        // The span's groups that lie within those columns, [first, last), and quads either side
        // (frame columns of the box: the arithmetic wraps rather than checks).
        let first = x &+ min(count, (max(opaqueLo &- x, 0) &+ 3) & ~3)
        let last = max(first, x &+ min(count, max(opaqueHi &- x, 0) & ~3))
        guard first < last else { return quads(x, cells, count, sum) }
        var s = quads(x, cells, first &- x, sum)
        s = cgs_cover_opaque_span(out + first, cells + (first &- x), last &- first, s, PathRasterizer.full, word)
        return quads(last, cells + (last &- x), x &+ count &- last, s)
    }

    @inline(__always)
    mutating func pixel(_ x: Int, _ coverage: Float) {
        guard x >= lo, x < hi else { return }
        let a = Raster.coverageByte(coverage)
        guard a != 0 else { return }
        let p = source(x)
        if p != 0 { Raster.compositePixel(MaskedConstantRows.masked(p, UInt32(a)), out + x, opacity, copies: copies) }
    }

    @inline(__always)
    mutating func run(_ xs: Range<Int>, _ coverage: Float) {
        // The inside of the mask, where the row is one opaque colour at opacity 1: that colour.
        if coverage == 1, xs.lowerBound >= opaqueLo, xs.upperBound <= opaqueHi {
            cgs_fill_u32(out + xs.lowerBound, word, xs.count)
            return
        }
        let a = UInt32(Raster.coverageByte(coverage))
        let s = max(xs.lowerBound, lo), e = min(xs.upperBound, hi)
        guard a != 0, s < e else { return }
        let fs = min(max(fullLo, s), e), fe = max(min(fullHi, e), fs)
        for x in s..<fs { pixel(x, coverage) }
        // The one-colour part: one multiplied word, copied when opaque at opacity 1.
        let p = MaskedConstantRows.masked(word, a)
        if fs < fe, p != 0 {
            if copies && p >> 24 == 255 {
                cgs_fill_u32(out + fs, p, fe - fs)
            } else {
                for x in fs..<fe { Raster.compositePixel(p, out + x, opacity, copies: copies) }
            }
        }
        for x in fe..<e { pixel(x, coverage) }
    }
}
