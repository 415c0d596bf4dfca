// The affine image row (and, without shear, BilinearRows' kept columns and texel rows) against
// the general per-pixel sampling of `Raster.image`: for random scales, shears, offsets, flips,
// source windows, mip-level scales, translucent texels, rows in any order and partial spans, every pixel
// of every row is the same word (the fast path keeps the general loop's sums and their order).
// A coordinate off by a fiftieth of a pixel fails 415 rows; a sum merely regrouped (an ulp)
// would almost never move a weight rounded to 1/256, which is why the order is kept by
// construction rather than left to this test.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct AffineRowTests {
    /// `texels`: 0, a third of them translucent; 1, all opaque (rows lerped straight into the
    /// frame); 2, translucent ones on every fifth texel row only (kept rows of both kinds).
    @Test(arguments: [0, 1, 2])
    func rowsEqualTheGeneralSampling(texels kind: Int) {
        var s: UInt32 = 0x1234_5678
        func unit() -> CGFloat { s = s &* 1_664_525 &+ 1_013_904_223; return CGFloat(s >> 8) / 16_777_216 }
        let tw = 37, th = 29
        var texels = [UInt32](repeating: 0, count: tw * th)
        for i in texels.indices {
            // Premultiplied: every channel at most the alpha; a third of them translucent.
            s = s &* 1_664_525 &+ 1_013_904_223
            let translucent = kind == 0 ? i % 3 == 0 : kind == 2 && (i / tw) % 5 == 0 && i % 2 == 0
            let a: UInt32 = translucent ? (s >> 24) : 255
            let c = { (v: UInt32) in v % (a + 1) }
            texels[i] = a << 24 | c(s >> 16 & 255) << 16 | c(s >> 8 & 255) << 8 | c(s & 255)
        }
        let width = 96
        var fast = [UInt32](repeating: 0xFF80_4020, count: width), slow = fast
        var rows = 0
        texels.withUnsafeBufferPointer { tex in
            for case_ in 0..<40 {
                let level = ImageLevel(pixels: tex.baseAddress!, width: tw, height: th, stride: tw,
                                       scaleX: case_ % 4 == 0 ? 0.5 : 1, scaleY: case_ % 4 == 0 ? 0.5 : 1)
                let dest = CGRect(x: unit() * 10, y: unit() * 10, width: 20 + unit() * 70, height: 10 + unit() * 60)
                let source = CGRect(x: unit() * 8, y: unit() * 6, width: 10 + unit() * 60, height: 8 + unit() * 40)
                let window = level.window(source)
                // Layer space → pixels: scale and offset (possibly mirrored in x); the inverse maps back.
                let kx = (case_ % 5 == 0 ? -1 : 1) * (0.3 + unit() * 3), ky = 0.3 + unit() * 3
                let tx = unit() * 40 - 10, ty = unit() * 20 - 5
                // Every seventh case sheared (x moves with y: the per-row loop); the others scale
                // only (columns and lerped texel rows kept, BilinearRows).
                let shear = case_ % 7 == 3 ? unit() * 0.2 : 0
                let inverse = Homography(m: (1 / kx, 0, 0, shear, 1 / ky, 0, -tx / kx, -ty / ky, 1))
                let flipped = case_ % 2 == 1, alpha: Float = case_ % 3 == 0 ? 0.6 : 1
                let sx = source.width / dest.width, sy = source.height / dest.height
                guard let sampling = AffineRow(inverse, flipped: flipped, dest: dest, source: source, window: window,
                                               box: PixelBox(x0: 0, y0: 0, x1: width, y1: 24)) else {
                    Issue.record("an axis-aligned affine map has fast rows"); return
                }
                // Rows in any order (kept texel rows are looked up, not assumed to slide down),
                // and spans narrower than the box.
                let order = case_ % 2 == 0 ? Array(0..<24) : (0..<24).map { ($0 * 7) % 24 }
                let xs = case_ % 6 == 5 ? 3..<(width - 5) : 0..<width
                for y in order {
                    fast.withUnsafeMutableBufferPointer { sampling.paint(row: y, into: $0.baseAddress!, xs, stores: alpha == 1, alpha: alpha) }
                    slow.withUnsafeMutableBufferPointer { out in
                        for x in xs {
                            let q = inverse.project(CGFloat(x) + 0.5, CGFloat(y) + 0.5)!
                            let ly = flipped ? dest.maxY - (q.y - dest.minY) : q.y
                            let p = window.word(source.minX + (q.x - dest.minX) * sx, source.minY + (ly - dest.minY) * sy, nearest: false)
                            if alpha == 1 && p >> 24 == 255 { out[x] = p; continue }
                            let c = Raster.channels(p)
                            Raster.blend(out.baseAddress! + x, c.r, c.g, c.b, c.a, 1 * alpha)
                        }
                    }
                    #expect(fast == slow, "texels \(kind), case \(case_), row \(y)")
                    rows += 1
                }
            }
        }
        #expect(rows == 40 * 24)
        // One axis of a sample: clamped to the window's texel centres, its second texel's weight
        // in 0…256; a NaN lands on the window's first texel, and a window narrower than a texel
        // reads its first texel alone (the weight came out negative there, and trapped).
        #expect(Raster.bilinearAxis(3.75, 0, 10) == (3, 4, 64))
        #expect(Raster.bilinearAxis(-5, 2, 10) == (2, 3, 0))
        #expect(Raster.bilinearAxis(50, 2, 10) == (9, 9, 0))
        #expect(Raster.bilinearAxis(.nan, 2, 10) == (2, 3, 0))
        #expect(Raster.bilinearAxis(7, 0, 0.5) == (0, 0, 0))
        // Turned maps move v along a row: they keep the general loop.
        let turned = Homography(m: (0.8, 0.6, 0, -0.6, 0.8, 0, 0, 0, 1))
        texels.withUnsafeBufferPointer { tex in
            let level = ImageLevel(pixels: tex.baseAddress!, width: tw, height: th, stride: tw)
            #expect(AffineRow(turned, flipped: false, dest: CGRect(x: 0, y: 0, width: 10, height: 10),
                              source: CGRect(x: 0, y: 0, width: 10, height: 10), window: level.window(CGRect(x: 0, y: 0, width: 10, height: 10)),
                              box: PixelBox(x0: 0, y0: 0, x1: 10, y1: 10)) == nil)
        }
    }
}
