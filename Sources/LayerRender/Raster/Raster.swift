import CGSupport
import CoreGraphics
import Foundation

// Stage: raster. Reads: pixel boxes, inverse maps, colours, images and coverage. Produces:
// pixels of the target it is handed. Knows no layer and no tree.

// Per-pixel loops: solid shapes (backgrounds, borders) and textured quads (contents).
//
// Rules of this file (the compositor's inner loops; long by design):
// 1. Every pixel centre (x + ½, y + ½) is mapped back into layer space through the inverse
//    homography; coverage is analytic (Coverage.swift), clip shapes multiply it.
// 2. Blending is premultiplied source-over in Float: d = s·c + d·(1 − sα·c), rounded to 8 bits.
// 3. Work is bounded by the item's pixel box intersected with the target and the clips' boxes.
// Measured alternatives (ripping rows into SIMD lanes, integer /255 maths) come with the
// compositor benchmarks; this first version favours exactness.

/// A shape that limits drawing: a rounded rect in some layer's space.
struct ClipShape {
    var shape: RoundedRect
    /// Maps pixel centres into that layer's space.
    var inverse: Homography
    /// One pixel, in that layer's units.
    var pixel: CGFloat
    /// The clip's bounding box in pixels.
    var box: PixelBox
}

/// Native premultiplied pixels of an image or of one of its mip levels; `scaleX/Y` are this
/// level's texels per texel of the full-size image.
struct ImageLevel {
    let pixels: UnsafePointer<UInt32>
    let width: Int, height: Int, stride: Int
    var scaleX: CGFloat = 1, scaleY: CGFloat = 1

    /// The level restricted to `source` (full-size texels), ready to sample.
    func window(_ source: CGRect) -> SampleWindow {
        SampleWindow(level: self, minU: max(source.minX * scaleX, 0), maxU: min(source.maxX * scaleX, CGFloat(width)),
                     minV: max(source.minY * scaleY, 0), maxV: min(source.maxY * scaleY, CGFloat(height)))
    }
}

/// Where samples of a level may be read: a sub-rectangle that edges clamp to.
struct SampleWindow {
    let level: ImageLevel
    let minU: CGFloat, maxU: CGFloat, minV: CGFloat, maxV: CGFloat
    var isEmpty: Bool { !(maxU > minU && maxV > minV) }

    /// The one texel bilinear sampling can read, when every texel it can read is the same (a
    /// solid picture): sampling then gives that texel wherever it samples, exactly. Nil when
    /// texels differ, or when the window holds more than `limit` texels (not worth scanning).
    func uniformTexel(limit: Int = 4096) -> UInt32? {
        guard !isEmpty, minU >= 0, minV >= 0 else { return nil }
        // The texels bilinearAxis can pick: Int(lo) … Int(hi) − 1 on each axis.
        let x0 = Int(minU), y0 = Int(minV)
        let x1 = max(x0, Int(maxU) - 1), y1 = max(y0, Int(maxV) - 1)
        guard x1 < level.width, y1 < level.height, (x1 - x0 + 1) * (y1 - y0 + 1) <= limit else { return nil }
        let first = level.pixels[y0 * level.stride + x0]
        for y in y0...y1 {
            let row = level.pixels + y * level.stride
            for x in x0...x1 where row[x] != first { return nil }
        }
        return first
    }

    /// The premultiplied sample at full-size texel coordinates (u, v), as a pixel word.
    @inline(__always)
    func word(_ u: CGFloat, _ v: CGFloat, nearest: Bool) -> UInt32 {
        let lu = u * level.scaleX, lv = v * level.scaleY
        if nearest {
            let x = Int(min(max(lu, minU), maxU - 0.5)), y = Int(min(max(lv, minV), maxV - 0.5))
            return level.pixels[y * level.stride + x]
        }
        return Raster.sampleBilinearWord(level.pixels, level.stride, lu, lv, minU, maxU, minV, maxV)
    }

    /// The premultiplied sample at full-size texel coordinates (u, v).
    @inline(__always)
    func sample(_ u: CGFloat, _ v: CGFloat, nearest: Bool) -> (r: Float, g: Float, b: Float, a: Float) {
        let lu = u * level.scaleX, lv = v * level.scaleY
        return nearest
            ? Raster.sampleNearest(level.pixels, level.stride, lu, lv, minU, maxU, minV, maxV)
            : Raster.sampleBilinear(level.pixels, level.stride, lu, lv, minU, maxU, minV, maxV)
    }
}

/// Premultiplied colour with components in [0, 255].
struct PremultipliedColor {
    var r: Float, g: Float, b: Float, a: Float
    init(_ c: CGColor, alpha: Double) {
        let v = c.rgba
        let a = Float(v.a) * Float(min(max(alpha, 0), 1))
        self.a = a * 255; r = Float(v.r) * a * 255; g = Float(v.g) * a * 255; b = Float(v.b) * a * 255
    }

    /// Whether a pixel it covers fully is stored as `word` rather than blended (the axis-aligned
    /// fills' rule: its alpha rounds to 255).
    var isOpaque: Bool { a >= 254.5 }

    /// The colour as a pixel word 0xAARRGGBB, each channel rounded.
    var word: UInt32 { UInt32(a + 0.5) << 24 | UInt32(r + 0.5) << 16 | UInt32(g + 0.5) << 8 | UInt32(b + 0.5) }
}

enum Raster {
    /// Blends premultiplied (r, g, b, a) in [0, 255] scaled by `cov` over the pixel.
    ///
    /// Each channel is `min(s·cov + d·(1 − a·cov/255) + 0.5, 255)` truncated, in Float. The four
    /// channels run in one vector, with the same operations in the same order as one channel at a
    /// time (so the same bits): bytes become floats, and results (in [0.5, 255]) bytes, by one
    /// conversion of the four lanes each way.
    @inline(__always)
    static func blend(_ p: UnsafeMutablePointer<UInt32>, _ r: Float, _ g: Float, _ b: Float, _ a: Float, _ cov: Float) {
        let d = p.pointee
        let inv = 1 - a * cov / 255
        let dst = cgs_float_u32x4((SIMD4<UInt32>(repeating: d) &>> SIMD4<UInt32>(0, 8, 16, 24)) & 255)
        let o = SIMD4<Float>(b, g, r, a) * cov + dst * inv + 0.5
        p.pointee = unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: truncated(clamped(o))), to: UInt32.self)
    }

    /// ⌊v⌋ of each lane, for lanes in [0, 2³¹): C's conversion, one `cvttps2dq` without range checks.
    @inline(__always)
    static func truncated(_ v: SIMD4<Float>) -> SIMD4<UInt32> { cgs_truncate_f32x4(v) }

    /// Lane-wise min(v, 255) for lanes that are not NaN: one `minps`.
    @inline(__always)
    static func clamped(_ v: SIMD4<Float>) -> SIMD4<Float> { cgs_min_f32x4(v, SIMD4(repeating: 255)) }

    /// Alpha bytes of coverage in [0, 1]: ⌊min(255·c + 0.5, 255)⌋, 0 where c is not above 0 —
    /// an opaque fill at that coverage blended onto nothing. Eight at a time.
    static func coverageBytes(_ c: UnsafePointer<Float>, _ out: UnsafeMutablePointer<UInt8>, count: Int) {
        var i = 0
        while i + 8 <= count {
            let v = UnsafeRawPointer(c + i).loadUnaligned(as: SIMD8<Float>.self)
            let bits = SIMD8(lowHalf: coverageBytes(v.lowHalf), highHalf: coverageBytes(v.highHalf))
            UnsafeMutableRawPointer(out + i).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: bits), as: SIMD8<UInt8>.self)
            i += 8
        }
        while i < count {
            out[i] = coverageByte(c[i])
            i += 1
        }
    }

    /// One coverage in [0, 1] as an alpha byte, rounded as `coverageBytes` rounds.
    @inline(__always)
    static func coverageByte(_ v: Float) -> UInt8 { v > 0 ? UInt8(truncatingIfNeeded: cgs_truncate_f32(min(255 * v + 0.5, 255))) : 0 }

    /// Multiplies the coverage by every clip at pixel (cx, cy).
    @inline(__always)
    static func clipCoverage(_ clips: [ClipShape], _ cx: CGFloat, _ cy: CGFloat) -> CGFloat {
        var c: CGFloat = 1
        for clip in clips {
            guard let q = clip.inverse.project(cx, cy) else { return 0 }
            c *= clip.shape.coverage(q.x, q.y, pixel: clip.pixel, antialias: true)
            if c == 0 { return 0 }
        }
        return c
    }

    /// Fills `outer` minus `inner` (nil: the whole shape) with `color` over the pixel box. A map
    /// with a term that is not finite (an inverse that overflowed) maps no pixel centre to a
    /// point: nothing is filled.
    static func fill(_ target: RenderTarget, box: PixelBox, inverse: Homography, pixel: CGFloat, outer: RoundedRect,
                     inner: RoundedRect?, color: PremultipliedColor, antialias: Bool, clips: [ClipShape]) {
        let m = inverse.m
        guard !box.isEmpty, color.a > 0,
              (m.0 - m.0) + (m.1 - m.1) + (m.2 - m.2) + (m.3 - m.3) + (m.4 - m.4) + (m.5 - m.5) + (m.6 - m.6)
                + (m.7 - m.7) + (m.8 - m.8) == 0
        else { return }
        if m.1 == 0, m.3 == 0, m.2 == 0, m.5 == 0, m.8 == 1, m.0 > 0, m.4 > 0, clips.isEmpty, outer.hardEdges == 0,
           !outer.isRounded, !(inner?.isRounded ?? false) {
            fillAxisAligned(target, box: box, sx: m.0, tx: m.6, sy: m.4, ty: m.7, outer: outer.rect, inner: inner?.rect, color: color)
            return
        }
        if inner == nil, clips.isEmpty, antialias || outer.isRounded, outer.hardEdges == 0, m.2 == 0, m.5 == 0, m.8 == 1 {
            // The common case (a rotated or scaled layer's background) row by row in C. A rounded
            // shape's coverage is antialiased either way (`RoundedRect.coverage`).
            fillAffine(target, box: box, inverse: inverse, pixel: pixel, shape: outer, color: color)
            return
        }
        fillRows(target, box: box, inverse: inverse, pixel: pixel, outer: outer, inner: inner, color: color, antialias: antialias,
                 clips: clips)
    }

    /// `fill` of `shape` without hole or clips, antialiased (as a rounded shape always is), through
    /// an affine inverse map (W = 1): `fillRows`'s pixels, its rows solved and painted in C
    /// (`cgs_fill_rrect`; `variant` as the kernels' tests choose it, by default the widest).
    static func fillAffine(_ target: RenderTarget, box: PixelBox, inverse: Homography, pixel: CGFloat, shape: RoundedRect,
                           color: PremultipliedColor, variant: Int32 = 3) {
        let m = inverse.m
        var rect = CoverageKernel.rect(shape)
        var terms = (Double(m.0), Double(m.1), Double(m.3), Double(m.4), Double(m.6), Double(m.7))
        withUnsafePointer(to: &terms) { t in
            t.withMemoryRebound(to: Double.self, capacity: 6) { t in
                cgs_fill_rrect_using(variant, target.row(box.y0), target.stride, box.x0, box.y0, box.x1, box.y1, t, &rect,
                                     Double(pixel), color.r, color.g, color.b, color.a, color.word, color.a >= 255 ? 1 : 0)
            }
        }
    }

    /// `fill`'s general loop: `cover`'s rows, with each run of edge pixels blended at once from
    /// the coverage kernel's row (or pixel by pixel where the kernel does not apply).
    static func fillRows(_ target: RenderTarget, box: PixelBox, inverse: Homography, pixel: CGFloat, outer: RoundedRect,
                         inner: RoundedRect?, color: PremultipliedColor, antialias: Bool, clips: [ClipShape]) {
        let opaque = color.a >= 255, word = color.word
        let plan = CoverPlan(box: box, inverse: inverse, pixel: pixel, shape: outer, hole: inner, antialias: antialias, clips: clips)
        for y in box.y0..<box.y1 {
            plan.row(y, box.x0, box.x1,
                     full: { y, xs in
                         let row = target.row(y)
                         if opaque { cgs_fill_u32(row + xs.lowerBound, word, xs.count); return }
                         blendSpan(row, xs, color)
                     },
                     edgeRuns: { y, xs in
                         let row = target.row(y)
                         if let cov = plan.coverage(y, xs) {
                             cgs_blend_coverage(row + xs.lowerBound, cov, xs.count, color.r, color.g, color.b, color.a)
                             return
                         }
                         plan.edges(y, xs) { _, x, cov in blend(row + x, color.r, color.g, color.b, color.a, cov) }
                     })
        }
    }

    /// Blends one colour at full coverage over a run of pixels: `blend` at coverage 1 for each,
    /// eight pixels a step in C (`cgs_blend_span`, the same bytes).
    @inline(__always)
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, _ xs: Range<Int>, _ c: PremultipliedColor) {
        guard !xs.isEmpty else { return }
        cgs_blend_span(row + xs.lowerBound, xs.count, c.r, c.g, c.b, c.a)
    }

    /// The common case of unrotated, unrounded rectangles: coverage is separable (x × y), computed
    /// once per column and once per row; fully covered opaque pixels are stored, not blended.
    /// Gives the same coverage as the general path (distance ±½ pixel at pixel-aligned edges).
    static func fillAxisAligned(_ target: RenderTarget, box: PixelBox, sx: CGFloat, tx: CGFloat, sy: CGFloat, ty: CGFloat,
                                outer: CGRect, inner: CGRect?, color: PremultipliedColor) {
        @inline(__always) func cover(_ u: CGFloat, _ lo: CGFloat, _ hi: CGFloat, _ px: CGFloat) -> Float {
            let d = max(lo - u, u - hi)
            // A pixel or more inside or outside (px > 0): 0.5 − d/px is then at least 1.5 or at
            // most −0.5, so exactly 1 or 0 after the clamps — without the division, which was
            // most of a small layer's fill (S1: two calls a column for every layer).
            if d <= -px { return 1 }
            if d >= px { return 0 }
            return Float(min(max(0.5 - d / px, 0), 1))
        }
        let w = box.x1 - box.x0
        let opaque = color.isOpaque, word = color.word
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * w) { buf in
            let ox = buf.baseAddress!, ix = ox + w
            // Columns where the outer (and the inner) coverage is 1 form one run each. Along the
            // row a coverage rises to 1, stays there and falls again (u grows with the column, so
            // the distance outside the rect falls, then grows — rounding keeps both monotone), so
            // only the columns up to the first 1 from either side are worked out: those between
            // are 1, exactly as `cover` would give them.
            @inline(__always) func columns(_ out: UnsafeMutablePointer<Float>, _ lo: CGFloat, _ hi: CGFloat) -> (Int, Int) {
                @inline(__always) func at(_ i: Int) -> Float { cover((CGFloat(box.x0 + i) + 0.5) * sx + tx, lo, hi, sx) }
                var a = 0
                while a < w {
                    out[a] = at(a)
                    if out[a] == 1 { break }
                    a += 1
                }
                guard a < w else { return (w, 0) }
                var b = w - 1
                while b > a {
                    out[b] = at(b)
                    if out[b] == 1 { break }
                    b -= 1
                }
                if b - a > 1 { (out + a + 1).update(repeating: 1, count: b - a - 1) }
                return (a, b + 1)
            }
            let (fullLo, fullHi) = columns(ox, outer.minX, outer.maxX)
            let (holeLo, holeHi) = inner.map { columns(ix, $0.minX, $0.maxX) } ?? (w, 0)
            @inline(__always) func pixel(_ row: UnsafeMutablePointer<UInt32>, _ i: Int, _ oy: Float, _ iy: Float) {
                var cov = ox[i] * oy
                if cov == 0 { return }
                if inner != nil { cov = max(0, cov - ix[i] * iy) }
                if cov >= 1 && opaque { row[i] = word } else if cov > 0 { blend(row + i, color.r, color.g, color.b, color.a, cov) }
            }
            for y in box.y0..<box.y1 {
                let v = (CGFloat(y) + 0.5) * sy + ty
                let oy = cover(v, outer.minY, outer.maxY, sy)
                if oy == 0 { continue }
                let iy = inner.map { cover(v, $0.minY, $0.maxY, sy) } ?? 0
                let row = target.row(y) + box.x0
                if inner != nil && iy == 1 && holeLo < holeHi {
                    // Inside the hole's rows: only the columns beside the hole can be painted.
                    for i in 0..<holeLo { pixel(row, i, oy, iy) }
                    for i in holeHi..<w { pixel(row, i, oy, iy) }
                } else if opaque && oy == 1 && iy == 0 && fullLo < fullHi {
                    for i in 0..<fullLo { pixel(row, i, oy, iy) }
                    cgs_fill_u32(row + fullLo, word, fullHi - fullLo)
                    for i in fullHi..<w { pixel(row, i, oy, iy) }
                } else {
                    for i in 0..<w { pixel(row, i, oy, iy) }
                }
            }
        }
    }

    /// Draws an image mapped onto `dest` in layer space, reading the source sub-rectangle `source`
    /// (in texels of the full-size image) from `level`, bilinear or nearest, times `alpha`; with
    /// `blend`, a second (smaller) mip level sampled the same way is mixed in by its weight
    /// (trilinear filtering).
    static func image(_ target: RenderTarget, box: PixelBox, inverse: Homography, pixel: CGFloat, dest: CGRect,
                      source: CGRect, flipped: Bool, level: ImageLevel, blend second: (ImageLevel, Float)? = nil,
                      nearest: Bool, alpha: Float, antialias: Bool, clips: [ClipShape], hardEdges: UInt8 = 0) {
        guard !box.isEmpty, dest.width > 0, dest.height > 0, alpha > 0 else { return }
        var edge = RoundedRect(rect: dest, radius: 0, mask: 0)
        edge.hardEdges = hardEdges
        let sx = source.width / dest.width, sy = source.height / dest.height
        // Samples stay inside the source sub-rectangle (edges clamp there, as Core Animation pads).
        let first = level.window(source), other = second.map { ($0.0.window(source), $0.1) }
        guard !first.isEmpty else { return }
        @inline(__always) func paint(_ y: Int, _ x: Int, _ cov: Float) {
            guard let q = inverse.project(CGFloat(x) + 0.5, CGFloat(y) + 0.5) else { return }
            let ly = flipped ? dest.maxY - (q.y - dest.minY) : q.y
            let u = source.minX + (q.x - dest.minX) * sx
            let v = source.minY + (ly - dest.minY) * sy
            guard let (w, t) = other else {
                // One level: a premultiplied word; opaque samples at full coverage are stored.
                let p = first.word(u, v, nearest: nearest)
                if cov == 1 && alpha == 1 && p >> 24 == 255 { target.row(y)[x] = p; return }
                let c = channels(p)
                blend(target.row(y) + x, c.r, c.g, c.b, c.a, cov * alpha)
                return
            }
            let a = first.sample(u, v, nearest: nearest), b = w.sample(u, v, nearest: nearest)
            blend(target.row(y) + x, a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t,
                  a.a + (b.a - a.a) * t, cov * alpha)
        }
        let single = other == nil, stores = alpha == 1
        if single && !nearest, let affine = AffineRow(inverse, flipped: flipped, dest: dest, source: source, window: first, box: box) {
            // Read in place: the row painter holds its columns and texel rows, which a copy per
            // row would retain and release.
            withUnsafePointer(to: affine) { rows in
                cover(box: box, inverse: inverse, pixel: pixel, shape: edge, hole: nil, antialias: antialias, clips: clips,
                      full: { y, xs in rows.pointee.paint(row: y, into: target.row(y), xs, stores: stores, alpha: alpha) },
                      edge: paint)
            }
            return
        }
        let projective = single && !nearest ? ProjectiveRow(inverse, flipped: flipped, dest: dest, source: source, window: first) : nil
        cover(box: box, inverse: inverse, pixel: pixel, shape: edge, hole: nil, antialias: antialias, clips: clips,
              full: { y, xs in
                  guard single else { for x in xs { paint(y, x, 1) }; return }
                  if let projective {
                      projective.paint(row: y, into: target.row(y), xs, stores: stores, alpha: alpha)
                  } else {
                      imageRow(y, into: target.row(y), xs, inverse: inverse, flipped: flipped, dest: dest, source: source,
                               window: first, nearest: nearest, stores: stores, alpha: alpha)
                  }
              }, edge: paint)
    }

    /// One level's fully covered pixels `xs` of row `y` (into the frame-addressed `row`): each
    /// centre projected through `inverse`, sampled, and stored when `stores` and opaque, else
    /// blended at `alpha`. The definition that AffineRow and ProjectiveRow (in C) reproduce.
    static func imageRow(_ y: Int, into row: UnsafeMutablePointer<UInt32>, _ xs: Range<Int>, inverse: Homography, flipped: Bool,
                         dest: CGRect, source: CGRect, window first: SampleWindow, nearest: Bool, stores: Bool, alpha: Float) {
        let sx = source.width / dest.width, sy = source.height / dest.height
        let cy = CGFloat(y) + 0.5
        for x in xs {
            guard let q = inverse.project(CGFloat(x) + 0.5, cy) else { continue }
            let ly = flipped ? dest.maxY - (q.y - dest.minY) : q.y
            let p = first.word(source.minX + (q.x - dest.minX) * sx, source.minY + (ly - dest.minY) * sy, nearest: nearest)
            if stores && p >> 24 == 255 { row[x] = p; continue }
            let c = channels(p)
            blend(row + x, c.r, c.g, c.b, c.a, 1 * alpha)
        }
    }

    @inline(__always)
    static func channels(_ p: UInt32) -> (r: Float, g: Float, b: Float, a: Float) {
        (Float((p >> 16) & 255), Float((p >> 8) & 255), Float(p & 255), Float(p >> 24))
    }

    @inline(__always)
    static func sampleNearest(_ px: UnsafePointer<UInt32>, _ stride: Int, _ u: CGFloat, _ v: CGFloat,
                              _ minU: CGFloat, _ maxU: CGFloat, _ minV: CGFloat, _ maxV: CGFloat) -> (r: Float, g: Float, b: Float, a: Float) {
        let x = Int(min(max(u, minU), maxU - 0.5)), y = Int(min(max(v, minV), maxV - 0.5))
        return channels(px[y * stride + x])
    }

    @inline(__always)
    static func sampleBilinear(_ px: UnsafePointer<UInt32>, _ stride: Int, _ u: CGFloat, _ v: CGFloat,
                               _ minU: CGFloat, _ maxU: CGFloat, _ minV: CGFloat, _ maxV: CGFloat) -> (r: Float, g: Float, b: Float, a: Float) {
        // Texel centres at +½; clamp so both taps stay inside the sub-rectangle.
        let fu = min(max(u - 0.5, minU), maxU - 1), fv = min(max(v - 0.5, minV), maxV - 1)
        let x0 = Int(fu.rounded(.down)), y0 = Int(fv.rounded(.down))
        let x1 = min(x0 + 1, Int(maxU) - 1), y1 = min(y0 + 1, Int(maxV) - 1)
        let tx = Float(fu - CGFloat(x0)), ty = Float(fv - CGFloat(y0))
        let a = channels(px[y0 * stride + x0]), b = channels(px[y0 * stride + max(x1, x0)])
        let c = channels(px[max(y1, y0) * stride + x0]), d = channels(px[max(y1, y0) * stride + max(x1, x0)])
        func mix(_ p: Float, _ q: Float, _ r: Float, _ s: Float) -> Float {
            (p * (1 - tx) + q * tx) * (1 - ty) + (r * (1 - tx) + s * tx) * ty
        }
        return (mix(a.r, b.r, c.r, d.r), mix(a.g, b.g, c.g, d.g), mix(a.b, b.b, c.b, d.b), mix(a.a, b.a, c.a, d.a))
    }

    /// Bilinear sample as a premultiplied word, in 8.8 fixed point, two channels per multiply (the
    /// 0x00FF00FF lanes never carry into each other: 255 × 256 + 128 < 2¹⁶), rounded to nearest.
    @inline(__always)
    static func sampleBilinearWord(_ px: UnsafePointer<UInt32>, _ stride: Int, _ u: CGFloat, _ v: CGFloat,
                                   _ minU: CGFloat, _ maxU: CGFloat, _ minV: CGFloat, _ maxV: CGFloat) -> UInt32 {
        let (x0, x1, wx) = bilinearAxis(u, minU, maxU), (y0, y1, wy) = bilinearAxis(v, minV, maxV)
        let top = lerpWord(px[y0 * stride + x0], px[y0 * stride + x1], wx)
        let bottom = lerpWord(px[y1 * stride + x0], px[y1 * stride + x1], wx)
        return lerpWord(top, bottom, wy)
    }

    /// One axis of a bilinear sample at texel coordinate `u` inside [lo, hi): the two texels and
    /// the second one's weight in 0…256 (edges clamp).
    @inline(__always)
    static func bilinearAxis(_ u: CGFloat, _ lo: CGFloat, _ hi: CGFloat) -> (Int, Int, UInt32) {
        bilinearAxis(u, AxisLimits(lo, hi))
    }

    /// Where one axis may sample: texel coordinates lo…hi − 1 (just lo in a window narrower than
    /// a texel, whose weight would otherwise come out negative), last texel index (worked out
    /// once per sprite rather than per column).
    struct AxisLimits {
        let lo: CGFloat, top: CGFloat, last: Int
        @inline(__always)
        init(_ lo: CGFloat, _ hi: CGFloat) { self.lo = lo; top = max(hi - 1, lo); last = Int(hi) - 1 }
    }

    /// `bilinearAxis(u, lo, hi)` with its limits worked out ahead.
    @inline(__always)
    static func bilinearAxis(_ u: CGFloat, _ limits: AxisLimits) -> (Int, Int, UInt32) {
        // Plain comparisons (the generic min/max are not inlined here), written so that a NaN
        // lands on `lo`; coordinates are ≥ 0 after clamping, so truncation is the floor, and
        // both conversions are in range (no checks: one `cvttsd2si` each).
        let u0 = u - 0.5, lo = limits.lo, top = limits.top, last = limits.last
        let f = u0 >= lo ? (u0 <= top ? u0 : top) : lo
        let i0 = Int(cgs_truncate_f64(f))
        let i1 = i0 < last ? i0 + 1 : (last > i0 ? last : i0)
        return (i0, i1, UInt32(truncatingIfNeeded: cgs_truncate_f64((f - CGFloat(i0)) * 256 + 0.5)))
    }

    /// p·(256 − w) + q·w in 8.8 fixed point, per channel, rounded.
    @inline(__always)
    static func lerpWord(_ p: UInt32, _ q: UInt32, _ w: UInt32) -> UInt32 {
        let rb = (((p & 0x00FF_00FF) &* (256 - w) &+ (q & 0x00FF_00FF) &* w &+ 0x0080_0080) >> 8) & 0x00FF_00FF
        let ag = (((p >> 8) & 0x00FF_00FF) &* (256 - w) &+ ((q >> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080) & 0xFF00_FF00
        return rb | ag
    }

    /// Composites a whole offscreen group onto the target with `alpha` (premultiplied source-over).
    static func composite(_ src: RenderTarget, onto dst: RenderTarget, box: PixelBox, alpha: Float) {
        guard !box.isEmpty else { return }
        for y in box.y0..<box.y1 { compositeRun(src.row(y), dst.row(y), box.x0..<box.x1, alpha) }
    }

    /// Source-over of one run of premultiplied pixels times `alpha`; opaque pixels at alpha 1 are
    /// copied (what `blend` computes for them, exactly), transparent ones skipped.
    @inline(__always)
    static func compositeRun(_ s: UnsafeMutablePointer<UInt32>, _ d: UnsafeMutablePointer<UInt32>, _ xs: Range<Int>, _ alpha: Float) {
        // `compositePixel` for each, eight pixels a step in C (the same bytes).
        guard !xs.isEmpty else { return }
        cgs_composite_span(d + xs.lowerBound, s + xs.lowerBound, xs.count, alpha)
    }

    /// Source-over of one premultiplied pixel times `alpha` (`copies`: alpha is 1): transparent
    /// ones skipped, opaque ones copied at alpha 1 (what `blend` computes for them, exactly).
    @inline(__always)
    static func compositePixel(_ p: UInt32, _ d: UnsafeMutablePointer<UInt32>, _ alpha: Float, copies: Bool) {
        if p == 0 { return }
        if copies && p >> 24 == 255 { d.pointee = p; return }
        let c = channels(p)
        blend(d, c.r, c.g, c.b, c.a, alpha)
    }
}

extension Homography {
    /// Maps (x, y) through this homography (for an inverse map: a pixel centre back into layer space).
    @inline(__always)
    func project(_ x: CGFloat, _ y: CGFloat) -> CGPoint? {
        let r = (x * m.0 + y * m.3 + m.6, x * m.1 + y * m.4 + m.7, x * m.2 + y * m.5 + m.8)
        // Affine maps have w = 1 exactly: dividing by it changes nothing, so skip the divisions.
        if r.2 == 1 { return CGPoint(x: r.0, y: r.1) }
        guard r.2 != 0 else { return nil }
        return CGPoint(x: r.0 / r.2, y: r.1 / r.2)
    }
}
