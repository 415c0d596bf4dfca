import Foundation

/// Gaussian blur of an 8-bit alpha plane, approximated by three box blurs (zero outside).
///
/// Three successive boxes whose widths are chosen for σ reach within a few percent of a true
/// Gaussian (the W3C/CSS practice). Each pass is a running sum, so the cost is independent
/// of the radius: O(width × height) per pass.
package enum ShadowBlur {
    /// Largest σ accepted, in pixels; larger values are clamped (counted) to bound work and memory.
    package static let maxSigma: CGFloat = 128

    /// Box widths (odd) for three passes approximating a Gaussian of `sigma`.
    static func boxes(sigma: CGFloat) -> [Int] {
        guard sigma > 0 else { return [] }
        let n = 3.0
        let ideal = (12 * sigma * sigma / n + 1).squareRoot()
        var wl = CGClampToInt(Double(ideal.rounded(.down)), in: 1...4096)
        if wl % 2 == 0 { wl -= 1 }
        let wu = wl + 2
        let m = ((12 * sigma * sigma - n * CGFloat(wl * wl) - 4 * n * CGFloat(wl) - 3 * n) / (-4 * CGFloat(wl) - 4)).rounded()
        return (0..<3).map { CGFloat($0) < m ? wl : wu }
    }

    /// How far the three boxes spread coverage, in pixels.
    package static func reach(sigma: CGFloat) -> Int { boxes(sigma: sigma).reduce(0) { $0 + ($1 - 1) / 2 } }

    /// Blurs `plane` (width × height bytes, rows of `width`) in place.
    package static func blur(_ plane: inout [UInt8], width: Int, height: Int, sigma: CGFloat) {
        let widths = boxes(sigma: sigma)
        guard !widths.isEmpty, width > 0, height > 0 else { return }
        var tmp = [UInt8](repeating: 0, count: max(width, height))
        for w in widths {
            let r = (w - 1) / 2
            plane.withUnsafeMutableBufferPointer { p in
                tmp.withUnsafeMutableBufferPointer { t in
                    for y in 0..<height { boxPass(p.baseAddress! + y * width, step: 1, count: width, radius: r, tmp: t.baseAddress!) }
                    for x in 0..<width { boxPass(p.baseAddress! + x, step: width, count: height, radius: r, tmp: t.baseAddress!) }
                }
            }
        }
    }

    /// One running-sum box pass along a row or column (values outside are zero).
    private static func boxPass(_ line: UnsafeMutablePointer<UInt8>, step: Int, count: Int, radius r: Int,
                                tmp: UnsafeMutablePointer<UInt8>) {
        for i in 0..<count { tmp[i] = line[i * step] }
        let w = UInt32(2 * r + 1)
        var sum: UInt32 = 0
        for i in 0..<min(r, count) { sum += UInt32(tmp[i]) }
        for i in 0..<count {
            if i + r < count { sum += UInt32(tmp[i + r]) }
            line[i * step] = UInt8((sum + w / 2) / w)
            if i - r >= 0 { sum -= UInt32(tmp[i - r]) }
        }
    }
}
