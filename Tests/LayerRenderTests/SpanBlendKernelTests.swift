// The integer span blend (Sources/CGSupport/kernels_span.c) against the Swift definition it
// reproduces, `Raster.blend` at coverage 1: every destination byte in every channel, for colours
// of every alpha, in each variant and at lengths that end mid-group.
import CGSupport
import CoreGraphics
@testable import LayerRender
import Testing

@Suite struct SpanBlendKernelTests {
    /// Every alpha from 1 to 254, three colours each (one with a channel at 0, one at the alpha):
    /// runs of all 256 grey destinations and of random words give `Raster.blend`'s bytes.
    @Test(arguments: [Int32(0), 2, 3])
    func plannedRunsEqualBlendAtEveryByte(variant: Int32) {
        var lcg = TestLCG(seed: 0x5BA1_1D00)
        var exact = 0, colours = 0
        for a in 1...254 {
            for k in 0..<3 {
                let c = PremultipliedColor(CGColor(red: k == 0 ? 0 : lcg.unit(), green: k == 1 ? 1 : lcg.unit(),
                                                   blue: lcg.unit(), alpha: 1),
                                           alpha: Double(a) / 255)
                var plan = cgs_span_blend()
                cgs_span_blend_init(&plan, c.r, c.g, c.b, c.a)
                colours += 1
                exact += Int(plan.exact)
                let greys = (0..<256).map { UInt32($0) &* 0x0101_0101 }
                let words = (0..<(37 + a % 11)).map { _ in lcg.next() }
                for start in [greys, words] {
                    var fast = start, slow = start
                    cgs_span_blend_run_using(variant, &plan, &fast, start.count)
                    slow.withUnsafeMutableBufferPointer { p in
                        for i in p.indices { Raster.blend(p.baseAddress! + i, c.r, c.g, c.b, c.a, 1) }
                    }
                    #expect(fast == slow, "variant \(variant), alpha \(a), colour \(k)")
                }
            }
        }
        // The integer form fits nearly every colour (else the run is the float blend, slower).
        #expect(exact * 100 >= colours * 99, "\(exact) of \(colours) colours planned in integers")
    }

    /// Lengths 0 to 40 (whole groups of eight and four, and every remainder), the pixels around
    /// the run untouched.
    @Test(arguments: [Int32(0), 2, 3])
    func runsOfEveryLengthStayInside(variant: Int32) {
        var lcg = TestLCG(seed: 0x0E1D_5EED)
        let c = PremultipliedColor(CGColor(red: 0.8, green: 0.3, blue: 0.5, alpha: 1), alpha: 0.6)
        var plan = cgs_span_blend()
        cgs_span_blend_init(&plan, c.r, c.g, c.b, c.a)
        #expect(plan.exact == 1)
        for n in 0...40 {
            let start = (0..<(n + 16)).map { _ in lcg.next() }
            var fast = start, slow = start
            fast.withUnsafeMutableBufferPointer { cgs_span_blend_run_using(variant, &plan, $0.baseAddress! + 8, n) }
            slow.withUnsafeMutableBufferPointer { p in
                for i in 8..<(8 + n) { Raster.blend(p.baseAddress! + i, c.r, c.g, c.b, c.a, 1) }
            }
            #expect(fast == slow, "variant \(variant), length \(n)")
        }
    }

    /// Colours outside the blend's range (alpha above 255 or below 0, a channel not finite) are
    /// not planned in integers: their runs stay the float blend's.
    @Test func outOfRangeColoursStayFloat() {
        var plan = cgs_span_blend()
        for (r, g, b, a) in [(10, 10, 10, 300), (10, 10, 10, -1), (Float.nan, 0, 0, 100), (0, Float.infinity, 0, 100),
                             (0, 0, 10, Float.nan)] as [(Float, Float, Float, Float)] {
            cgs_span_blend_init(&plan, r, g, b, a)
            #expect(plan.exact == 0, "\(r) \(g) \(b) \(a)")
        }
    }
}
