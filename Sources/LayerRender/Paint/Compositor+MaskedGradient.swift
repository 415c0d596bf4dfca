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
        guard g.isDrawable,
              let geometry = GradientGeometry(type: g.type, start: g.startPoint, end: g.endPoint, bounds: s.bounds.standardized)
        else { return true }
        let box = Compositor.box(of: s.bounds.standardized, world: world, limit: groupBox)
        let rb = mask.box, limit = groupBox.intersection(ctx.limit)
        guard !box.isEmpty, !rb.isEmpty, !box.intersection(limit).isEmpty else { return true }
        let row = rowBuffer.buffer(over: groupBox)
        let target = ctx.target, alpha = Float(ctx.alpha * opacity)
        let paint = GradientPaint(target: row, box: box, inverse: inverse, pixel: pixel, shape: shape, geometry: geometry,
                                  ramp: ramp(for: snap.id, g), alpha: 1, antialias: s.allowsEdgeAntialiasing,
                                  clips: s.masksToBounds ? [clipSelf] : [])
        var r = mask.rasterizer(rasterScratch)
        if paint.hasConstantRows {
            var rows = MaskedConstantRows(paint: paint, edge: row, box: box, limit: limit, target: target, opacity: alpha)
            r.resolve(into: &rows)
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
}
