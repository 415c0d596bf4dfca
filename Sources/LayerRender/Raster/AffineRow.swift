import CoreGraphics
import Foundation

// Fully covered rows of a bilinear, single-level image under an affine map whose rows keep one
// texel row (no rotation or shear: the map's x does not move v). What `Raster.image` computes per
// pixel — the projection, the texel coordinates, both axes of the sample — with what is the same
// for the whole image worked out once, and what is the same along a row (its v, its two texel
// rows and their weight, the y terms of the map) once per row. The per-pixel sums keep their
// operands and order (x·m₀ + y·m₃ + m₆, then the texel coordinate), so the pixels are bit for
// bit those of the general loop; only arithmetic that does not depend on x leaves the loop.
// Without shear, BilinearRows does this work once per column and once per texel row.

/// Sampling an image's rows under an affine inverse map, row by row.
struct AffineRow {
    private let m: (CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat)
    private let flipped: Bool, dest: CGRect, source: CGRect, sx: CGFloat, sy: CGFloat
    private let window: SampleWindow
    private let xAxis: Raster.AxisLimits
    /// Without shear (m₃ = 0), the columns and lerped texel rows kept across rows.
    private let rows: BilinearRows?
    /// The same object, read per row without retaining it (`rows` keeps it alive as long as this
    /// value): a retain and a release per row were a tenth of a scaled image's frame.
    private let rowsRef: Unmanaged<BilinearRows>?

    /// The image's sampling, or nil when the map is not affine or moves v along a row (the
    /// general loop handles those).
    init?(_ inverse: Homography, flipped: Bool, dest: CGRect, source: CGRect, window: SampleWindow, box: PixelBox) {
        m = inverse.m
        guard m.2 == 0, m.5 == 0, m.8 == 1, m.1 == 0 else { return nil }
        self.flipped = flipped; self.dest = dest; self.source = source; self.window = window
        sx = source.width / dest.width; sy = source.height / dest.height
        xAxis = Raster.AxisLimits(window.minU, window.maxU)
        rows = m.3 == 0 ? BilinearRows(box: box, m0: m.0, m6: m.6, dest: dest, source: source, window: window) : nil
        rowsRef = rows.map { Unmanaged.passUnretained($0) }
    }

    /// Paints columns `xs` of pixel row `y` into `row` at full coverage: opaque samples stored
    /// when `stores`, others blended at `alpha`.
    @inline(__always)
    func paint(row y: Int, into row: UnsafeMutablePointer<UInt32>, _ xs: Range<Int>, stores: Bool, alpha: Float) {
        let cy = CGFloat(y) + 0.5
        // x·m₁ is the same ±0 for every pixel centre (x > 0), so the row's y is one value; it is
        // computed with the first centre's x as `Homography.project` computes it for every pixel.
        let qy = 0.5 * m.1 + cy * m.4 + m.7
        let ly = flipped ? dest.maxY - (qy - dest.minY) : qy
        let level = window.level
        let (y0, y1, wy) = Raster.bilinearAxis((source.minY + (ly - dest.minY) * sy) * level.scaleY, window.minV, window.maxV)
        if let rowsRef {
            // `rows` is what keeps the object alive; its lifetime is extended over the call
            // explicitly, since nothing else reads that field.
            let painted = withExtendedLifetime(rows) {
                rowsRef._withUnsafeGuaranteedRef { r -> Bool in
                    guard r.covers(xs) else { return false }
                    r.paint(texelRows: y0, y1, wy, into: row, xs, stores: stores, alpha: alpha)
                    return true
                }
            }
            if painted { return }
        }
        let top = level.pixels + y0 * level.stride, bottom = level.pixels + y1 * level.stride
        let m0 = m.0, ym3 = cy * m.3, m6 = m.6, destMinX = dest.minX, sourceMinX = source.minX, sx = sx
        let scaleX = level.scaleX, xAxis = xAxis
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
