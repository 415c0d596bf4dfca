import CGSupport
import CoreGraphics
import Foundation

// Stage: prepare (a display item's coverage rule). Reads: one plain layer's state and its
// device → layer map. Produces: when the layer paints only opaque colour over whole device
// pixels, the pixel boxes and words of its background and border, so a band stores them
// without the general fill (coverage per row and column, a painter's context per item).
// Decides nothing the general path would paint differently: where its conditions hold,
// `Raster.fill` gives every pixel of the box coverage exactly 0 or 1 and stores the same word.

/// A plain layer whose background and border are opaque colours on whole device pixels: an
/// unrotated, unscaled layer at an integer offset, with integer bounds and border width, square
/// corners, no contents and no content of its class (device pixels).
struct SolidRect {
    /// The device pixels its bounds cover (not clipped to the frame).
    var rect: PixelBox
    /// Its background's pixel word (nil: no background).
    var fill: UInt32?
    /// Its border's pixel word (nil: no border).
    var border: UInt32?
    /// The pixels inside its border (empty: the border covers the whole rect).
    var inner: PixelBox

    /// Device coordinates beyond this are left to the general path (they would not be exact
    /// integers after the map's sums, or would overflow a box's arithmetic).
    static let maxCoordinate: CGFloat = 0x1p30

    /// The layer as a solid rect, or nil when the general path must paint it. `inverse` maps
    /// device pixels to layer space; `shape` is its bounds with corners and hard edges.
    init?(_ s: UnsafePointer<LayerState>, inverse: Homography, shape: RoundedRect) {
        let m = inverse.m
        guard m.0 == 1, m.4 == 1, m.1 == 0, m.2 == 0, m.3 == 0, m.5 == 0, m.8 == 1,
              !shape.isRounded, shape.hardEdges == 0,
              s.pointee.contents.image == nil, s.pointee.content == nil,
              min(max(s.pointee.opacity, 0), 1) == 1 else { return nil }
        let b = s.pointee.bounds.standardized
        // Layer x ↦ device x − m.6: every edge must land on a whole device pixel.
        guard let rect = SolidRect.box(b, dx: -m.6, dy: -m.7) else { return nil }
        self.rect = rect
        inner = PixelBox.empty
        fill = nil
        border = nil
        if let bg = s.pointee.backgroundColor, bg.alpha > 0 {
            let c = PremultipliedColor(bg, alpha: 1)
            guard c.isOpaque else { return nil }
            fill = c.word
        }
        let width = s.pointee.borderWidth
        if width > 0, let bc = s.pointee.borderColor, bc.alpha > 0 {
            let c = PremultipliedColor(bc, alpha: 1)
            guard c.isOpaque else { return nil }
            border = c.word
            // As `paintBorder`: an inset that leaves nothing is no hole.
            let hole = b.insetBy(dx: width, dy: width)
            if !hole.isNull, hole.width > 0, hole.height > 0 {
                guard let h = SolidRect.box(hole, dx: -m.6, dy: -m.7) else { return nil }
                inner = h
            }
        }
    }

    /// `r` moved by (dx, dy) as a pixel box, when all its edges are integers within range.
    private static func box(_ r: CGRect, dx: CGFloat, dy: CGFloat) -> PixelBox? {
        func whole(_ v: CGFloat) -> Bool { abs(v) <= maxCoordinate && v == v.rounded() }
        let x0 = r.minX + dx, y0 = r.minY + dy, x1 = r.maxX + dx, y1 = r.maxY + dy
        guard whole(x0), whole(y0), whole(x1), whole(y1) else { return nil }
        func int(_ v: CGFloat) -> Int { CGClampToInt(Double(v), counted: false) }
        return PixelBox(x0: int(x0), y0: int(y0), x1: int(x1), y1: int(y1))
    }

    /// Stores its background (`body`) and its border (`ring`) into the pixels of `box` (frame
    /// pixels of `target`), as filling the background and then the border over it leaves them.
    func paint(_ target: RenderTarget, box: PixelBox, body: Bool, ring: Bool) {
        var item = self.item(limit: .empty, touched: .empty, clip: .empty, body: body, ring: ring)
        cgs_paint_solid(target.c, &item, SolidRect.cBox(box))
    }

    /// The item as the band's C loop paints it (`cgs_paint_solids`): within `limit` (its
    /// context's), culled by `touched`, painting within `clip` (frame pixels).
    func item(limit: PixelBox, touched: PixelBox, clip: PixelBox, body: Bool, ring: Bool) -> cgs_solid {
        cgs_solid(rect: SolidRect.cBox(rect), inner: SolidRect.cBox(inner), limit: SolidRect.cBox(limit),
                  touched: SolidRect.cBox(touched), clip: SolidRect.cBox(clip), fill: fill ?? 0, border: border ?? 0,
                  has_fill: fill != nil ? 1 : 0, has_border: border != nil ? 1 : 0, body: body ? 1 : 0, ring: ring ? 1 : 0)
    }

    /// `b` as the C kernels' box (its coordinates are within ±2³⁰: `maxCoordinate`, or the frame's).
    static func cBox(_ b: PixelBox) -> cgs_box {
        b.isEmpty ? cgs_box(x0: 0, y0: 0, x1: 0, y1: 0)
            : cgs_box(x0: Int32(clamping: b.x0), y0: Int32(clamping: b.y0), x1: Int32(clamping: b.x1), y1: Int32(clamping: b.y1))
    }
}
