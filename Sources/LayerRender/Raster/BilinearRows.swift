import CGSupport
import CoreGraphics
import Foundation

// Fully covered rows of a bilinear, single-level image under a map that only scales and
// translates (no rotation, shear or perspective): what `AffineRow` computes, with each step done
// as rarely as its inputs change.
// - Reads: the image level, the inverse map's scale and translation, the pixel box painted.
// - Produces: the rows' pixels, stored (opaque at full alpha) or blended.
// Every pixel column samples the same two texel columns with the same weight on every row, so
// the columns' (x₀, x₁, w) are worked out once per image; and a texel row lerped across to the
// pixel columns is the same for every pixel row that reads it, so it is worked out once and kept
// while the rows that read it are painted (about 1.4 pixel rows per texel row at S4's scale).
// A pixel is then one vertical lerp of two kept rows, four pixels per step. The operands and
// their order are `AffineRow`'s — the top texel row lerped, the bottom one, then between them —
// so the pixels are bit for bit those of the general loop. A kernel: long on purpose.

/// The horizontal half of bilinear sampling, kept per texel row, for one image draw.
final class BilinearRows {
    private let level: ImageLevel
    /// The pixel columns covered: `x0 ..< x0 + width`.
    private let x0: Int, width: Int
    /// Per pixel column: the two texel columns and the second one's weight (0…256).
    private let left: UnsafeMutablePointer<Int32>, right: UnsafeMutablePointer<Int32>
    private let weight: UnsafeMutablePointer<UInt32>
    /// Whether both texel columns never decrease from one pixel column to the next and each
    /// column's second texel is not before its first (a draw that is not mirrored): the column
    /// kernel then trusts each group's ends to bound its texels.
    private let increasing: Bool
    /// Two texel rows lerped across the pixel columns, and which texel row each holds (−1: none).
    private let kept: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>)
    /// One pixel row's samples before they are stored or blended.
    private let line: UnsafeMutablePointer<UInt32>
    private var keptRow = (-1, -1)
    /// Whether every pixel of each kept row is opaque.
    private var keptOpaque = (false, false)

    /// Most pixel columns one draw keeps rows for (a frame is narrower; the general loop paints
    /// wider boxes).
    static let maxWidth = 1 << 15

    /// The columns of `box` under an inverse map x ↦ x·m₀ + m₆ (pixel → layer space), then into
    /// texels as `AffineRow` maps them; nil when the box is empty or wider than `maxWidth`.
    init?(box: PixelBox, m0: CGFloat, m6: CGFloat, dest: CGRect, source: CGRect, window: SampleWindow) {
        guard !box.isEmpty, box.x1 - box.x0 <= BilinearRows.maxWidth else { return nil }
        level = window.level
        x0 = box.x0; width = box.x1 - box.x0
        left = .allocate(capacity: width); right = .allocate(capacity: width); weight = .allocate(capacity: width)
        kept = (.allocate(capacity: width), .allocate(capacity: width))
        line = .allocate(capacity: width)
        let sx = source.width / dest.width, destMinX = dest.minX, sourceMinX = source.minX, scaleX = level.scaleX
        let axis = Raster.AxisLimits(window.minU, window.maxU)
        // As AffineRow's loop: x·m₀ + (y·m₃ = ±0) + m₆; adding a zero changes no sum that reaches
        // a texel coordinate.
        var increasing = true
        for i in 0..<width {
            let qx = (CGFloat(x0 + i) + 0.5) * m0 + 0 + m6
            let (a, b, w) = Raster.bilinearAxis((sourceMinX + (qx - destMinX) * sx) * scaleX, axis)
            left[i] = Int32(truncatingIfNeeded: a); right[i] = Int32(truncatingIfNeeded: b); weight[i] = w
            if b < a || (i > 0 && (left[i] < left[i - 1] || right[i] < right[i - 1])) { increasing = false }
        }
        self.increasing = increasing
    }

    deinit {
        left.deallocate(); right.deallocate(); weight.deallocate()
        kept.0.deallocate(); kept.1.deallocate(); line.deallocate()
    }

    /// Texel row `r` lerped across every pixel column, and whether all of it is opaque, from the
    /// kept rows or worked out now into the slot that does not hold `other` (the row the caller
    /// also needs).
    private func lerped(_ r: Int, besides other: Int) -> (UnsafeMutablePointer<UInt32>, Bool) {
        if keptRow.0 == r { return (kept.0, keptOpaque.0) }
        if keptRow.1 == r { return (kept.1, keptOpaque.1) }
        let second = keptRow.0 == other
        let into = second ? kept.1 : kept.0
        let opaque = cgs_lerp_columns(into, level.pixels + r * level.stride, left, right, weight, width,
                                      increasing ? 1 : 0) == 255
        if second { keptRow.1 = r; keptOpaque.1 = opaque } else { keptRow.0 = r; keptOpaque.0 = opaque }
        return (into, opaque)
    }

    /// Paints columns `xs` (inside the box) of a pixel row that reads texel rows `y0`, `y1` with
    /// weight `wy` (0…256): opaque samples stored when `stores`, others blended at `alpha`.
    func paint(texelRows y0: Int, _ y1: Int, _ wy: UInt32, into row: UnsafeMutablePointer<UInt32>, _ xs: Range<Int>,
               stores: Bool, alpha: Float) {
        let (top, opaqueTop) = lerped(y0, besides: y1), (bottom, opaqueBottom) = lerped(y1, besides: y0)
        let i = xs.lowerBound - x0, n = xs.count
        guard n > 0 else { return }
        if stores && opaqueTop && opaqueBottom {
            // Lerps of opaque pixels are opaque ((255·(256 − w) + 255·w + 128) >> 8 = 255), so
            // every sample is stored: straight into the row.
            _ = cgs_lerp_rows(row + xs.lowerBound, top + i, bottom + i, n, wy)
            return
        }
        let opaque = cgs_lerp_rows(line + i, top + i, bottom + i, n, wy) == 255
        if stores && opaque {
            (row + xs.lowerBound).update(from: line + i, count: n)
            return
        }
        for k in 0..<n { put(line[i + k], row + xs.lowerBound + k, stores: stores, alpha: alpha) }
    }

    /// One sample written as the general loop writes it.
    @inline(__always)
    private func put(_ p: UInt32, _ d: UnsafeMutablePointer<UInt32>, stores: Bool, alpha: Float) {
        if stores && p >> 24 == 255 { d.pointee = p; return }
        let c = Raster.channels(p)
        Raster.blend(d, c.r, c.g, c.b, c.a, 1 * alpha)
    }

    /// Whether columns `xs` lie in the box the columns were worked out for.
    func covers(_ xs: Range<Int>) -> Bool { xs.lowerBound >= x0 && xs.upperBound <= x0 + width }
}
