// `cgs_fill_box` against its definition: `cgs_fill_u32` on each row of the box.
import CGSupport
import Testing

@Suite struct FillKernelTests {
    /// Boxes of every width class the kernel treats apart (under four words, the inline stores
    /// with and without an overlapping last store, the library fill past 256) leave the same
    /// words as a row-by-row fill, and nothing outside the box changes.
    @Test func boxesMatchARowByRowFill() {
        var rng = TestLCG(seed: 0xF111_B0C5)
        let stride = 320, rows = 12
        for w in [0, 1, 2, 3, 4, 5, 7, 8, 9, 40, 41, 255, 256, 257, 300] {
            for _ in 0..<4 {
                let h = Int(rng.next() % 9), x = Int(rng.next() % UInt32(stride - w + 1))
                let y = Int(rng.next() % UInt32(rows - 7))
                let word = rng.next()
                var a = (0..<stride * rows).map { _ in rng.next() }
                var b = a
                a.withUnsafeMutableBufferPointer { cgs_fill_box($0.baseAddress! + y * stride + x, stride, w, h, word) }
                b.withUnsafeMutableBufferPointer { p in
                    for r in 0..<h { cgs_fill_u32(p.baseAddress! + (y + r) * stride + x, word, w) }
                }
                #expect(a == b, "w \(w) h \(h)")
            }
        }
    }
}
