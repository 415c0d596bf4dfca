import CoreGraphics
import Foundation

// shouldRasterize, as Core Animation does it: the layer and its sublayers are drawn once into a
// bitmap in the layer's own space, `rasterizationScale` pixels per point, and that bitmap is then
// drawn through the layer's transform like contents — so it is reused while the layer moves,
// turns or fades, and a layer scaled up past its rasterization scale looks soft, as on Apple
// systems. The bitmap is redrawn when the layer's own look (its state apart from placement),
// its sublayers or its mask change.
extension Compositor {
    struct RasterEntry {
        let look: LayerState
        /// The sublayer snapshots drawn (held, so that identity comparisons stay meaningful).
        let sublayers: [LayerSnapshot]
        let extent: CGRect
        let scale: CGFloat
        let pixels: OwnedTarget
    }

    /// Keys whose animations move or fade a rasterized layer without changing its bitmap.
    static let placementKeys: Set<String> = ["position", "transform", "opacity", "zPosition", "anchorPoint", "anchorPointZ",
                                              "hidden", "isHidden", "shadowOpacity", "shadowRadius", "shadowOffset", "shadowColor"]

    /// Whether the bitmap of a rasterized layer stays valid over time: nothing below it animates,
    /// and its own animations only place it.
    static func rasterizable(_ snap: LayerSnapshot) -> Bool {
        for (_, model) in snap.animations where !placementKeys.contains(model.keyPath.first ?? "") { return false }
        for sub in snap.sublayers where !isStatic(sub) { return false }
        if let m = snap.mask, !isStatic(m) { return false }
        return true
    }

    /// The state with what only places the layer reset: equal looks draw equal bitmaps.
    static func look(_ s: LayerState) -> LayerState {
        var k = s
        k.position = .zero; k.zPosition = 0; k.transform = .identity; k.opacity = 1; k.isHidden = false
        k.anchorPoint = .zero; k.anchorPointZ = 0; k.timing = MediaTiming()
        k.shadowOpacity = 0; k.shadowRadius = 0; k.shadowOffset = .zero; k.shadowColor = nil; k.shadowPath = nil
        return k
    }

    /// What the bitmap covers in layer space: the bounds, overflowing content and the frames of
    /// the sublayers (all of it unless masksToBounds clips them).
    static func rasterExtent(_ snap: LayerSnapshot, _ s: LayerState) -> CGRect {
        var e = s.bounds.standardized
        if let content = s.content, let c = contentExtent(content, bounds: s.bounds) { e = e.union(c) }
        guard !s.masksToBounds else { return s.bounds.standardized }
        var stack = snap.sublayers.map { ($0, Transform3D.identity) }
        var visited = 0
        while let (sub, above) = stack.popLast(), visited < 4096 {
            visited += 1
            let t = localTransform(sub.state, parentSublayer: nil).concatenating(above)
            let h = Homography(t), b = sub.state.bounds.standardized
            for p in [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY), CGPoint(x: b.minX, y: b.maxY), CGPoint(x: b.maxX, y: b.maxY)] {
                if let q = h.apply(p), q.x.isFinite, q.y.isFinite { e = e.union(CGRect(origin: q, size: .zero)) }
            }
            if !sub.state.masksToBounds { stack.append(contentsOf: sub.sublayers.map { ($0, t) }) }
        }
        return e
    }

    /// The layer-space bitmap of a rasterized layer, from the cache or drawn now; nil when the
    /// layer cannot be rasterized (empty, or too large at its scale).
    func rasterBitmap(_ snap: LayerSnapshot, _ s: LayerState, own: Context, local: Double, flipped: Bool)
        -> (pixels: OwnedTarget, extent: CGRect, scale: CGFloat)? {
        let extent = Compositor.rasterExtent(snap, s)
        let k = s.rasterizationScale.isFinite && s.rasterizationScale > 0 ? s.rasterizationScale : 1
        let scale = min(k, Compositor.maxContentSide / max(extent.width, extent.height, 1e-6))
        let w = CGClampToInt(Double((extent.width * scale).rounded(.up)), in: 0...4096)
        let h = CGClampToInt(Double((extent.height * scale).rounded(.up)), in: 0...4096)
        guard w > 0, h > 0, extent.isFiniteRect else { return nil }
        let look = Compositor.look(s), subs = snap.sublayers
        if let entry = rasterCache[snap.id], entry.look == look, entry.sublayers.count == subs.count,
           zip(entry.sublayers, subs).allSatisfy({ $0 === $1 }), entry.extent == extent, entry.scale == scale {
            rasterHits += 1
            return (entry.pixels, extent, scale)
        }
        let full = PixelBox(x0: 0, y0: 0, x1: w, y1: h)
        guard spend(full) else { return nil }
        // Bitmaps are held past the frame: the cache gives way before a new one would pass its
        // share of memory, and a bitmap the offscreen budget has no room for is not made.
        if rasterCache.values.reduce(0, { $0 + $1.pixels.target.width * $1.pixels.target.height * 4 }) + w * h * 4
            > Compositor.rasterCacheBytes { rasterCache.removeAll() }
        guard OwnedTarget.fitsBudget(full, offscreens) else { return nil }
        let bitmap = OwnedTarget(width: w, height: h, budget: offscreens)
        let world = Homography(m: (scale, 0, 0, 0, scale, 0, -extent.minX * scale, -extent.minY * scale, 1))
        guard let inverse = world.inverse else { return nil }
        let b = s.bounds.standardized
        var shape = RoundedRect(rect: b, radius: s.cornerRadius, mask: s.maskedCorners)
        if s.allowsEdgeAntialiasing { shape.hardEdges = UInt8(~s.edgeAntialiasingMask & 15) }
        let box = Compositor.box(of: b, world: world, limit: full)
        var inner = own
        inner.target = bitmap.target
        inner.limit = full
        inner.frame = full
        inner.alpha = 1
        inner.clips = []
        inner.inTransition = true   // no transitions inside a cached bitmap
        paintOwnContent(snap, s, inner, local: local, world: world, inverse: inverse, pixel: 1 / scale, box: box,
                        shape: shape, clipSelf: ClipShape(shape: shape, inverse: inverse, pixel: 1 / scale, box: box),
                        flipped: flipped, depth: own.depth)
        // A bitmap cut short by the band's pixel budget is used this frame but not kept.
        guard !overBudget else { return (bitmap, extent, scale) }
        if rasterCache.count >= Compositor.rasterCacheLimit { rasterCache.removeAll() }
        rasterCache[snap.id] = RasterEntry(look: look, sublayers: subs, extent: extent, scale: scale, pixels: bitmap)
        return (bitmap, extent, scale)
    }
}
