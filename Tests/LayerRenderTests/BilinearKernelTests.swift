// The bilinear C kernels (Sources/CGSupport/kernels_bilinear.c) against the Swift definition
// they reproduce, `Raster.lerpWord`, in every variant (portable, SSE2, AVX2, AVX-512 where the
// processor runs them): random premultiplied words, every weight 0…256, row lengths that leave
// every remainder of the vector loops; the returned AND of alpha bytes is 255 exactly when every
// result is opaque.
import CGSupport
@testable import LayerRender
import Testing

@Suite struct BilinearKernelTests {
    @Test(arguments: [Int32(0), 1, 2, 3])
    func kernelsEqualLerpWord(variant: Int32) {
        var s: UInt32 = 0x9E37_79B9
        func next() -> UInt32 { s = s &* 1_664_525 &+ 1_013_904_223; return s }
        func word(opaque: Bool) -> UInt32 {
            let a: UInt32 = opaque ? 255 : next() >> 24
            let c = { (v: UInt32) in v % (a + 1) }
            let r = next()
            return a << 24 | c(r >> 16 & 255) << 16 | c(r >> 8 & 255) << 8 | c(r & 255)
        }
        for n in 0..<40 {
            let opaque = n % 3 != 0
            let top = (0..<n).map { _ in word(opaque: opaque) }, bottom = (0..<n).map { _ in word(opaque: opaque) }
            for w: UInt32 in [0, 1, 77, 128, 200, 255, 256] {
                var out = [UInt32](repeating: 0, count: n)
                let all = cgs_lerp_rows_using(variant, &out, top, bottom, n, w)
                let expected = (0..<n).map { Raster.lerpWord(top[$0], bottom[$0], w) }
                #expect(out == expected, "variant \(variant), n \(n), w \(w)")
                #expect((all == 255) == expected.allSatisfy { $0 >> 24 == 255 })
            }
            let texels = (0..<17).map { _ in word(opaque: opaque) }
            let left = (0..<n).map { _ in Int32(next() % 17) }, right = (0..<n).map { _ in Int32(next() % 17) }
            let weights = (0..<n).map { _ in next() % 257 }
            var out = [UInt32](repeating: 0, count: n)
            let all = cgs_lerp_columns_using(variant, &out, texels, left, right, weights, n, 0)
            let expected = (0..<n).map { Raster.lerpWord(texels[Int(left[$0])], texels[Int(right[$0])], weights[$0]) }
            #expect(out == expected)
            #expect((all == 255) == expected.allSatisfy { $0 >> 24 == 255 })
        }
    }

    /// Columns of a row scaled by a factor (magnified, slightly or much shrunk, halved — sixteen
    /// columns reading exactly 32 texels — flipped), as a bilinear draw makes them: neighbouring texels, monotonic, clamped at both ends, read from a
    /// row that ends at the last texel used (so a vector load past it would be caught by ASan).
    @Test(arguments: [Int32(0), 1, 2, 3])
    func scaledRowsEqualLerpWord(variant: Int32) {
        var s: UInt32 = 0x1234_5678
        func next() -> UInt32 { s = s &* 1_664_525 &+ 1_013_904_223; return s }
        for (count, n, flipped) in [(512, 1280, false), (128, 100, false), (200, 173, true), (9, 40, false), (3, 29, true), (1, 11, false),
                                     (512, 100, false), (700, 45, true), (256, 128, false)] {
            let texels = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
            defer { texels.deallocate() }
            for k in 0..<count { texels[k] = next() | 0xFF00_0000 }
            var left: [Int32] = [], right: [Int32] = [], weights: [UInt32] = []
            for x in 0..<n {
                let c = flipped ? n - 1 - x : x
                let u = (Double(c) + 0.5) * Double(count) / Double(n) - 0.5
                let f = u.rounded(.down)
                let l = min(max(Int(f), 0), count - 1), r = min(max(Int(f) + 1, 0), count - 1)
                left.append(Int32(l)); right.append(Int32(r))
                weights.append(UInt32(min(max(((u - f) * 256).rounded(), 0), 256)))
            }
            let expected = (0..<n).map { Raster.lerpWord(texels[Int(left[$0])], texels[Int(right[$0])], weights[$0]) }
            // Told the columns increase where they do (not mirrored), and not told so.
            for increasing in flipped ? [Int32(0)] : [0, 1] {
                var out = [UInt32](repeating: 0, count: n)
                _ = cgs_lerp_columns_using(variant, &out, texels, left, right, weights, n, increasing)
                #expect(out == expected, "variant \(variant), \(count) → \(n), increasing \(increasing)")
            }
        }
    }
}
