import Foundation

/// Gaussian blur of an 8-bit alpha plane, approximated by three box blurs (zero outside): the
/// shadow blur for σ past `ShadowBlur.maxExactSigma`.
///
/// Three successive boxes whose widths are chosen for σ come within a few percent of a true
/// Gaussian (the W3C/CSS practice), though their support ends near 2.5 σ. Each pass is a
/// running sum, so the cost is independent of the radius: O(width × height) per pass.
enum BoxBlur {
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

    /// How far the three boxes spread coverage, in pixels (within `ShadowBlur.reach`).
    static func reach(sigma: CGFloat) -> Int { boxes(sigma: sigma).reduce(0) { $0 + ($1 - 1) / 2 } }

    /// Blurs `plane` (width × height bytes, rows of `width`) in place.
    static func blur(_ plane: inout [UInt8], width: Int, height: Int, sigma: CGFloat) {
        let widths = boxes(sigma: sigma)
        guard !widths.isEmpty, width > 0, height > 0 else { return }
        var tmp = [UInt8](repeating: 0, count: width * height)
        var sums = [UInt32](repeating: 0, count: width)
        plane.withUnsafeMutableBufferPointer { p in
            tmp.withUnsafeMutableBufferPointer { t in
                sums.withUnsafeMutableBufferPointer { c in
                    for w in widths {
                        let r = (w - 1) / 2
                        for y in 0..<height { rowPass(p.baseAddress! + y * width, count: width, radius: r, tmp: t.baseAddress!) }
                        columnPass(p.baseAddress!, width: width, height: height, radius: r, copy: t.baseAddress!, sums: c.baseAddress!)
                    }
                }
            }
        }
    }

    /// floor(x / w) for x < 2²¹ and w < 2¹⁶ as a multiply and a shift: with m = ⌈2⁴⁰ / w⌉ the
    /// error x·(m·w − 2⁴⁰) / (w·2⁴⁰) stays below 1 / w, so the floor is exact.
    @inline(__always)
    private static func divider(_ w: Int) -> UInt64 { ((1 << 40) + UInt64(w) - 1) / UInt64(w) }

    /// One running-sum box pass along a row (values outside are zero), rounded to nearest.
    private static func rowPass(_ line: UnsafeMutablePointer<UInt8>, count: Int, radius r: Int, tmp: UnsafeMutablePointer<UInt8>) {
        tmp.update(from: line, count: count)
        let w = 2 * r + 1, m = divider(w), half = UInt32(w / 2)
        var sum: UInt32 = 0
        for i in 0..<min(r, count) { sum += UInt32(tmp[i]) }
        for i in 0..<count {
            if i + r < count { sum += UInt32(tmp[i + r]) }
            line[i] = UInt8(truncatingIfNeeded: (UInt64(sum + half) &* m) >> 40)
            if i - r >= 0 { sum -= UInt32(tmp[i - r]) }
        }
    }

    /// The same pass down every column at once, row by row (one running sum per column), so
    /// memory is read in order.
    private static func columnPass(_ plane: UnsafeMutablePointer<UInt8>, width: Int, height: Int, radius r: Int,
                                   copy: UnsafeMutablePointer<UInt8>, sums: UnsafeMutablePointer<UInt32>) {
        copy.update(from: plane, count: width * height)
        let w = 2 * r + 1, m = divider(w), half = UInt32(w / 2)
        sums.update(repeating: 0, count: width)
        for y in 0..<min(r, height) {
            let row = copy + y * width
            for x in 0..<width { sums[x] += UInt32(row[x]) }
        }
        for y in 0..<height {
            if y + r < height {
                let add = copy + (y + r) * width
                for x in 0..<width { sums[x] += UInt32(add[x]) }
            }
            let out = plane + y * width
            for x in 0..<width { out[x] = UInt8(truncatingIfNeeded: (UInt64(sums[x] + half) &* m) >> 40) }
            if y - r >= 0 {
                let sub = copy + (y - r) * width
                for x in 0..<width { sums[x] -= UInt32(sub[x]) }
            }
        }
    }
}
