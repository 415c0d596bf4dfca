// The particle sprite kernel against the compositor's Float formula (Raster.blend on a bilinear
// sample, coverage from the distance to the sprite's edge): within one level per channel (two
// with the tint applied to the texels ahead); its separable path (unturned sprites) equals its
// general path exactly; the packed integer helpers equal their per-channel definitions.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct SpriteTests {
    /// A 4 × 4 sprite picture with distinct premultiplied texels.
    let texels: [UInt32] = (0..<16).map { i in
        let a = UInt32(120 + i * 8), r = a * UInt32(i % 4 + 1) / 4, g = a * UInt32(3 - i % 4) / 3, b = a / 2
        return a << 24 | r << 16 | g << 8 | b
    }

    func canvas() -> [UInt32] { (0..<(24 * 24)).map { i in UInt32(0xFF20_4060) &+ UInt32(i % 7) } }

    /// Draws a 4 × 4-point sprite centred at (cx, cy), turned by `angle`, with `kernel`.
    func draw(_ cx: Double, _ cy: Double, angle: Double, tint: (Float, Float, Float, Float), additive: Bool = false,
              kernel: (Raster.Sprite, RenderTarget, PixelBox) -> Void) -> [UInt32] {
        var pixels = canvas()
        texels.withUnsafeBufferPointer { tex in
            pixels.withUnsafeMutableBufferPointer { buf in
                let target = RenderTarget(pixels: buf.baseAddress!, width: 24, height: 24, stride: 24)
                let level = ImageLevel(pixels: tex.baseAddress!, width: 4, height: 4, stride: 4)
                let c = cos(angle), s = sin(angle)
                let map = Homography(m: (c, s, 0, -s, c, 0, cx, cy, 1))
                let inv = map.inverse!.m
                let sprite = Raster.Sprite(inverse: (inv.0, inv.1, inv.3, inv.4, inv.6, inv.7), hx: 2, hy: 2,
                                           window: level.window(CGRect(x: 0, y: 0, width: 4, height: 4)),
                                           source: CGRect(x: 0, y: 0, width: 4, height: 4), sx: 1, sy: 1,
                                           tint: Raster.tint(tint.0, tint.1, tint.2, tint.3), additive: additive)
                kernel(sprite, target, Compositor.box(of: CGRect(x: -2, y: -2, width: 4, height: 4), world: map,
                                                      limit: PixelBox(x0: 0, y0: 0, x1: 24, y1: 24)))
            }
        }
        return pixels
    }

    /// The Float reference: Raster.blend of the tinted bilinear sample at coverage 0.5 − d/pixel.
    func reference(_ sprite: Raster.Sprite, _ target: RenderTarget, _ box: PixelBox) {
        let m = sprite.inverse
        let tint = (Float(sprite.tint.r) / 256, Float(sprite.tint.g) / 256, Float(sprite.tint.b) / 256, Float(sprite.tint.a) / 256)
        for y in box.y0..<box.y1 {
            for x in box.x0..<box.x1 {
                let cx = Double(x) + 0.5, cy = Double(y) + 0.5
                let qx = cx * m.m0 + cy * m.m3 + m.m6, qy = cx * m.m1 + cy * m.m4 + m.m7
                let edge = RoundedRect(rect: CGRect(x: -2, y: -2, width: 4, height: 4), radius: 0, mask: 0)
                let cov = Float(edge.coverage(qx, qy, pixel: 1, antialias: true))
                guard cov > 0 else { continue }
                let s = Raster.channels(sprite.window.word(qx + 2, qy + 2, nearest: false))
                Raster.blend(target.row(y) + x, s.r * tint.0, s.g * tint.1, s.b * tint.2, s.a * tint.3, cov)
            }
        }
    }

    func largestDelta(_ a: [UInt32], _ b: [UInt32]) -> UInt32 {
        zip(a, b).map { p, q in (0..<4).map { k in
            let u = (p >> (8 * UInt32(k))) & 255, v = (q >> (8 * UInt32(k))) & 255
            return u > v ? u - v : v - u
        }.max()! }.max()!
    }

    @Test func matchesTheFloatFormulaWithinOneLevel() {
        for (cx, cy, angle) in [(10.3, 11.7, 0.0), (12.5, 9.25, 0.0), (11.1, 12.9, 0.6), (9.8, 10.2, 2.2)] {
            let tint: (Float, Float, Float, Float) = (0.8 * 0.7, 0.5 * 0.7, 0.25 * 0.7, 0.7)
            let fast = draw(cx, cy, angle: angle, tint: tint) { Raster.sprite($0, target: $1, box: $2, pixel: 1, clips: []) }
            let slow = draw(cx, cy, angle: angle, tint: tint) { reference($0, $1, $2) }
            #expect(fast != canvas(), "the sprite drew something")
            #expect(largestDelta(fast, slow) <= 1)
        }
    }

    @Test func separablePathEqualsTheGeneralPath() {
        for (cx, cy) in [(10.3, 11.7), (12.5, 9.25), (7.0, 8.0)] {
            let tint: (Float, Float, Float, Float) = (0.3, 0.6, 0.9, 1)
            let a = draw(cx, cy, angle: 0, tint: tint) { Raster.separableSprite($0, target: $1, box: $2, pixel: 1) }
            let b = draw(cx, cy, angle: 0, tint: tint) { Raster.generalSprite($0, target: $1, box: $2, pixel: 1, clips: []) }
            #expect(a == b)
        }
    }

    /// Draws a `w` × `h`-point sprite of the 4 × 4 picture centred at (cx, cy), unturned, with `kernel`.
    /// The target is `width` pixels wide (rows of 24) and the box is cut to `limit`.
    func drawSized(_ cx: Double, _ cy: Double, _ w: Double, _ h: Double, tint: (Float, Float, Float, Float), additive: Bool,
                   width: Int = 24, limit: PixelBox = PixelBox(x0: 0, y0: 0, x1: 24, y1: 24),
                   kernel: (Raster.Sprite, RenderTarget, PixelBox) -> Void) -> [UInt32] {
        var pixels = canvas()
        texels.withUnsafeBufferPointer { tex in
            pixels.withUnsafeMutableBufferPointer { buf in
                let target = RenderTarget(pixels: buf.baseAddress!, width: width, height: 24, stride: 24)
                let level = ImageLevel(pixels: tex.baseAddress!, width: 4, height: 4, stride: 4)
                let map = Homography(m: (1, 0, 0, 0, 1, 0, cx, cy, 1))
                let inv = map.inverse!.m
                let sprite = Raster.Sprite(inverse: (inv.0, inv.1, inv.3, inv.4, inv.6, inv.7), hx: w / 2, hy: h / 2,
                                           window: level.window(CGRect(x: 0, y: 0, width: 4, height: 4)),
                                           source: CGRect(x: 0, y: 0, width: 4, height: 4), sx: 4 / w, sy: 4 / h,
                                           tint: Raster.tint(tint.0, tint.1, tint.2, tint.3), additive: additive)
                let limit = limit.intersection(PixelBox(x0: 0, y0: 0, x1: width, y1: 24))
                kernel(sprite, target, Compositor.box(of: CGRect(x: -w / 2, y: -h / 2, width: w, height: h), world: map, limit: limit))
            }
        }
        return pixels
    }

    /// The pre-tinted sprite one pixel at a time: the general path's coverage, the tinted texels
    /// interpolated in lanes, the coverage applied, then source-over or the saturating add.
    func tintedReference(_ sprite: Raster.Sprite, _ tinted: [UInt64], _ target: RenderTarget, _ box: PixelBox) {
        let m = sprite.inverse, window = sprite.window, level = window.level
        for y in box.y0..<box.y1 {
            for x in box.x0..<box.x1 {
                let qx = (Double(x) + 0.5) * m.m0 + m.m6, qy = (Double(y) + 0.5) * m.m4 + m.m7
                let dx = abs(qx) - sprite.hx, dy = abs(qy) - sprite.hy
                let c = UInt64(Raster.quantize(0.5 - (dx > 0 && dy > 0 ? (dx * dx + dy * dy).squareRoot() : max(dx, dy))))
                guard c > 0 else { continue }
                let (i0, i1, wx) = Raster.bilinearAxis((qx + sprite.hx) * sprite.sx * level.scaleX, window.minU, window.maxU)
                let (r0, r1, wy) = Raster.bilinearAxis((qy + sprite.hy) * sprite.sy * level.scaleY, window.minV, window.maxV)
                let top = Raster.lerpLanes(tinted[r0 * 4 + i0], tinted[r0 * 4 + i1], UInt64(wx))
                let bottom = Raster.lerpLanes(tinted[r1 * 4 + i0], tinted[r1 * 4 + i1], UInt64(wx))
                let s = Raster.pack((Raster.lerpLanes(top, bottom, UInt64(wy)) &* c &+ 0x0080_0080_0080_0080) >> 8 & 0x00FF_00FF_00FF_00FF)
                let p = target.row(y) + x
                p.pointee = sprite.additive ? Raster.saturatingAdd(p.pointee, s) : s &+ Raster.scale(p.pointee, by: 255 - (s >> 24))
            }
        }
    }

    @Test func separableRowsEqualOnePixelAtATime() {
        // Odd and even widths (odd rows take a pixel beside the box, or draw the last one alone
        // when the box is as wide as an odd target), boxes cut by the target's edges and by a
        // clip (pixels beside the box stay as they were), enlarged and shrunk pictures,
        // translucent and additive.
        let all = PixelBox(x0: 0, y0: 0, x1: 24, y1: 24)
        let cases: [(cx: Double, cy: Double, w: Double, h: Double, width: Int, limit: PixelBox)] = [
            (10.3, 11.7, 4, 4, 24, all), (12.5, 9.25, 5, 3, 24, all), (22.6, 22.8, 4, 4, 24, all), (23.4, 3.2, 7, 2.5, 24, all),
            (6.1, 17.9, 11, 9, 24, all), (9.5, 9.5, 1.5, 2, 24, all), (1.2, 5.5, 3, 3, 24, all), (11.5, 12.2, 30, 3, 23, all),
            (10.5, 10.5, 9, 6, 24, PixelBox(x0: 8, y0: 0, x1: 13, y1: 24)), (10.5, 10.5, 9, 6, 24, PixelBox(x0: 7, y0: 0, x1: 12, y1: 24))]
        for c in cases {
            for additive in [false, true] {
                let tint: (Float, Float, Float, Float) = additive ? (0.9, 0.5, 0.2, 1) : (0.5 * 0.7, 0.3 * 0.7, 0.9 * 0.7, 0.7)
                let rows = drawSized(c.cx, c.cy, c.w, c.h, tint: tint, additive: additive, width: c.width, limit: c.limit) {
                    Raster.separableSprite($0, target: $1, box: $2, pixel: 1)
                }
                let pixels = drawSized(c.cx, c.cy, c.w, c.h, tint: tint, additive: additive, width: c.width, limit: c.limit) {
                    Raster.generalSprite($0, target: $1, box: $2, pixel: 1, clips: [])
                }
                #expect(rows != canvas(), "the sprite drew something")
                #expect(zip(rows, pixels).filter { $0 != $1 }.count == 0, "untinted \(c) additive \(additive)")
                var tinted = [UInt64](repeating: 0, count: 16)
                let rowsTinted = drawSized(c.cx, c.cy, c.w, c.h, tint: tint, additive: additive, width: c.width, limit: c.limit) {
                    sprite, target, box in
                    tinted.withUnsafeMutableBufferPointer { Raster.tintTexels(sprite.window.level, sprite.tint, into: $0) }
                    tinted.withUnsafeBufferPointer { Raster.separableSprite(sprite, target: target, box: box, pixel: 1, tinted: $0.baseAddress) }
                }
                let pixelsTinted = drawSized(c.cx, c.cy, c.w, c.h, tint: tint, additive: additive, width: c.width, limit: c.limit) {
                    tintedReference($0, tinted, $1, $2)
                }
                #expect(zip(rowsTinted, pixelsTinted).filter { $0 != $1 }.count == 0, "tinted \(c) additive \(additive)")
            }
        }
    }

    @Test func solidPicturesSkipFilteringWithTheSamePixels() {
        // A picture whose left half is one colour: a window over that half is solid (every
        // bilinear sample is that texel), the whole picture is not.
        let solid: UInt32 = 0xC060_3090
        let picture: [UInt32] = (0..<16).map { $0 % 4 < 2 ? solid : 0xFF10_2030 }
        picture.withUnsafeBufferPointer { tex in
            let level = ImageLevel(pixels: tex.baseAddress!, width: 4, height: 4, stride: 4)
            #expect(level.window(CGRect(x: 0, y: 0, width: 2, height: 4)).uniformTexel() == solid)
            #expect(level.window(CGRect(x: 0, y: 0, width: 4, height: 4)).uniformTexel() == nil)
            #expect(level.window(CGRect(x: 0.5, y: 1, width: 1.5, height: 2)).uniformTexel() == solid)
            #expect(level.window(CGRect(x: 1, y: 0, width: 2, height: 4)).uniformTexel() == nil)
        }
        // Drawn with the texel known, plain and pre-tinted, a solid sprite equals the general path.
        let texels = [UInt32](repeating: solid, count: 16)
        for (cx, cy, w, h) in [(10.3, 11.7, 4.0, 4.0), (12.5, 9.25, 5.0, 3.0), (22.6, 22.8, 4.0, 4.0), (6.1, 17.9, 11.0, 9.0)] {
            for additive in [false, true] {
                let tint: (Float, Float, Float, Float) = (0.5 * 0.7, 0.3 * 0.7, 0.9 * 0.7, 0.7)
                func draw(_ kernel: (Raster.Sprite, RenderTarget, PixelBox, UnsafePointer<UInt64>?) -> Void, pretint: Bool) -> [UInt32] {
                    var pixels = canvas()
                    texels.withUnsafeBufferPointer { tex in
                        pixels.withUnsafeMutableBufferPointer { buf in
                            let target = RenderTarget(pixels: buf.baseAddress!, width: 24, height: 24, stride: 24)
                            let level = ImageLevel(pixels: tex.baseAddress!, width: 4, height: 4, stride: 4)
                            let inv = Homography(m: (1, 0, 0, 0, 1, 0, cx, cy, 1)).inverse!.m
                            let sprite = Raster.Sprite(inverse: (inv.0, inv.1, inv.3, inv.4, inv.6, inv.7), hx: w / 2, hy: h / 2,
                                                       window: level.window(CGRect(x: 0, y: 0, width: 4, height: 4)),
                                                       source: CGRect(x: 0, y: 0, width: 4, height: 4), sx: 4 / w, sy: 4 / h,
                                                       tint: Raster.tint(tint.0, tint.1, tint.2, tint.3), additive: additive)
                            let box = Compositor.box(of: CGRect(x: -w / 2, y: -h / 2, width: w, height: h),
                                                     world: Homography(m: (1, 0, 0, 0, 1, 0, cx, cy, 1)),
                                                     limit: PixelBox(x0: 0, y0: 0, x1: 24, y1: 24))
                            var tinted = [UInt64](repeating: 0, count: 16)
                            tinted.withUnsafeMutableBufferPointer { Raster.tintTexels(level, sprite.tint, into: $0) }
                            tinted.withUnsafeBufferPointer { kernel(sprite, target, box, pretint ? $0.baseAddress : nil) }
                        }
                    }
                    return pixels
                }
                for pretint in [false, true] {
                    let fast = draw({ sprite, target, box, t in
                        var known = sprite
                        known.uniform = sprite.window.uniformTexel()
                        Raster.separableSprite(known, target: target, box: box, pixel: 1, tinted: t)
                    }, pretint: pretint)
                    let filtered = draw({ Raster.separableSprite($0, target: $1, box: $2, pixel: 1, tinted: $3) }, pretint: pretint)
                    #expect(fast != canvas())
                    #expect(zip(fast, filtered).filter { $0 != $1 }.count == 0, "\(cx), \(cy) additive \(additive) pretint \(pretint)")
                }
            }
        }
    }

    @Test func pretintedTexelsMatchTheFloatFormulaWithinTwoLevels() {
        let tint: (Float, Float, Float, Float) = (0.9 * 0.6, 0.4 * 0.6, 0.1 * 0.6, 0.6)
        for (cx, cy) in [(10.3, 11.7), (12.5, 9.25), (8.9, 13.05)] {
            let fast = draw(cx, cy, angle: 0, tint: tint) { sprite, target, box in
                var texels = [UInt64](repeating: 0, count: 16)
                texels.withUnsafeMutableBufferPointer { Raster.tintTexels(sprite.window.level, sprite.tint, into: $0) }
                texels.withUnsafeBufferPointer {
                    Raster.sprite(sprite, target: target, box: box, pixel: 1, clips: [], tinted: $0.baseAddress)
                }
            }
            let slow = draw(cx, cy, angle: 0, tint: tint) { reference($0, $1, $2) }
            #expect(fast != canvas())
            // Texels tinted first are rounded to 8 bits before interpolation: half a level more
            // on each side of the lerp than tinting the sample.
            #expect(largestDelta(fast, slow) <= 2)
        }
        // Lanes: unpack, pack and interpolate as the packed word maths do.
        let p: UInt32 = 0xC080_4010, q: UInt32 = 0x20FF_0080
        #expect(Raster.pack(Raster.unpack(p)) == p)
        for w: UInt32 in [0, 1, 100, 255, 256] {
            #expect(Raster.pack(Raster.lerpLanes(Raster.unpack(p), Raster.unpack(q), UInt64(w))) == Raster.lerpWord(p, q, w))
        }
    }

    @Test func additiveSaturatesPerChannel() {
        let once = draw(10.5, 10.5, angle: 0, tint: (1, 1, 1, 1), additive: true) {
            Raster.sprite($0, target: $1, box: $2, pixel: 1, clips: [])
        }
        // Pixel (10, 10) is fully inside: texel sums clamp at 255, nothing wraps.
        let base = canvas()[10 * 24 + 10], p = once[10 * 24 + 10]
        #expect(p >> 24 == 255 && (p >> 16) & 255 >= (base >> 16) & 255 && p & 255 >= base & 255)
        #expect(Raster.saturatingAdd(0x80FF_7F01, 0x8001_8102) == 0xFFFF_FF03)
    }

    @Test func packedScaleIsTheRoundedDivision() {
        // Every channel value and alpha: the packed form equals (c·a + 127) / 255 per channel.
        for a: UInt32 in 0...255 {
            for c: UInt32 in 0...255 {
                let p = c << 24 | (255 - c) << 16 | (c / 2) << 8 | (c / 3)
                func one(_ v: UInt32) -> UInt32 { (v * a + 127) / 255 }
                let expected = one(c) << 24 | one(255 - c) << 16 | one(c / 2) << 8 | one(c / 3)
                if Raster.scaled(p, by: a) != expected { Issue.record("c \(c) a \(a)"); return }
            }
        }
        for k: UInt32 in [0, 1, 77, 128, 254, 255] {
            for v: UInt32 in [0, 1, 127, 128, 200, 255] {
                let p = v << 24 | v << 16 | v << 8 | v
                let expected = UInt32((Double(v * k) / 255).rounded())
                #expect(Raster.scale(p, by: k) == expected << 24 | expected << 16 | expected << 8 | expected)
            }
        }
    }
}
