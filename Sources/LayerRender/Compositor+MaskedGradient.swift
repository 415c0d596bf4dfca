import CGSupport
import CoreGraphics
import Foundation

// The commonest masked layer: a gradient cut out by a plain shape mask (S5's stars, progress
// rings, gradient text outlines). The general path paints the gradient into an offscreen the size
// of the layer, multiplies it by the mask's plane and composites it; here the mask's rasteriser
// drives: each stretch of a row where the mask can be above zero gets its alpha bytes, the
// gradient is painted there into a one-row buffer, multiplied and composited at once — the
// operations of the offscreen path in the same order, so the pixels are the same, without an
// offscreen or a plane, and without painting the gradient where the mask is zero.
extension Compositor {
    /// Paints a gradient layer through its shape `mask` straight onto `ctx.target`; false
    /// (nothing painted) when the layer draws anything besides its gradient, for the offscreen
    /// path to handle.
    func paintMaskedGradient(_ snap: LayerSnapshot, _ s: LayerState, _ ctx: Context, mask: ShapeMask, world: Homography,
                             inverse: Homography, pixel: CGFloat, groupBox: PixelBox, shape: RoundedRect,
                             clipSelf: ClipShape, opacity: Double) -> Bool {
        guard snap.sublayers.isEmpty, s.contentsImage == nil, (s.backgroundColor?.alpha ?? 0) == 0,
              !(s.borderWidth > 0 && (s.borderColor?.alpha ?? 0) > 0), case .gradient(let g)? = s.content
        else { return false }
        paintedLayers += 1
        guard g.stops() != nil,
              let geometry = GradientGeometry(type: g.type, start: g.startPoint, end: g.endPoint, bounds: s.bounds.standardized)
        else { return true }
        let box = Compositor.box(of: s.bounds.standardized, world: world, limit: groupBox)
        let rb = mask.box, limit = groupBox.intersection(ctx.limit)
        guard !box.isEmpty, !rb.isEmpty, !box.intersection(limit).isEmpty else { return true }
        let row = MaskPlane.RowBuffer(box: groupBox)
        let target = ctx.target, alpha = Float(ctx.alpha * opacity)
        let paint = GradientPaint(target: row.buffer, box: box, inverse: inverse, pixel: pixel, shape: shape, geometry: geometry,
                                  ramp: ramp(for: snap.id, g), alpha: 1, antialias: s.allowsEdgeAntialiasing,
                                  clips: s.masksToBounds ? [clipSelf] : [])
        var r = mask.rasterizer(rasterScratch)
        if paint.hasConstantRows {
            Compositor.finishConstantRows(&r, paint, row, box: box, limit: limit, onto: target, opacity: alpha)
            return true
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: rb.x1 - rb.x0) { bytes in
            // Alpha bytes of the row being finished, indexed by frame column.
            let a = bytes.baseAddress! - rb.x0
            r.resolve { y, coverage, stretch in
                guard y >= limit.y0, y < limit.y1, y >= box.y0, y < box.y1 else { return }
                var lo = rb.x0 + stretch.lowerBound, hi = rb.x0 + stretch.upperBound
                Raster.coverageBytes(coverage + stretch.lowerBound, a + lo, count: hi - lo)
                while lo < hi, a[lo] == 0 { lo += 1 }
                while hi > lo, a[hi - 1] == 0 { hi -= 1 }
                lo = max(lo, box.x0); hi = min(hi, box.x1)
                guard lo < hi else { return }
                paint.row(y, lo, hi)
                MaskPlane.finish(y, lo..<hi, alpha: UnsafePointer(a), row, onto: target, limit: limit, opacity: alpha)
            }
        }
        return true
    }

    /// The masked gradient when each row is one colour (`GradientPaint.constantRow`, S5's stars):
    /// the mask's sums are taken pixel by pixel and each pixel is finished at once — the alpha
    /// byte `coverageBytes` gives, then the multiply and the composite of `MaskPlane.finish` — so
    /// nothing but the frame is written: no coverage, alpha bytes or gradient row in memory. The
    /// few pixels on the layer's own anti-aliased edges are painted one at a time by `row` into
    /// the row buffer, as the general path paints them.
    private static func finishConstantRows(_ r: inout Rasterizer, _ paint: GradientPaint, _ row: MaskPlane.RowBuffer, box: PixelBox,
                                           limit: PixelBox, onto target: RenderTarget, opacity: Float) {
        let copies = opacity == 1
        let x0 = max(box.x0, limit.x0), x1 = min(box.x1, limit.x1), y0 = max(box.y0, limit.y0), y1 = min(box.y1, limit.y1)
        // The row being finished: the columns where the gradient can be above 0 (lo ..< hi) and
        // where it is one colour (fullLo ..< fullHi), that colour's word, the frame's row.
        var current = Int.min, lo = 0, hi = 0, fullLo = 0, fullHi = 0, word: UInt32 = 0
        var out = target.pixels
        @inline(__always) func enter(_ y: Int) {
            current = y; lo = 0; hi = 0
            guard y >= y0, y < y1 else { return }
            out = target.row(y)
            if let c = paint.constantRow(y, box.x0, box.x1) {
                lo = max(c.outer.lowerBound, x0); hi = min(c.outer.upperBound, x1)
                fullLo = c.full.lowerBound; fullHi = c.full.upperBound; word = c.word
            } else {
                lo = x0; hi = x1; fullLo = 0; fullHi = 0   // every pixel through `row`
            }
            // The frame's rows are cold when a layer first reaches them (see MaskPlane.finish).
            if y + 2 < limit.y1, lo < hi {
                let ahead = target.row(y + 2)
                cgs_prefetch(ahead + lo); cgs_prefetch(ahead + hi - 1)
            }
        }
        let edge = row.buffer
        @inline(__always) func source(_ y: Int, _ x: Int) -> UInt32 {
            if x >= fullLo && x < fullHi { return word }
            let b = edge.row(y)
            paint.row(y, x, x + 1)
            let p = b[x]
            b[x] = 0
            return p
        }
        @inline(__always) func put(_ x: Int, _ p: UInt32, _ a: UInt8) {
            guard p != 0 else { return }
            Raster.compositePixel(a == 255 ? p : Raster.scaled(p, by: UInt32(a)), out + x, opacity, copies: copies)
        }
        r.resolvePixels({ y, x, cov in
            if y != current { enter(y) }
            guard x >= lo, x < hi else { return }
            let a = Raster.coverageByte(cov)
            if a != 0 { put(x, source(y, x), a) }
        }, run: { y, xs, cov in
            if y != current { enter(y) }
            let a = Raster.coverageByte(cov)
            let s = max(xs.lowerBound, lo), e = min(xs.upperBound, hi)
            guard a != 0, s < e else { return }
            let fs = min(max(fullLo, s), e), fe = max(min(fullHi, e), fs)
            for x in s..<fs { put(x, source(y, x), a) }
            // The one-colour part: one multiplied word, copied when opaque at opacity 1.
            let p = a == 255 ? word : Raster.scaled(word, by: UInt32(a))
            if fs < fe, p != 0 {
                if copies && p >> 24 == 255 {
                    (out + fs).update(repeating: p, count: fe - fs)
                } else {
                    for x in fs..<fe { Raster.compositePixel(p, out + x, opacity, copies: copies) }
                }
            }
            for x in fe..<e { put(x, source(y, x), a) }
        })
    }
}
