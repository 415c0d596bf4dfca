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
        for item in list.items {
            guard !overBudget else { culledLayers += 1; continue }
            let c = list.contexts[Int(item.context)]
            let limit = c.limit.intersection(band)
            guard !limit.isEmpty else { continue }
            let f = item.footprint
            guard let g = item.geometry else {
                paint(f.snapshot, Context(parentTime: c.parentTime, parentWorld: c.parentWorld, parentSublayer: c.parentSublayer,
                                          flipped: c.flipped, clips: c.clips, alpha: c.alpha, target: target, limit: limit,
                                          frame: frame, depth: c.depth))
                continue
            }
            // What the layer can touch (its footprint's box) misses the band.
            guard !f.box.intersection(limit).isEmpty else { culledLayers += 1; continue }
            let s = f.state
            let box = g.box.intersection(limit)
            let own = Context(parentTime: c.parentTime, parentWorld: c.parentWorld, parentSublayer: c.parentSublayer,
                              flipped: c.flipped, clips: c.clips, alpha: c.alpha * min(max(s.opacity, 0), 1), target: target,
                              limit: limit, frame: frame, depth: c.depth)
            if item.kind == .layer {
                guard spend(box) else { culledLayers += 1; continue }
                paintBody(f.snapshot, s, own, local: item.local, world: f.world, inverse: g.inverse, pixel: g.pixel, box: box,
                          shape: g.shape, clipSelf: ClipShape(shape: g.shape, inverse: g.inverse, pixel: g.pixel, box: box),
                          flipped: c.flipped != s.isGeometryFlipped)
            }
            if item.kind == .border || item.bordered {
                paintBorder(s, own, inverse: g.inverse, pixel: g.pixel, box: box, shape: g.shape)
            }
        }
    }
}
