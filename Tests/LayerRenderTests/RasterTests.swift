// Raster.fill's axis-aligned path (unrotated, unrounded rectangles: S1's layers and their
// borders) against every pixel's coverage worked out on its own, as the path defines it:
// separable coverage, the inner rect (a border's hole) taken away, full opaque pixels stored.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct RasterTests {
    @Test func axisAlignedFillsGiveEveryPixelItsCoverage() {
        var seed: UInt32 = 0x0F11_0001
        func unit() -> CGFloat { seed = seed &* 1_664_525 &+ 1_013_904_223; return CGFloat(seed >> 8) / 16_777_216 }
        func cover(_ u: CGFloat, _ lo: CGFloat, _ hi: CGFloat, _ px: CGFloat) -> Float {
            let d = max(lo - u, u - hi)
            return Float(min(max(0.5 - d / px, 0), 1))
        }
        let w = 48, h = 40
        var wrong = 0
        for i in 0..<600 {
            // Layer units per pixel: 1 (pixel-aligned edges where the rect's are whole) or scaled.
            let sx: CGFloat = i % 3 == 0 ? 1 : 0.4 + unit() * 1.6, sy: CGFloat = i % 3 == 0 ? 1 : 0.4 + unit() * 1.6
            let tx = i % 3 == 0 ? 0 : (unit() - 0.5) * 8, ty = i % 3 == 0 ? 0 : (unit() - 0.5) * 8
            let x = i % 3 == 0 ? CGFloat(Int(unit() * 30)) : unit() * 30, y = i % 3 == 0 ? CGFloat(Int(unit() * 24)) : unit() * 24
            // Wide, narrow (under two pixels) and empty rects; half with a border.
            let width = i % 7 == 0 ? unit() * 2 : i % 11 == 0 ? 0 : 1 + unit() * 44
            let rect = CGRect(x: x, y: y, width: width, height: 1 + unit() * 30)
            let border: CGFloat? = i % 2 == 0 ? nil : i % 3 == 0 ? 1 : unit() * 5
            let opaque = i % 5 != 0
            let color = PremultipliedColor(CGColor(red: 0.8, green: 0.3, blue: 0.1, alpha: opaque ? 1 : 0.6), alpha: 1)
            let outer = RoundedRect(rect: rect, radius: 0, mask: 0), inner = border.map { outer.inset(by: $0) }
            var fast = [UInt32](repeating: 0xFF20_4060, count: w * h), each = fast
            fast.withUnsafeMutableBufferPointer { buf in
                Raster.fill(RenderTarget(pixels: buf.baseAddress!, width: w, height: h, stride: w), box: PixelBox(x0: 0, y0: 0, x1: w, y1: h),
                            inverse: Homography(m: (sx, 0, 0, 0, sy, 0, tx, ty, 1)), pixel: 1, outer: outer, inner: inner,
                            color: color, antialias: true, clips: [])
            }
            let word = UInt32(color.a + 0.5) << 24 | UInt32(color.r + 0.5) << 16 | UInt32(color.g + 0.5) << 8 | UInt32(color.b + 0.5)
            each.withUnsafeMutableBufferPointer { buf in
                for py in 0..<h {
                    let v = (CGFloat(py) + 0.5) * sy + ty
                    let oy = cover(v, rect.minY, rect.maxY, sy)
                    let iy = inner.map { cover(v, $0.rect.minY, $0.rect.maxY, sy) } ?? 0
                    for px in 0..<w {
                        let u = (CGFloat(px) + 0.5) * sx + tx
                        var coverage = cover(u, rect.minX, rect.maxX, sx) * oy
                        if coverage == 0 { continue }
                        if let inner { coverage = max(0, coverage - cover(u, inner.rect.minX, inner.rect.maxX, sx) * iy) }
                        let p = buf.baseAddress! + py * w + px
                        if coverage >= 1 && opaque { p.pointee = word } else if coverage > 0 {
                            Raster.blend(p, color.r, color.g, color.b, color.a, coverage)
                        }
                    }
                }
            }
            if fast != each { wrong += 1 }
        }
        #expect(wrong == 0)
    }
}
