import CoreGraphics
import Foundation

// Stage: prepare (one fact per item for the bands). Reads: a listed layer's state, world map and
// context. Produces: the pixels its painting leaves opaque whatever lay under them, so that the
// items listed before it need not paint there (`Compositor+DisplayList.swift`, `HiddenRuns`).

/// Device pixels an item's painting makes opaque, to the same bytes whatever was painted
/// before: a rounded rect's inside (an opaque background's, or a square one: an opaque image's)
/// as the cross of its straight rows (`rows`, full width) and its straight columns (`columns`,
/// full height), either possibly empty.
struct OpaqueCover {
    var rows: PixelBox
    var columns: PixelBox

    /// Covers nothing.
    static let none = OpaqueCover(rows: .empty, columns: .empty)

    var isEmpty: Bool { rows.isEmpty && columns.isEmpty }

    /// Both boxes within `limit`.
    func intersection(_ limit: PixelBox) -> OpaqueCover {
        OpaqueCover(rows: rows.intersection(limit), columns: columns.intersection(limit))
    }
}

extension Compositor {
    /// What a listed layer covers (`OpaqueCover`): its background's inside, when that is opaque,
    /// else the inside of its contents image's drawn rect within its bounds, when every pixel of
    /// the image is opaque (`opaqueContentsRect`) — each composited as it is: the layer at
    /// opacity 1 in a context of alpha 1 without rounded clips, its map a scale (positive) and a
    /// shift whose inverse is finite, within `maxCorner`, and not `apart` — drawn apart for any
    /// reason but a shadow (`needsGroup` without it: the shadow lies under the body; an opaque
    /// offscreen pixel composited at alpha 1 is copied). Whatever it draws over its background
    /// or contents (content, border, sublayers) is drawn over an opaque pixel, which stays
    /// opaque. The inside is taken `inset` pixels clear of each side.
    static func opaqueCover(_ s: UnsafePointer<LayerState>, world: Homography, context c: DisplayContext,
                            apart: Bool) -> OpaqueCover {
        guard !apart, c.alpha == 1, c.clips.isEmpty, !s.pointee.isHidden, s.pointee.opacity >= 1 else { return .none }
        if let bg = s.pointee.backgroundColor, bg.alpha >= 1 { return backgroundCover(s, world: world, limit: c.limit) }
        guard let drawn = opaqueContentsRect(s, bounds: s.pointee.bounds.standardized) else { return .none }
        return cross(drawn, radius: 0, world: world, limit: c.limit)
    }

    /// The inside of a layer's opaque background drawn at alpha 1 without clips under `world`
    /// (a scale and a shift with a finite inverse), within `limit`: `opaqueCover` without the
    /// conditions on how the layer is composited — what its background makes opaque in an
    /// offscreen of its own (`OwnedTarget(box:budget:keeping:)`).
    static func backgroundCover(_ s: UnsafePointer<LayerState>, world: Homography, limit: PixelBox) -> OpaqueCover {
        guard let bg = s.pointee.backgroundColor, bg.alpha >= 1 else { return .none }
        let b = s.pointee.bounds.standardized
        let shape = RoundedRect(rect: b, radius: s.pointee.cornerRadius, mask: s.pointee.maskedCorners)
        return cross(b, radius: max(shape.radii.0, shape.radii.1, shape.radii.2, shape.radii.3), world: world, limit: limit)
    }

    /// The cross of `rect` (layer space) with corners of `radius`, mapped by `world` into device
    /// pixels within `limit`; nothing unless the map is a scale (positive) and a shift whose
    /// inverse is finite and the rect and radius are finite.
    private static func cross(_ b: CGRect, radius r: CGFloat, world: Homography, limit: PixelBox) -> OpaqueCover {
        let m = world.m
        guard r.isFinite, b.isFiniteRect, m.0 > 0, m.4 > 0, m.1 == 0, m.3 == 0, m.2 == 0, m.5 == 0, m.8 == 1,
              let inverse = world.inverse, inverse.isFinite else { return .none }
        let x0 = Double(m.0 * b.minX + m.6), x1 = Double(m.0 * b.maxX + m.6)
        let y0 = Double(m.4 * b.minY + m.7), y1 = Double(m.4 * b.maxY + m.7)
        guard max(abs(x0), abs(x1), abs(y0), abs(y1)) <= maxCorner else { return .none }
        let rx = Double(m.0 * r), ry = Double(m.4 * r)
        let (ix, iy) = inset(m.0, m.4)
        let rows = PixelBox(inside: x0, y0 + ry, x1, y1 - ry, inset: (ix, iy), limit: limit)
        // Square corners: one box (its columns would be the same pixels, taking a second of
        // the boxes hidden runs keep).
        guard r > 0 else { return OpaqueCover(rows: rows, columns: .empty) }
        return OpaqueCover(rows: rows, columns: PixelBox(inside: x0 + rx, y0, x1 - rx, y1, inset: (ix, iy), limit: limit))
    }

    /// The part of `bounds` (layer space) that the layer's contents image surely paints with
    /// opaque texels: its drawn rect (`ContentsLayout`, as `paintContents` places it) within the
    /// bounds, when every pixel of the image is opaque, the image is drawn as one piece (the
    /// default `contentsCenter`) from a non-empty part of itself (`contentsRect` within the unit
    /// square), by one mip level (not `"trilinear"`: two levels mixed in Float may leave a trace
    /// of the pixel below in a colour byte), and no rounded corners clip it. Nearest and bilinear
    /// samples of opaque texels are opaque words, stored whatever lay below.
    static func opaqueContentsRect(_ s: UnsafePointer<LayerState>, bounds b: CGRect) -> CGRect? {
        guard let image = s.pointee.contents.image else { return nil }
        let cr = s.pointee.contentsRect
        guard cr.minX >= 0, cr.minY >= 0, cr.maxX <= 1, cr.maxY <= 1, s.pointee.minificationFilter != "trilinear",
              s.pointee.contentsCenter == CGRect(x: 0, y: 0, width: 1, height: 1),
              !(s.pointee.masksToBounds && s.pointee.cornerRadius != 0) else { return nil }
        // The texels read, as the painter's sample window takes them: none, and nothing is drawn.
        let w = CGFloat(image.width), h = CGFloat(image.height)
        guard max(cr.minX * w, 0) < min(cr.maxX * w, w), max(cr.minY * h, 0) < min(cr.maxY * h, h),
              image.hasOnlyOpaquePixels else { return nil }
        let scale = s.pointee.contentsScale > 0 ? s.pointee.contentsScale : 1
        let natural = CGSize(width: cr.width * w / scale, height: cr.height * h / scale)
        guard natural.width.isFinite, natural.height.isFinite, natural.width > 0, natural.height > 0 else { return nil }
        let dest = ContentsLayout.rect(gravity: s.pointee.contentsGravity, bounds: b, natural: natural).standardized
        guard dest.isFiniteRect, dest.width > 0, dest.height > 0 else { return nil }
        let drawn = dest.intersection(b)
        return drawn.isNull || drawn.isEmpty ? nil : drawn
    }

    /// Device coordinates beyond this are not covered: there the map's sums and the painter's
    /// inverse map could disagree by more than the inset.
    static let maxCorner = Double(1 << 24)

    /// Pixels left clear of each side along x and y for a map scaling x by `sx` and y by `sy`.
    /// An antialiased edge's coverage is 0.5 − d/pixel with one pixel size, 1/√(sx·sy), for both
    /// axes: along x a pixel centre is fully covered from 0.5·√(sx/sy) device pixels inside the
    /// side on, so the centres kept lie at least that far in (at least one pixel clear either way).
    static func inset(_ sx: CGFloat, _ sy: CGFloat) -> (Int, Int) {
        func clear(_ ratio: CGFloat) -> Int { CGClampToInt(Double((0.5 * ratio.squareRoot()).rounded(.up)), in: 1...(1 << 20)) }
        return (clear(sx / sy), clear(sy / sx))
    }
}

extension PixelBox {
    /// The pixels wholly inside the real box minX…maxX × minY…maxY (pixel space) less `inset`
    /// more along x and y on each side, within `limit`; empty unless all four are finite.
    init(inside minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double, inset: (Int, Int), limit: PixelBox) {
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite, !limit.isEmpty else { self = .empty; return }
        self = PixelBox(x0: PixelBox.ceil(minX, limit.x0, limit.x1) + inset.0, y0: PixelBox.ceil(minY, limit.y0, limit.y1) + inset.1,
                        x1: PixelBox.floor(maxX, limit.x0, limit.x1) - inset.0, y1: PixelBox.floor(maxY, limit.y0, limit.y1) - inset.1)
            .intersection(limit)
    }
}
