// The projective image kernel (Sources/CGSupport/kernels_image.c) against the Swift definition it
// reproduces, `Raster.imageRow` with bilinear sampling, in every variant (portable, AVX2, AVX-512
// where the processor runs them): perspective, rotated and flipped maps, source sub-rectangles and mip scales,
// opaque and translucent texels, stored and blended pixels, rows that leave every remainder.
import CGSupport
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct ImageRowKernelTests {
    @Test(arguments: [Int32(0), 2, 3])
    func rowsEqualImageRow(variant: Int32) {
        var rng = TestLCG(seed: 0x00AB_CDEF)
        func next() -> UInt32 { rng.next() }
        func unit() -> CGFloat { rng.unit() }
        let (w, h) = (37, 29)
        // Every fifth texel translucent, so that both the stored and the blended paths run.
        let texels = (0..<w * h).map { rng.premultipliedWord(opaque: !$0.isMultiple(of: 5)) }
        var mismatches = 0
        texels.withUnsafeBufferPointer { px in
            for c in 0..<120 {
                let dest = CGRect(x: unit() * 10, y: unit() * 10, width: 20 + unit() * 80, height: 20 + unit() * 80)
                let source = c % 3 == 0 ? CGRect(x: 0, y: 0, width: w, height: h)
                                        : CGRect(x: unit() * 10, y: unit() * 8, width: 5 + unit() * 25, height: 5 + unit() * 20)
                var level = ImageLevel(pixels: px.baseAddress!, width: w, height: h, stride: w)
                if c % 4 == 1 { level.scaleX = 0.5 + unit() * 0.5; level.scaleY = 0.5 + unit() * 0.5 }
                var t = Transform3D.translation(-dest.midX, -dest.midY, 0)
                t = t.concatenating(.rotation(unit() * 6, 0, 0, 1))
                if c % 2 == 0 {
                    var persp = Transform3D.identity
                    persp.m34 = -1 / (150 + unit() * 400)
                    t = t.concatenating(.rotation(unit() * 1.2, 0, 1, 0)).concatenating(persp)
                }
                t = t.concatenating(.translation(60, 60, 0))
                guard let inverse = Homography(t).inverse else { continue }
                let flipped = c % 5 == 0, stores = c % 3 != 2
                let alpha: Float = stores ? 1 : Float(unit())
                let window = level.window(source)
                let projective = ProjectiveRow(inverse, flipped: flipped, dest: dest, source: source, window: window)
                for y in stride(from: 0, to: 120, by: 7) {
                    let lo = Int(next() % 40), n = Int(next() % 90)
                    let start = (0..<(lo + n)).map { _ in next() }
                    var fast = start, slow = start
                    fast.withUnsafeMutableBufferPointer { f in
                        projective.paintUsing(variant, row: y, into: f.baseAddress!, lo..<(lo + n), stores: stores, alpha: alpha)
                    }
                    slow.withUnsafeMutableBufferPointer { p in
                        Raster.imageRow(y, into: p.baseAddress!, lo..<(lo + n), inverse: inverse, flipped: flipped, dest: dest,
                                        source: source, window: window, nearest: false, stores: stores, alpha: alpha)
                    }
                    if fast != slow { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// A pixel whose centre the map sends to infinity (w = 0) is left as it is, wherever it falls:
    /// in a whole group, in a row's last group laid over painted pixels, or in a row shorter
    /// than a group; its neighbours are painted.
    @Test(arguments: [Int32(0), 2, 3])
    func aCentreAtInfinityIsLeftInEveryGroup(variant: Int32) {
        var rng = TestLCG(seed: 0x0BAD_F00D)
        let (w, h) = (37, 29)
        let texels = (0..<w * h).map { _ in rng.premultipliedWord(opaque: true) }
        texels.withUnsafeBufferPointer { px in
            let level = ImageLevel(pixels: px.baseAddress!, width: w, height: h, stride: w)
            let dest = CGRect(x: 0, y: 0, width: 40, height: 40), source = CGRect(x: 0, y: 0, width: w, height: h)
            let window = level.window(source)
            for (lo, n, zero) in [(3, 20, 7), (3, 13, 11), (0, 13, 12), (5, 3, 1), (2, 7, 6)] {
                // w = x − (column + ½): zero at that column's centre, in every row.
                let c = CGFloat(lo + zero) + 0.5
                let inverse = Homography(m: (0.3, 0.1, 1, 0.05, 0.4, 0, 2, 3, -c))
                let projective = ProjectiveRow(inverse, flipped: false, dest: dest, source: source, window: window)
                let start = (0..<(lo + n)).map { _ in rng.next() }
                var fast = start, slow = start
                fast.withUnsafeMutableBufferPointer {
                    projective.paintUsing(variant, row: 4, into: $0.baseAddress!, lo..<(lo + n), stores: true, alpha: 1)
                }
                slow.withUnsafeMutableBufferPointer {
                    Raster.imageRow(4, into: $0.baseAddress!, lo..<(lo + n), inverse: inverse, flipped: false, dest: dest,
                                    source: source, window: window, nearest: false, stores: true, alpha: 1)
                }
                #expect(fast == slow, "variant \(variant), \(lo)..<\(lo + n), infinity at \(lo + zero)")
                #expect(fast[lo + zero] == start[lo + zero] && fast[lo] != start[lo])
            }
        }
    }
}
