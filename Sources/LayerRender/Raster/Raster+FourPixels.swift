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
            let dst = cgs_float_u32x4((d &>> shift) & 255)
            return truncated(clamped(c * w + dst * inv + 0.5)) &<< shift
        }
        cgs_store_u32x4(p, channel(b, 0) | channel(g, 8) | channel(r, 16) | channel(a, 24))
    }

    /// `compositePixel` of the premultiplied source words `s` onto the four pixels at `p` at
    /// `alpha`: the same pixels without its tests (at weight `alpha` a word of 0 leaves its pixel
    /// as it is, and an opaque word at alpha 1 comes out as it is). At alpha 1 in integers
    /// (`over4`), otherwise through `blend4`.
    @inline(__always)
    static func composite4(_ p: UnsafeMutablePointer<UInt32>, _ s: SIMD4<UInt32>, _ alpha: Float) {
        if alpha == 1 { over4(p, s); return }
        blend4(p, b: cgs_float_u32x4(s & 255), g: cgs_float_u32x4((s &>> 8) & 255), r: cgs_float_u32x4((s &>> 16) & 255),
               a: cgs_float_u32x4(s &>> 24), SIMD4(repeating: alpha))
    }

    /// Source-over of the premultiplied words `s` onto the four pixels at `p`: per channel
    /// min(s + d·(255 − sₐ)/255 rounded to nearest, 255), in 16-bit lanes (two channels of a
    /// pixel per 32-bit lane, one `pmullw` for eight channels).
    ///
    /// The same bytes as `blend4` at weight 1, which computes s + d·(1 − sₐ/255) + 0.5 in Float
    /// and truncates: d·(255 − sₐ)/255 is never within 1/255 of a half (255 is odd, so
    /// the remainder is at most 127 or at least 128 of 255), while the Float sum's rounding
    /// error stays under 10⁻⁴; both clamp at 255.
    @inline(__always)
    static func over4(_ p: UnsafeMutablePointer<UInt32>, _ s: SIMD4<UInt32>) {
        let d = UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt32>.self)
        let k = factors(255 &- (s &>> 24))
        @inline(__always) func half(_ source: SIMD4<UInt32>, _ dest: SIMD4<UInt32>) -> SIMD8<UInt16> {
            let o = unsafeBitCast(source & 0x00FF_00FF, to: SIMD8<UInt16>.self) &+ scaledHalf(dest, k)
            // o ≤ 510: o ≥ 256 sets every bit below, then the byte is 255. (Comparisons of
            // 16-bit lanes are not vector code here: the optimiser went lane by lane.)
            return (o | (SIMD8<UInt16>() &- (o &>> 8))) & 255
        }
        let rb = half(s, d), ag = half(s &>> 8, d &>> 8)
        cgs_store_u32x4(p, unsafeBitCast(rb, to: SIMD4<UInt32>.self) | unsafeBitCast(ag, to: SIMD4<UInt32>.self) &<< 8)
    }

    /// Four coverages in [0, 1] as alpha bytes (in 32-bit lanes), rounded as `coverageBytes` rounds.
    @inline(__always)
    static func coverageBytes(_ v: SIMD4<Float>) -> SIMD4<UInt32> {
        var bits = truncated(clamped(255 * v + 0.5))
        bits.replace(with: 0, where: .!(v .> 0))
        return bits
    }

    /// `scale` of four pixels by four factors (each at most 255), lane by lane: the same integer
    /// steps in 16-bit lanes (`scale`'s two channels per 32-bit word never carry into each other).
    @inline(__always)
    static func scale(_ p: SIMD4<UInt32>, by k: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let k16 = factors(k)
        return unsafeBitCast(scaledHalf(p, k16), to: SIMD4<UInt32>.self) | unsafeBitCast(scaledHalf(p &>> 8, k16), to: SIMD4<UInt32>.self) &<< 8
    }

    /// One factor per pixel (at most 255) in both 16-bit halves of its lane.
    @inline(__always)
    private static func factors(_ k: SIMD4<UInt32>) -> SIMD8<UInt16> { unsafeBitCast(k | k &<< 16, to: SIMD8<UInt16>.self) }

    /// Bytes 0 and 2 of each word of `v` times their pixel's factor / 255, rounded to nearest
    /// (`scale`'s steps), one channel per 16-bit lane: c·k + 128 ≤ 65 153 and the sum after it
    /// stay in 16 bits.
    @inline(__always)
    private static func scaledHalf(_ v: SIMD4<UInt32>, _ k: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let t = unsafeBitCast(v & 0x00FF_00FF, to: SIMD8<UInt16>.self) &* k &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }
}
