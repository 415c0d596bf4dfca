import CoreGraphics
import Foundation

// Stage: paint, from the display list. Reads: the frame's display list (read-only, shared by
// every band) and the footprints it points to. Produces: the pixels of one band, through the
// same body, border and group painters as the recursive walk, with the same arguments, so
// that both give the same pixels. Walks no tree and evaluates no layer, except inside groups.

extension Compositor {
    /// Paints the items of `list` that meet `band` (rows of `target`; `frame` the whole target).
    func paint(_ list: DisplayList, band: PixelBox, target: RenderTarget, frame: PixelBox) {
        skippedForDepth += list.skippedForDepth
        list.contexts.withUnsafeBufferPointer { contexts in
            for item in list.items {
                guard !overBudget else { culledLayers += 1; continue }
                // Fields are read in place: a copy of the context or of the layer's state would
                // retain every reference they hold, for each item and band.
                let c = contexts.baseAddress! + Int(item.context)
                let limit = c.pointee.limit.intersection(band)
                guard !limit.isEmpty else { continue }
                if item.geometry == nil {
                    paint(item.footprint.snapshot, c.pointee.context(alpha: c.pointee.alpha, target: target, limit: limit, frame: frame))
                } else {
                    paint(item, item.footprint, item.footprint.statePointer, c, limit: limit, target: target, frame: frame)
                }
            }
        }
    }

    /// One plain layer's item: its body, its border, or both. Out of line: inlined into the
    /// band's loop, it had the loop copy each item (and retain what it holds) for every call.
    @inline(never)
    private func paint(_ item: borrowing DisplayItem, _ f: Footprint, _ s: UnsafePointer<LayerState>, _ c: UnsafePointer<DisplayContext>,
                       limit: PixelBox, target: RenderTarget, frame: PixelBox) {
        // What the layer can touch (its footprint's box) misses the band.
        guard !f.box.intersection(limit).isEmpty, let g = item.geometry else { culledLayers += 1; return }
        let box = g.box.intersection(limit)
        if item.solid, let solid = g.solid {
            // Opaque colour on whole pixels: stored, with no painter's context (same pixels).
            if item.kind == .layer {
                guard spend(box) else { culledLayers += 1; return }
                paintedLayers += 1
            }
            solid.paint(target, box: box, body: item.kind == .layer, ring: item.kind == .border || item.bordered)
            return
        }
        let own = c.pointee.context(alpha: c.pointee.alpha * min(max(s.pointee.opacity, 0), 1), target: target, limit: limit,
                                    frame: frame)
        if item.kind == .layer {
            guard spend(box) else { culledLayers += 1; return }
            paintBody(f.snapshot, s, own, local: item.local, world: f.world, inverse: g.inverse, pixel: g.pixel, box: box,
                      shape: g.shape, clipSelf: ClipShape(shape: g.shape, inverse: g.inverse, pixel: g.pixel, box: box),
                      flipped: c.pointee.flipped != s.pointee.isGeometryFlipped)
        }
        if item.kind == .border || item.bordered {
            paintBorder(s, own, inverse: g.inverse, pixel: g.pixel, box: box, shape: g.shape)
        }
    }
}

extension DisplayContext {
    /// The painter's context for an item of this context, with `alpha`, painting into `target`
    /// within `limit` (the band's part of the clip box) of `frame`.
    func context(alpha: Double, target: RenderTarget, limit: PixelBox, frame: PixelBox) -> Compositor.Context {
        var inherited = self
        inherited.alpha = alpha
        inherited.limit = limit
        return Compositor.Context(inherited, target: target, frame: frame)
    }
}
