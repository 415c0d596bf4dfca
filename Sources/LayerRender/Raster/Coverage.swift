import CoreGraphics
import Foundation

// Analytic coverage of Core Animation's primitives, evaluated at pixel centres mapped back
// into layer space.
//
// Rules of this file:
// 1. Coverage comes from a signed distance in layer units divided by the size of one pixel in
//    layer units (from the map's Jacobian), so edges are anti-aliased over one pixel at any scale.
// 2. An axis-aligned edge on a pixel boundary gets exactly 0 or 1 (distance ±½ pixel), so
//    untransformed layers are pixel-exact.
// 3. No allocation and no existentials here: plain structs and scalar maths.

/// A rounded rectangle in layer space: `rect` with a radius per corner
/// (minX-minY, maxX-minY, minX-maxY, maxX-maxY — the CACornerMask order).
struct RoundedRect {
    var rect: CGRect
    var radii: (CGFloat, CGFloat, CGFloat, CGFloat)
    /// Edges kept sharp when the others are anti-aliased: the CAEdgeAntialiasingMask bits a layer
    /// leaves out (1 minX, 2 maxX, 4 minY, 8 maxY).
    var hardEdges: UInt8 = 0

    init(rect: CGRect, radius: CGFloat, mask: UInt) {
        self.rect = rect
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        radii = (mask & 1 != 0 ? r : 0, mask & 2 != 0 ? r : 0, mask & 4 != 0 ? r : 0, mask & 8 != 0 ? r : 0)
    }

    var isRounded: Bool { radii.0 > 0 || radii.1 > 0 || radii.2 > 0 || radii.3 > 0 }

    /// The same shape inset by `d` on every side (radii shrink by `d`).
    func inset(by d: CGFloat) -> RoundedRect {
        var r = self
        r.rect = rect.inset(dx: d, dy: d)
        r.radii = (max(radii.0 - d, 0), max(radii.1 - d, 0), max(radii.2 - d, 0), max(radii.3 - d, 0))
        return r
    }

    /// Signed distance from `p` to the outline (negative inside), in layer units.
    @inline(__always)
    func distance(_ px: CGFloat, _ py: CGFloat) -> CGFloat {
        let cx = rect.midX, cy = rect.midY
        let hx = rect.width / 2, hy = rect.height / 2
        let qx = px - cx, qy = py - cy
        let r: CGFloat = qx < 0 ? (qy < 0 ? radii.0 : radii.2) : (qy < 0 ? radii.1 : radii.3)
        let dx = abs(qx) - hx + r, dy = abs(qy) - hy + r
        let ox = max(dx, 0), oy = max(dy, 0)
        let outside = (ox * ox + oy * oy).squareRoot()
        return outside + min(max(dx, dy), 0) - r
    }

    /// Coverage in [0, 1] of a pixel whose centre maps to (px, py), one pixel being `pixel` layer units.
    @inline(__always)
    func coverage(_ px: CGFloat, _ py: CGFloat, pixel: CGFloat, antialias: Bool) -> CGFloat {
        if antialias && hardEdges != 0 { return partlySharpCoverage(px, py, pixel: pixel) }
        let d = distance(px, py)
        if !antialias && !isRounded { return d < 0 ? 1 : 0 }
        return min(max(0.5 - d / pixel, 0), 1)
    }

    /// Coverage with some edges sharp: a pixel centre on the wrong side of a sharp edge is out;
    /// the others are anti-aliased as if the sharp edges were far away (and their corners square).
    private func partlySharpCoverage(_ px: CGFloat, _ py: CGFloat, pixel: CGFloat) -> CGFloat {
        if hardEdges & 1 != 0 && px <= rect.minX { return 0 }
        if hardEdges & 2 != 0 && px >= rect.maxX { return 0 }
        if hardEdges & 4 != 0 && py <= rect.minY { return 0 }
        if hardEdges & 8 != 0 && py >= rect.maxY { return 0 }
        var soft = self
        soft.hardEdges = 0
        let far = 4 * max(rect.width, rect.height) + 1e4
        var r = rect
        if hardEdges & 1 != 0 { r.origin.x -= far; r.size.width += far; soft.radii.0 = 0; soft.radii.2 = 0 }
        if hardEdges & 2 != 0 { r.size.width += far; soft.radii.1 = 0; soft.radii.3 = 0 }
        if hardEdges & 4 != 0 { r.origin.y -= far; r.size.height += far; soft.radii.0 = 0; soft.radii.1 = 0 }
        if hardEdges & 8 != 0 { r.size.height += far; soft.radii.2 = 0; soft.radii.3 = 0 }
        soft.rect = r
        return soft.coverage(px, py, pixel: pixel, antialias: true)
    }
}
