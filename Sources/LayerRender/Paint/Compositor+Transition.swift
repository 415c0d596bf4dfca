import CoreGraphics
import Foundation

// CATransition pixels: the layer's previous commit and its new state are painted apart over the
// whole frame (so a band sees what slides into it), then cross-faded or slid by the subtype's
// direction over the layer's extent on screen.
extension Compositor {
    func activeTransition(_ snap: LayerSnapshot, at local: Double) -> (Transition, Double)? {
        for (_, model) in snap.animations.reversed() {
            if let t = model.transitionProgress(at: local) { return t }
        }
        return nil
    }

    /// Draws the old and new appearance of a layer at `progress` of a transition: a cross-fade, or
    /// moveIn/push/reveal along the subtype's direction by the layer's size on screen.
    func paintTransition(_ t: Transition, progress p: Double, from: LayerSnapshot, to: LayerSnapshot, _ ctx: Context) {
        // Both sides are painted over the whole frame (`side.limit`): their pictures cover it, in
        // frame coordinates — also inside an offscreen, whose target covers only part of the frame.
        let old = OwnedTarget(box: ctx.frame)
        let new = OwnedTarget(box: ctx.frame)
        var side = ctx
        side.inTransition = true
        side.alpha = 1
        side.clips = []
        side.limit = ctx.frame
        side.target = old.target
        paint(from, side)
        side.target = new.target
        paint(to, side)
        // The layer's extent on screen, for the slide distance and the clip of moving sides.
        let s = to.state
        let world = Homography(Compositor.localTransform(s, parentSublayer: ctx.parentSublayer)).concatenating(ctx.parentWorld)
        let b = s.bounds.standardized
        let corners = Quad(b, through: world)
        let extent = corners.isComplete ? corners.bounds : CGRect.zero
        let box = PixelBox(covering: extent, limit: ctx.limit)
        // Direction the new content comes from: fromRight slides it in leftwards, and so on.
        let (ux, uy): (CGFloat, CGFloat) = {
            switch t.subtype {
            case "fromLeft": return (-1, 0)
            case "fromTop": return (0, -1)
            case "fromBottom": return (0, 1)
            default: return (1, 0)
            }
        }()
        let q = CGFloat(p)
        let w = extent.width, h = extent.height
        func shift(_ k: CGFloat) -> (Int, Int) {
            (CGClampToInt(Double((ux * w * k).rounded()), in: -(1 << 20)...(1 << 20)),
             CGClampToInt(Double((uy * h * k).rounded()), in: -(1 << 20)...(1 << 20)))
        }
        let a = Float(ctx.alpha)
        switch t.type {
        case "moveIn":
            Raster.composite(old.target, onto: ctx.target, box: ctx.limit, alpha: a, clips: ctx.clips)
            Raster.composite(new.target, onto: ctx.target, box: box, alpha: a, offset: shift(1 - q), clips: ctx.clips)
        case "push":
            Raster.composite(old.target, onto: ctx.target, box: box, alpha: a, offset: shift(-q), clips: ctx.clips)
            Raster.composite(new.target, onto: ctx.target, box: box, alpha: a, offset: shift(1 - q), clips: ctx.clips)
        case "reveal":
            Raster.composite(new.target, onto: ctx.target, box: ctx.limit, alpha: a, clips: ctx.clips)
            Raster.composite(old.target, onto: ctx.target, box: box, alpha: a, offset: shift(-q), clips: ctx.clips)
        default:   // fade, and unknown types: a cross-dissolve, old·(1 − p) + new·p, composited once
            Raster.lerp(old.target, toward: new.target, Float(q), box: ctx.limit)
            Raster.composite(old.target, onto: ctx.target, box: ctx.limit, alpha: a, clips: ctx.clips)
        }
    }
}
