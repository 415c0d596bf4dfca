import CoreGraphics
import Foundation

// CAReplicatorLayer: its sublayers are drawn once per instance, without copying layers. Instance
// i is placed by the instance transform applied i times about the replicator's centre (before
// the replicator's sublayerTransform), runs its animations i × instanceDelay later, and has its
// colours multiplied by instanceColor + i × the offsets. Instances are drawn in order, each one
// flattened into the replicator's plane — or, with preservesDepth, kept in 3D (as under a
// CATransformLayer) and drawn back to front across all instances by the depth of their centres.
extension Compositor {
    func paintInstances(_ sublayers: [LayerSnapshot], _ r: ReplicatorContent, bounds: CGRect, _ child: Context) {
        let order = Compositor.paintOrder(sublayers)
        let count = Compositor.instanceBudget(r, child, sublayers)
        let transforms = r.transforms(bounds: bounds, count: count)
        for i in 0..<count {
            let c = r.color(i)
            if c.a <= 0 { continue }
            var ctx = Compositor.instance(i, of: r, transforms, child)
            ctx.copies = child.copies * count
            paintTinted(order, ctx, c, into: child)
        }
    }

    /// The instances a replicator draws: its clamped count, or fewer when the replicators it sits
    /// in already draw its subtree many times — copies across nesting stay within
    /// `ReplicatorContent.maxInstances`, and copies of an emitter (each a particle simulation of
    /// its own) within `maxEmitterCopies`. The first instances are kept; the cut is counted.
    static func instanceBudget(_ r: ReplicatorContent, _ child: Context, _ sublayers: [LayerSnapshot]) -> Int {
        let copies = max(1, child.copies)
        // The subtree is searched for an emitter only when the emitter budget could cut (most
        // replicators draw a few copies: no walk on their frames).
        let emitters = r.drawnCount * copies > maxEmitterCopies && containsEmitter(sublayers)
        let allowed = max(1, (emitters ? maxEmitterCopies : ReplicatorContent.maxInstances) / copies)
        if r.drawnCount > allowed { CGDiagnostics.record(.budgetExceeded); return allowed }
        return r.drawnCount
    }

    /// The most copies of one emitter that replicators draw in a frame.
    static let maxEmitterCopies = 16

    /// Whether an emitter layer is among `layers` or below them, masks included (a mask is
    /// painted once per copy of its layer like a sublayer).
    static func containsEmitter(_ layers: [LayerSnapshot]) -> Bool {
        var stack = layers
        while let l = stack.popLast() {
            if case .emitter? = l.state.content { return true }
            stack.append(contentsOf: l.sublayers)
            if let mask = l.mask { stack.append(mask) }
        }
        return false
    }

    /// The context instance i is painted in: placed by its transform, its time shifted by i delays.
    static func instance(_ i: Int, of r: ReplicatorContent, _ transforms: [Transform3D?], _ child: Context) -> Context {
        var ctx = child
        if let t = transforms[i] { ctx.parentSublayer = t.concatenating(child.parentSublayer ?? .identity) }
        ctx.parentTime = child.parentTime - Double(i) * r.instanceDelay
        return ctx
    }

    /// Paints `subs` with `ctx`; when `color` is not white, apart, multiplied by it, then
    /// composited onto `child`'s target with its alpha and clips.
    private func paintTinted(_ subs: [LayerSnapshot], _ ctx: Context, _ color: (r: Float, g: Float, b: Float, a: Float),
                             into child: Context) {
        guard color != (1, 1, 1, 1) else { for sub in subs { paint(sub, ctx) }; return }
        guard spend(child.limit) else { return }
        let tinted = OwnedTarget(box: child.limit)
        var apart = ctx
        apart.target = tinted.target
        apart.alpha = 1
        apart.clips = []
        for sub in subs { paint(sub, apart) }
        Raster.tint(tinted.target, by: color, box: child.limit)
        Raster.composite(tinted.target, onto: child.target, box: child.limit, alpha: Float(child.alpha), clips: child.clips)
    }
}

extension Compositor {
    /// preservesDepth: every (instance, sublayer) pair painted in depth order through the 3D chain
    /// in `child.parent3D`; tinted instances go through an offscreen one sublayer at a time.
    func paintInstancesInDepth(_ sublayers: [LayerSnapshot], _ r: ReplicatorContent, bounds: CGRect, _ child: Context) {
        guard let chain = child.parent3D else { return }
        let count = Compositor.instanceBudget(r, child, sublayers)
        let transforms = r.transforms(bounds: bounds, count: count)
        var items: [(depth: Double, order: Int, sub: LayerSnapshot, ctx: Context, color: (r: Float, g: Float, b: Float, a: Float))] = []
        for i in 0..<count {
            let c = r.color(i)
            if c.a <= 0 { continue }
            var ctx = Compositor.instance(i, of: r, transforms, child)
            ctx.copies = child.copies * count
            for sub in sublayers {
                let s = sub.presentationState(atLocalTime: sub.localTime(fromParent: ctx.parentTime))
                let depth = Compositor.localTransform(s, parentSublayer: ctx.parentSublayer).concatenating(chain)
                    .depth(of: CGPoint(x: s.bounds.midX, y: s.bounds.midY))
                items.append((depth, items.count, sub, ctx, c))
            }
        }
        items.sort { $0.depth != $1.depth ? $0.depth < $1.depth : $0.order < $1.order }
        for item in items { paintTinted([item.sub], item.ctx, item.color, into: child) }
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
