import CoreGraphics
import Foundation

// CATiledLayer: the compositor shows the tiles the model has drawn and asks for the ones it
// lacks. For the level of detail that matches the layer's density on screen, every tile that
// overlaps the visible part of the layer is drawn if present (fading in over fadeDuration since
// it arrived) — over the coarser levels' tiles, which stand in while it is missing — and
// missing tiles are listed in `tileRequests` for the renderer to hand to the model layer, which
// draws them off the main thread. Only visible tiles are ever requested.
extension Compositor {
    func paintTiles(_ t: TiledContent, _ id: UInt64, _ s: LayerState, world: Homography, inverse: Homography, pixel: CGFloat,
                    target: RenderTarget, limit: PixelBox, alpha: Double, clips: [ClipShape], local: Double) {
        let b = s.bounds.standardized
        // The visible part of the layer: the area being painted, mapped back into layer space.
        let corners = Quad(limit, back: inverse)
        guard corners.isComplete else { return }
        let visible = corners.bounds.intersection(b)
        guard !visible.isNull, !visible.isEmpty else { return }
        let density = 1 / max(pixel, 1e-9)
        let wanted = t.level(forDensity: density)
        var missing: [TileKey] = []
        // Coarser levels first (they stand in), the wanted level last, on top.
        for level in stride(from: t.levels - 1, through: wanted, by: -1) {
            for key in t.keys(level: level, covering: visible, bounds: b) {
                guard let tile = t.tiles[key] else {
                    if level == wanted { missing.append(key) }
                    continue
                }
                let fade = t.fadeDuration > 0 ? min(max((local - tile.arrival) / t.fadeDuration, 0), 1) : 1
                let native = tile.image.native
                let box = Compositor.box(of: tile.rect, world: world, limit: limit)
                Raster.image(target, box: box, inverse: inverse, pixel: pixel, dest: tile.rect,
                             source: CGRect(x: 0, y: 0, width: tile.image.width, height: tile.image.height), flipped: false,
                             level: ImageLevel(pixels: UnsafePointer(native.pixels.assumingMemoryBound(to: UInt32.self)),
                                               width: tile.image.width, height: tile.image.height, stride: native.stride / 4),
                             nearest: false, alpha: Float(alpha * fade), antialias: false, clips: clips)
                if fade < 1 { tilesFading = true }
            }
        }
        if !missing.isEmpty { tileRequests[id, default: []].formUnion(missing) }
    }

    /// Takes the tiles asked for since the last call, by layer identity.
    package func takeTileRequests() -> [UInt64: Set<TileKey>] {
        defer { tileRequests = [:] }
        return tileRequests
    }
}
