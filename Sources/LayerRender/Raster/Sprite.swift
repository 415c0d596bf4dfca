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
// particles of one colour interpolate all four channels at once in 16-bit lanes. Unturned
// sprites (almost all) share each column's and each row's part of that work, and blend two
// pixels per step in SIMD lanes with the same roundings; a solid picture skips the filtering,
// which cannot change it. Long by design: the per-sprite set-up is what this file is about.
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
        /// `window.uniformTexel()`: every sample is this texel (no filtering to do).
        var uniform: UInt32? = nil
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
    /// applied per pixel.
    ///
    /// Bilinear sampling is done in two passes: a texel row interpolated across the box's columns
    /// once (kept while consecutive pixel rows still read it), then per pixel row the two texel
    /// rows mixed, tinted, covered and blended two pixels at a time in 16-bit lanes. The maths are
    /// those of one pixel at a time (same roundings, same order), so both give the same pixels.
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
        guard columns > 0, rows > 0 else { return }
        let t = tinted == nil ? sprite.tint : (r: 256, g: 256, b: 256, a: 256)
        let one = SIMD4<UInt16>(UInt16(t.b), UInt16(t.g), UInt16(t.r), UInt16(t.a))
        let tint = SpriteLanes(lowHalf: one, highHalf: one)
        // A row's last pixel, when the row has an odd count, is blended as a pair with the pixel
        // after it at coverage 0 (which leaves it as it was) if that pixel is in the target's row.
        let room = box.x1 < target.originX + target.width
        // Per column: distance beyond the side edges (sprite units), texel pair and weight; then
        // four rows of lanes (one entry more, at coverage 0): the column's coverage, two texel
        // rows interpolated across, a corner row's coverage.
        let lanesPerRow = columns + 1
        let acrossLimits = AxisLimits(window.minU, window.maxU), downLimits = AxisLimits(window.minV, window.maxV)
        withUnsafeTemporaryAllocation(of: (d: Double, i0: Int, i1: Int, w: UInt64).self, capacity: columns) { across in
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 4 * lanesPerRow) { lanes in
            let covX = lanes.baseAddress!, cover = covX + 3 * lanesPerRow
            // A solid picture samples to its texel everywhere (the lerp of equal texels is that
            // texel, at any weight): one row of it stands for every interpolated row.
            var solid: UnsafeMutablePointer<UInt64>? = nil
            if let texel = sprite.uniform {
                let lane = tinted.map { $0[Int(window.minV) * level.width + Int(window.minU)] } ?? unpack(texel)
                let row = covX + lanesPerRow
                row.update(repeating: lane, count: lanesPerRow)
                solid = row
            }
            for i in 0..<columns {
                let qx = (Double(box.x0 + i) + 0.5) * m.m0 + m.m6
                let d = abs(qx) - hx
                if solid == nil {
                    let (i0, i1, w) = bilinearAxis(CGFloat(u0 + qx * sprite.sx) * level.scaleX, acrossLimits)
                    across[i] = (d, i0, i1, UInt64(w))
                } else {
                    across[i] = (d, 0, 0, 0)
                }
                covX[i] = UInt64(quantize(0.5 - d * perPixel)) &* 0x0001_0001_0001_0001
            }
            covX[columns] = 0
            cover[columns] = 0
            // The texel rows held interpolated across, and which slot holds which.
            var held = (-1, -1)
            func interpolated(_ r: Int, besides other: Int) -> UnsafeMutablePointer<UInt64> {
                if held.0 == r { return covX + lanesPerRow }
                if held.1 == r { return covX + 2 * lanesPerRow }
                let slot = held.0 == other ? 1 : 0
                let out = covX + (1 + slot) * lanesPerRow
                if slot == 0 { held.0 = r } else { held.1 = r }
                if let tinted {
                    let texels = tinted + r * level.width
                    for i in 0..<columns {
                        let a = across[i]
                        out[i] = lerpLanes(texels[a.i0], texels[a.i1], a.w)
                    }
                } else {
                    let texels = level.pixels + r * level.stride
                    for i in 0..<columns {
                        let a = across[i]
                        out[i] = lerpLanes(unpack(texels[a.i0]), unpack(texels[a.i1]), a.w)
                    }
                }
                return out
            }
            for j in 0..<rows {
                let y = box.y0 + j
                let qy = (Double(y) + 0.5) * m.m4 + m.m7
                let dy = abs(qy) - hy
                let cy = quantize(0.5 - dy * perPixel)
                if cy == 0 { continue }
                let top: UnsafeMutablePointer<UInt64>, bottom: UnsafeMutablePointer<UInt64>, wy: UInt32
                if let solid {
                    (top, bottom, wy) = (solid, solid, 0)
                } else {
                    let (r0, r1, w) = bilinearAxis(CGFloat(v0 + qy * sprite.sy) * level.scaleY, downLimits)
                    (top, bottom, wy) = (interpolated(r0, besides: r1), interpolated(r1, besides: r0), w)
                }
                // A pixel's coverage is the smaller of its column's and its row's, except beyond a
                // corner (dy > 0 and the column past a side edge): those rows get their own.
                var columnCover = UnsafePointer(covX), rowCover = UInt16(cy)
                if dy > 0 {
                    let lanes = UInt64(cy) &* 0x0001_0001_0001_0001
                    for i in 0..<columns { cover[i] = min(covX[i], lanes) }
                    // The columns past a side edge are a prefix and a suffix.
                    func corner(_ i: Int) {
                        let d = across[i].d
                        cover[i] = UInt64(quantize(0.5 - (d * d + dy * dy).squareRoot() * perPixel)) &* 0x0001_0001_0001_0001
                    }
                    var first = 0
                    while first < columns, across[first].d > 0 { corner(first); first += 1 }
                    var last = columns - 1
                    while last >= first, across[last].d > 0 { corner(last); last -= 1 }
                    columnCover = UnsafePointer(cover)
                    rowCover = 256
                }
                spriteRow(top: top, bottom: bottom, cover: columnCover, rowCover: rowCover, wy: UInt16(wy), tint: tint,
                          into: target.row(y) + box.x0, count: columns, room: room, additive: sprite.additive)
            }
        }
        }
    }

    /// Two pixels in 16-bit lanes: (b, g, r, a) of the first, then of the second.
    typealias SpriteLanes = SIMD8<UInt16>

    /// One row of a separable sprite: texel rows `top` and `bottom` (lanes, already interpolated
    /// across) mixed by `wy`/256, times `tint`/256 and the smaller of `cover` and `rowCover` (/256),
    /// blended into `count` pixels. With `room`, pixel `count` may be read and written back (the
    /// entries at `count` must give it coverage 0).
    @inline(__always)
    private static func spriteRow(top: UnsafePointer<UInt64>, bottom: UnsafePointer<UInt64>, cover: UnsafePointer<UInt64>,
                                  rowCover: UInt16, wy: UInt16, tint: SpriteLanes, into row: UnsafeMutablePointer<UInt32>,
                                  count: Int, room: Bool, additive: Bool) {
        let below = SpriteLanes(repeating: wy), above = SpriteLanes(repeating: 256 &- wy)
        let cap = SpriteLanes(repeating: rowCover)
        @inline(__always) func pair(_ t: SpriteLanes, _ b: SpriteLanes, _ c: SpriteLanes, _ d: SpriteLanes) -> SpriteLanes {
            // Every product is at most 255 × 256 + 128, so no lane overflows.
            var s = (t &* above &+ b &* below &+ 128) &>> 8
            s = (s &* tint &+ 128) &>> 8
            s = (s &* c &+ 128) &>> 8
            if additive { return pointwiseMin(d &+ s, SpriteLanes(repeating: 255)) }
            // d × (255 − alpha) / 255, rounded exactly, plus the source.
            let alpha = unsafeBitCast(s, to: SIMD2<UInt64>.self) &>> 48
            let spread = alpha | alpha &<< 16
            var k = d &* (255 &- unsafeBitCast(spread | spread &<< 32, to: SpriteLanes.self)) &+ 128
            k = (k &+ (k &>> 8)) &>> 8
            return s &+ k
        }
        @inline(__always) func load(_ p: UnsafePointer<UInt64>) -> SpriteLanes {
            UnsafeRawPointer(p).loadUnaligned(as: SpriteLanes.self)
        }
        var i = 0
        let pairs = room ? count + 1 : count
        while i + 2 <= pairs {
            let d = SpriteLanes(truncatingIfNeeded: UnsafeRawPointer(row + i).loadUnaligned(as: SIMD8<UInt8>.self))
            let out = pair(load(top + i), load(bottom + i), pointwiseMin(load(cover + i), cap), d)
            UnsafeMutableRawPointer(row + i).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: out), as: SIMD8<UInt8>.self)
            i += 2
        }
        if i < count {
            // The last pixel alone: the row's end follows it.
            @inline(__always) func one(_ v: UInt64) -> SpriteLanes { unsafeBitCast(SIMD2<UInt64>(v, 0), to: SpriteLanes.self) }
            let d = SpriteLanes(truncatingIfNeeded: unsafeBitCast(SIMD2<UInt32>(row[i], 0), to: SIMD8<UInt8>.self))
            let out = pair(one(top[i]), one(bottom[i]), pointwiseMin(one(cover[i]), cap), d)
            row[i] = unsafeBitCast(SIMD8<UInt8>(truncatingIfNeeded: out), to: SIMD2<UInt32>.self)[0]
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
