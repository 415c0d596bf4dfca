import CGSupport
import CoreGraphics
import Foundation

// Offscreen passes: compositing a group with clips, masks, shadows and shadow paths.
extension Raster {
    /// Composites an offscreen group onto `dst` with `alpha`, through ancestor clips.
    /// `hidden`: pixels of `dst` that later items overwrite, left as they are (without clips).
    static func composite(_ src: RenderTarget, onto dst: RenderTarget, box: PixelBox, alpha: Float, clips: [ClipShape],
                          hidden: HiddenRuns? = nil) {
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
}
