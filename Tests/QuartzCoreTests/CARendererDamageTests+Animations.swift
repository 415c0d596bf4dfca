// Animated layers frame after frame: a renderer that evaluates an animated layer by resetting
// only the properties its animations write (the rest of the state kept from an earlier frame)
// must show exactly what a renderer starting afresh shows at the same time. The animations are
// the kinds Apple documents that read the value beneath them: "additive: the value specified
// by the animation is added to the current render tree value"; "cumulative: the value of the
// property is the sum of the end value of the previous repeat cycle plus the value of the
// current repeat cycle"; animations "are applied in the order they were added"; before its
// beginTime an animation has no effect (fill mode removed); a group applies its children;
// rotationMode auto turns the layer along its path.
@testable import QuartzCore
@testable import LayerRender
import TestSupport
import Testing

extension CARendererDamageTests {
    /// The same animated tree each time it is called (animations begin at media time 0).
    func tree() -> CALayer {
        MediaClock.override = 0
        defer { MediaClock.override = nil }
        let root = box(CGRect(x: 0, y: 0, width: 160, height: 120), color(0.95, 0.95, 0.95))
        // Two animations on one key: the second adds to the first.
        let slider = box(CGRect(x: 10, y: 10, width: 20, height: 20), color(0.9, 0.2, 0.2))
        let across = CABasicAnimation(keyPath: "position.x")
        across.fromValue = 20; across.toValue = 80; across.duration = 2
        let wobble = CABasicAnimation(keyPath: "position.x")
        wobble.byValue = 15; wobble.isAdditive = true; wobble.duration = 0.5; wobble.repeatCount = .infinity; wobble.autoreverses = true
        slider.add(across, forKey: "across"); slider.add(wobble, forKey: "wobble")
        // Cumulative repeats: each cycle starts where the last ended.
        let stepper = box(CGRect(x: 10, y: 40, width: 12, height: 12), color(0.2, 0.6, 0.2))
        let step = CABasicAnimation(keyPath: "position.x")
        step.byValue = 25; step.isCumulative = true; step.duration = 0.6; step.repeatCount = 4
        stepper.add(step, forKey: "step")
        // Begins later: no effect before its beginTime.
        let late = box(CGRect(x: 120, y: 10, width: 24, height: 24), color(0.2, 0.3, 0.9))
        let turn = CABasicAnimation(keyPath: "transform.rotation.z")
        turn.fromValue = 0; turn.toValue = CGFloat.pi; turn.duration = 1; turn.beginTime = 1.3
        late.add(turn, forKey: "turn")
        // A group of opacity and bounds.
        let grouped = box(CGRect(x: 60, y: 70, width: 30, height: 30), color(0.6, 0.2, 0.7))
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1; fade.toValue = 0.2
        let grow = CABasicAnimation(keyPath: "bounds.size.width")
        grow.toValue = 60
        let group = CAAnimationGroup()
        group.animations = [fade, grow]; group.duration = 1.5; group.repeatCount = 2
        grouped.add(group, forKey: "group")
        // Along a path, turned by rotationMode auto.
        let rider = box(CGRect(x: 0, y: 0, width: 16, height: 8), color(0.9, 0.6, 0.1))
        let ride = CAKeyframeAnimation(keyPath: "position")
        ride.path = CGPath(ellipseIn: CGRect(x: 100, y: 60, width: 40, height: 40), transform: nil)
        ride.rotationMode = .rotateAuto; ride.duration = 2; ride.repeatCount = .infinity
        rider.add(ride, forKey: "ride")
        for l in [slider, stepper, late, grouped, rider] { root.addSublayer(l) }
        return root
    }

    func image(_ r: CARenderer, at t: Double) -> CGImage {
        MediaClock.override = t
        defer { MediaClock.override = nil }
        r.beginFrame(atTime: t, timeStamp: nil)
        r.render()
        r.endFrame()
        return r.makeImage()!
    }

    @Test func framesEvaluatedInPlaceEqualFreshFrames() {
        let kept = CARenderer(), fresh = CARenderer()
        for (r, root) in [(kept, tree()), (fresh, tree())] { r.bounds = root.bounds; r.layer = root }
        for k in 0..<24 {
            let t = Double(k) * 0.17
            let a = image(kept, at: t)
            fresh.compositor.invalidateDamage()
            let b = image(fresh, at: t)
            var differing = 0
            for y in 0..<a.height { for x in 0..<a.width where a.premultipliedPixel(x: x, y: y) != b.premultipliedPixel(x: x, y: y) { differing += 1 } }
            #expect(differing == 0, "t = \(t)")
        }
        // The kept renderer repainted only what moved: the frame is not repainted whole.
        _ = image(kept, at: 5)
        let damage = kept.updateBounds()
        #expect(!damage.isNull && damage.width * damage.height < 160 * 120)
    }

    @Test func animatedFieldsAreResolvedWhenCommitted() {
        // Key paths name state fields once; content keys and transitions leave the layer to the full evaluation.
        let basic = AnimationModel(keyPath: "position.x", timing: MediaTiming(), timingFunction: nil, isAdditive: false,
                                   isCumulative: false, valueFunction: nil, kind: .basic(from: nil, to: nil, by: nil))
        #expect(basic.fields == [.position])
        let shape = AnimationModel(keyPath: "strokeEnd", timing: MediaTiming(), timingFunction: nil, isAdditive: false,
                                   isCumulative: false, valueFunction: nil, kind: .basic(from: nil, to: nil, by: nil))
        #expect(shape.fields == nil)
        let group = AnimationModel(keyPath: "", timing: MediaTiming(), timingFunction: nil, isAdditive: false,
                                   isCumulative: false, valueFunction: nil, kind: .group([basic, basic]))
        #expect(group.fields == [.position, .position])
        let mixed = AnimationModel(keyPath: "", timing: MediaTiming(), timingFunction: nil, isAdditive: false,
                                   isCumulative: false, valueFunction: nil, kind: .group([basic, shape]))
        #expect(mixed.fields == nil)
    }
}
