import CoreGraphics
import Foundation

// The commonest masked layer: a gradient cut out by a plain shape mask (S5's stars, progress
// rings, gradient text outlines). The general path paints the gradient into an offscreen the size
// of the layer, multiplies it by the mask and composites it; here each row goes through a one-row
// buffer instead, with the same operations in the same order, so the pixels are the same and no
// offscreen is cleared, written whole and read back.
extension Compositor {
    /// Paints a gradient layer through its shape mask's `plane` straight onto `ctx.target`; false
    /// (nothing painted) when the layer draws anything besides its gradient, for the offscreen
    /// path to handle.
    func paintMaskedGradient(_ snap: LayerSnapshot, _ s: LayerState, _ ctx: Context, plane: MaskPlane, world: Homography,
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
        guard !box.isEmpty else { return true }
        let row = MaskPlane.RowBuffer(box: groupBox)
        let limit = groupBox.intersection(ctx.limit), target = ctx.target, alpha = Float(ctx.alpha * opacity)
        Raster.gradient(row.buffer, box: box, inverse: inverse, pixel: pixel, shape: shape, geometry: geometry,
                        ramp: ramp(for: snap.id, g), alpha: 1, antialias: s.allowsEdgeAntialiasing,
                        clips: s.masksToBounds ? [clipSelf] : [], rows: plane.rows,
                        rowDone: { plane.finishRow($0, row, onto: target, limit: limit, opacity: alpha) })
        return true
    }
}
