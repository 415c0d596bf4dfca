import Foundation

/// Gaussian blur of an 8-bit alpha plane (zero outside), as two passes of a sampled Gaussian.
///
/// The kernel is the Gaussian itself, sampled at whole pixels out to `reach` (3.5 σ) and
/// normalised, applied along rows and then columns. A true Gaussian keeps its tail, so a shadow
/// fades out as far as Apple's does: non-zero pixels almost three σ — twice `shadowRadius` —
/// beyond the shape (three box blurs, the common approximation, stop near 2.5 σ). The support is
/// exactly `reach`, so a pixel depends only on sources within it: planes cut to different bands
/// or damage boxes give the same pixels. The intermediate plane is `Float`, so the faint tail is
/// not rounded away between the two directions. Each pass is one multiply-add per tap and pixel,
/// laid out as a sum of shifted rows (vectorised); above `maxExactSigma` three box passes take
/// over, so that the work stays proportional to the plane, not to σ.
package enum ShadowBlur {
    /// Largest σ accepted, in pixels; larger values are clamped (counted) to bound work and memory.
    package static let maxSigma: CGFloat = 128

    /// Largest σ (pixels) blurred with the sampled Gaussian (at most 2 × 57 taps a pixel); wider
    /// blurs use three boxes, whose cost does not grow with σ.
    static let maxExactSigma: CGFloat = 16

    /// Below this σ (pixels) nothing is blurred: the spread is under a pixel.
    static let minSigma: CGFloat = 0.5

    /// How far the blur spreads coverage, in pixels: 3.5 σ. A full-alpha edge rounds to zero
    /// past 2.9 σ (½ erfc(2.9/√2) × 255 < ½); the kernel goes on to 3.5 σ so that the pixels
    /// just inside that distance still receive the tail they would from an untruncated
    /// Gaussian. Callers size planes and damage by it.
    package static func reach(sigma: CGFloat) -> Int {
        guard sigma >= minSigma else { return 0 }
        return CGClampToInt(Double((3.5 * min(sigma, maxSigma)).rounded(.up)), in: 1...4096)
    }

    /// The normalised Gaussian of `sigma` at −reach…reach (whole pixels).
    static func kernel(sigma: CGFloat) -> [Float] {
        let r = reach(sigma: sigma)
        let weights = (-r...r).map { k in exp(-Double(k * k) / (2 * Double(sigma * sigma))) }
        let total = weights.reduce(0, +)
        return weights.map { Float($0 / total) }
    }

    /// Blurs `plane` (width × height bytes, rows of `width`) in place.
    package static func blur(_ plane: inout [UInt8], width: Int, height: Int, sigma: CGFloat) {
        guard sigma >= minSigma, width > 0, height > 0 else { return }
        let s = min(sigma, maxSigma)
        if s > maxExactSigma { return BoxBlur.blur(&plane, width: width, height: height, sigma: s) }
        let k = kernel(sigma: s), r = k.count / 2
        var f = [Float](repeating: 0, count: width * height)
        var line = [Float](repeating: 0, count: max(width, height) + 2 * r)
        var inked = [Bool](repeating: false, count: height)
        plane.withUnsafeMutableBufferPointer { p in
            f.withUnsafeMutableBufferPointer { f in
                line.withUnsafeMutableBufferPointer { line in
                    let f = f.baseAddress!, line = line.baseAddress!, p = p.baseAddress!
                    // Rows: each output is Σ k[j] × in[x + j − r], as a sum of shifted input rows.
                    // Rows with no coverage (the plane's margins, mostly) stay zero and are
                    // skipped by both passes.
                    for y in 0..<height {
                        let src = p + y * width, out = f + y * width
                        var any: UInt8 = 0
                        for x in 0..<width { any |= src[x] }
                        inked[y] = any != 0
                        guard any != 0 else { continue }
                        for x in 0..<width { line[r + x] = Float(src[x]) }   // zeros either side stay zero
                        for j in 0..<k.count {
                            let w = k[j], shifted = line + j
                            for x in 0..<width { out[x] += w * shifted[x] }
                        }
                    }
                    // Columns: each output row is Σ k[j] × row(y + j − r), rows outside being zero.
                    for y in 0..<height {
                        let acc = line
                        acc.update(repeating: 0, count: width)
                        for j in max(0, r - y)..<min(k.count, height + r - y) where inked[y + j - r] {
                            let w = k[j], row = f + (y + j - r) * width
                            for x in 0..<width { acc[x] += w * row[x] }
                        }
                        let out = p + y * width
                        for x in 0..<width { out[x] = UInt8(min(acc[x] + 0.5, 255)) }
                    }
                }
            }
        }
    }
}
