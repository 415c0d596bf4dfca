import CoreGraphics
import Foundation

// CAReplicatorLayer: its sublayers are drawn once per instance, without copying layers. Instance
// i is placed by the instance transform applied i times about the replicator's centre (before
// the replicator's sublayerTransform), runs its animations i × instanceDelay later, and has its
// colours multiplied by instanceColor + i × the offsets. Instances are drawn in order, each one
// flattened (preservesDepth is stored; depth sorting of instances comes with CATransformLayer).
extension Compositor {
    func paintInstances(_ sublayers: [LayerSnapshot], _ r: ReplicatorContent, bounds: CGRect, _ child: Context) {
        let order = Compositor.paintOrder(sublayers)
        let transforms = r.transforms(bounds: bounds)
        for i in 0..<r.drawnCount {
            var ctx = child
            if let t = transforms[i] { ctx.parentSublayer = t.concatenating(child.parentSublayer ?? .identity) }
            ctx.parentTime = child.parentTime - Double(i) * r.instanceDelay
            let c = r.color(i)
            if c.a <= 0 { continue }
            if c == (1, 1, 1, 1) {
                for sub in order { paint(sub, ctx) }
                continue
            }
            // A tinted instance is drawn apart, multiplied by its colour, then composited.
            let tinted = OwnedTarget(box: child.limit)
            ctx.target = tinted.target
            ctx.alpha = 1
            ctx.clips = []
            for sub in order { paint(sub, ctx) }
            Raster.tint(tinted.target, by: c, box: child.limit)
            Raster.composite(tinted.target, onto: child.target, box: child.limit, alpha: Float(child.alpha), clips: child.clips)
        }
    }
}

extension Raster {
    /// Multiplies each premultiplied channel of `target` by the colour (r, g, b, a) in [0, 1].
    static func tint(_ target: RenderTarget, by c: (r: Float, g: Float, b: Float, a: Float), box: PixelBox) {
        let b = box.intersection(target.box)
        guard !b.isEmpty else { return }
        // Premultiplied colour times a tint with alpha: every channel scales by its factor × alpha.
        let fr = c.r * c.a, fg = c.g * c.a, fb = c.b * c.a
        for y in b.y0..<b.y1 {
            let row = target.row(y)
            for x in b.x0..<b.x1 where row[x] != 0 {
                let p = channels(row[x])
                row[x] = UInt32(p.a * c.a + 0.5) << 24 | UInt32(p.r * fr + 0.5) << 16 | UInt32(p.g * fg + 0.5) << 8 | UInt32(p.b * fb + 0.5)
            }
        }
    }
}
