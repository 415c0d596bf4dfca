// `cgs_fill_box` against its definition: `cgs_fill_u32` on each row of the box; and
// `cgs_fill_framed_box` against the fills it replaces: the inside, then the frame's four strips.
import CGSupport
import Testing

@Suite struct FillKernelTests {
    /// Boxes of every width class the kernel treats apart (under four words, the inline 16-,
    /// 32- and 64-byte stores with and without an overlapping last store, the library fill past
    /// 256) leave the same words as a row-by-row fill, and nothing outside the box changes.
    @Test func boxesMatchARowByRowFill() {
        var rng = TestLCG(seed: 0xF111_B0C5)
        let stride = 320, rows = 12
        for w in [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 40, 41, 255, 256, 257, 300] {
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

    /// A framed box leaves exactly what filling its inside with one word and then its four
    /// frame strips with another leaves, for frames of every width (none, one pixel, wider than
    /// the inside, a whole box of frame) and nothing outside the box changes, in every variant
    /// (0 and 1 the portable body, whose rows take 16-byte stores on x86-64; 2 AVX2; 3 AVX-512;
    /// where the processor runs them): rows one vector
    /// wide, between one and two (first and last vectors overlapping), and wider; sides within
    /// one vector (the rows' edge vectors) and wider.
    @Test(arguments: [Int32(0), 1, 2, 3])
    func framedBoxesMatchTheInsideAndTheFourStrips(variant: Int32) {
        var rng = TestLCG(seed: 0xF4A3_ED00)
        let stride = 320, rows = 40
        for w in [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 40, 41, 48, 260, 300] {
            for trial in 0..<24 {
                let h = 1 + Int(rng.next() % 30)
                let x = Int(rng.next() % UInt32(stride - w + 1)), y = Int(rng.next() % UInt32(rows - h + 1))
                // Half the trials with sides of at most a few words (a layer's border), half of any width.
                let side = UInt32(trial % 2 == 0 ? min(w, 3) : w) + 1
                let left = trial == 0 ? 0 : Int(rng.next() % side)
                let right = trial == 1 ? 0 : Int(rng.next() % min(side, UInt32(w - left + 1)))
                let top = trial == 2 ? h : Int(rng.next() % UInt32(h + 1))
                let bottom = Int(rng.next() % UInt32(h - top + 1))
                let fill = rng.next(), border = rng.next()
                var a = (0..<stride * rows).map { _ in rng.next() }
                var b = a
                a.withUnsafeMutableBufferPointer {
                    cgs_fill_framed_box_using(variant, $0.baseAddress! + y * stride + x, stride, w, h, left, top, right, bottom, fill, border)
                }
                b.withUnsafeMutableBufferPointer { q in
                    let p = q.baseAddress! + y * stride + x
                    cgs_fill_box(p + top * stride + left, stride, w - left - right, h - top - bottom, fill)
                    cgs_fill_box(p, stride, w, top, border)
                    cgs_fill_box(p + (h - bottom) * stride, stride, w, bottom, border)
                    cgs_fill_box(p + top * stride, stride, left, h - top - bottom, border)
                    cgs_fill_box(p + top * stride + w - right, stride, right, h - top - bottom, border)
                }
                #expect(a == b, "variant \(variant) w \(w) h \(h) frame \(left) \(top) \(right) \(bottom)")
            }
        }
    }
}
