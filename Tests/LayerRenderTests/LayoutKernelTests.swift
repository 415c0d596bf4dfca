// `cgs_layout_to_native` and `cgs_layout_from_native` (a bitmap context's pixels in the user's
// 32-bit layout, to and from cairo's native words; Sources/CGSupport/kernels_layout.c) against
// `PixelLayout`'s loops written out, in every variant: every byte order of the four channels,
// premultiplied and without alpha, colour above alpha included, for lengths that leave every
// remainder of the vector loop; the bytes past the row are left as they were.
import CGSupport
import Testing

@Suite struct LayoutKernelTests {
    /// The four orders CoreGraphics makes (RGBA, ARGB, and both byte-reversed) and one more.
    static let orders: [[Int32]] = [[0, 1, 2, 3], [1, 2, 3, 0], [3, 2, 1, 0], [2, 1, 0, 3], [1, 0, 3, 2]]

    @Test(arguments: [Int32(0), 2])
    func layoutsMatchTheirDefinition(variant: Int32) {
        var s: UInt32 = 0x5EED_0001
        func next() -> UInt32 { s = s &* 1_664_525 &+ 1_013_904_223; return s >> 8 }
        for order in LayoutKernelTests.orders {
            for opaque: Int32 in [0, 1] {
                for n in Array(0..<20) + [31, 32, 33, 100] {
                    // Into native words: user bytes, some with colour above alpha.
                    let user = (0..<(4 * n)).map { _ in UInt8(truncatingIfNeeded: next()) }
                    var words = [UInt32](repeating: 7, count: n + 1)
                    cgs_layout_to_native_using(variant, &words, user, n, order, opaque)
                    let expectedWords = (0..<n).map { x -> UInt32 in
                        let p = Array(user[(4 * x)..<(4 * x + 4)])
                        let a = opaque == 1 ? 255 : UInt32(p[Int(order[3])])
                        var r = UInt32(p[Int(order[0])]), g = UInt32(p[Int(order[1])]), b = UInt32(p[Int(order[2])])
                        if opaque == 0 { r = min(r, a); g = min(g, a); b = min(b, a) }
                        return a << 24 | r << 16 | g << 8 | b
                    }
                    #expect(Array(words[..<n]) == expectedWords && words[n] == 7,
                            "to native: variant \(variant), order \(order), opaque \(opaque), n \(n)")
                    // From native words back to the user's bytes.
                    let native = (0..<n).map { _ in next() | next() << 24 }
                    var bytes = [UInt8](repeating: 9, count: 4 * n + 1)
                    cgs_layout_from_native_using(variant, &bytes, native, n, order, opaque)
                    var expectedBytes = [UInt8](repeating: 0, count: 4 * n)
                    for (x, v) in native.enumerated() {
                        expectedBytes[4 * x + Int(order[0])] = UInt8(truncatingIfNeeded: v >> 16)
                        expectedBytes[4 * x + Int(order[1])] = UInt8(truncatingIfNeeded: v >> 8)
                        expectedBytes[4 * x + Int(order[2])] = UInt8(truncatingIfNeeded: v)
                        expectedBytes[4 * x + Int(order[3])] = opaque == 1 ? 255 : UInt8(truncatingIfNeeded: v >> 24)
                    }
                    #expect(Array(bytes[..<(4 * n)]) == expectedBytes && bytes[4 * n] == 9,
                            "from native: variant \(variant), order \(order), opaque \(opaque), n \(n)")
                }
            }
        }
    }
}
