import CoreGraphics
import Foundation

// Particle sprites: a small tinted picture under an affine map, blended in 8-bit integer maths.
//
// Why a kernel of its own: an emitter draws thousands of sprites of a few dozen pixels each, so
// per-pixel cost is everything and a span setup per sprite costs more than it saves. Here one
// pixel is: its centre mapped into sprite space (two multiply-adds per axis), the distance to
// the sprite's edge as coverage, one bilinear sample (8.8 fixed point, two channels per
// multiply), the tint and coverage applied per channel in 8.8, and source-over (or a saturating
// add) on packed channels with the exact rounded division by 255. Colour maths stay in
// integers, so a pixel differs from the Float formula of Raster.blend by at most one level — two
// when a cell's picture is tinted ahead (its texels rounded before interpolation), which lets
// particles of one colour interpolate all four channels at once in 16-bit lanes.
extension Raster {
    /// How one sprite is drawn: `inverse` maps pixel centres into sprite space, where the sprite
    /// is the rect (−hx…hx) × (−hy…hy) showing `window` texels `source` (texels per sprite unit
    /// `sx`, `sy`); `tint` is premultiplied (r, g, b, a) in 0…256 (256 = ×1).
    struct Sprite {
        var inverse: (m0: Double, m1: Double, m3: Double, m4: Double, m6: Double, m7: Double)
        var hx: Double, hy: Double
        var window: SampleWindow
        var source: CGRect
        var sx: Double, sy: Double
        var tint: (r: UInt32, g: UInt32, b: UInt32, a: UInt32)
        var additive: Bool
    }

    /// Tint factors in 0…256 from premultiplied Float channels in [0, 1].
    static func tint(_ r: Float, _ g: Float, _ b: Float, _ a: Float) -> (r: UInt32, g: UInt32, b: UInt32, a: UInt32) {
        func q(_ v: Float) -> UInt32 { UInt32(min(max(v, 0), 1) * 256 + 0.5) }
        return (q(r), q(g), q(b), q(a))
    }

    /// Draws `sprite` over the pixels of `box`; `pixel` is one pixel in sprite units (edges are
    /// anti-aliased over it); clip shapes multiply the coverage. `tinted`: the sprite's level with
    /// the tint applied (`tintTexels`), used where the map is separable.
    static func sprite(_ sprite: Sprite, target: RenderTarget, box: PixelBox, pixel: CGFloat, clips: [ClipShape],
                       tinted: UnsafePointer<UInt64>? = nil) {
        let m = sprite.inverse
        // Unturned sprites (the common case) are separable: each column's and each row's share
        // of the work (distance to the edge, texels and weights) is computed once.
        let columns = box.x1 - box.x0, rows = box.y1 - box.y0
        if m.m1 == 0, m.m3 == 0, clips.isEmpty, columns <= 64, rows <= 64 {
            separableSprite(sprite, target: target, box: box, pixel: pixel, tinted: tinted)
        } else {
            generalSprite(sprite, target: target, box: box, pixel: pixel, clips: clips)
        }
    }

    /// `sprite` under any affine map, pixel by pixel.
    static func generalSprite(_ sprite: Sprite, target: RenderTarget, box: PixelBox, pixel: CGFloat, clips: [ClipShape]) {
        let m = sprite.inverse, hx = sprite.hx, hy = sprite.hy
        let perPixel = 1 / Double(pixel)
        let window = sprite.window
        let u0 = Double(sprite.source.minX) + hx * sprite.sx, v0 = Double(sprite.source.minY) + hy * sprite.sy
        for y in box.y0..<box.y1 {
            let cy = Double(y) + 0.5
            let row = target.row(y)
            let rowX = cy * m.m3 + m.m6, rowY = cy * m.m4 + m.m7
            for x in box.x0..<box.x1 {
                let cx = Double(x) + 0.5
                let qx = cx * m.m0 + rowX, qy = cx * m.m1 + rowY
                let dx = abs(qx) - hx, dy = abs(qy) - hy
                let d = dx > 0 && dy > 0 ? (dx * dx + dy * dy).squareRoot() : max(dx, dy)
                var cover = 0.5 - d * perPixel
                if cover <= 0 { continue }
                if !clips.isEmpty {
                    cover = min(cover, 1) * Double(clipCoverage(clips, CGFloat(cx), CGFloat(cy)))
                    if cover <= 0 { continue }
                }
                let c = quantize(cover)
                if c == 0 { continue }
                let s = window.word(CGFloat(u0 + qx * sprite.sx), CGFloat(v0 + qy * sprite.sy), nearest: false)
                put(s, row + x, c, sprite)
            }
        }
    }

    /// `sprite` when sprite x depends on the pixel column only and sprite y on the row only.
    /// With `tinted` (the level's texels with the sprite's tint applied, unpacked), the tint is not
    /// applied per pixel: all four channels are interpolated at once in 16-bit lanes.
    ///
    /// Coverage comes from the distance to the nearer edge, 0.5 − max(dx, dy) in pixels, except
    /// beyond a corner (dx, dy > 0) where the distance is √(dx² + dy²). Away from the corners it
    /// is the smaller of a column's and a row's coverage, so each is quantised once and a pixel
    /// takes the minimum (the same 0…256 value the general path computes, since quantising is
    /// monotonic).
    static func separableSprite(_ sprite: Sprite, target: RenderTarget, box: PixelBox, pixel: CGFloat,
                                tinted: UnsafePointer<UInt64>? = nil) {
        let m = sprite.inverse, hx = sprite.hx, hy = sprite.hy
        let perPixel = 1 / Double(pixel)
        let window = sprite.window, level = window.level
        let u0 = Double(sprite.source.minX) + hx * sprite.sx, v0 = Double(sprite.source.minY) + hy * sprite.sy
        let columns = box.x1 - box.x0, rows = box.y1 - box.y0
        // Per column: distance beyond the side edges (sprite units), its coverage, texel pair and weight.
        withUnsafeTemporaryAllocation(of: (d: Double, c: UInt32, i0: Int, i1: Int, w: UInt32).self, capacity: columns) { across in
            for i in 0..<columns {
                let qx = (Double(box.x0 + i) + 0.5) * m.m0 + m.m6
                let (i0, i1, w) = bilinearAxis(CGFloat(u0 + qx * sprite.sx) * level.scaleX, window.minU, window.maxU)
                let d = abs(qx) - hx
                across[i] = (d, quantize(0.5 - d * perPixel), i0, i1, w)
            }
            for j in 0..<rows {
                let y = box.y0 + j
                let qy = (Double(y) + 0.5) * m.m4 + m.m7
                let dy = abs(qy) - hy
                let cy = quantize(0.5 - dy * perPixel)
                if cy == 0 { continue }
                let (r0, r1, wy) = bilinearAxis(CGFloat(v0 + qy * sprite.sy) * level.scaleY, window.minV, window.maxV)
                let row = target.row(y) + box.x0
                @inline(__always) func coverage(_ a: (d: Double, c: UInt32, i0: Int, i1: Int, w: UInt32)) -> UInt32 {
                    a.d > 0 && dy > 0 ? quantize(0.5 - (a.d * a.d + dy * dy).squareRoot() * perPixel) : min(a.c, cy)
                }
                if let tinted {
                    let top = tinted + r0 * level.width, bottom = tinted + r1 * level.width
                    for i in 0..<columns {
                        let a = across[i]
                        let c = UInt64(coverage(a))
                        if c == 0 { continue }
                        var s = lerpLanes(lerpLanes(top[a.i0], top[a.i1], UInt64(a.w)), lerpLanes(bottom[a.i0], bottom[a.i1], UInt64(a.w)),
                                          UInt64(wy))
                        if c < 256 { s = ((s &* c &+ 0x0080_0080_0080_0080) >> 8) & 0x00FF_00FF_00FF_00FF }
                        blend(pack(s), row + i, sprite.additive)
                    }
                } else {
                    let top = level.pixels + r0 * level.stride, bottom = level.pixels + r1 * level.stride
                    for i in 0..<columns {
                        let a = across[i]
                        let c = coverage(a)
                        if c == 0 { continue }
                        let s = lerpWord(lerpWord(top[a.i0], top[a.i1], a.w), lerpWord(bottom[a.i0], bottom[a.i1], a.w), wy)
                        put(s, row + i, c, sprite)
                    }
                }
            }
        }
    }

    /// Coverage in 0…256 (256 = full) from its real value.
    @inline(__always)
    static func quantize(_ cover: Double) -> UInt32 {
        cover <= 0 ? 0 : (cover >= 1 ? 256 : UInt32(cover * 256 + 0.5))
    }

    /// Tints sample `s`, applies coverage `c` (1…256) and blends it into `p`.
    @inline(__always)
    private static func put(_ s: UInt32, _ p: UnsafeMutablePointer<UInt32>, _ c: UInt32, _ sprite: Sprite) {
        let t = sprite.tint
        // Tint per channel, then coverage on two channels at a time.
        let sa = ((s >> 24) * t.a + 128) >> 8, sr = (((s >> 16) & 255) * t.r + 128) >> 8
        let sg = (((s >> 8) & 255) * t.g + 128) >> 8, sb = ((s & 255) * t.b + 128) >> 8
        var rb = sr << 16 | sb, ag = sa << 16 | sg
        if c < 256 {
            rb = ((rb &* c &+ 0x0080_0080) >> 8) & 0x00FF_00FF
            ag = ((ag &* c &+ 0x0080_0080) >> 8) & 0x00FF_00FF
        }
        blend(ag << 8 | rb, p, sprite.additive)
    }

    /// Source-over (or, `additive`, a saturating add) of premultiplied `s` into `p`.
    @inline(__always)
    private static func blend(_ s: UInt32, _ p: UnsafeMutablePointer<UInt32>, _ additive: Bool) {
        // An opaque source replaces the pixel (what the formula gives: dst × 0), without reading it.
        if !additive && s >= 0xFF00_0000 { p.pointee = s; return }
        let dst = p.pointee
        p.pointee = additive ? saturatingAdd(dst, s) : s &+ scale(dst, by: 255 - (s >> 24))
    }

    /// A pixel word spread to 16 bits per channel: 0x00AA_00RR_00GG_00BB.
    @inline(__always)
    static func unpack(_ p: UInt32) -> UInt64 {
        let v = UInt64(p)
        return (v & 0xFF) | (v & 0xFF00) << 8 | (v & 0xFF_0000) << 16 | (v & 0xFF00_0000) << 24
    }

    /// The pixel word of 16-bit lanes holding 0…255.
    @inline(__always)
    static func pack(_ v: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: (v & 0xFF) | (v >> 8) & 0xFF00 | (v >> 16) & 0xFF_0000 | (v >> 24) & 0xFF00_0000)
    }

    /// p·(256 − w) + q·w in 8.8 fixed point on four 16-bit lanes, rounded (lerpWord's maths, per channel).
    @inline(__always)
    static func lerpLanes(_ p: UInt64, _ q: UInt64, _ w: UInt64) -> UInt64 {
        ((p &* (256 - w) &+ q &* w &+ 0x0080_0080_0080_0080) >> 8) & 0x00FF_00FF_00FF_00FF
    }

    /// `level`'s texels with `tint` (0…256 per channel) applied, unpacked, into `out` (row-major,
    /// `level.width` per row; at least width × height entries).
    static func tintTexels(_ level: ImageLevel, _ tint: (r: UInt32, g: UInt32, b: UInt32, a: UInt32),
                           into out: UnsafeMutableBufferPointer<UInt64>) {
        precondition(out.count >= level.width * level.height)
        let ta = UInt64(tint.a), tr = UInt64(tint.r), tg = UInt64(tint.g), tb = UInt64(tint.b)
        for y in 0..<level.height {
            let row = level.pixels + y * level.stride
            for x in 0..<level.width {
                let v = unpack(row[x])
                let a = ((v >> 48) * ta + 128) >> 8, r = (((v >> 32) & 0xFF) * tr + 128) >> 8
                let g = (((v >> 16) & 0xFF) * tg + 128) >> 8, b = ((v & 0xFF) * tb + 128) >> 8
                out[y * level.width + x] = a << 48 | r << 32 | g << 16 | b
            }
        }
    }

    /// `p`'s four channels times `k`/255 (k in 0…255), each rounded exactly.
    @inline(__always)
    static func scale(_ p: UInt32, by k: UInt32) -> UInt32 {
        var rb = (p & 0x00FF_00FF) &* k &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((p >> 8) & 0x00FF_00FF) &* k &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// Channel-wise a + b, each clamped to 255.
    @inline(__always)
    static func saturatingAdd(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var rb = (a & 0x00FF_00FF) &+ (b & 0x00FF_00FF)
        var ag = ((a >> 8) & 0x00FF_00FF) &+ ((b >> 8) & 0x00FF_00FF)
        rb = (rb | ((rb >> 8) & 0x0001_0001) &* 255) & 0x00FF_00FF
        ag = (ag | ((ag >> 8) & 0x0001_0001) &* 255) & 0x00FF_00FF
        return ag << 8 | rb
    }
}
