import CGSupport
import CoreGraphics
import Foundation

// Offscreen passes: compositing a group with clips, masks, shadows and shadow paths.
extension Raster {
    /// Composites an offscreen group onto `dst` with `alpha`, through ancestor clips.
    /// `hidden`: pixels of `dst` that later items overwrite, left as they are (without clips).
    static func composite(_ src: RenderTarget, onto dst: RenderTarget, box: PixelBox, alpha: Float, clips: [ClipShape],
                          hidden: Hidden? = nil) {
        guard let first = clips.first else {
            guard let hidden, hidden.holds(for: dst), !box.isEmpty else { composite(src, onto: dst, box: box, alpha: alpha); return }
            var runs = hidden.cursor
            for y in box.y0..<box.y1 {
                let h = runs.run(y, within: box.x0, box.x1)
                compositeRun(src.row(y), dst.row(y), box.x0..<h.lo, alpha)
                compositeRun(src.row(y), dst.row(y), h.hi..<box.x1, alpha)
            }
            return
        }
        // The first clip drives the row spans; inside them every clip covers fully.
        cover(box: box, inverse: first.inverse, pixel: first.pixel, shape: first.shape, hole: nil, antialias: true,
              clips: Array(clips.dropFirst()),
              full: { y, xs in compositeRun(src.row(y), dst.row(y), xs, alpha) },
              edge: { y, x, cov in
                  let p = src.row(y)[x]
                  guard p != 0 else { return }
                  let c = channels(p)
                  blend(dst.row(y) + x, c.r, c.g, c.b, c.a, alpha * cov)
              })
    }

    /// Composites `src` shifted by `offset` pixels, drawing only inside `box` (the moving side of a
    /// transition, clipped to the layer's extent).
    static func composite(_ src: RenderTarget, onto dst: RenderTarget, box: PixelBox, alpha: Float, offset: (Int, Int),
                          clips: [ClipShape]) {
        guard !box.isEmpty, alpha > 0 else { return }
        let (dx, dy) = offset
        for y in box.y0..<box.y1 {
            let sy = y - dy
            guard sy >= src.originY, sy < src.originY + src.height else { continue }
            let s = src.row(sy), d = dst.row(y)
            for x in box.x0..<box.x1 {
                let sx = x - dx
                guard sx >= src.originX, sx < src.originX + src.width, s[sx] != 0 else { continue }
                var cov: Float = 1
                if !clips.isEmpty { cov = Float(clipCoverage(clips, CGFloat(x) + 0.5, CGFloat(y) + 0.5)) }
                let c = channels(s[sx])
                blend(d + x, c.r, c.g, c.b, c.a, alpha * cov)
            }
        }
    }

    /// Replaces `a` by a·(1 − t) + b·t per premultiplied channel (a cross-dissolve); `t` is
    /// clamped to [0, 1] (NaN: 0), so every channel stays a byte.
    static func lerp(_ a: RenderTarget, toward b: RenderTarget, _ t: Float, box: PixelBox) {
        guard !box.isEmpty else { return }
        let t = t.isNaN ? 0 : min(max(t, 0), 1)
        for y in box.y0..<box.y1 {
            let pa = a.row(y), pb = b.row(y)
            for x in box.x0..<box.x1 where pa[x] != 0 || pb[x] != 0 {
                let u = channels(pa[x]), v = channels(pb[x])
                func mix(_ p: Float, _ q: Float) -> UInt32 { UInt32(min(p + (q - p) * t + 0.5, 255)) }
                pa[x] = mix(u.a, v.a) << 24 | mix(u.r, v.r) << 16 | mix(u.g, v.g) << 8 | mix(u.b, v.b)
            }
        }
    }

    /// A premultiplied pixel times alpha `a` (0…255), each channel rounded to nearest.
    @inline(__always)
    static func scaled(_ p: UInt32, by a: UInt32) -> UInt32 {
        // (c·a + 127) / 255 is c·a / 255 rounded to nearest (no ties: 255 is odd), which `scale`
        // computes two channels per multiply.
        a == 0 ? 0 : scale(p, by: a)
    }

    /// Multiplies every pixel of `target` by the alpha of the same pixel of `mask`.
    static func multiplyAlpha(_ target: RenderTarget, by mask: RenderTarget, box: PixelBox) {
        guard !box.isEmpty else { return }
        for y in box.y0..<box.y1 {
            let t = target.row(y), m = mask.row(y)
            for x in box.x0..<box.x1 where t[x] != 0 {
                let a = m[x] >> 24
                if a != 255 { t[x] = scaled(t[x], by: a) }
            }
        }
    }

    /// Fills `path` (layer space) in opaque black into `target` through the affine part of `world`
    /// (a projective map draws the path with its affine approximation). Drawn by CoreGraphics.
    static func fillPath(_ target: RenderTarget, path: CGPath, world: Homography, box: PixelBox) {
        let m = world.m
        let w = m.8 != 0 ? m.8 : 1
        target.draw(transform: CGAffineTransform(a: m.0 / w, b: m.1 / w, c: m.3 / w, d: m.4 / w, tx: m.6 / w, ty: m.7 / w)) {
            $0.addPath(path)
            $0.setFillColor(CGColor.black)
            $0.fillPath()
        }
    }

    /// The source pixels a shadow onto `box` reads (those that can land inside it after blur and
    /// offset: x0..<x1, y0..<y1 of `source`), the blur's reach and the offset in whole pixels; nil
    /// when none can. The blur's plane is these pixels and `reach` more on each side.
    static func shadowPlane(source sb: PixelBox, box: PixelBox, sigma: CGFloat, offset: CGSize)
        -> (x0: Int, y0: Int, x1: Int, y1: Int, reach: Int, dx: Int, dy: Int)? {
        let reach = ShadowBlur.reach(sigma: min(max(sigma, 0), ShadowBlur.maxSigma))
        let dx = CGClampToInt(Double(offset.width.rounded()), in: -(1 << 20)...(1 << 20))
        let dy = CGClampToInt(Double(offset.height.rounded()), in: -(1 << 20)...(1 << 20))
        let x0 = max(box.x0 - dx - reach, sb.x0), y0 = max(box.y0 - dy - reach, sb.y0)
        let x1 = min(box.x1 - dx + reach, sb.x1), y1 = min(box.y1 - dy + reach, sb.y1)
        guard x1 > x0, y1 > y0 else { return nil }
        return (x0, y0, x1, y1, reach, dx, dy)
    }

    /// Paints `color` through the alpha of `source` blurred by a Gaussian of `sigma` pixels and
    /// shifted by `offset` pixels, onto `dst` (through `clips`).
    /// `opaqueAbove`: a picture that will be composited over the shadow at alpha 1 without clips;
    /// shadow pixels under its opaque pixels are skipped (they are overwritten exactly).
    /// `hidden`: pixels of `dst` that later items overwrite, skipped like those (without clips).
    /// `scratch`: the calling thread's memory for the blur.
    static func shadow(from source: RenderTarget, onto dst: RenderTarget, box: PixelBox, clips: [ClipShape], color: CGColor,
                       alpha: Float, sigma: CGFloat, offset: CGSize, opaqueAbove: RenderTarget? = nil, hidden: Hidden? = nil,
                       scratch: ShadowBlur.Scratch? = nil) {
        guard !box.isEmpty, alpha > 0,
              let (x0, y0, x1, y1, reach, dx, dy) = shadowPlane(source: source.box, box: box, sigma: sigma, offset: offset)
        else { return }
        let s = min(max(sigma, 0), ShadowBlur.maxSigma)
        let pw = x1 - x0 + 2 * reach, ph = y1 - y0 + 2 * reach
        var plane = [UInt8](repeating: 0, count: pw * ph)
        var any: UInt32 = 0
        plane.withUnsafeMutableBufferPointer { pl in
            for y in y0..<y1 {
                let row = source.row(y), out = pl.baseAddress! + (y - y0 + reach) * pw + reach - x0
                for x in x0..<x1 {
                    let a = row[x] >> 24
                    out[x] = UInt8(truncatingIfNeeded: a)
                    any |= a
                }
            }
        }
        guard any != 0 else { return }
        // Plane pixel (px, py) lands on frame pixel (px + ox, py + oy); only those inside `box` are drawn.
        let ox = x0 + dx - reach, oy = y0 + dy - reach
        let above = opaqueAbove.map { $0.box } ?? PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
        let needs = shadowNeeds(width: pw, height: ph, ox: ox, oy: oy, box: box, opaqueAbove: opaqueAbove,
                                hidden: clips.isEmpty && hidden?.holds(for: dst) == true ? hidden : nil)
        ShadowBlur.blur(&plane, width: pw, height: ph, sigma: s, needs: needs, scratch: scratch)
        let v = color.rgba
        let r = Float(v.r) * 255, g = Float(v.g) * 255, b = Float(v.b) * 255
        let cr = r * Float(v.a), cg = g * Float(v.a), cb = b * Float(v.a), ca = 255 * Float(v.a)
        if clips.isEmpty {
            // Without clips a pixel's blend depends only on its coverage byte: `blend`'s colour
            // term and destination factor are tabled by byte, and the rows' spans, less the
            // opaque run the blur skipped (the picture above overwrites it), go to the C kernel.
            let (terms, factors) = shadowTables(r: cr, g: cg, b: cb, a: ca, alpha: alpha)
            plane.withUnsafeBufferPointer { pl in
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
        plane.withUnsafeBufferPointer { pl in
            for py in max(0, box.y0 - oy)..<min(ph, box.y1 - oy) {
                let ty = py + oy
                let row = dst.row(ty), src = pl.baseAddress! + py * pw
                let covered = opaqueAbove != nil && ty >= above.y0 && ty < above.y1 ? opaqueAbove!.row(ty) : nil
                for px in max(0, box.x0 - ox)..<min(pw, box.x1 - ox) {
                    let a = src[px]
                    if a == 0 { continue }
                    let tx = px + ox
                    if let covered, tx >= above.x0, tx < above.x1, covered[tx] >> 24 == 255 { continue }
                    var cov = Float(a) / 255 * alpha
                    if !clips.isEmpty { cov *= Float(clipCoverage(clips, CGFloat(tx) + 0.5, CGFloat(ty) + 0.5)) }
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

    /// The plane pixels a shadow draws, row by row, for the blur to compute only those: columns
    /// inside `box`, less one run a row that is overwritten: the first run of opaque pixels of
    /// `opaqueAbove` on that row (the drawing loop skips every opaque pixel of it; the run is
    /// most of them for a layer's own body), the run `hidden` gives, or both when they meet (else
    /// the longer).
    static func shadowNeeds(width pw: Int, height ph: Int, ox: Int, oy: Int, box: PixelBox,
                            opaqueAbove: RenderTarget?, hidden: Hidden? = nil) -> [ShadowBlur.Need] {
        let above = opaqueAbove?.box ?? PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
        let lo = max(0, box.x0 - ox), hi = min(pw, box.x1 - ox)
        var runs = hidden?.cursor
        return (0..<ph).map { py in
            let ty = py + oy
            guard ty >= box.y0, ty < box.y1, lo < hi else { return ShadowBlur.Need(lo: 0, hi: 0) }
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
