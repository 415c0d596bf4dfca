import CoreGraphics
import Foundation

// A fully covered row of a bilinear, single-level image under an affine map whose rows keep one
// texel row (no rotation or shear: the map's x does not move v). What `Raster.image` computes per
// pixel — the projection, the texel coordinates, both axes of the sample — with everything that
// is the same along the row worked out once: the row's v, its two texel rows and their weight,
// and the y terms of the map. The per-pixel sums keep their operands and order (x·m₀ + y·m₃ + m₆,
// then the texel coordinate), so the pixels are bit for bit those of the general loop; only the
// arithmetic that does not depend on x leaves the loop. S4's image scaling is almost all this.

/// The row-constant part of sampling one image row under an affine inverse map.
struct AffineRow {
    private let m0: CGFloat, ym3: CGFloat, m6: CGFloat
    private let destMinX: CGFloat, sourceMinX: CGFloat, sx: CGFloat, scaleX: CGFloat
    private let xAxis: Raster.AxisLimits
    private let top: UnsafePointer<UInt32>, bottom: UnsafePointer<UInt32>, wy: UInt32

    /// The row-constant part for pixel row `y`, or nil when the map is not affine or moves v
    /// along the row (the general loop handles those).
    init?(_ inverse: Homography, y: Int, flipped: Bool, dest: CGRect, source: CGRect, window: SampleWindow) {
        let m = inverse.m
        guard m.2 == 0, m.5 == 0, m.8 == 1, m.1 == 0 else { return nil }
        let cy = CGFloat(y) + 0.5
        // x·m₁ is the same ±0 for every pixel centre (x > 0), so the row's y is one value; it is
        // computed with the first centre's x as `Homography.project` computes it for every pixel.
        let qy = 0.5 * m.1 + cy * m.4 + m.7
        let ly = flipped ? dest.maxY - (qy - dest.minY) : qy
        let sy = source.height / dest.height
        let v = source.minY + (ly - dest.minY) * sy
        let level = window.level
        let (y0, y1, wy) = Raster.bilinearAxis(v * level.scaleY, window.minV, window.maxV)
        top = level.pixels + y0 * level.stride; bottom = level.pixels + y1 * level.stride; self.wy = wy
        m0 = m.0; ym3 = cy * m.3; m6 = m.6
        destMinX = dest.minX; sourceMinX = source.minX; sx = source.width / dest.width; scaleX = level.scaleX
        xAxis = Raster.AxisLimits(window.minU, window.maxU)
    }

    /// Paints columns `xs` of `row` at full coverage: opaque samples stored when `stores`,
    /// others blended at `alpha`.
    @inline(__always)
    func paint(_ row: UnsafeMutablePointer<UInt32>, _ xs: Range<Int>, stores: Bool, alpha: Float) {
        for x in xs {
            let qx = (CGFloat(x) + 0.5) * m0 + ym3 + m6
            let (x0, x1, wx) = Raster.bilinearAxis((sourceMinX + (qx - destMinX) * sx) * scaleX, xAxis)
            let p = Raster.lerpWord(Raster.lerpWord(top[x0], top[x1], wx), Raster.lerpWord(bottom[x0], bottom[x1], wx), wy)
            if stores && p >> 24 == 255 { row[x] = p; continue }
            let c = Raster.channels(p)
            Raster.blend(row + x, c.r, c.g, c.b, c.a, 1 * alpha)
        }
    }
}
