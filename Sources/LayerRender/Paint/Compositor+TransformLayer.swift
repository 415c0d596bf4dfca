import CoreGraphics
import Foundation

// CATransformLayer: a layer with no picture of its own whose sublayers keep their place in 3D.
// Its sublayers' transforms are chained in 4 × 4 (not flattened into its plane) and flattened
// once, into the plane of the nearest ordinary ancestor. They are painted back to front by the
// depth of their centres (painter's order; planes that cross are not split — the one whose
// centre is nearer is drawn whole on top). Opacity applies to each sublayer on its own (no
// group); background, contents, border, mask, masksToBounds and shadow are ignored, as on
// Apple systems.
extension Compositor {
    func paintTransformLayer(_ snap: LayerSnapshot, _ s: LayerState, _ ctx: Context, local: Double, full4: Transform3D,
                             opacity: Double) {
        guard !snap.sublayers.isEmpty else { return }
        paintedLayers += 1
        var child = ctx
        child.parentTime = local
        child.parent3D = full4
        child.alpha = ctx.alpha * opacity
        child.depth = ctx.depth + 1
        child.flipped = ctx.flipped != s.isGeometryFlipped
        child.parentSublayer = Compositor.placedSublayerTransform(s)
        for sub in Compositor.depthOrder(snap.sublayers, parentTime: local, parentSublayer: child.parentSublayer, parent3D: full4) {
            paint(sub, child)
        }
    }

    /// Sublayers of a transform layer back to front: ascending depth (z / w) of each one's centre
    /// in the flattening plane's space; stable for equal depths.
    static func depthOrder(_ subs: [LayerSnapshot], parentTime: Double, parentSublayer: Transform3D?,
                           parent3D: Transform3D) -> [LayerSnapshot] {
        let depths = subs.map { sub -> Double in
            let s = sub.presentationState(atLocalTime: sub.localTime(fromParent: parentTime))
            return localTransform(s, parentSublayer: parentSublayer).concatenating(parent3D)
                .depth(of: CGPoint(x: s.bounds.midX, y: s.bounds.midY))
        }
        return subs.indices.sorted { depths[$0] != depths[$1] ? depths[$0] < depths[$1] : $0 < $1 }.map { subs[$0] }
    }
}
