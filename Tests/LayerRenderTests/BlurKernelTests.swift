// The sampled Gaussian's C kernels (Sources/CGSupport/kernels_blur.c) against the Swift loops
// they replaced in `ShadowBlur.blur` — each output summed from zero, one multiply and one add
// per tap in order of tap — in every variant: the same floats, bit for bit, and the same bytes
// after rounding, for lengths that leave every remainder of the vector loops (and that end a
// step of eight groups of eight, or one output after it).
import CGSupport
import Testing

@Suite struct BlurKernelTests {
    @Test(arguments: [Int32(0), 1, 2])
    func kernelsEqualTheSwiftLoops(variant: Int32) {
        var s: UInt32 = 0x2545_F491
        func unit() -> Float { s = s &* 1_664_525 &+ 1_013_904_223; return Float(s >> 8) / 16_777_216 }
        for taps in [1, 3, 37] {
            var k = (0..<taps).map { _ in unit() }
            let total = k.reduce(0, +)
            k = k.map { $0 / total }
            for n in Array(0..<30) + [55, 56, 63, 64, 65, 71, 72, 79, 133, 156, 157] {
                let line = (0..<(n + taps - 1)).map { _ in (unit() * 255).rounded() }
                var out = [Float](repeating: -1, count: n)
                cgs_blur_row_using(variant, &out, line, k, taps, n)
                var expected = [Float](repeating: 0, count: n)
                for j in 0..<taps { for x in 0..<n { expected[x] += k[j] * line[x + j] } }
                #expect(out.map(\.bitPattern) == expected.map(\.bitPattern), "row: variant \(variant), taps \(taps), n \(n)")

                // The taps' rows, read from column 2 on, given one by one: every third the same row.
                let rows = (0..<taps).map { j in (0..<(n + 2)).map { _ in unit() * 255 } }
                let storage = rows.map { row -> UnsafeMutablePointer<Float> in
                    let p = UnsafeMutablePointer<Float>.allocate(capacity: row.count); p.initialize(from: row, count: row.count); return p
                }
                defer { storage.forEach { $0.deallocate() } }
                let pointers: [UnsafePointer<Float>?] = (0..<taps).map { j in UnsafePointer(storage[j % 3 == 2 ? 0 : j]) }
                var bytes = [UInt8](repeating: 7, count: n)
                cgs_blur_columns_using(variant, &bytes, pointers, k, taps, 2, n)
                var acc = [Float](repeating: 0, count: n)
                for j in 0..<taps { for x in 0..<n { acc[x] += k[j] * rows[j % 3 == 2 ? 0 : j][x + 2] } }
                #expect(bytes == acc.map { UInt8(min($0 + 0.5, 255)) }, "columns: variant \(variant), taps \(taps), n \(n)")
            }
        }
    }

    /// `cgs_alpha_bytes` (a shadow's plane from its layer's pixels) against the alpha byte of
    /// each word and their OR, for lengths that leave every remainder of a vectorised loop;
    /// the bytes past the row are left as they were.
    @Test func alphaBytesAreTheWordsTopBytes() {
        var s: UInt32 = 0x9E37_79B9
        func word() -> UInt32 { s = s &* 1_664_525 &+ 1_013_904_223; return s }
        for n in Array(0..<40) + [63, 64, 65, 127, 128, 129, 1000] {
            for clear in [false, true] {
                // One alpha set among clear ones: the OR must show it wherever it sits.
                let row = (0..<n).map { i in clear ? word() & 0x00FF_FFFF | (i == n / 3 ? 0x4000_0000 : 0) : word() }
                for variant: Int32 in [0, 2] {
                    var out = [UInt8](repeating: 7, count: n + 1)
                    let any = cgs_alpha_bytes_using(variant, &out, row, n)
                    #expect(Array(out[..<n]) == row.map { UInt8($0 >> 24) } && out[n] == 7, "variant \(variant), n \(n)")
                    #expect(any == row.reduce(0) { $0 | $1 >> 24 }, "variant \(variant), n \(n)")
                }
            }
        }
    }

    /// `cgs_bytes_any` (whether a blur's row has coverage) against a scan: rows of zeros with
    /// one byte set at every index, and all zero, past two vectors.
    @Test func anyByteFindsEveryPosition() {
        for n in [0, 1, 31, 32, 33, 64, 100] {
            for variant: Int32 in [0, 2] {
                let zeros = [UInt8](repeating: 0, count: n)
                #expect(cgs_bytes_any_using(variant, zeros, n) == 0, "variant \(variant), n \(n)")
                for i in 0..<n {
                    var row = zeros
                    row[i] = 1
                    #expect(cgs_bytes_any_using(variant, row, n) == 1, "variant \(variant), n \(n), set \(i)")
                }
            }
        }
    }

    /// `cgs_equal_run` against a byte-by-byte scan: runs of every length up to past two words,
    /// starting and ending at the row's ends and inside, asked from every index.
    @Test func equalRunsMatchAScan() {
        var lcg = UInt32(0x00E9_0A1)
        func next() -> UInt32 { lcg = lcg &* 1_664_525 &+ 1_013_904_223; return lcg >> 8 }
        for case_ in 0..<200 {
            let n = Int(next() % 40)
            // Few values, long runs.
            var p = [UInt8](repeating: 0, count: n)
            var x = 0
            while x < n {
                let v = UInt8(next() % 3), len = 1 + Int(next() % 20)
                for i in x..<min(n, x + len) { p[i] = v }
                x += len
            }
            for at in -1...n {
                var end = 0
                let start = cgs_equal_run(p, n, at, &end)
                guard at >= 0, at < n else {
                    #expect(start == at && end == at, "case \(case_), at \(at)")
                    continue
                }
                var a = at, b = at + 1
                while a > 0, p[a - 1] == p[at] { a -= 1 }
                while b < n, p[b] == p[at] { b += 1 }
                #expect(start == a && end == b, "case \(case_), at \(at)")
            }
        }
    }
}
