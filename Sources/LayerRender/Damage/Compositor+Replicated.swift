import CoreGraphics
import Foundation

// Stage: damage, under replicators. Reads: a replicator's state and the context its sublayers
// inherit. Produces: what the copies' sublayers inherit (the maps from the first copy to the
// others, or none), and a replicated layer's box over all its copies. Paints nothing.

extension Compositor {
    /// What a replicator's sublayers inherit: `sublayers` marked as drawn several times, with the
    /// maps from the first copy to the others (nil: the copies are bounded by the clip).
    static func replicating(_ sublayers: Inherited, _ r: ReplicatorContent, bounds: CGRect, _ snap: LayerSnapshot,
                            changed: Bool) -> Inherited {
        let s = sublayers
        // A replicator under another one: its copies' copies are bounded by the clip only.
        var instances = s.replicated ? nil : Compositor.instanceMaps(r, bounds: bounds, s)
        let replicatorClip = s.replicated ? s.replicatorClip : s.clip
        var delayed = s.delayed
        // Delayed copies animate after the original: every animated layer below damages its
        // copies each frame — and a copy shown at another time may be elsewhere, unless the
        // animations change only paint (then the maps place every copy).
        if r.instanceDelay != 0 && !snap.sublayers.allSatisfy(Compositor.isStatic) {
            delayed = true
            if !snap.sublayers.allSatisfy(Compositor.animatesPaintOnly) { instances = nil }
        }
        // Colours, delay or count changed: every copy is drawn anew.
        if changed { delayed = true }
        return Inherited(world: s.world, sublayer: s.sublayer, transform3D: s.transform3D, alpha: s.alpha, clip: s.clip,
                         spread: s.spread, replicated: true, instances: instances, replicatorClip: replicatorClip, delayed: delayed)
    }

    /// Device → device maps from a replicator's first copy to each other one, or nil when they
    /// cannot be written so (instance or sublayer transforms that use depth, a 3D chain, a
    /// plane that does not invert): the copies are then bounded by the clip alone.
    static func instanceMaps(_ r: ReplicatorContent, bounds: CGRect, _ sublayers: Inherited) -> [Homography]? {
        guard sublayers.transform3D.value == nil else { return nil }
        let sub = sublayers.sublayer.value ?? .identity
        // Flattening to 2D commutes with the product only when depth does not feed x, y or w.
        func flat(_ t: Transform3D) -> Bool { t.m31 == 0 && t.m32 == 0 && t.m34 == 0 }
        guard flat(sub), let back = Homography(sub).concatenating(sublayers.world).inverse else { return nil }
        var maps: [Homography] = []
        maps.reserveCapacity(r.drawnCount - 1)
        for t in r.transforms(bounds: bounds).dropFirst() {
            guard let t else { continue }
            let placed = t.concatenating(sub)
            guard flat(placed) else { return nil }
            maps.append(back.concatenating(Homography(placed)).concatenating(sublayers.world))
        }
        return maps
    }

    /// The animation keys whose changes stay within what the layer already covers.
    static let paintOnlyKeys: Set<String> = ["opacity", "backgroundColor", "borderColor", "borderWidth", "cornerRadius",
                                             "hidden", "fillColor", "strokeColor", "strokeStart", "strokeEnd", "colors",
                                             "locations", "foregroundColor", "contentsRect"]

    /// Whether every animation in the subtree changes only paint (not where the layers are).
    static func animatesPaintOnly(_ snap: LayerSnapshot) -> Bool {
        func paintOnly(_ m: AnimationModel) -> Bool {
            switch m.kind {
            case .group(let children): return children.allSatisfy(paintOnly)
            case .transition: return false
            default: return m.keyPath.first.map(paintOnlyKeys.contains) ?? false
            }
        }
        var stack = [snap]
        while let s = stack.popLast() {
            guard s.animations.allSatisfy({ paintOnly($0.model) }) else { return false }
            if let m = s.mask { stack.append(m) }
            stack.append(contentsOf: s.sublayers)
        }
        return true
    }

    /// A replicated layer's box: its first copy's box and its images under the instance maps,
    /// inside `clip`; the whole clip when the maps are unknown or a copy reaches behind the viewer.
    static func replicatedBox(_ box: PixelBox, _ maps: [Homography]?, clip: PixelBox) -> PixelBox {
        guard let maps else { return clip }
        guard !box.isEmpty else { return box }
        let r = CGRect(x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0)
        var all = box
        for m in maps {
            guard let a = m.apply(CGPoint(x: r.minX, y: r.minY)), let b = m.apply(CGPoint(x: r.maxX, y: r.minY)),
                  let c = m.apply(CGPoint(x: r.maxX, y: r.maxY)), let d = m.apply(CGPoint(x: r.minX, y: r.maxY)) else { return clip }
            all = all.union(PixelBox(covering: Double(min(a.x, b.x, c.x, d.x)) - 1, Double(min(a.y, b.y, c.y, d.y)) - 1,
                                     Double(max(a.x, b.x, c.x, d.x)) + 1, Double(max(a.y, b.y, c.y, d.y)) + 1, limit: clip))
        }
        return all.intersection(clip)
    }
}
