import CGSupport
import CoreGraphics
import Foundation

// A layer's shadow: the alpha of what it draws, blurred, shifted and blended in the shadow's
// colour under it. Three steps — the plane of source alpha (`ShadowPlane`), its blur, its blend —
// taken by `Compositor.paintShadow`, which may keep the blurred plane of a layer whose alpha did
// not change.
extension Raster {
    /// The alpha of source pixels x0 ..< x1 × y0 ..< y1 (device pixels) with `reach` zero bytes on
    /// every side, rows of `width`: byte (px, py) holds source pixel (px + x0 − reach, py + y0 − reach).
    struct ShadowPlane {
        var bytes: [UInt8]
        let x0: Int, y0: Int, x1: Int, y1: Int, reach: Int
        /// Whether any byte is above 0.
        let inked: Bool
        var width: Int { x1 - x0 + 2 * reach }
        var height: Int { y1 - y0 + 2 * reach }

        /// The alpha of `source` over `region` (within its box), with `reach` clear bytes on
        /// every side. The plane is cleared in one pass, then the alpha rows are copied in (the
        /// sides' few bytes a row, cleared row by row, cost more).
        init(source: RenderTarget, region: PixelBox, reach: Int) {
            x0 = region.x0; y0 = region.y0; x1 = region.x1; y1 = region.y1; self.reach = reach
            let w = max(x1 - x0, 0), h = max(y1 - y0, 0), pw = w + 2 * reach, count = pw * (h + 2 * reach)
            var any: UInt32 = 0
            bytes = [UInt8](unsafeUninitializedCapacity: count) { plane, initialized in
                guard let pl = plane.baseAddress, count > 0 else { return }
                pl.initialize(repeating: 0, count: count)
                for y in 0..<h {
                    any |= cgs_alpha_bytes(pl + (y + reach) * pw + reach, source.row(region.y0 + y) + region.x0, w)
                }
                initialized = count
            }
            inked = any != 0
        }
    }

    /// The source pixels a shadow onto `box` reads (those that can land inside it after blur and
    /// offset: x0..<x1, y0..<y1 of `source`), the blur's reach and the offset in whole pixels; nil
    /// when none can. The blur's plane is these pixels and `reach` more on each side.
    static func shadowPlane(source sb: PixelBox, box: PixelBox, sigma: CGFloat, offset: CGSize)
        -> (x0: Int, y0: Int, x1: Int, y1: Int, reach: Int, dx: Int, dy: Int)? {
        let (reach, dx, dy) = shadowReach(sigma: sigma, offset: offset)
        let x0 = max(box.x0 - dx - reach, sb.x0), y0 = max(box.y0 - dy - reach, sb.y0)
        let x1 = min(box.x1 - dx + reach, sb.x1), y1 = min(box.y1 - dy + reach, sb.y1)
        guard x1 > x0, y1 > y0 else { return nil }
        return (x0, y0, x1, y1, reach, dx, dy)
    }

    /// The σ a shadow is blurred with: `sigma` (pixels) within 0 … `ShadowBlur.maxSigma`.
    static func blurSigma(_ sigma: CGFloat) -> CGFloat { min(max(sigma, 0), ShadowBlur.maxSigma) }

    /// The blur's reach for `sigma` and the offset in whole pixels.
    static func shadowReach(sigma: CGFloat, offset: CGSize) -> (reach: Int, dx: Int, dy: Int) {
        (ShadowBlur.reach(sigma: blurSigma(sigma)),
         CGClampToInt(Double(offset.width.rounded()), in: -(1 << 20)...(1 << 20)),
         CGClampToInt(Double(offset.height.rounded()), in: -(1 << 20)...(1 << 20)))
    }

    /// Blends `color` at `alpha` through the blurred `plane`, shifted by `offset` (whole pixels),
    /// onto `dst` within `box` (through `clips`), over the columns `needs` gives (without clips).
    /// `tables`: the calling thread's kept blend tables.
    static func blendShadow(_ plane: ShadowPlane, offset: (Int, Int), onto dst: RenderTarget, box: PixelBox, clips: [ClipShape],
                            color: CGColor, alpha: Float, needs: [ShadowBlur.Need], tables: ShadowTables? = nil) {
        let pw = plane.width, ph = plane.height
        // Plane pixel (px, py) lands on frame pixel (px + ox, py + oy); only those inside `box` are drawn.
        let ox = plane.x0 + offset.0 - plane.reach, oy = plane.y0 + offset.1 - plane.reach
        let v = color.rgba
        let r = Float(v.r) * 255, g = Float(v.g) * 255, b = Float(v.b) * 255
        let cr = r * Float(v.a), cg = g * Float(v.a), cb = b * Float(v.a), ca = 255 * Float(v.a)
        if clips.isEmpty {
            // Without clips a pixel's blend depends only on its coverage byte: `blend`'s colour
            // term and destination factor are tabled by byte, and the rows' spans, less the
            // opaque run the blur skipped (the picture above overwrites it), go to the C kernel.
            let (terms, factors) = tables?.tables(r: cr, g: cg, b: cb, a: ca, alpha: alpha)
                ?? shadowTables(r: cr, g: cg, b: cb, a: ca, alpha: alpha)
            plane.bytes.withUnsafeBufferPointer { pl in
                for py in 0..<ph {
                    let need = needs[py]
                    guard need.lo < need.hi else { continue }
                    let row = dst.row(py + oy) + ox, src = pl.baseAddress! + py * pw
                    func span(_ x0: Int, _ x1: Int) {
                        if x0 < x1 { cgs_shadow_span(row + x0, src + x0, x1 - x0, terms, factors) }
                    }
                    if need.skipLo < need.skipHi {
                        span(need.lo, min(need.skipLo, need.hi))
                        span(max(need.skipHi, need.lo), need.hi)
                    } else {
                        span(need.lo, need.hi)
                    }
                }
            }
            return
        }
        // Through clips, every pixel of the box (nothing is composited over the shadow exactly).
        plane.bytes.withUnsafeBufferPointer { pl in
            for py in max(0, box.y0 - oy)..<min(ph, box.y1 - oy) {
                let ty = py + oy
                let row = dst.row(ty), src = pl.baseAddress! + py * pw
                for px in max(0, box.x0 - ox)..<min(pw, box.x1 - ox) {
                    let a = src[px]
                    if a == 0 { continue }
                    let tx = px + ox
                    var cov = Float(a) / 255 * alpha
                    cov *= Float(clipCoverage(clips, CGFloat(tx) + 0.5, CGFloat(ty) + 0.5))
                    // Premultiplied colour at the colour's own alpha, scaled by the blurred coverage.
                    blend(row + tx, cr, cg, cb, ca, cov)
                }
            }
        }
    }

    /// `blend`'s colour term and destination factor for a premultiplied colour (r, g, b, a in
    /// 0…255) at each coverage byte c (coverage c / 255 × alpha): terms[4c …] in b, g, r, a
    /// order, factors[c]; zero for c = 0 (`cgs_shadow_span` skips those pixels).
    static func shadowTables(r: Float, g: Float, b: Float, a: Float, alpha: Float) -> (terms: [Float], factors: [Float]) {
        var terms = [Float](repeating: 0, count: 256 * 4), factors = [Float](repeating: 0, count: 256)
        for c in 1..<256 {
            let cov = Float(c) / 255 * alpha
            let t = SIMD4<Float>(b, g, r, a) * cov
            terms[4 * c] = t[0]; terms[4 * c + 1] = t[1]; terms[4 * c + 2] = t[2]; terms[4 * c + 3] = t[3]
            factors[c] = 1 - a * cov / 255
        }
        return (terms, factors)
    }

    /// The plane pixels a shadow shifted by `offset` (whole pixels) draws onto `dst` within `box`,
    /// row by row, for the blur to compute only those: columns inside `box`, less one run a row
    /// that is overwritten — the first run of opaque pixels of `opaqueAbove` on that row (the
    /// drawing loop skips every opaque pixel of it; the run is most of them for a layer's own
    /// body), the run `hidden` gives, or both when they meet (else the longer). With clips,
    /// `opaqueAbove` and `hidden` are ignored. Plane pixels `zeroMargin` or more from the
    /// plane's source pixels (`ShadowBlur.zeroMargin`) are left out: their blurred bytes are 0.
    static func shadowNeeds(_ plane: ShadowPlane, offset: (Int, Int), box: PixelBox, clips: [ClipShape],
                            opaqueAbove: RenderTarget?, hidden: HiddenRuns?, dst: RenderTarget,
                            zeroMargin: Int) -> [ShadowBlur.Need] {
        let pw = plane.width, ph = plane.height
        // The plane pixels whose blur can be above 0: within zeroMargin − 1 of the source's.
        let reach = plane.reach, near = max(zeroMargin - 1, 0)
        let rows = (reach - near)..<(ph - reach + near)
        let ox = plane.x0 + offset.0 - plane.reach, oy = plane.y0 + offset.1 - plane.reach
        let opaqueAbove = clips.isEmpty ? opaqueAbove : nil
        let hidden = clips.isEmpty && hidden?.holds(for: dst) == true ? hidden : nil
        let above = opaqueAbove?.box ?? PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
        let lo = max(0, box.x0 - ox, reach - near), hi = min(pw, box.x1 - ox, pw - reach + near)
        var runs = hidden?.cursor
        return (0..<ph).map { py in
            let ty = py + oy
            guard ty >= box.y0, ty < box.y1, lo < hi, rows.contains(py) else { return ShadowBlur.Need(lo: 0, hi: 0) }
            var need = ShadowBlur.Need(lo: lo, hi: hi)
            // Runs in frame columns, lo + ox ..< hi + ox.
            var skip = (lo: 0, hi: 0)
            if let opaqueAbove, ty >= above.y0, ty < above.y1 {
                let from = max(above.x0, lo + ox), end = min(above.x1, hi + ox)
                if from < end {
                    var start = 0
                    let x = cgs_opaque_run(opaqueAbove.row(ty), from, end, &start)
                    if x > start { skip = (start, x) }
                }
            }
            if let h = runs?.run(ty, within: lo + ox, hi + ox), h.lo < h.hi {
                if skip.lo < skip.hi && h.lo <= skip.hi && skip.lo <= h.hi {
                    skip = (min(skip.lo, h.lo), max(skip.hi, h.hi))
                } else if h.hi - h.lo > skip.hi - skip.lo {
                    skip = h
                }
            }
            if skip.lo < skip.hi { need.skipLo = skip.lo - ox; need.skipHi = skip.hi - ox }
            return need
        }
    }
}

/// The blend tables of one shadow colour at one alpha (`Raster.shadowTables`), kept from one
/// shadow to the next by one worker: a frame's shadows mostly share their colour and alpha.
final class ShadowTables {
    private var key: (Float, Float, Float, Float, Float)?
    private var value: (terms: [Float], factors: [Float]) = ([], [])

    /// `Raster.shadowTables` of premultiplied (r, g, b, a) at `alpha`, made again only for
    /// another colour or alpha.
    func tables(r: Float, g: Float, b: Float, a: Float, alpha: Float) -> (terms: [Float], factors: [Float]) {
        if let key, key == (r, g, b, a, alpha) { return value }
        value = Raster.shadowTables(r: r, g: g, b: b, a: a, alpha: alpha)
        key = (r, g, b, a, alpha)
        return value
    }
}
