import CoreGraphics
import Foundation

// The common mask: one opaque, filled shape layer and nothing else. Its alpha is its path's
// coverage, so it is rasterised straight into 8-bit alpha instead of being painted into a second
// offscreen; the alpha bytes are those the general path computes (an opaque fill blended onto
// nothing), so both give the same pixels. It is made before the layer is painted, so that the
// layer's kernels can skip what the mask throws away (MaskPlane.Rows), and a masked gradient can
// be painted through it row by row without any plane (Compositor+MaskedGradient.swift).

/// A plain shape mask ready to rasterise: its path, the map of its layer into frame pixels, and
/// the pixels its fill can reach.
struct ShapeMask {
    /// The mask layer's path (its layer space, points).
    let path: CGPath
    /// The mask layer's space → frame pixels.
    let transform: CGAffineTransform
    /// The frame pixels the fill can cover within the masked layer's box; empty when the mask
    /// hides everything.
    let box: PixelBox

    /// An accumulator over `box` holding the mask's edges, in `scratch`'s memory.
    func rasterizer(_ scratch: RasterScratch) -> PathRasterizer {
        var r = PathRasterizer(box: box, scratch: scratch)
        r.addPath(path, transform: transform)
        return r
    }
}

extension Compositor {
    /// `mask` as a plain shape mask over `box` (frame pixels); nil when the general mask path is
    /// needed.
    func shapeMask(_ mask: LayerSnapshot, parentTime: Double, world: Homography, box: PixelBox) -> ShapeMask? {
        guard mask.sublayers.isEmpty, mask.mask == nil, !box.isEmpty else { return nil }
        let local = mask.localTime(fromParent: parentTime)
        if mask.animations.contains(where: { $0.model.transitionProgress(at: local) != nil }) { return nil }
        // As `paint` does: without animations the committed state is read where it is, not copied.
        if mask.animations.isEmpty { return shapeMask(mask.state, world: world, box: box) }
        return shapeMask(mask.presentationState(atLocalTime: local), world: world, box: box)
    }

    /// `shapeMask` for a mask layer in state `ms`.
    private func shapeMask(_ ms: LayerState, world: Homography, box: PixelBox) -> ShapeMask? {
        guard case .shape(let sh)? = ms.content, let path = sh.path, sh.isRasterizable, !sh.hasStroke,
              let fill = sh.fillColor, fill.alpha >= 1, ms.opacity >= 1, !ms.isHidden, ms.isDoubleSided,
              (ms.backgroundColor?.alpha ?? 0) == 0, ms.borderWidth <= 0, ms.shadowOpacity <= 0, ms.contentsImage == nil,
              !ms.masksToBounds, ms.bounds.isFiniteRect,
              let affine = Homography(Compositor.localTransform(ms, parentSublayer: nil)).concatenating(world).affine
        else { return nil }
        var reach = PixelBox(x0: box.x0, y0: box.y0, x1: box.x0, y1: box.y0)
        if let extent = sh.extent() {
            reach = Compositor.box(of: extent, world: Homography(m: (affine.a, affine.b, 0, affine.c, affine.d, 0, affine.tx, affine.ty, 1)),
                                   limit: box)
        }
        return ShapeMask(path: path, transform: affine, box: reach)
    }

    /// The mask's alpha over `box` (which holds the mask's box).
    func maskPlane(_ mask: ShapeMask, box: PixelBox) -> MaskPlane {
        var plane = MaskPlane(box: box)
        guard !mask.box.isEmpty else { return plane }
        let rb = mask.box
        var r = mask.rasterizer(rasterScratch)
        r.resolve { y, coverage, columns in
            plane.setRow(y, from: rb.x0 + columns.lowerBound, coverage: coverage + columns.lowerBound, count: columns.count)
        }
        return plane
    }
}
