import CGSupport
import Foundation

// Four pixels at a time, for the rasteriser's consumers (`SolidCoverage`, `MaskedConstantRows`):
// the one-pixel operations of `Raster` — the Float source-over, the alpha bytes of coverage, the
// exact /255 scaling — run over four lanes with the same operations in the same order, so the
// pixels are those of four one-pixel calls (BlendTests checks each against its one-pixel form).
extension Raster {
    /// Source-over of the four pixels at `p` with premultiplied colours whose channels, one lane
    /// per pixel, are `b`, `g`, `r`, `a` (in [0, 255]), at weights `w` in [0, 1]: each channel
    /// gets `blend`'s sums, the same operations in the same order, so the pixels are those of
    /// four calls of `blend`. At weight 0 a pixel stays as it was; an opaque colour at weight 1
    /// gives the word `blend` stores for it. Channel-major lanes: no shuffles.
    @inline(__always)
    static func blend4(_ p: UnsafeMutablePointer<UInt32>, b: SIMD4<Float>, g: SIMD4<Float>, r: SIMD4<Float>, a: SIMD4<Float>,
                       _ w: SIMD4<Float>) {
        let d = UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt32>.self)
        let inv = 1 - a * w / 255
        @inline(__always) func channel(_ c: SIMD4<Float>, _ shift: UInt32) -> SIMD4<UInt32> {
            let dst = unsafeBitCast((d &>> shift) & 255 | 0x4B00_0000, to: SIMD4<Float>.self) - twoTo23
            var o = c * w + dst * inv + 0.5
            o.replace(with: 255, where: o .> 255)
            return truncated(o) &<< shift
        }
        cgs_store_u32x4(p, channel(b, 0) | channel(g, 8) | channel(r, 16) | channel(a, 24))
    }

    /// `compositePixel` of the premultiplied source words `s` onto the four pixels at `p` at
    /// `alpha`, through `blend4`: the same pixels without its tests (at weight `alpha` a word of
    /// 0 leaves its pixel as it is, and an opaque word at alpha 1 comes out as it is).
    @inline(__always)
    static func composite4(_ p: UnsafeMutablePointer<UInt32>, _ s: SIMD4<UInt32>, _ alpha: Float) {
        @inline(__always) func float(_ v: SIMD4<UInt32>) -> SIMD4<Float> { unsafeBitCast(v | 0x4B00_0000, to: SIMD4<Float>.self) - twoTo23 }
        blend4(p, b: float(s & 255), g: float((s &>> 8) & 255), r: float((s &>> 16) & 255), a: float(s &>> 24), SIMD4(repeating: alpha))
    }

    /// Four coverages in [0, 1] as alpha bytes (in 32-bit lanes), rounded as `coverageBytes` rounds.
    @inline(__always)
    static func coverageBytes(_ v: SIMD4<Float>) -> SIMD4<UInt32> {
        var o = 255 * v + 0.5
        o.replace(with: 255, where: o .> 255)
        var bits = truncated(o)
        bits.replace(with: 0, where: .!(v .> 0))
        return bits
    }

    /// `scale` of four pixels by four factors, lane by lane (the same integer steps).
    @inline(__always)
    static func scale(_ p: SIMD4<UInt32>, by k: SIMD4<UInt32>) -> SIMD4<UInt32> {
        var rb = (p & 0x00FF_00FF) &* k &+ 0x0080_0080
        rb = ((rb &+ ((rb &>> 8) & 0x00FF_00FF)) &>> 8) & 0x00FF_00FF
        var ag = ((p &>> 8) & 0x00FF_00FF) &* k &+ 0x0080_0080
        ag = (ag &+ ((ag &>> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }
}
