// Raster.blend runs the four channels in vector lanes; its contract is the per-channel Float
// formula of source-over, min(s·cov + d·(1 − a·cov/255) + 0.5, 255) truncated, bit for bit (the
// goldens were recorded with it). Checked on the cases where a vector shortcut could slip: exact
// halves (ties that round-to-nearest would take the other way), the 255 clamp, coverage 0 and 1,
// opaque and clear sources and destinations, and a deterministic spread of everything else.
// The four-pixel forms (blend4, composite4, scale and coverage bytes over lanes) are checked
// against the one-pixel ones.
import CGSupport
@testable import LayerRender
import Testing

@Suite struct BlendTests {
    /// The formula one channel at a time, as written before the vector version.
    static func reference(_ d: UInt32, _ r: Float, _ g: Float, _ b: Float, _ a: Float, _ cov: Float) -> UInt32 {
        let inv = 1 - a * cov / 255
        let da = Float(d >> 24), dr = Float((d >> 16) & 255), dg = Float((d >> 8) & 255), db = Float(d & 255)
        let oa = UInt32(min(a * cov + da * inv + 0.5, 255))
        let or = UInt32(min(r * cov + dr * inv + 0.5, 255))
        let og = UInt32(min(g * cov + dg * inv + 0.5, 255))
        let ob = UInt32(min(b * cov + db * inv + 0.5, 255))
        return oa << 24 | or << 16 | og << 8 | ob
    }

    @Test func vectorBlendEqualsTheFormulaPerChannel() {
        var cases: [(d: UInt32, r: Float, g: Float, b: Float, a: Float, cov: Float)] = [
            (0, 0, 0, 0, 0, 1), (0xFFFF_FFFF, 255, 255, 255, 255, 1), (0x8040_2010, 0, 0, 0, 0, 0.5),
            // s·cov = 1.5 and d = 0: 2.0 after the half (a tie below would round to 2 as well as 1).
            (0, 3, 5, 7, 9, 0.5), (0, 1, 3, 5, 255, 0.5), (0xFF00_0000, 255, 0, 0, 255, 1),
            (0x7F7F_7F7F, 255, 255, 255, 255, 0.999_999), (0xFFFF_FFFF, 254.9, 254.9, 254.9, 255, 1),
            (0x0101_0101, 0.5, 1.5, 2.5, 3.5, 1), (0xFF80_8080, 128, 64, 32, 128, 0.25),
        ]
        // A fixed LCG (no randomness between runs): premultiplied sources, any destination.
        var s: UInt32 = 0xC0FF_EE00
        func next() -> UInt32 { s = s &* 1_664_525 &+ 1_013_904_223; return s }
        for i in 0..<200_000 {
            let a = Float(next() >> 24)
            let scale = a / 16_777_216
            let r = Float(next() >> 8) * scale, g = Float(next() >> 8) * scale, b = Float(next() >> 8) * scale
            let cov: Float = i % 4 == 0 ? 1 : i % 4 == 1 ? Float(next() >> 24) / 255 : Float(next() >> 8) / 16_777_216
            cases.append((next(), i % 3 == 0 ? r.rounded() : r, g, b, a, cov))
        }
        var wrong = 0
        for c in cases {
            var p = c.d
            Raster.blend(&p, c.r, c.g, c.b, c.a, c.cov)
            if p != BlendTests.reference(c.d, c.r, c.g, c.b, c.a, c.cov) { wrong += 1 }
        }
        #expect(wrong == 0)
        var p: UInt32 = 0
        Raster.blend(&p, 3, 5, 7, 9, 0.5)
        #expect(p == 0x0502_0304, "r 1.5 + 0.5 truncates to 2, g 2.5 + 0.5 to 3, b 3.5 + 0.5 to 4, a 4.5 + 0.5 to 5")
    }

    @Test func fourPixelsAtOnceEqualFourBlends() {
        // blend4 (one lane per pixel) against blend pixel by pixel, and composite4 against
        // compositePixel: weights 0 and 1 (where the per-pixel callers skip or store instead of
        // blending), opaque and clear sources, ties and the clamp, and a deterministic spread.
        var s: UInt32 = 0x5EED_0004
        func next() -> UInt32 { s = s &* 1_664_525 &+ 1_013_904_223; return s }
        var wrongBlend = 0, wrongComposite = 0
        for i in 0..<50_000 {
            let d = SIMD4<UInt32>(next(), next(), next(), i % 5 == 0 ? 0xFFFF_FFFF : next())
            let a = i % 3 == 0 ? 255 : Float(next() >> 24), k = a / 16_777_216
            let r = Float(next() >> 8) * k, g = Float(next() >> 8) * k, b = Float(next() >> 8) * k
            let w = SIMD4<Float>(0, 1, Float(next() >> 24) / 255, i % 2 == 0 ? 0.5 : Float(next() >> 8) / 16_777_216)
            var four = (0..<4).map { d[$0] }, one = four
            four.withUnsafeMutableBufferPointer { p in
                Raster.blend4(p.baseAddress!, b: SIMD4(repeating: b), g: SIMD4(repeating: g), r: SIMD4(repeating: r),
                              a: SIMD4(repeating: a), w)
            }
            for lane in 0..<4 {
                var p = one[lane]
                Raster.blend(&p, r, g, b, a, w[lane])
                one[lane] = p
            }
            if four != one { wrongBlend += 1 }
            // Premultiplied source words (one clear, one opaque), at opacity 1 and below.
            let alpha: Float = i % 2 == 0 ? 1 : Float(next() >> 24) / 255
            let sa = next() >> 24
            let words = SIMD4<UInt32>(0, 0xFF10_2030, sa << 24 | (next() >> 24) * sa / 255 << 16 | (next() >> 24) * sa / 255,
                                      Raster.scale(0xFF80_4020, by: next() >> 24))
            var composited = (0..<4).map { d[$0] }, expected = composited
            composited.withUnsafeMutableBufferPointer { Raster.composite4($0.baseAddress!, words, alpha) }
            for lane in 0..<4 {
                var p = expected[lane]
                Raster.compositePixel(words[lane], &p, alpha, copies: alpha == 1)
                expected[lane] = p
            }
            if composited != expected { wrongComposite += 1 }
            // scale over lanes is scale lane by lane.
            let factors = SIMD4<UInt32>(0, 255, next() >> 24, next() >> 24)
            let scaled = Raster.scale(d, by: factors)
            if scaled != SIMD4((0..<4).map { Raster.scale(d[$0], by: factors[$0]) }) { wrongComposite += 1 }
        }
        #expect(wrongBlend == 0 && wrongComposite == 0)
    }

    @Test func integerOverEqualsTheFloatBlendAtWeightOne() {
        // Every source alpha against every destination byte, in each channel; source colour
        // channels at the alpha, at 0, in between and above it (not premultiplied: the clamp).
        var wrong = 0, seed: UInt32 = 0x0F0F_1234
        for sa in UInt32(0)...255 {
            for d in UInt32(0)...255 {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let between = sa == 0 ? 0 : (seed >> 8) % (sa + 1)
                let words = SIMD4<UInt32>(sa << 24 | sa << 16 | between << 8,
                                          sa << 24 | between << 16 | sa,
                                          sa << 24 | 255 << 16 | min(sa + 1, 255) << 8 | between,
                                          sa << 24 | (seed >> 24) * sa / 255 << 16 | sa << 8 | sa / 2)
                let dests = SIMD4<UInt32>(d * 0x0101_0101, d << 24 | (255 - d) << 16 | d << 8 | (d ^ 0x5A),
                                          (255 - d) * 0x0101_0101, seed ^ d)
                var four = (0..<4).map { dests[$0] }
                four.withUnsafeMutableBufferPointer { Raster.over4($0.baseAddress!, words) }
                for lane in 0..<4 {
                    var p = dests[lane]
                    let c = Raster.channels(words[lane])
                    Raster.blend(&p, c.r, c.g, c.b, c.a, 1)
                    if p != four[lane] { wrong += 1 }
                }
            }
        }
        #expect(wrong == 0)
    }

    @Test func fourCoverageBytesEqualOne() {
        var values: [Float] = [0, 1, -0.0, 1e-9, 0.5, 0.999_999]
        for k in 0...255 {
            let c = (Float(k) + 0.5) / 255
            values += [c, c.nextUp, c.nextDown, Float(k) / 255]
        }
        var wrong = 0
        for i in stride(from: 0, to: values.count - 3, by: 4) {
            let v = SIMD4(values[i], values[i + 1], values[i + 2], values[i + 3])
            if Raster.coverageBytes(v) != SIMD4((0..<4).map { UInt32(Raster.coverageByte(v[$0])) }) { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test func opaqueCoverageKernelIsScaleThenOver() {
        // cgs_cover_opaque_u32x4 (a shape's opaque colour at four coverages, in C) against what a
        // pixel at a time does: the word scaled by the coverage byte, composited at opacity 1.
        // Every coverage byte against every destination byte (in each channel of a word), then a
        // deterministic spread of words, destinations and coverages; and the span kernel against
        // its sums taken one cell at a time and handed to the four-pixel one.
        var s: UInt32 = 0xC0DE_0004
        func next() -> UInt32 { s = s &* 1_664_525 &+ 1_013_904_223; return s }
        func perPixel(_ d: UInt32, _ coverage: Float, _ word: UInt32) -> UInt32 {
            var p = d
            let k = UInt32(Raster.coverageByte(coverage))
            if k != 0 { Raster.compositePixel(Raster.scaled(word, by: k), &p, 1, copies: true) }
            return p
        }
        var wrong = 0
        for k in 0...255 {
            for d in UInt32(0)...255 {
                let word = 0xFF00_0000 | next() >> 8, coverage = Float(k) / 255
                let dests = SIMD4<UInt32>(d * 0x0101_0101, d << 24 | (255 - d) << 16 | d << 8 | (d ^ 0x5A), next(), d)
                var four = (0..<4).map { dests[$0] }
                four.withUnsafeMutableBufferPointer { cgs_cover_opaque_u32x4($0.baseAddress!, SIMD4(repeating: coverage), word) }
                for lane in 0..<4 where four[lane] != perPixel(dests[lane], coverage, word) { wrong += 1 }
                // The span kernel's eight-pixel step (AVX2 where the processor has it): every lane at this coverage.
                var eight = (0..<8).map { dests[$0 & 3] }
                var cells: [Float] = [coverage, 0, 0, 0, 0, 0, 0, 0]
                _ = cells.withUnsafeMutableBufferPointer { c in
                    eight.withUnsafeMutableBufferPointer { cgs_cover_opaque_span($0.baseAddress!, c.baseAddress!, 8, 0, PathRasterizer.full, word) }
                }
                if cells != [Float](repeating: 0, count: 8) { wrong += 1 }
                // A span of four (with AVX2, its sixteen channels in one register): every lane at this coverage.
                var quad = (0..<4).map { dests[$0] }
                var fourCells: [Float] = [coverage, 0, 0, 0]
                _ = fourCells.withUnsafeMutableBufferPointer { c in
                    quad.withUnsafeMutableBufferPointer { cgs_cover_opaque_span($0.baseAddress!, c.baseAddress!, 4, 0, PathRasterizer.full, word) }
                }
                for lane in 0..<4 where quad[lane] != perPixel(dests[lane], coverage, word) { wrong += 1 }
                for lane in 0..<8 where eight[lane] != perPixel(dests[lane & 3], coverage, word) { wrong += 1 }
            }
        }
        for i in 0..<20_000 {
            let word = i % 7 == 0 ? 0xFFFF_FFFF : 0xFF00_0000 | next() >> 8
            // 4 to 24 cells: eight-pixel steps with and without a last group of four.
            let n = 4 * (1 + i % 6)
            let cells = (0..<n).map { _ in (Float(next() >> 8) / 16_777_216 - 0.5) * (i % 3 == 0 ? 0.5 : 2.5) }
            let dests = (0..<n).map { _ in next() }
            var viaSpan = dests, viaQuads = dests
            let start = Float(next() >> 8) / 16_777_216
            // The kernel leaves the cells it read zero (the rasteriser's cells stay clear).
            var cleared = cells
            let last = cleared.withUnsafeMutableBufferPointer { c in
                viaSpan.withUnsafeMutableBufferPointer { cgs_cover_opaque_span($0.baseAddress!, c.baseAddress!, n, start, PathRasterizer.full, word) }
            }
            if cleared.contains(where: { $0 != 0 }) { wrong += 1 }
            var sum = start
            for g in stride(from: 0, to: n, by: 4) {
                var v = SIMD4<Float>()
                for lane in 0..<4 { sum += cells[g + lane]; v[lane] = sum }
                let coverage = PathRasterizer.coverage(v)
                for lane in 0..<4 { viaQuads[g + lane] = perPixel(viaQuads[g + lane], coverage[lane], word) }
            }
            if viaSpan != viaQuads || last != sum { wrong += 1 }
        }
        #expect(wrong == 0)
    }
}

@Suite struct CoverageByteTests {
    @Test func coverageBytesEqualTheScalarRounding() {
        // Every coverage a byte boundary can hinge on (k ± ½)/255 and its neighbours, 0, 1, and
        // a spread, in runs that exercise the eight-lane body and the tail.
        var values: [Float] = [0, 1, -0.0, 1e-9, 0.5, 0.999_999]
        for k in 0...255 {
            let c = (Float(k) + 0.5) / 255
            values += [c, c.nextUp, c.nextDown, Float(k) / 255]
        }
        for n in [values.count, 7, 9, 16] {
            let slice = Array(values.prefix(n))
            var out = [UInt8](repeating: 0xAA, count: slice.count)
            slice.withUnsafeBufferPointer { c in out.withUnsafeMutableBufferPointer { Raster.coverageBytes(c.baseAddress!, $0.baseAddress!, count: slice.count) } }
            let expected = slice.map { $0 > 0 ? UInt8(min(255 * $0 + 0.5, 255)) : 0 }
            #expect(out == expected, "\(n) values")
        }
    }

    @Test func aCrossDissolvePastItsEndsStopsAtThem() {
        // Found by fuzzing: a transition whose timing function overshoots asked for a mix at
        // t = 2.4, and a channel fading down went below zero (a trap converting it to a byte).
        // A cross-dissolve's fraction is clamped to [0, 1]; NaN counts as 0.
        let box = PixelBox(x0: 0, y0: 0, x1: 1, y1: 1)
        for (t, expected) in [(Float(2.4), UInt32(0xFF00_0000)), (-3, 0xFFFF_FFFF), (.nan, 0xFFFF_FFFF), (0.5, 0xFF80_8080)] {
            let a = OwnedTarget(box: box), b = OwnedTarget(box: box)
            a.target.row(0)[0] = 0xFFFF_FFFF
            b.target.row(0)[0] = 0xFF00_0000
            Raster.lerp(a.target, toward: b.target, t, box: box)
            #expect(a.target.row(0)[0] == expected, "t = \(t)")
        }
    }
}
