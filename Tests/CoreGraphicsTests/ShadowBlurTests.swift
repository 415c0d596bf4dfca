// The sampled Gaussian's shortcuts against the plain separable blur they must equal: a row equal
// to the last inked one, or to its mirror image about the inked rows' middle, takes that row's
// first pass, a kept plane and kernel serve the next blur, and `needs` writes only the columns asked
// for (the others keep their input bytes) — the bytes written are those of the reference, which
// is the two passes written out (each output summed from zero in order of tap, the second pass
// over inked rows only, rounded as ⌊min(v + 0.5, 255)⌋).
@testable import CoreGraphics
import Foundation
import Testing

@Suite struct ShadowBlurTests {
    /// The reference: ShadowBlur's two passes with no shortcut.
    func reference(_ plane: [UInt8], width: Int, height: Int, sigma: CGFloat) -> [UInt8] {
        let k = ShadowBlur.kernel(sigma: sigma), r = k.count / 2
        var f = [Float](repeating: 0, count: width * height)
        var inked = [Bool](repeating: false, count: height)
        for y in 0..<height {
            inked[y] = (0..<width).contains { plane[y * width + $0] != 0 }
            guard inked[y] else { continue }
            for x in 0..<width {
                var acc: Float = 0
                for j in 0..<k.count {
                    let sx = x + j - r
                    acc = acc + k[j] * (sx >= 0 && sx < width ? Float(plane[y * width + sx]) : 0)
                }
                f[y * width + x] = acc
            }
        }
        var out = plane
        for y in 0..<height {
            for x in 0..<width {
                var acc: Float = 0
                for j in max(0, r - y)..<min(k.count, height + r - y) where inked[y + j - r] {
                    acc = acc + k[j] * f[(y + j - r) * width + x]
                }
                out[y * width + x] = UInt8(min(acc + 0.5, 255))
            }
        }
        return out
    }

    /// A rounded-rect-like plane: equal rows down the middle (the shortcut's case), others varied.
    func plane(width: Int, height: Int, seed: UInt32) -> [UInt8] {
        var s = seed
        func next() -> UInt32 { s = s &* 1_664_525 &+ 1_013_904_223; return s >> 8 }
        var p = [UInt8](repeating: 0, count: width * height)
        let middle = (0..<width).map { x in x < 10 || x >= width - 10 ? UInt8(0) : UInt8(truncatingIfNeeded: 128 + next() % 128) }
        for y in 10..<(height - 10) {
            if y > 20 && y < height - 20 {
                for x in 0..<width { p[y * width + x] = middle[x] }
            } else {
                for x in 10..<(width - 10) { p[y * width + x] = UInt8(truncatingIfNeeded: next() % 256) }
            }
        }
        return p
    }

    @Test(arguments: [CGFloat(0.8), 2, 5, 9.5])
    func shortcutsGiveTheReferenceBytes(sigma: CGFloat) {
        let width = 61, height = 57
        let input = plane(width: width, height: height, seed: UInt32(sigma * 10))
        let expected = reference(input, width: width, height: height, sigma: sigma)
        var whole = input
        ShadowBlur.blur(&whole, width: width, height: height, sigma: sigma)
        #expect(whole == expected)
        // Only some columns of some rows, with a run skipped: those columns are the reference's,
        // every other byte is the input's.
        let needs = (0..<height).map { y -> ShadowBlur.Need in
            y % 5 == 0 ? ShadowBlur.Need(lo: 0, hi: 0)
                : ShadowBlur.Need(lo: y % 7, hi: width - y % 3, skipLo: 15 + y % 4, skipHi: 40 - y % 6)
        }
        expectPartial(input, expected, width: width, height: height, sigma: sigma, needs: needs)
    }

    /// `input` blurred through `needs`: the columns asked for are `expected`'s, every other byte
    /// is the input's.
    func expectPartial(_ input: [UInt8], _ expected: [UInt8], width: Int, height: Int, sigma: CGFloat,
                       needs: [ShadowBlur.Need]) {
        var partial = input
        ShadowBlur.blur(&partial, width: width, height: height, sigma: sigma, needs: needs)
        for y in 0..<height {
            let n = needs[y]
            for x in 0..<width {
                let wanted = x >= n.lo && x < n.hi && !(x >= n.skipLo && x < n.skipHi)
                #expect(partial[y * width + x] == (wanted ? expected : input)[y * width + x],
                        "σ \(sigma), \(width) × \(height) at (\(x), \(y))")
            }
        }
    }

    /// A kept plane (`ShadowBlur.Scratch`) gives the same bytes as a fresh one, whatever the blurs
    /// before it left in it: planes with empty rows between inked ones (two shapes apart, whose
    /// taps run across the gap) after larger and smaller planes, and a plane too large to keep.
    @Test func aKeptPlaneGivesTheReferenceBytes() {
        let scratch = ShadowBlur.Scratch()
        for (i, (width, height)) in [(61, 57), (90, 120), (40, 33), (200, 150), (61, 57)].enumerated() {
            var input = plane(width: width, height: height, seed: UInt32(7 + i))
            // Rows 30 ..< 40 emptied: the rows around them are inked, and the gap's rows are read
            // by the second pass's taps.
            for y in 30..<min(40, height) { for x in 0..<width { input[y * width + x] = 0 } }
            // σ 5, 2.5, 2.5, 5, 2.5: the kernel kept for one σ, and taken again for the next blur.
            let sigma: CGFloat = i % 3 == 0 ? 5 : 2.5
            let expected = reference(input, width: width, height: height, sigma: sigma)
            var kept = input
            ShadowBlur.blur(&kept, width: width, height: height, sigma: sigma, scratch: scratch)
            #expect(kept == expected, "plane \(i): \(width) × \(height)")
        }
        // Past `keptFloats` the plane is the blur's own; the scratch still serves the next one.
        #expect(scratch.plane(ShadowBlur.Scratch.keptFloats + 1) == nil)
        #expect(scratch.plane(100) != nil)
    }

    /// `zeroMargin`: the blur of the worst case for a pixel d away from any inked one — every
    /// pixel on one side of it at 255, along rows and along columns — is 0 from the margin on,
    /// and the pixel just inside the margin is not (the margin is not wider than it needs).
    @Test(arguments: [CGFloat(0.6), 1, 2.5, 5, 7.3, 12, 16])
    func outputsPastTheZeroMarginAreZero(sigma: CGFloat) {
        let r = ShadowBlur.reach(sigma: sigma), zero = ShadowBlur.zeroMargin(sigma: sigma)
        #expect(zero >= 1 && zero <= r + 1)
        let inked = r + 10, width = inked + r + 4, height = 2 * r + 12
        // Columns 0 ..< inked full, then clear: the output d columns past the last inked one.
        var columns = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<inked { columns[y * width + x] = 255 } }
        ShadowBlur.blur(&columns, width: width, height: height, sigma: sigma)
        let row = height / 2
        #expect(columns[row * width + inked - 1 + zero] == 0, "σ \(sigma): the byte \(zero) past the edge")
        #expect(columns[row * width + inked - 1 + zero - 1] > 0, "σ \(sigma): the byte \(zero - 1) past the edge")
        // The same across rows: rows 0 ..< inked full (the plane turned a quarter).
        let tall = inked + r + 4, wide = 2 * r + 12
        var rows = [UInt8](repeating: 0, count: wide * tall)
        for y in 0..<inked { for x in 0..<wide { rows[y * wide + x] = 255 } }
        ShadowBlur.blur(&rows, width: wide, height: tall, sigma: sigma)
        #expect(rows[(inked - 1 + zero) * wide + wide / 2] == 0, "σ \(sigma): the row \(zero) past the edge")
        #expect(rows[(inked - 2 + zero) * wide + wide / 2] > 0, "σ \(sigma): the row \(zero - 1) past the edge")
    }

    /// Shapes drawn the same upside down (random rows, the lower half a mirror of the upper; an
    /// even and an odd number of rows) take the upper rows' first pass for the lower ones; a
    /// lower row with one byte changed must not.
    @Test func mirroredRowsAreTheReference() {
        var s: UInt32 = 0xB1_0E5
        func next() -> UInt32 { s = s &* 1_664_525 &+ 1_013_904_223; return s >> 8 }
        let width = 70, height = 64
        for variant in 0..<3 {
            var input = [UInt8](repeating: 0, count: width * height)
            let top = 12, bottom = variant == 2 ? 50 : 51   // inked rows top ... bottom
            for y in top...((top + bottom) / 2) {
                for x in 12..<58 {
                    let v = UInt8(truncatingIfNeeded: next() % 256)
                    input[y * width + x] = v
                    input[(top + bottom - y) * width + x] = v
                }
            }
            if variant == 1 { input[45 * width + 30] &+= 1 }
            let expected = reference(input, width: width, height: height, sigma: 3)
            var out = input
            ShadowBlur.blur(&out, width: width, height: height, sigma: 3, scratch: ShadowBlur.Scratch())
            let wrong = zip(out, expected).filter { $0 != $1 }.count
            #expect(wrong == 0, "variant \(variant): \(wrong) bytes differ")
        }
    }

    /// Shapes with insides of one value — rects with anti-aliased sides and rounded corners, and
    /// a band of one grey across a plane, wider and narrower than the taps — whose outputs over
    /// those insides are worked out once and copied: every byte is the reference's, over the
    /// whole plane and through needs that skip a body's run on some rows and not on others.
    @Test(arguments: [CGFloat(2), 5])
    func outputsOverOneValueAreTheReference(sigma: CGFloat) {
        for (width, height, inset, value) in [(90, 70, 18, 255), (130, 60, 20, 200), (40, 50, 12, 255), (64, 64, 4, 90)] {
            var input = [UInt8](repeating: 0, count: width * height)
            for y in inset..<(height - inset) {
                for x in inset..<(width - inset) {
                    // Corners cut diagonally, sides a grey step: rows and columns of differing runs.
                    let dx = min(x - inset, width - inset - 1 - x), dy = min(y - inset, height - inset - 1 - y)
                    guard dx + dy >= 4 else { continue }
                    input[y * width + x] = dx == 0 || dy == 0 ? UInt8(value / 2) : UInt8(value)
                }
            }
            let expected = reference(input, width: width, height: height, sigma: sigma)
            var whole = input
            ShadowBlur.blur(&whole, width: width, height: height, sigma: sigma)
            #expect(whole == expected, "σ \(sigma), \(width) × \(height)")
            let needs = (0..<height).map { y -> ShadowBlur.Need in
                y >= inset + 6 && y < height - inset - 6
                    ? ShadowBlur.Need(lo: 0, hi: width, skipLo: inset + 3, skipHi: width - inset - 3)
                    : ShadowBlur.Need(lo: y % 3, hi: width - y % 4)
            }
            expectPartial(input, expected, width: width, height: height, sigma: sigma, needs: needs)
        }
    }
}
