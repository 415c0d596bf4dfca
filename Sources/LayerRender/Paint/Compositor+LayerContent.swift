import CoreGraphics
import Foundation

// The content stage: what CAShapeLayer, CATextLayer and CAGradientLayer draw from their own
// properties, between the contents image and the sublayers.
//
// - Shapes are vectors drawn through CoreGraphics at the size they appear on screen (under an
//   affine world map, straight into device pixels: crisp at any scale); under perspective they
//   are drawn at the on-screen density in layer space and mapped like contents.
// - Text is drawn like a backing store, bounds × contentsScale pixels (as Apple's text layers are),
//   and shown like contents with the resize gravity.
// - Gradients are evaluated per pixel by the compositor's own kernel (Raster/Gradient.swift).
// Vector pictures are cached per layer while content, placement and box stay the same; entries
// not used by a frame are dropped at its end, so the cache holds at most one frame's layers.
// Shapes the compositor's rasteriser draws cheaply are not cached but drawn each frame
// (`ShapeContent.drawsEachFrame`): the same pixels, for less than compositing their picture.
extension Compositor {
    struct ContentEntry {
        let content: LayerContent
        let key: [CGFloat]
        let box: PixelBox
        let pixels: OwnedTarget
        var frame: Int
    }

    /// Whether pictures of unchanged shape and text content are reused across frames (benchmarks
    /// turn it off to measure re-rasterising every frame). Shapes that draw each frame
    /// (`ShapeContent.drawsEachFrame`) have none either way.
    package nonisolated(unsafe) static var reusesContent = true   // a benchmark switch, set before any frame is drawn

    /// Largest side, in pixels, of a layer-space bitmap drawn for perspective shapes.
    static let maxContentSide: CGFloat = 4096

    /// The pixels a layer's content can cover (shapes may overflow the bounds; the others cannot).
    func contentBox(_ content: LayerContent, bounds: CGRect, world: Homography, limit: PixelBox) -> PixelBox {
        if case .emitter = content { return limit }   // particles fly anywhere
        guard let e = Compositor.contentExtent(content, bounds: bounds) else { return PixelBox(x0: 0, y0: 0, x1: 0, y1: 0) }
        return Compositor.box(of: e, world: world, limit: limit)
    }

    /// The layer-space rect a content draws in: a shape's extent, else the layer's `bounds`.
    static func contentExtent(_ content: LayerContent, bounds: CGRect) -> CGRect? {
        switch content {
        case .shape(let shape): return shape.extent()
        case .text, .gradient: return bounds.standardized
        case .tiled: return bounds.standardized
        case .replicator, .transformLayer, .emitter: return nil   // nothing drawn within the bounds
        }
    }

    /// The pixels a layer-space rect covers through `world`, within `limit` (empty when a corner is
    /// behind the viewer). Allocation-free: it runs for every layer and every particle.
    static func box(of r: CGRect, world: Homography, limit: PixelBox) -> PixelBox {
        guard let a = world.apply(CGPoint(x: r.minX, y: r.minY)), let b = world.apply(CGPoint(x: r.maxX, y: r.minY)),
              let c = world.apply(CGPoint(x: r.maxX, y: r.maxY)), let d = world.apply(CGPoint(x: r.minX, y: r.maxY))
        else { return .empty }
        let x0 = min(a.x, b.x, c.x, d.x), x1 = max(a.x, b.x, c.x, d.x)
        let y0 = min(a.y, b.y, c.y, d.y), y1 = max(a.y, b.y, c.y, d.y)
        return PixelBox(covering: Double(x0), Double(y0), Double(x1), Double(y1), limit: limit)
    }

    /// Draws a layer's class content (shape, gradient, text, tiles, particles). The state comes by
    /// address, as in `paintBody`.
    func paintContent(_ content: LayerContent, _ snap: LayerSnapshot, _ s: UnsafePointer<LayerState>, target: RenderTarget, limit: PixelBox,
                      world: Homography, inverse: Homography, pixel: CGFloat, shape: RoundedRect, flipped: Bool,
                      clips: [ClipShape], alpha: Double, antialias: Bool, local: Double,
                      space3D: Space3D? = nil, rows: MaskPlane.Rows? = nil) {
        if case .emitter(let e) = content {
            if alpha > 0 {
                paintEmitter(e, layer: snap.id, local: local, world: world, pixel: pixel, target: target, box: limit, alpha: alpha, clips: clips,
                             space3D: e.preservesDepth ? space3D : nil)
            }
            return
        }
        if case .tiled(let t) = content {
            paintTiles(t, snap.id, s.pointee, world: world, inverse: inverse, pixel: pixel, target: target, limit: limit, alpha: alpha,
                       clips: clips, local: local)
            return
        }
        guard alpha > 0, let extent = Compositor.contentExtent(content, bounds: s.pointee.bounds) else { return }
        let box = Compositor.box(of: extent, world: world, limit: limit)
        guard !box.isEmpty else { return }
        switch content {
        case .replicator, .transformLayer, .emitter, .tiled: return
        case .gradient(let g):
            guard g.isDrawable,
                  let geometry = GradientGeometry(type: g.type, start: g.startPoint, end: g.endPoint, bounds: s.pointee.bounds.standardized)
            else { return }
            Raster.gradient(target, box: box, inverse: inverse, pixel: pixel, shape: shape, geometry: geometry,
                            ramp: ramp(for: snap.id, g), alpha: Float(alpha), antialias: antialias, clips: clips, rows: rows)
        case .shape(let sh):
            if let affine = world.affine {
                if sh.drawsEachFrame || (!Compositor.reusesContent && sh.isRasterizable) {
                    rasterize(sh, transform: affine, into: target, box: box, alpha: Float(alpha), clips: clips)
                    return
                }
                let picture = cached(snap.id, content, key: [affine.a, affine.b, affine.c, affine.d, affine.tx, affine.ty], box: box) {
                    if sh.isRasterizable {
                        rasterize(sh, transform: affine, into: $0.target, box: box, alpha: 1, clips: [])
                    } else {
                        $0.target.draw(transform: affine) { sh.draw(in: $0) }
                    }
                }
                Raster.composite(picture.target, onto: target, box: box, alpha: Float(alpha), clips: clips)
            } else {
                // Perspective: draw at the density the layer has on screen, then map it like contents.
                let k = min(1 / max(pixel, 1e-6), Compositor.maxContentSide / max(extent.width, extent.height, 1e-6))
                // A margin of two bitmap pixels keeps the shape's anti-aliased edges inside the bitmap.
                paintLayerSpace(snap.id, content, extent: extent.insetBy(dx: -2 / k, dy: -2 / k), scale: k, target: target, box: box, inverse: inverse,
                                pixel: pixel, flipped: false, clips: clips, alpha: alpha) { sh.draw(in: $0) }
            }
        case .text(let text):
            let b = s.pointee.bounds.standardized
            let scale = s.pointee.contentsScale > 0 && s.pointee.contentsScale.isFinite ? s.pointee.contentsScale : 1
            let k = min(scale, CGFloat(8192) / max(b.width, b.height, 1e-6))
            paintLayerSpace(snap.id, content, extent: b, scale: k, target: target, box: box, inverse: inverse,
                            pixel: pixel, flipped: flipped, clips: clips, alpha: alpha) { ctx in
                guard let layout = text.layout(width: b.width, height: b.height) else { return }
                ctx.clip(to: b)
                ctx.draw(layout, in: b)
            }
        }
    }

    /// Fills (non-zero) and strokes a shape with the compositor's rasteriser, straight into `target`.
    func rasterize(_ sh: ShapeContent, transform: CGAffineTransform, into target: RenderTarget, box: PixelBox,
                   alpha: Float, clips: [ClipShape]) {
        guard let path = sh.path else { return }
        func paint(_ color: CGColor, _ edges: (inout PathRasterizer) -> Void) {
            let c = PremultipliedColor(color, alpha: Double(alpha))
            guard c.a > 0 else { return }
            var r = PathRasterizer(box: box, scratch: rasterScratch)
            edges(&r)
            var solid = SolidCoverage(target: target, color: c, clips: clips, box: box)
            r.resolve(into: &solid)
        }
        if let fill = sh.fillColor, fill.alpha > 0 { paint(fill) { $0.addPath(path, transform: transform) } }
        // The stroke's outline goes straight to the rasteriser (no path is built). It follows the
        // path's curves within the rasteriser's 0.05 pixel, in layer units: a layer drawn 8× its
        // size flattens 8× finer (the outline is made before the map to pixels). Up to 64×: the
        // points of a curve grow with the square root of the scale, and the whole path is
        // stroked whatever part of it shows.
        if sh.hasStroke, let stroke = sh.strokeColor {
            let scale = max((transform.a * transform.a + transform.b * transform.b).squareRoot(),
                            (transform.c * transform.c + transform.d * transform.d).squareRoot())
            let tolerance = 0.05 / min(max(scale, 1e-3), 64)
            paint(stroke) { r in
                var feed = PathRasterizer.Feed(raster: r, transform: transform)
                if sh.stroke(into: &feed, tolerance: tolerance) { r = feed.finished() }
            }
        }
    }

    /// Draws `draw` into a bitmap of `extent` (layer space) at `scale` pixels per point and maps it
    /// onto the layer like contents (bilinear).
    private func paintLayerSpace(_ id: UInt64, _ content: LayerContent, extent: CGRect, scale k: CGFloat, target: RenderTarget,
                                 box: PixelBox, inverse: Homography, pixel: CGFloat, flipped: Bool, clips: [ClipShape],
                                 alpha: Double, draw: @escaping (CGContext) -> Void) {
        let w = CGClampToInt(Double((extent.width * k).rounded(.up)), in: 0...8192)
        let h = CGClampToInt(Double((extent.height * k).rounded(.up)), in: 0...8192)
        guard w > 0, h > 0 else { return }
        let local = PixelBox(x0: 0, y0: 0, x1: w, y1: h)
        let picture = cached(id, content, key: [extent.minX, extent.minY, extent.width, extent.height, k], box: local) {
            let m = CGAffineTransform(a: k, b: 0, c: 0, d: k, tx: -extent.minX * k, ty: -extent.minY * k)
            $0.target.draw(transform: m) { draw($0) }
        }
        let p = picture.target
        Raster.image(target, box: box, inverse: inverse, pixel: pixel, dest: extent,
                     source: CGRect(x: 0, y: 0, width: extent.width * k, height: extent.height * k), flipped: flipped,
                     level: ImageLevel(pixels: UnsafePointer(p.pixels), width: p.width, height: p.height, stride: p.stride),
                     nearest: false, alpha: Float(alpha), antialias: false, clips: clips)
    }

    /// The cached picture of a layer's content, drawn by `make` into a zeroed target of `box` on a miss.
    private func cached(_ id: UInt64, _ content: LayerContent, key: [CGFloat], box: PixelBox,
                        make: (OwnedTarget) -> Void) -> OwnedTarget {
        if Compositor.reusesContent, var entry = contentCache[id], entry.content == content, entry.key == key, entry.box == box {
            entry.frame = frameNumber
            contentCache[id] = entry
            contentHits += 1
            return entry.pixels
        }
        let pixels = OwnedTarget(box: box)
        make(pixels)
        contentCache[id] = ContentEntry(content: content, key: key, box: box, pixels: pixels, frame: frameNumber)
        return pixels
    }

    /// The colour ramp of a gradient layer: kept per layer while its colours and locations stay the
    /// same (a lookup table derived from the stops, not a picture: it is reused in every mode).
    func ramp(for id: UInt64, _ g: GradientContent) -> GradientRamp {
        if let entry = rampCache[id], entry.colors == g.colors, entry.locations == g.locations {
            entry.frame = frameNumber
            return entry.ramp
        }
        let ramp = GradientRamp(stops: g.stops() ?? [])
        rampCache[id] = RampEntry(colors: g.colors, locations: g.locations, ramp: ramp, frame: frameNumber)
        return ramp
    }

    /// A class: a frame's lookup hands back one reference (marked used through it) instead of
    /// copying out the entry's arrays and looking it up again to mark it.
    final class RampEntry {
        let colors: [CGColor]
        let locations: [CGFloat]?
        let ramp: GradientRamp
        var frame: Int
        init(colors: [CGColor], locations: [CGFloat]?, ramp: GradientRamp, frame: Int) {
            self.colors = colors; self.locations = locations; self.ramp = ramp; self.frame = frame
        }
    }

    /// Frames a cached picture, ramp or mipmap chain is kept without being used. Each worker's
    /// compositor paints only the layers that reach the bands it took, and which bands it takes
    /// changes from frame to frame: a layer goes from one worker to another and back, and would
    /// be drawn again each time if its entries went at the first frame without it.
    static let cacheFrames = 8

    /// Drops cached pictures, ramps and mipmap chains the last `cacheFrames` frames did not use.
    func trimContentCache() {
        let oldest = frameNumber - Compositor.cacheFrames
        if contentCache.values.contains(where: { $0.frame < oldest }) { contentCache = contentCache.filter { $0.value.frame >= oldest } }
        if rampCache.values.contains(where: { $0.frame < oldest }) { rampCache = rampCache.filter { $0.value.frame >= oldest } }
        if mipCache.values.contains(where: { $0.frame < oldest }) { mipCache = mipCache.filter { $0.value.frame >= oldest } }
    }
}

extension Homography {
    /// The map as an affine transform when it has no perspective part.
    var affine: CGAffineTransform? {
        guard m.2 == 0, m.5 == 0, m.8 != 0 else { return nil }
        let w = m.8
        return CGAffineTransform(a: m.0 / w, b: m.1 / w, c: m.3 / w, d: m.4 / w, tx: m.6 / w, ty: m.7 / w)
    }
}

extension RenderTarget {
    /// Draws through CoreGraphics into these pixels; `transform` maps user space to frame pixels
    /// (x right, y down).
    func draw(transform: CGAffineTransform, _ body: (CGContext) -> Void) {
        guard let ctx = CGContext(data: pixels, width: width, height: height, bitsPerComponent: 8, bytesPerRow: stride * 4,
                                  space: CGColorSpaceCreateDeviceRGB(),
                                  bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)
        else { return }
        // Pixel rows run down; CoreGraphics' device space runs up.
        ctx.translateBy(x: 0, y: CGFloat(height))
        ctx.scaleBy(x: 1, y: -1)
        ctx.translateBy(x: CGFloat(-originX), y: CGFloat(-originY))
        ctx.concatenate(transform)
        body(ctx)
    }
}
