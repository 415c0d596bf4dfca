import CGSupport
import CoreGraphics
import Foundation

// Rows of analytic rounded-rect coverage through the C kernel (kernels_coverage.c), for
// `CoverPlan.edges`: the shape and hole as the kernel reads them, the map's affine terms, and a
// buffer for one row's coverages.
// - Reads: the plan's inverse map, pixel size, shape, hole, antialiasing.
// - Produces: coverage per pixel of a row span, bit for bit `RoundedRect.coverage` (and the
//   hole's subtraction) as the per-pixel loop computes it.

/// One cover plan's coverage rows in C. A small value holding one allocation by address (no
/// reference counted per row, as a class or an array of the map's terms was, and nothing to
/// copy but a few words); the plan that makes it frees it (`deallocate`).
struct CoverageKernel {
    /// The shape, the hole, the map's affine terms (m0, m1, m3, m4, m6, m7) and the coverage
    /// buffer, in that order, in one allocation.
    private let shape: UnsafeMutablePointer<cgs_rrect>
    private let hole: UnsafeMutablePointer<cgs_rrect>?
    private let m: UnsafeMutablePointer<Double>
    /// The last row's coverages, from the span's first column.
    let coverage: UnsafeMutablePointer<Float>
    private let pixel: Double, antialias: Int32
    private let capacity: Int

    /// Nil when the kernel does not apply: a projective map, clips, hard edges, or no columns.
    init?(inverse: Homography, pixel: CGFloat, shape: RoundedRect, hole: RoundedRect?, antialias: Bool, clips: [ClipShape],
          width: Int) {
        let t = inverse.m
        guard t.2 == 0, t.5 == 0, t.8 == 1, clips.isEmpty, shape.hardEdges == 0, (hole?.hardEdges ?? 0) == 0,
              width > 0 else { return nil }
        let rect = MemoryLayout<cgs_rrect>.stride   // a multiple of 8: the doubles after it stay aligned
        let raw = UnsafeMutableRawPointer.allocate(byteCount: 2 * rect + 6 * 8 + width * 4, alignment: 8)
        self.shape = raw.bindMemory(to: cgs_rrect.self, capacity: 1)
        self.shape.initialize(to: CoverageKernel.rect(shape))
        if let hole {
            let h = (raw + rect).bindMemory(to: cgs_rrect.self, capacity: 1)
            h.initialize(to: CoverageKernel.rect(hole))
            self.hole = h
        } else {
            self.hole = nil
        }
        m = (raw + 2 * rect).bindMemory(to: Double.self, capacity: 6)
        m[0] = Double(t.0); m[1] = Double(t.1); m[2] = Double(t.3); m[3] = Double(t.4); m[4] = Double(t.6); m[5] = Double(t.7)
        coverage = (raw + 2 * rect + 6 * 8).bindMemory(to: Float.self, capacity: width)
        self.pixel = Double(pixel); self.antialias = antialias ? 1 : 0
        capacity = width
    }

    /// Frees the allocation (once, by the plan that made the kernel).
    func deallocate() { UnsafeMutableRawPointer(shape).deallocate() }

    /// `RoundedRect.distance`'s terms, computed by the same expressions.
    static func rect(_ r: RoundedRect) -> cgs_rrect {
        cgs_rrect(cx: Double(r.rect.midX), cy: Double(r.rect.midY), hx: Double(r.rect.width / 2), hy: Double(r.rect.height / 2),
                  r0: Double(r.radii.0), r1: Double(r.radii.1), r2: Double(r.radii.2), r3: Double(r.radii.3),
                  rounded: r.isRounded ? 1 : 0)
    }

    /// Fills `coverage` for columns `xs` of the row whose centres are at `y`; false (nothing
    /// written) when the span is wider than the box the buffer was sized for.
    func row(y: CGFloat, _ xs: Range<Int>) -> Bool {
        let n = xs.count
        guard n <= capacity else { return false }
        cgs_rrect_row(coverage, xs.lowerBound, n, Double(y), m, shape, hole, pixel, antialias)
        return true
    }
}
