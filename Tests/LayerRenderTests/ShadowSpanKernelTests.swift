// The shadow blend kernel (Sources/CGSupport/kernels_blend.c), with the tables `Raster.blendShadow`
// builds (`Raster.shadowTables`), against the Swift definition it reproduces: `Raster.blend` of
// the shadow colour at coverage byte / 255 × alpha, per pixel, with zero coverage leaving the
// pixel alone — random colours, alphas, destinations, lengths.
import CGSupport
import CoreGraphics
@testable import LayerRender
import Testing

@Suite struct ShadowSpanKernelTests {
    @Test(arguments: [Int32(0), 1, 2])
    func spansEqualBlendPerPixel(variant: Int32) {
        var s: UInt32 = 0x0BAD_5EED
        func next() -> UInt32 { s = s &* 1_664_525 &+ 1_013_904_223; return s }
        func unit() -> Float { Float(next() >> 8) / 16_777_216 }
        for case_ in 0..<300 {
            let n = case_ % 23
            let (cr, cg, cb) = (unit() * 255, unit() * 255, unit() * 255)
            let colourAlpha = case_ % 4 == 0 ? 1 : unit()
            let ca = 255 * colourAlpha
            let (r, g, b) = (cr * colourAlpha, cg * colourAlpha, cb * colourAlpha)
            let alpha = case_ % 3 == 0 ? 1 : unit()
            let (terms, factors) = Raster.shadowTables(r: r, g: g, b: b, a: ca, alpha: alpha)
            let coverage = (0..<n).map { _ in next() % 5 == 0 ? 0 : UInt8(truncatingIfNeeded: next() >> 24) }
            let start = (0..<n).map { _ in next() | (next() % 2 == 0 ? 0xFF00_0000 : 0) }
            var fast = start, slow = start
            cgs_shadow_span_using(variant, &fast, coverage, n, terms, factors)
            slow.withUnsafeMutableBufferPointer { p in
                for i in 0..<n where coverage[i] != 0 {
                    Raster.blend(p.baseAddress! + i, r, g, b, ca, Float(coverage[i]) / 255 * alpha)
                }
            }
            #expect(fast == slow, "variant \(variant), case \(case_)")
        }
    }
}

/// The translucent span kernel (Sources/CGSupport/kernels_blend.c) against `Raster.blend` at
/// coverage 1, in every variant: random colours (opaque to nearly clear), destinations, lengths.
@Suite struct BlendSpanKernelTests {
    @Test(arguments: [Int32(0), 2, 3])
    func spansEqualBlendAtFullCoverage(variant: Int32) {
        var s: UInt32 = 0x00C0_FFEE
        func next() -> UInt32 { s = s &* 1_664_525 &+ 1_013_904_223; return s }
        func unit() -> Float { Float(next() >> 8) / 16_777_216 }
        for case_ in 0..<200 {
            let n = case_ % 29
            let alpha = case_ % 5 == 0 ? 1 : unit()
            let c = PremultipliedColor(CGColor(red: CGFloat(unit()), green: CGFloat(unit()), blue: CGFloat(unit()), alpha: 1),
                                       alpha: Double(alpha))
            let start = (0..<n).map { _ in next() }
            var fast = start, slow = start
            cgs_blend_span_using(variant, &fast, n, c.r, c.g, c.b, c.a)
            slow.withUnsafeMutableBufferPointer { p in
                for i in 0..<n { Raster.blend(p.baseAddress! + i, c.r, c.g, c.b, c.a, 1) }
            }
            #expect(fast == slow, "variant \(variant), case \(case_)")
        }
    }
}

/// The edge kernel (kernels_blend.c) against `Raster.blend` at each pixel's coverage: random
/// colours and destinations, coverages 0 (left alone), 1, and between, NaN and below 0 (left alone).
@Suite struct BlendCoverageKernelTests {
    @Test(arguments: [Int32(0), 1, 2])
    func runsEqualBlendAtEachCoverage(variant: Int32) {
        var rng = TestLCG(seed: 0x0BAD_F00D)
        func next() -> UInt32 { rng.next() }
        func unit() -> Float { Float(rng.unit()) }
        for case_ in 0..<300 {
            let n = case_ % 23
            let c = PremultipliedColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 1),
                                       alpha: case_ % 4 == 0 ? 1 : Double(rng.unit()))
            let cov: [Float] = (0..<n).map { _ in
                switch next() % 6 { case 0: 0; case 1: 1; case 2: -0.25; case 3: .nan; default: unit() }
            }
            let start = (0..<n).map { _ in next() }
            var fast = start, slow = start
            cgs_blend_coverage_using(variant, &fast, cov, n, c.r, c.g, c.b, c.a)
            slow.withUnsafeMutableBufferPointer { p in
                for i in 0..<n where cov[i] > 0 { Raster.blend(p.baseAddress! + i, c.r, c.g, c.b, c.a, cov[i]) }
            }
            #expect(fast == slow, "variant \(variant), case \(case_)")
        }
    }
}

/// The group composite kernel (kernels_blend.c) against `Raster.compositePixel` per pixel, in
/// every variant: transparent, opaque and translucent sources in runs and mixed, alpha 1 and
/// below, lengths that leave every remainder.
@Suite struct CompositeSpanKernelTests {
    @Test(arguments: [Int32(0), 2])
    func spansEqualCompositePixel(variant: Int32) {
        var s: UInt32 = 0x1357_9BDF
        func next() -> UInt32 { s = s &* 1_664_525 &+ 1_013_904_223; return s }
        func pixel(_ kind: UInt32) -> UInt32 {
            switch kind % 4 {
            case 0: return 0
            case 1: return 0xFF00_0000 | next() & 0xFF_FFFF
            default:
                let a = next() >> 24, r = next()
                let c = { (v: UInt32) in v % (a + 1) }
                return a << 24 | c(r >> 16 & 255) << 16 | c(r >> 8 & 255) << 8 | c(r & 255)
            }
        }
        for case_ in 0..<300 {
            let n = case_ % 37
            let alpha: Float = case_ % 3 == 0 ? 1 : Float(next() >> 8) / 16_777_216
            // Runs of one kind (whole groups of eight transparent or opaque), or mixed.
            let runKind = next()
            let source = (0..<n).map { _ in pixel(case_ % 2 == 0 ? runKind : next()) }
            let start = (0..<n).map { _ in next() }
            var fast = start, slow = start
            var src = source
            cgs_composite_span_using(variant, &fast, &src, n, alpha)
            slow.withUnsafeMutableBufferPointer { d in
                for i in 0..<n { Raster.compositePixel(source[i], d.baseAddress! + i, alpha, copies: alpha == 1) }
            }
            #expect(fast == slow, "variant \(variant), case \(case_)")
        }
    }
}

/// `cgs_opaque_run` (the opaque run a shadow's blur skips) against its definition written out:
/// the first pixel with alpha 255 at or after `from`, then the first after it that is not.
@Suite struct OpaqueRunTests {
    @Test(arguments: [Int32(0), 2])
    func theFirstOpaqueRunIsFound(variant: Int32) {
        var s: UInt32 = 0x0DD_BA11
        func next() -> UInt32 { s = s &* 1_664_525 &+ 1_013_904_223; return s >> 8 }   // the low bits repeat
        for case_ in 0..<800 {
            let n = case_ % 141
            // Runs of opaque and translucent pixels (alpha 254 next to 255 included), some past
            // the 32 pixels the vector loop tests at once.
            var row: [UInt32] = []
            while row.count < n {
                let opaque = next() % 2 == 0, length = Int(next() % (case_ % 2 == 0 ? 21 : 70))
                for _ in 0..<length { row.append((opaque ? 255 : next() % 255) << 24 | next() % 0x100_0000) }
            }
            row = Array(row.prefix(n))
            // Every fourth case, one run of 40 opaque pixels laid at a place of its own.
            if case_ % 4 == 3, n > 40 {
                let at = Int(next() % UInt32(n - 40))
                for i in at..<(at + 40) { row[i] |= 0xFF00_0000 }
            }
            let from = n == 0 ? 0 : Int(next() % UInt32(n)), to = n == 0 ? 0 : from + Int(next() % UInt32(n - from + 1))
            var x = from
            while x < to, row[x] >> 24 != 255 { x += 1 }
            let expectedStart = x
            while x < to, row[x] >> 24 == 255 { x += 1 }
            var start = -1
            let end = cgs_opaque_run_using(variant, row, from, to, &start)
            #expect(start == expectedStart && end == x, "variant \(variant), case \(case_): \(start)..<\(end), expected \(expectedStart)..<\(x)")
        }
    }
}
