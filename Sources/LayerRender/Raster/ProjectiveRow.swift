import CGSupport
import CoreGraphics
import Foundation

// Fully covered rows of a bilinear, single-level image under a map that AffineRow does not take
// (perspective, rotation): what `Raster.imageRow` computes per pixel, in C (`cgs_image_row`),
// with the image's terms gathered once per draw. Same bytes as the Swift loop (a test compares
// them); the projection's divisions stay per pixel, as `Homography.project` makes them.

/// Sampling an image's rows through any inverse map, row by row, in C.
struct ProjectiveRow {
    private var map: cgs_image_map

    /// The terms of drawing `window`'s level onto `dest` (layer space) from `source` (full-size
    /// texels) through the device → layer map `inverse`.
    init(_ inverse: Homography, flipped: Bool, dest: CGRect, source: CGRect, window: SampleWindow) {
        let m = inverse.m, level = window.level
        let u = Raster.AxisLimits(window.minU, window.maxU), v = Raster.AxisLimits(window.minV, window.maxV)
        map = cgs_image_map(m: (m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8),
                            destMinX: dest.minX, destMinY: dest.minY, destMaxY: dest.maxY,
                            sourceMinX: source.minX, sourceMinY: source.minY,
                            sx: source.width / dest.width, sy: source.height / dest.height,
                            scaleX: level.scaleX, scaleY: level.scaleY,
                            loU: u.lo, topU: u.top, loV: v.lo, topV: v.top, lastU: u.last, lastV: v.last,
                            pixels: level.pixels, stride: level.stride, flipped: flipped ? 1 : 0)
    }

    /// Paints columns `xs` of pixel row `y` into `row` (frame-addressed) at full coverage: opaque
    /// samples stored when `stores`, others blended at `alpha`.
    @inline(__always)
    func paint(row y: Int, into row: UnsafeMutablePointer<UInt32>, _ xs: Range<Int>, stores: Bool, alpha: Float) {
        paintUsing(3, row: y, into: row, xs, stores: stores, alpha: alpha)
    }

    /// `paint` through a chosen variant of the kernel (0 portable, 2 AVX2, 3 the widest the processor
    /// runs), for the tests that compare them.
    @inline(__always)
    func paintUsing(_ variant: Int32, row y: Int, into row: UnsafeMutablePointer<UInt32>, _ xs: Range<Int>, stores: Bool,
                    alpha: Float) {
        guard !xs.isEmpty else { return }
        withUnsafePointer(to: map) {
            cgs_image_row_using(variant, row + xs.lowerBound, xs.lowerBound, xs.count, Double(y) + 0.5, $0, stores ? 1 : 0, alpha)
        }
    }
}
