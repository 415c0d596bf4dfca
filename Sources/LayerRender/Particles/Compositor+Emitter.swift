import CoreGraphics
import Foundation

// CAEmitterLayer's particles on screen (the simulation is in Compositor+Particles.swift). Each
// frame's particles are simulated and placed once, shared by both bands (ParticleShare); each
// band then draws the sprites that touch its rows. With preservesDepth particles sit at their
// depth in the layer's 3D chain (perspective shows it), else they are drawn in its plane.
extension Compositor {
    /// Draws the emitter's particles alive at layer-local time `local`, through `world`, inside `box`.
    /// With `space3D` (preservesDepth), particles sit at their depth in the layer's 3D chain
    /// (`full4`, flattened into `plane`): under a perspective, nearer particles are larger.
    func paintEmitter(_ e: EmitterContent, layer: UInt64, local: Double, world: Homography, pixel: CGFloat,
                      target: RenderTarget, box: PixelBox, alpha: Double, clips: [ClipShape], space3D: Space3D? = nil) {
        guard !box.isEmpty else { return }   // an empty box may come inverted (its rows would not make a range)
        let batch = particleShare.placed(layer: layer, emitter: e, at: local - e.startTime, world: world, space3D: space3D)
        let additive = e.renderMode == "additive"
        // Each cell's picture with the last tint applied: particles of one colour (no colour range
        // or speed) share it, so the tint costs nothing per pixel.
        // Plain values and raw buffers, so that no particle pays for reference counting.
        var tints = [(r: UInt32, g: UInt32, b: UInt32, a: UInt32)?](repeating: nil, count: batch.sprites.count)
        var tinted = [UnsafeMutableBufferPointer<UInt64>?](repeating: nil, count: batch.sprites.count)
        defer { for buffer in tinted { buffer?.deallocate() } }
        batch.forEach(rows: box.y0..<box.y1) { placed in
            let pbox = placed.box.intersection(box)
            guard !pbox.isEmpty, let picture = batch.sprites[Int(placed.cell)] else { return }
            let inverse = placed.inverse, color = placed.color
            let w = placed.size.width, h = placed.size.height
            let a = Float(Double(color.a) * alpha)
            let tint = (color.r * a, color.g * a, color.b * a, a)
            let source = picture.source, window = picture.window
            let sx = source.width / w, sy = source.height / h
            @inline(__always) func draw(_ row: UnsafeMutablePointer<UInt32>, _ qx: CGFloat, _ qy: CGFloat, _ cov: Float) {
                let s = Raster.channels(window.word(source.minX + (qx + w / 2) * sx, source.minY + (qy + h / 2) * sy, nearest: false))
                if additive {
                    Raster.add(row, s.r * tint.0 * cov, s.g * tint.1 * cov, s.b * tint.2 * cov, s.a * tint.3 * cov)
                } else {
                    Raster.blend(row, s.r * tint.0, s.g * tint.1, s.b * tint.2, s.a * tint.3, cov)
                }
            }
            let m = inverse.m
            guard m.2 == 0, m.5 == 0, m.8 == 1 else {
                let edge = RoundedRect(rect: CGRect(x: -w / 2, y: -h / 2, width: w, height: h), radius: 0, mask: 0)
                Raster.cover(box: pbox, inverse: inverse, pixel: pixel, shape: edge, hole: nil, antialias: true, clips: clips,
                             full: { y, xs in for x in xs { self.projected(inverse, x, y, target) { draw($0, $1, $2, 1) } } },
                             edge: { y, x, cov in self.projected(inverse, x, y, target) { draw($0, $1, $2, cov) } })
                return
            }
            let sprite = Raster.Sprite(inverse: (m.0, m.1, m.3, m.4, m.6, m.7), hx: w / 2, hy: h / 2, window: window,
                                       source: source, sx: sx, sy: sy, tint: Raster.tint(tint.0, tint.1, tint.2, tint.3),
                                       additive: additive, uniform: picture.uniform)
            let level = window.level, texels = level.width * level.height, cell = Int(placed.cell)
            let cached = tints[cell].map { $0 == sprite.tint } ?? false
            guard texels <= Compositor.maxTintedTexels,
                  cached || texels <= 2 * (pbox.x1 - pbox.x0) * (pbox.y1 - pbox.y0) else {
                Raster.sprite(sprite, target: target, box: pbox, pixel: pixel, clips: clips)
                return
            }
            let buffer = tinted[cell] ?? UnsafeMutableBufferPointer<UInt64>.allocate(capacity: texels)
            tinted[cell] = buffer
            if !cached {
                Raster.tintTexels(level, sprite.tint, into: buffer)
                tints[cell] = sprite.tint
            }
            Raster.sprite(sprite, target: target, box: pbox, pixel: pixel, clips: clips, tinted: UnsafePointer(buffer.baseAddress))
        }
    }

    /// Largest sprite picture (in texels) tinted ahead of drawing.
    static let maxTintedTexels = 4096

    /// Calls `body` with pixel (x, y) of `target` and where its centre maps through `inverse`.
    @inline(__always)
    private func projected(_ inverse: Homography, _ x: Int, _ y: Int, _ target: RenderTarget,
                           _ body: (UnsafeMutablePointer<UInt32>, CGFloat, CGFloat) -> Void) {
        guard let q = inverse.project(CGFloat(x) + 0.5, CGFloat(y) + 0.5) else { return }
        body(target.row(y) + x, q.x, q.y)
    }
}

extension Raster {
    /// Adds premultiplied (r, g, b, a) in [0, 255] to the pixel, clamped (the additive render mode).
    @inline(__always)
    static func add(_ p: UnsafeMutablePointer<UInt32>, _ r: Float, _ g: Float, _ b: Float, _ a: Float) {
        let d = p.pointee
        func ch(_ v: UInt32, _ s: Float) -> UInt32 { UInt32(min(Float(v) + s + 0.5, 255)) }
        p.pointee = ch(d >> 24, a) << 24 | ch((d >> 16) & 255, r) << 16 | ch((d >> 8) & 255, g) << 8 | ch(d & 255, b)
    }
}
