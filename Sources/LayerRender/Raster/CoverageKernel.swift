import CGSupport
import CoreGraphics
import Foundation

// Rows of analytic rounded-rect coverage through the C kernel (kernels_coverage.c), for
// `CoverPlan.edges`: the shape and hole as the kernel reads them, the map's affine terms, and a
// buffer for one row's coverages.
// - Reads: the plan's inverse map, pixel size, shape, hole, antialiasing.
// - Produces: coverage per pixel of a row span, bit for bit `RoundedRect.coverage` (and the
//   hole's subtraction) as the per-pixel loop computes it.

/// One cover plan's coverage rows in C.
final class CoverageKernel {
    private var shape: cgs_rrect, hole: cgs_rrect?
    private let m: [Double]
    private let pixel: CGFloat, antialias: Bool
    /// The last row's coverages, from the span's first column.
    let coverage: UnsafeMutablePointer<Float>
    private let capacity: Int

    /// Nil when the kernel does not apply: a projective map, clips, hard edges, or no columns.
    init?(inverse: Homography, pixel: CGFloat, shape: RoundedRect, hole: RoundedRect?, antialias: Bool, clips: [ClipShape],
          width: Int) {
        let t = inverse.m
        guard t.2 == 0, t.5 == 0, t.8 == 1, clips.isEmpty, shape.hardEdges == 0, (hole?.hardEdges ?? 0) == 0,
              width > 0 else { return nil }
        m = [Double(t.0), Double(t.1), Double(t.3), Double(t.4), Double(t.6), Double(t.7)]
        self.pixel = pixel; self.antialias = antialias
        self.shape = CoverageKernel.rect(shape)
        self.hole = hole.map(CoverageKernel.rect)
        capacity = width
        coverage = .allocate(capacity: width)
    }

    deinit { coverage.deallocate() }

    /// `RoundedRect.distance`'s terms, computed by the same expressions.
    private static func rect(_ r: RoundedRect) -> cgs_rrect {
        cgs_rrect(cx: Double(r.rect.midX), cy: Double(r.rect.midY), hx: Double(r.rect.width / 2), hy: Double(r.rect.height / 2),
                  r0: Double(r.radii.0), r1: Double(r.radii.1), r2: Double(r.radii.2), r3: Double(r.radii.3),
                  rounded: r.isRounded ? 1 : 0)
    }

    /// Fills `coverage` for columns `xs` of the row whose centres are at `y`; false (nothing
    /// written) when the span is wider than the box the buffer was sized for.
    func row(y: CGFloat, _ xs: Range<Int>) -> Bool {
        let n = xs.count, y = Double(y), pixel = Double(self.pixel)
        guard n <= capacity else { return false }
        return m.withUnsafeBufferPointer { m in
            if var hole {
                cgs_rrect_row(coverage, xs.lowerBound, n, y, m.baseAddress!, &shape, &hole, pixel, antialias ? 1 : 0)
            } else {
                cgs_rrect_row(coverage, xs.lowerBound, n, y, m.baseAddress!, &shape, nil, pixel, antialias ? 1 : 0)
            }
            return true
        }
    }
}
