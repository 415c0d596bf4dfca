// Apple's documented model, checked with an injected clock (never sleeping):
// - CATransaction: duration 0.25, disableActions false, timing function nil by default; a nested
//   transaction starts from the enclosing one's values; completion blocks run after the
//   transaction's animations finish (on a later turn when there are none), once each; a second
//   setCompletionBlock adds.
// - Changing an animatable property of a hosted layer adds a basic animation from the
//   presentation value to the new value with the transaction's duration; disableActions or NSNull
//   skip it; a tree that is not hosted gets no implicit animations and no presentation layers.
// - local time = (parent − beginTime) × speed + timeOffset: a paused layer is scrubbed with timeOffset.
@testable import QuartzCore
import Testing

/// A hosted tree with a controllable clock. Every test using it runs serialized (the clock is global).
final class Stage {
    let renderer = CARenderer()
    let root = CALayer()

    init(at time: Double = 100) {
        MediaClock.override = time
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.position = CGPoint(x: 100, y: 100)
        renderer.bounds = root.bounds
        renderer.layer = root
        frame(at: time)
    }

    /// Moves the clock and runs a frame (commit, callbacks, evaluation) at `time`.
    func frame(at time: Double) {
        MediaClock.override = time
        renderer.beginFrame(atTime: time, timeStamp: nil)
        renderer.render()
        renderer.endFrame()
    }

    func add(_ layer: CALayer) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.addSublayer(layer)
        CATransaction.commit()
    }

    deinit {
        CATransaction.flush()
        MediaClock.override = nil
    }
}

@Suite(.serialized) struct TimeAndMotionTests {
    @Test func mediaTimeIsMonotonicSeconds() {
        let a = CACurrentMediaTime(), b = CACurrentMediaTime()
        #expect(b >= a && a > 0)
    }

    @Test func transactionDefaultsAndNesting() {
        CATransaction.begin()
        #expect(CATransaction.animationDuration() == 0.25 && !CATransaction.disableActions())
        #expect(CATransaction.animationTimingFunction() == nil)
        CATransaction.setAnimationDuration(2)
        CATransaction.setValue("x", forKey: "myKey")
        CATransaction.begin()
        #expect(CATransaction.animationDuration() == 2 && CATransaction.value(forKey: "myKey") as? String == "x")
        CATransaction.setAnimationDuration(3)
        CATransaction.commit()
        #expect(CATransaction.animationDuration() == 2)
        CATransaction.commit()
        // Tests share the pool's threads, and a layer another test set up on this thread may
        // have left this thread's implicit transaction open: flushed, nothing is open here.
        CATransaction.flush()
        let before = CGDiagnostics.count(.invalidDrawingState)
        CATransaction.commit()   // unbalanced
        #expect(CGDiagnostics.count(.invalidDrawingState) == before + 1)
    }

    @Test func implicitAnimationGlidesFromThePresentationValue() {
        let stage = Stage(at: 100)
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        stage.add(l)
        stage.frame(at: 100)
        CATransaction.begin()
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        l.opacity = 0
        CATransaction.commit()
        #expect(l.opacity == 0)   // the model changes at once
        let anim = l.animation(forKey: "opacity") as? CABasicAnimation
        #expect(anim?.duration == 0.25 && anim?.fromValue as? Float == 1 && anim?.toValue == nil)
        #expect(anim?.beginTime == l.convertTime(100, from: nil))
        stage.frame(at: 100.125)
        #expect(abs(l.presentation()!.opacity - 0.5) < 1e-6)
        stage.frame(at: 100.3)
        #expect(l.presentation()!.opacity == 0 && l.animationKeys() == nil)   // finished and removed
    }

    @Test func defaultTimingIsCoreAnimationsDefaultCurve() {
        let stage = Stage(at: 10)
        let l = CALayer()
        stage.add(l)
        stage.frame(at: 10)
        l.position = CGPoint(x: 100, y: 0)
        stage.frame(at: 10)
        stage.frame(at: 10.125)
        // The default curve (0.25, 0.1, 0.25, 1) at x = 0.5 is y ≈ 0.8024.
        #expect(abs(l.presentation()!.position.x - 80.24) < 0.05)
    }

    @Test func disabledActionsAndNullActionsDoNotAnimate() {
        let stage = Stage(at: 1)
        let l = CALayer()
        stage.add(l)
        stage.frame(at: 1)
        CATransaction.begin(); CATransaction.setDisableActions(true)
        l.opacity = 0.2
        CATransaction.commit()
        #expect(l.animationKeys() == nil)
        l.actions = ["opacity": NSNull()]
        l.opacity = 0.4
        #expect(l.animationKeys() == nil)
        // disableActions does not change what action(forKey:) returns.
        l.actions = nil
        CATransaction.begin(); CATransaction.setDisableActions(true)
        #expect(l.action(forKey: "opacity") is CABasicAnimation)
        CATransaction.commit()
        withExtendedLifetime(stage) {}
    }

    @Test func unhostedTreesHaveNoImplicitAnimationsOrPresentation() {
        let l = CALayer()
        l.opacity = 0.3
        #expect(l.animationKeys() == nil && l.presentation() == nil)
    }

    @Test func completionBlockWaitsForTheTransactionsAnimations() {
        let stage = Stage(at: 50)
        let l = CALayer()
        stage.add(l)
        stage.frame(at: 50)
        var runs: [String] = []
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        CATransaction.setCompletionBlock { runs.append("first") }
        CATransaction.setCompletionBlock { runs.append("second") }
        l.position = CGPoint(x: 10, y: 10)
        CATransaction.commit()
        stage.frame(at: 51)
        #expect(runs.isEmpty)
        stage.frame(at: 52.01)
        #expect(runs == ["first", "second"])
        stage.frame(at: 53)
        #expect(runs == ["first", "second"])   // once each

        var empty = 0
        CATransaction.begin()
        CATransaction.setCompletionBlock { empty += 1 }
        CATransaction.commit()
        #expect(empty == 0)                     // not in the same turn…
        stage.frame(at: 53.1)
        #expect(empty == 1)                     // …but on the next
    }

    @Test func completionBlocksMayStartTransactionsAndRemoveLayers() {
        let stage = Stage(at: 5)
        let l = CALayer()
        stage.add(l)
        stage.frame(at: 5)
        var ran = false
        CATransaction.begin()
        CATransaction.setCompletionBlock {
            CATransaction.begin()
            l.opacity = 0.5
            l.removeFromSuperlayer()
            CATransaction.commit()
            ran = true
        }
        l.opacity = 0
        CATransaction.commit()
        stage.frame(at: 5.3)
        stage.frame(at: 5.4)
        #expect(ran && l.superlayer == nil)
    }

    @Test func explicitAnimationDelegateAndFillForwards() {
        let stage = Stage(at: 0)
        let l = CALayer()
        stage.add(l)
        stage.frame(at: 0)
        let listener = AnimationListener()
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = 0; a.toValue = 100; a.duration = 1
        a.fillMode = .forwards; a.isRemovedOnCompletion = false
        a.delegate = listener
        l.add(a, forKey: "slide")
        #expect(l.animation(forKey: "slide") !== a)   // the layer keeps a copy
        stage.frame(at: 0)                            // the run-loop turn ends: commit
        #expect(listener.events == ["start"])
        stage.frame(at: 0.25)
        #expect(listener.events == ["start"])
        #expect(abs(l.presentation()!.position.x - 25) < 1e-9)
        stage.frame(at: 2)
        #expect(listener.events == ["start", "stop:true"])
        #expect(l.presentation()!.position.x == 100 && l.animationKeys() == ["slide"])
        l.removeAnimation(forKey: "slide")
        #expect(l.animationKeys() == nil)

        let b = CABasicAnimation(keyPath: "opacity")
        b.fromValue = 0; b.toValue = 1; b.duration = 10
        let listener2 = AnimationListener()
        b.delegate = listener2
        l.add(b, forKey: "fade")
        stage.frame(at: 3)
        l.removeAnimation(forKey: "fade")
        #expect(listener2.events == ["start", "stop:false"])
    }

    @Test(arguments: [Float.greatestFiniteMagnitude, .infinity])
    func anEndlessAnimationStartsOnceAndStopsOnlyWhenRemoved(repeats: Float) {
        // CAMediaTiming: "Setting this property [repeatCount] to greatestFiniteMagnitude will
        // cause the animation to repeat forever" — it never finishes by itself, even when its
        // layer's time is later changed; removal reports finished: false.
        let stage = Stage(at: 0)
        let l = CALayer()
        stage.add(l)
        stage.frame(at: 0)
        let listener = AnimationListener()
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0; spin.toValue = CGFloat.pi * 2; spin.duration = 1
        spin.repeatCount = repeats
        spin.delegate = listener
        l.add(spin, forKey: "spin")
        stage.frame(at: 0)
        for t in stride(from: 0.5, through: 500, by: 37.25) { stage.frame(at: t) }
        l.speed = 3
        l.timeOffset = 1e6
        stage.frame(at: 600)
        #expect(listener.events == ["start"])
        l.removeAnimation(forKey: "spin")
        #expect(listener.events == ["start", "stop:false"])
    }

    @Test func pausedLayerIsScrubbedWithTimeOffset() {
        let stage = Stage(at: 20)
        let l = CALayer()
        stage.add(l)
        l.speed = 0
        stage.frame(at: 20)
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0; a.toValue = 1; a.duration = 1
        l.add(a, forKey: "o")
        stage.frame(at: 20)
        #expect(l.animation(forKey: "o")?.beginTime == 0)   // local time of a paused layer is its timeOffset
        for (offset, expected) in [(0.25, 0.25), (0.5, 0.5), (0.9, 0.9)] {
            l.timeOffset = offset
            stage.frame(at: 30 + offset)                     // wall time is irrelevant while paused
            #expect(abs(Double(l.presentation()!.opacity) - expected) < 1e-6)
        }
        #expect(stage.renderer.nextFrameTime() == .infinity)  // paused: nothing moves
    }

    @Test func layerSpeedScalesChildAnimations() {
        let stage = Stage(at: 0)
        let parent = CALayer(), child = CALayer()
        parent.addSublayer(child)
        stage.add(parent)
        parent.speed = 2
        stage.frame(at: 0)
        let a = CABasicAnimation(keyPath: "position.y")
        a.fromValue = 0; a.toValue = 100; a.duration = 1
        child.add(a, forKey: nil)
        stage.frame(at: 0)
        stage.frame(at: 0.25)
        #expect(abs(child.presentation()!.position.y - 50) < 1e-9)   // twice as fast
        #expect(stage.renderer.nextFrameTime() == 0.25)
        stage.frame(at: 0.6)
        #expect(stage.renderer.nextFrameTime() == .infinity)
    }

    @Test func keyframesGroupsAndSprings() {
        let stage = Stage(at: 0)
        let l = CALayer()
        stage.add(l)
        stage.frame(at: 0)
        let k = CAKeyframeAnimation(keyPath: "opacity")
        k.values = [0, 1, 0.5]
        k.keyTimes = [0, 0.5, 1]
        k.duration = 2
        l.add(k, forKey: "k")
        let group = CAAnimationGroup()
        let inner = CABasicAnimation(keyPath: "position.x")
        inner.fromValue = 0; inner.toValue = 10; inner.duration = 1; inner.beginTime = 1
        group.animations = [inner]
        group.duration = 4
        l.add(group, forKey: "g")
        stage.frame(at: 0)
        stage.frame(at: 1.5)
        let p = l.presentation()!
        #expect(abs(p.opacity - 0.75) < 1e-6)
        #expect(abs(p.position.x - 5) < 1e-9)    // child starts 1 s into the group

        let spring = CASpringAnimation(keyPath: "position.y")
        #expect(spring.mass == 1 && spring.stiffness == 100 && spring.damping == 10 && spring.initialVelocity == 0)
        // ζ = 0.5, ω0 = 10, ωd = √75: ln(1000)/5 + π/(4·√75) ≈ 1.4722 s (see Spring.settlingDuration).
        #expect(abs(spring.settlingDuration - (log(1000) / 5 + .pi / (4 * 75.0.squareRoot()))) < 1e-9)
        let perceptual = CASpringAnimation(perceptualDuration: 0.5, bounce: 0)
        #expect(abs(perceptual.stiffness - pow(2 * .pi / 0.5, 2)) < 1e-6 && abs(perceptual.bounce) < 1e-9)
    }

    @Test func invalidKeyTimesRejectTheAnimation() {
        let l = CALayer()
        let before = CGDiagnostics.count(.invalidParameter)
        let k = CAKeyframeAnimation(keyPath: "opacity")
        k.values = [0, 1, 0]
        k.keyTimes = [0, 0.8, 0.5]
        l.add(k, forKey: "bad")
        k.keyTimes = [0, 1]
        l.add(k, forKey: "bad2")
        k.keyTimes = [0, 0.5, 2]
        l.add(k, forKey: "bad3")
        #expect(l.animationKeys() == nil)
        #expect(CGDiagnostics.count(.invalidParameter) == before + 3)
    }

    @Test func transformsInterpolateByDecomposition() {
        let stage = Stage(at: 0)
        let l = CALayer()
        stage.add(l)
        stage.frame(at: 0)
        let a = CABasicAnimation(keyPath: "transform")
        a.fromValue = CATransform3DIdentity
        a.toValue = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        a.duration = 1
        l.add(a, forKey: "t")
        let z = CABasicAnimation(keyPath: "sublayerTransform.rotation.z")
        z.fromValue = 0; z.toValue = 2 * CGFloat.pi; z.duration = 1
        l.add(z, forKey: "spin")
        stage.frame(at: 0)
        stage.frame(at: 0.5)
        let p = l.presentation()!
        let expected = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        #expect(abs(p.transform.m11 - expected.m11) < 1e-9 && abs(p.transform.m12 - expected.m12) < 1e-9)
        // Halfway through a full turn is a half turn, not the identity.
        #expect(abs(p.sublayerTransform.m11 + 1) < 1e-9)
    }

    @Test func presentationTreeMapsBackToTheModel() {
        let stage = Stage(at: 0)
        let moving = CALayer()
        moving.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        stage.add(moving)
        stage.frame(at: 0)
        let a = CABasicAnimation(keyPath: "position")
        a.fromValue = CGPoint(x: 10, y: 10); a.toValue = CGPoint(x: 190, y: 10); a.duration = 1
        moving.add(a, forKey: "move")
        stage.frame(at: 0)
        stage.frame(at: 0.5)
        let presentedRoot = stage.root.presentation()!
        #expect(presentedRoot.sublayers?.count == 1)
        let hit = presentedRoot.hitTest(CGPoint(x: 100, y: 10))
        #expect(hit?.model() === moving)                      // hit where it is seen
        #expect(stage.root.hitTest(CGPoint(x: 100, y: 10)) === stage.root)   // the model is elsewhere
        #expect(hit?.superlayer === presentedRoot && presentedRoot.model() === stage.root)
        #expect(moving.presentation()?.position.x == 100)
    }

    @Test func orderInActionRunsForLayersJoiningALiveTree() {
        final class Counter: NSObject, CAAction {
            var count = 0
            func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) { count += 1 }
        }
        let stage = Stage(at: 0)
        let counter = Counter()
        let l = CALayer()
        l.actions = [kCAOnOrderIn: counter, kCAOnOrderOut: counter]
        stage.root.addSublayer(l)
        l.removeFromSuperlayer()
        #expect(counter.count == 2)
        let offline = CALayer()
        offline.addSublayer(l)
        #expect(counter.count == 2)
        withExtendedLifetime(stage) {}
    }

    @Test func timingFunctionControlPoints() {
        let f = CAMediaTimingFunction(name: .easeIn)
        var p: [Float] = [0, 0]
        f.getControlPoint(at: 1, values: &p)
        #expect(p == [0.42, 0])
        f.getControlPoint(at: 2, values: &p)
        #expect(p == [1, 1])
        let d = CAMediaTimingFunction(name: .default)
        d.getControlPoint(at: 1, values: &p)
        #expect(abs(p[0] - 0.25) < 1e-7 && abs(p[1] - 0.1) < 1e-7)
        #expect(CAMediaTimingFunctionName.easeInEaseOut.rawValue == "easeInEaseOut")
    }

    /// The worked example of docs/TIMING.md, number for number.
    @Test func theWorkedExampleOfTheTimingDoc() {
        let stage = Stage(at: 0)
        let p = CALayer(), l = CALayer()
        p.addSublayer(l)
        stage.add(p)
        p.speed = 2
        stage.frame(at: 100)
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = 0; a.toValue = 100; a.duration = 1
        a.repeatCount = 1.5; a.autoreverses = true; a.fillMode = .forwards
        a.timingFunction = CAMediaTimingFunction(name: .linear)
        l.add(a, forKey: "x")
        stage.frame(at: 100)
        #expect(l.animation(forKey: "x")?.beginTime == 200)
        for (t, x) in [(100.25, 50.0), (100.75, 50), (101.25, 50), (101.5, 100)] {
            stage.frame(at: t)
            if t < 101.5 { #expect(abs(l.presentation()!.position.x - x) < 1e-9, "t = \(t)") }
        }
        #expect(l.animationKeys() == nil)   // finished at 101.5 and removed
        let b = CABasicAnimation(keyPath: "position.x")
        b.fromValue = 0; b.toValue = 100; b.duration = 1; b.repeatCount = 1.5; b.autoreverses = true
        b.fillMode = .forwards; b.isRemovedOnCompletion = false; b.timingFunction = CAMediaTimingFunction(name: .linear)
        l.add(b, forKey: "y")
        stage.frame(at: 102)                 // begins at p-time 204
        stage.frame(at: 104)
        #expect(l.presentation()!.position.x == 100)   // held after the end
        p.speed = 0
        p.timeOffset = 204.25
        stage.frame(at: 105)
        #expect(abs(l.presentation()!.position.x - 25) < 1e-9)
    }

    @Test func valueFunctionsAdditiveTransformsAndEmptyKeyframes() {
        let stage = Stage(at: 0)
        let l = CALayer()
        stage.add(l)
        l.setAffineTransform(CGAffineTransform(scaleX: 2, y: 2))
        stage.frame(at: 0)
        let spin = CABasicAnimation(keyPath: "transform")
        spin.valueFunction = CAValueFunction(name: .rotateZ)
        spin.fromValue = 0; spin.toValue = CGFloat.pi; spin.duration = 1
        l.add(spin, forKey: "spin")
        let empty = CAKeyframeAnimation(keyPath: "opacity")
        empty.values = []
        empty.duration = 1
        l.add(empty, forKey: "empty")
        stage.frame(at: 0)
        stage.frame(at: 0.5)
        var p = l.presentation()!
        // rotateZ(π/2) replaces the transform; the empty keyframe animation changes nothing.
        #expect(abs(p.transform.m11) < 1e-9 && abs(p.transform.m12 - 1) < 1e-9 && p.opacity == 1)
        l.removeAllAnimations()
        let more = CABasicAnimation(keyPath: "transform")
        more.valueFunction = CAValueFunction(name: .translateX)
        more.fromValue = 0; more.toValue = 10; more.duration = 1
        more.isAdditive = true
        l.add(more, forKey: "more")
        stage.frame(at: 0.5)
        stage.frame(at: 1.0)
        p = l.presentation()!
        // Additive: translate(5) then the model's scale(2): the layer moves by 10 at double size.
        #expect(abs(p.transform.m41 - 10) < 1e-9 && abs(p.transform.m11 - 2) < 1e-9)
        #expect(CAValueFunction(name: CAValueFunctionName(rawValue: "wobble")) == nil)
    }

    @Test func keyframesAlongAPathTurnWithIt() {
        let stage = Stage(at: 0)
        let l = CALayer()
        stage.add(l)
        stage.frame(at: 0)
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 100))
        let k = CAKeyframeAnimation(keyPath: "position")
        k.path = path
        k.duration = 2
        k.rotationMode = .rotateAuto
        l.add(k, forKey: "walk")
        stage.frame(at: 0)
        stage.frame(at: 0.5)
        var p = l.presentation()!
        #expect(abs(p.position.x - 50) < 1e-9 && abs(p.position.y) < 1e-9)
        #expect(abs(p.transform.m12) < 1e-9)            // heading along +x
        stage.frame(at: 1.5)
        p = l.presentation()!
        #expect(abs(p.position.x - 100) < 1e-9 && abs(p.position.y - 50) < 1e-9)
        #expect(abs(p.transform.m12 - 1) < 1e-9)        // turned to +y (a quarter turn)
    }

    @Test func groupChildrenWithoutADurationLastAsLongAsTheGroup() {
        let stage = Stage(at: 0)
        let l = CALayer()
        stage.add(l)
        stage.frame(at: 0)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 0; fade.toValue = 1
        let group = CAAnimationGroup()
        group.animations = [fade]
        group.duration = 2
        l.add(group, forKey: "g")
        stage.frame(at: 0)
        stage.frame(at: 1)
        #expect(abs(l.presentation()!.opacity - 0.5) < 1e-6)
    }
}

/// Records an animation delegate's calls in order ("start", "stop:true", "stop:false").
final class AnimationListener: NSObject, CAAnimationDelegate {
    var events: [String] = []
    func animationDidStart(_ anim: CAAnimation) { events.append("start") }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { events.append("stop:\(flag)") }
}
