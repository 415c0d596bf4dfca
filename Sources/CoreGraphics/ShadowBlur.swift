import CGSupport
import Foundation

/// Gaussian blur of an 8-bit alpha plane (zero outside), as two passes of a sampled Gaussian.
///
/// The kernel is the Gaussian itself, sampled at whole pixels out to `reach` (3.5 σ) and
/// normalised, applied along rows and then columns. A true Gaussian keeps its tail, so a shadow
/// fades out as far as Apple's does: non-zero pixels almost three σ — twice `shadowRadius` —
/// beyond the shape (three box blurs, the common approximation, stop near 2.5 σ). The support is
/// exactly `reach`, so a pixel depends only on sources within it: planes cut to different bands
/// or damage boxes give the same pixels. The intermediate plane is `Float`, so the faint tail is
/// not rounded away between the two directions. Each pass is one multiply and one add per tap
/// and pixel, in C kernels that keep eight outputs in a vector register across the taps
/// (`cgs_blur_row`, `cgs_blur_columns`); above `maxExactSigma` three box passes take over, so
/// that the work stays proportional to the plane, not to σ.
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

    /// How far from the nearest inked pixel (in pixels, along a row or a column) the blur's
    /// output is surely 0: the least d whose kernel tail Σ_{|j| ≥ d} of one side, times 255,
    /// stays under ½ with room for the sums' rounding — every output that far takes no more
    /// than that tail of any inked pixel's 255, in either pass. Past `reach` + 1 when the blur
    /// is not the sampled Gaussian (no blur at all, or three boxes). Callers leave those pixels
    /// out of the blur's needs: their bytes stay the plane's zeros.
    package static func zeroMargin(sigma: CGFloat) -> Int {
        guard sigma >= minSigma, min(sigma, maxSigma) <= maxExactSigma else { return reach(sigma: sigma) + 1 }
        return zeroMargin(sigma: sigma, kernel: kernel(sigma: min(sigma, maxSigma)))
    }

    static func zeroMargin(sigma: CGFloat, kernel k: [Float]) -> Int {
        let r = k.count / 2
        guard sigma >= minSigma, min(sigma, maxSigma) <= maxExactSigma, r > 0 else { return r + 1 }
        // The tail from d on, from the kernel's end inwards; the bound leaves a thousandth for the
        // float sums (their relative error stays under 10⁻⁵) and the add of ½.
        var tail = 0.0, d = r + 1
        while d > 1, 255 * (tail + Double(k[r + d - 1])) * 1.001 < 0.499 {
            tail += Double(k[r + d - 1])
            d -= 1
        }
        return d
    }

    /// Columns sharing one output are copied when there are more than this many (fewer are summed).
    static let minShared = 8

    /// The columns of one row whose blurred values the caller reads: `lo..<hi` except
    /// `skipLo..<skipHi` (pixels hidden under an opaque picture, say). Empty when lo ≥ hi.
    package struct Need: Sendable {
        package var lo: Int, hi: Int, skipLo: Int, skipHi: Int
        package init(lo: Int, hi: Int, skipLo: Int = 0, skipHi: Int = 0) {
            self.lo = lo; self.hi = hi; self.skipLo = skipLo; self.skipHi = skipHi
        }
    }

    /// Memory a caller that blurs again and again lends the blur: its first pass's plane, kept
    /// between blurs (the same thread's) instead of allocated for each, and its last kernel.
    /// Planes up to `keptFloats` floats are kept; a larger one is allocated for its blur alone.
    package final class Scratch {
        /// Most floats kept between blurs: 16 MiB (a 2,048² plane and the row of zeros after it).
        package static let keptFloats = 2048 * 2049
        private var floats: UnsafeMutablePointer<Float>?
        private var capacity = 0
        /// The last kernel asked for, its σ and its zero margin: a frame's shadows mostly share
        /// their radius.
        private var last: (sigma: CGFloat, weights: [Float], zeroMargin: Int)?
        package init() {}
        deinit { floats?.deallocate() }

        /// `ShadowBlur.kernel(sigma:)`, worked out again only for another σ.
        func kernel(sigma: CGFloat) -> [Float] { kept(sigma).weights }

        /// `ShadowBlur.zeroMargin(sigma:)`, worked out again only for another σ.
        package func zeroMargin(sigma: CGFloat) -> Int { kept(sigma).zeroMargin }

        private func kept(_ sigma: CGFloat) -> (sigma: CGFloat, weights: [Float], zeroMargin: Int) {
            if let last, last.sigma == sigma { return last }
            let weights = ShadowBlur.kernel(sigma: sigma)
            last = (sigma, weights, ShadowBlur.zeroMargin(sigma: sigma, kernel: weights))
            return last!
        }

        /// Room for `count` floats (uninitialised), kept for the next blur when within
        /// `keptFloats`; nil when it is larger (the caller allocates).
        func plane(_ count: Int) -> UnsafeMutablePointer<Float>? {
            guard count <= Scratch.keptFloats else { return nil }
            if count > capacity {
                floats?.deallocate()
                capacity = max(count, 1 << 14)
                floats = .allocate(capacity: capacity)
            }
            return floats
        }
    }

    /// Blurs `plane` (width × height bytes, rows of `width`) in place. With `needs` (one per
    /// row), only those columns of each row are written; the others keep their input bytes.
    /// `scratch` lends the first pass's plane (one thread's blurs at a time).
    package static func blur(_ plane: inout [UInt8], width: Int, height: Int, sigma: CGFloat, needs: [Need]? = nil,
                             scratch: Scratch? = nil) {
        guard sigma >= minSigma, width > 0, height > 0 else { return }
        let s = min(sigma, maxSigma)
        if s > maxExactSigma { return BoxBlur.blur(&plane, width: width, height: height, sigma: s) }
        let k = scratch?.kernel(sigma: s) ?? kernel(sigma: s)
        // The first pass's rows, each written before it is read: rows with no coverage (the
        // plane's margins, mostly) are skipped by both passes, and a row equal to one already
        // worked out is not worked out again (the second pass reads that one's results).
        // (Allocated and freed for each shadow, a plane of this size made the allocator give its
        // top pages back and take them again every time: system calls and a TLB flush of every
        // core the process runs on.)
        // One row more: a row of zeros, read for the rows between inked ones.
        let kept = scratch?.plane(width * (height + 1))
        let f = kept ?? UnsafeMutablePointer<Float>.allocate(capacity: width * (height + 1))
        defer { if kept == nil { f.deallocate() } }
        (f + width * height).initialize(repeating: 0, count: width)
        let rows = FirstPass(height: height)
        plane.withUnsafeMutableBufferPointer { p in
            k.withUnsafeBufferPointer { k in
                rows.run(p.baseAddress!, into: f, width: width, k: k)
                rows.columns(into: p.baseAddress!, width: width, k: k, needs: needs)
            }
        }
    }

    /// The first pass over a plane's rows, and what it learns for the second: the inked rows
    /// (top ... bottom), per row between them where its results are (`results`: a row of `f`,
    /// the row after the plane's for a row of zeros), the columns flatLo ..< flatHi where they
    /// are one value, and how many rows in a row up to it equal the row before them (`same`).
    /// Its per-row facts are raw memory, one block per blur: the second pass reads several of
    /// them for each of the plane's rows.
    private final class FirstPass {
        let height: Int
        var top: Int, bottom = -1
        let flatLo: UnsafeMutablePointer<Int>, flatHi: UnsafeMutablePointer<Int>, same: UnsafeMutablePointer<Int>
        let results: UnsafeMutablePointer<UnsafePointer<Float>?>
        /// The second pass's window queues (`FlatWindow`).
        let queues: UnsafeMutablePointer<Int>

        init(height: Int) {
            self.height = height
            top = height
            // The queues are written before they are read; so are the other facts of the rows the
            // second pass reads (top ... bottom), but `same` is read below and above those too.
            flatLo = .allocate(capacity: 5 * height)
            flatLo.initialize(repeating: 0, count: 3 * height)
            flatHi = flatLo + height; same = flatHi + height; queues = same + height
            results = .allocate(capacity: height)
            results.initialize(repeating: nil, count: height)
        }

        deinit {
            flatLo.deallocate()
            results.deallocate()
        }

        /// Rows: each output is Σ k[j] × in[x + j − r], as a sum of shifted input rows, into `f`.
        /// A row equal to the last inked one (the straight sides of a rectangle) or to its mirror
        /// image about the inked rows' middle (the lower corners) takes that row's results; a
        /// row's outputs whose taps all read one run of equal bytes (a shape's inside) are one
        /// value, worked out once and copied to the others.
        func run(_ p: UnsafeMutablePointer<UInt8>, into f: UnsafeMutablePointer<Float>, width: Int,
                 k: UnsafeBufferPointer<Float>) {
            let r = k.count / 2
            var line = [Float](repeating: 0, count: width + 2 * r)
            line.withUnsafeMutableBufferPointer { line in
                let line = line.baseAddress!, k = k.baseAddress!, taps = 2 * r + 1
                var last = -1
                // The last inked row: a shape drawn the same upside down (a rounded rect's lower
                // corners) has row y equal to row top + lowest − y, whose results are taken.
                var lowest = height - 1
                while lowest >= 0, cgs_bytes_any(p + lowest * width, width) == 0 { lowest -= 1 }
                for y in 0..<height {
                    let src = p + y * width, out = f + y * width
                    // A row equal to the last inked one is inked; others are scanned.
                    let repeated = last >= 0 && memcmp(src, p + last * width, width) == 0
                    if !repeated, cgs_bytes_any(src, width) == 0 { continue }
                    if top > y { top = y }
                    if bottom >= 0, bottom + 1 < y {
                        for z in (bottom + 1)..<y {
                            results[z] = UnsafePointer(f + height * width)
                            flatLo[z] = 0; flatHi[z] = width; same[z] = z > bottom + 1 ? same[z - 1] + 1 : 0
                        }
                    }
                    bottom = y
                    defer { last = y }
                    if repeated {
                        results[y] = results[last]
                        flatLo[y] = flatLo[last]; flatHi[y] = flatHi[last]
                        if last == y - 1 { same[y] = same[y - 1] + 1 }
                        continue
                    }
                    let mirror = top + lowest - y
                    if mirror >= top, mirror < y, memcmp(src, p + mirror * width, width) == 0 {
                        results[y] = results[mirror]
                        flatLo[y] = flatLo[mirror]; flatHi[y] = flatHi[mirror]
                        continue
                    }
                    results[y] = UnsafePointer(out)
                    cgs_bytes_to_floats(line + r, src, width)   // zeros either side stay zero
                    // The run through the middle column: a shape's inside, when it has one.
                    var runEnd = 0
                    let runStart = cgs_equal_run(src, width, width / 2, &runEnd)
                    let c0 = runStart + r, c1 = runEnd - r
                    if c1 - c0 > ShadowBlur.minShared {
                        cgs_blur_row(out, line, k, taps, c0 + 1)
                        (out + c0 + 1).update(repeating: out[c0], count: c1 - c0 - 1)
                        cgs_blur_row(out + c1, line + c1, k, taps, width - c1)
                        flatLo[y] = c0; flatHi[y] = c1
                    } else {
                        cgs_blur_row(out, line, k, taps, width)
                        flatLo[y] = 0; flatHi[y] = 0
                    }
                }
            }
        }

        /// The columns where every row of a window of rows is one value, for windows whose ends
        /// only move down: the largest `flatLo` and the smallest `flatHi` in the window, each kept
        /// in a queue of rows (every row enters and leaves each queue once).
        struct FlatWindow {
            private let maxLo: UnsafeMutablePointer<Int>, minHi: UnsafeMutablePointer<Int>
            private let flatLo: UnsafePointer<Int>, flatHi: UnsafePointer<Int>
            private var loHead = 0, loTail = 0, hiHead = 0, hiTail = 0, next = 0

            /// A window over the rows' `flatLo` and `flatHi`, its queues in `queues` (2 × rows).
            init(_ flatLo: UnsafePointer<Int>, _ flatHi: UnsafePointer<Int>, queues: UnsafeMutablePointer<Int>, rows: Int) {
                self.flatLo = flatLo; self.flatHi = flatHi; maxLo = queues; minHi = queues + rows
            }

            mutating func columns(rows: Range<Int>) -> Range<Int> {
                guard !rows.isEmpty else { return 0..<0 }
                next = max(next, rows.lowerBound)
                while next < rows.upperBound {
                    while loTail > loHead && flatLo[maxLo[loTail - 1]] <= flatLo[next] { loTail -= 1 }
                    maxLo[loTail] = next; loTail += 1
                    while hiTail > hiHead && flatHi[minHi[hiTail - 1]] >= flatHi[next] { hiTail -= 1 }
                    minHi[hiTail] = next; hiTail += 1
                    next += 1
                }
                while maxLo[loHead] < rows.lowerBound { loHead += 1 }
                while minHi[hiHead] < rows.lowerBound { hiHead += 1 }
                let a = flatLo[maxLo[loHead]], b = flatHi[minHi[hiHead]]
                return a < b ? a..<b : 0..<0
            }
        }

        /// Columns: each output row is Σ k[j] × row(y + j − r) of the first pass's results over the
        /// inked rows within reach (a zero row between them adds +0, which leaves every sum's
        /// bits), as bytes into `p`, over the columns `needs` asks for. Outputs whose taps' rows
        /// are all one value there are worked out once; a row whose taps' rows equal the row
        /// above's copies its bytes.
        func columns(into p: UnsafeMutablePointer<UInt8>, width: Int, k: UnsafeBufferPointer<Float>, needs: [Need]?) {
            guard let needs else { return columns(into: p, width: width, k: k, asked: nil) }
            precondition(needs.count == height, "one need per row")
            needs.withUnsafeBufferPointer { columns(into: p, width: width, k: k, asked: $0.baseAddress) }
        }

        private func columns(into p: UnsafeMutablePointer<UInt8>, width: Int, k: UnsafeBufferPointer<Float>,
                             asked needs: UnsafePointer<Need>?) {
            let r = k.count / 2, k = k.baseAddress!
            var before: Need? = nil   // the columns the row above wrote
            var window = FlatWindow(flatLo, flatHi, queues: queues, rows: height)   // its rows' ends only move down with y
            for y in 0..<height {
                let need = needs?[y] ?? Need(lo: 0, hi: width)
                let lo = max(need.lo, 0), hi = min(need.hi, width)
                defer { before = lo < hi ? need : nil }
                guard lo < hi else { continue }
                let out = p + y * width
                func pieces(_ body: (Int, Int) -> Void) {
                    if need.skipLo < need.skipHi {
                        body(lo, min(need.skipLo, hi))
                        body(max(need.skipHi, lo), hi)
                    } else {
                        body(lo, hi)
                    }
                }
                // Rows y − r − 1 … y + r all equal (the straight sides of a rectangle): the row
                // above summed the same rows with the same taps, so its bytes are these.
                if let b = before, b.lo == need.lo, b.hi == need.hi, b.skipLo == need.skipLo,
                   b.skipHi == need.skipHi, y + r < height, same[y + r] >= 2 * r + 1 {
                    pieces { x0, x1 in if x0 < x1 { (out + x0).update(from: out - width + x0, count: x1 - x0) } }
                    continue
                }
                // Taps j read row y + j − r: those in top...bottom.
                let first = max(0, top - y + r), end = min(2 * r + 1, bottom - y + r + 1)
                // Columns where every row the taps read is one value: one output there (each
                // row constant across them makes every column's sum the same). Looked for when
                // the row leaves enough columns to compute.
                let skipped = need.skipLo < need.skipHi ? max(0, min(need.skipHi, hi) - max(need.skipLo, lo)) : 0
                let shared = hi - lo - skipped > 2 * ShadowBlur.minShared
                    ? window.columns(rows: (y + first - r)..<(y + max(first, end) - r)) : 0..<0
                func sum(_ x0: Int, _ x1: Int) {
                    guard x0 < x1 else { return }
                    cgs_blur_columns(out + x0, results + (y + first - r), k + first, end - first, x0, x1 - x0)
                }
                pieces { x0, x1 in
                    guard x0 < x1 else { return }
                    if first >= end { (out + x0).update(repeating: 0, count: x1 - x0); return }
                    let a = max(x0, shared.lowerBound), b = min(x1, shared.upperBound)
                    guard b - a > ShadowBlur.minShared else { return sum(x0, x1) }
                    sum(x0, a + 1)
                    (out + a + 1).update(repeating: out[a], count: b - a - 1)
                    sum(b, x1)
                }
            }
        }
    }
}
