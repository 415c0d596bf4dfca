// Apple's documented rules that everyday Apple code relies on, quoted from Apple's documentation:
// - CABasicAnimation, "Setting Interpolation Values": "Both fromValue and toValue are non-nil.
//   Interpolates between fromValue and toValue. / fromValue and byValue are non-nil. Interpolates
//   between fromValue and (fromValue + byValue). / byValue and toValue are non-nil. Interpolates
//   between (toValue - byValue) and toValue. / fromValue is non-nil. Interpolates between
//   fromValue and the current presentation value of the property. / toValue is non-nil.
//   Interpolates between the layer's current value of the property in the render tree and
//   toValue. / byValue is non-nil. Interpolates between the layer's current value of the property
//   in the render tree and that plus byValue. / All properties are nil. Interpolates between the
//   previous value of keyPath in the render tree and the current value of keyPath in the render
//   tree."
// - Values are boxed the way Objective-C boxes them: NSNumber for scalars, NSValue for
//   structures (`NSValue(cgPoint:)`, `NSValue(caTransform3D:)`…).
// - CALayer.action(forKey:): "If any of the above steps returns an instance of NSNull, it is
//   converted to nil before continuing."
// - CATransaction.value(forKey:) answers for the standard keys (kCATransactionAnimationDuration…)
//   with their current values (measured on Apple systems: 0.25 and false outside any transaction).
// - CASpringAnimation.settlingDuration, Apple's documented examples (mass 1, stiffness 100): "With
//   a damping coefficient of 5, the settling duration is approximately 2.85 seconds … changing
//   the damping property to 15 reduces the settling duration to just over 1 second."
// - CALayer.render(in:) draws in the layer's own coordinate space: a layer whose bounds are
//   (10, 10, 20, 20) paints at (10, 10)–(30, 30) of the context (measured on Apple systems).
@testable import QuartzCore
import TestSupport
import Testing

@Suite(.serialized) struct AppleRulesTests {
    /// A hosted layer at x = 0 (position.x 0), committed at t = 10, and the stage holding it.
    func hostedLayer() -> (Stage, CALayer) {
        let stage = Stage(at: 10)
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        l.position = .zero
        stage.add(l)
        stage.frame(at: 10)
        return (stage, l)
    }

    /// position.x half way through a linear 1 s basic animation added at t = 10, after the model
    /// moved (without an action) from 0 to `model`.
    func halfway(from: Any?, to: Any?, by: Any?, model: CGFloat = 100) -> CGFloat {
        let (stage, l) = hostedLayer()
        CATransaction.begin(); CATransaction.setDisableActions(true)
        l.position.x = model
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = from; a.toValue = to; a.byValue = by
        a.duration = 1
        a.timingFunction = CAMediaTimingFunction(name: .linear)
        l.add(a, forKey: "move")
        CATransaction.commit()
        stage.frame(at: 10)
        stage.frame(at: 10.5)
        return l.presentation()!.position.x
    }

    @Test func everyFromToByCombination() {
        #expect(halfway(from: 20, to: 60, by: nil) == 40)          // from … to
        #expect(halfway(from: 20, to: nil, by: 40) == 40)          // from … from + by
        #expect(halfway(from: nil, to: 60, by: 40) == 40)          // to − by … to
        #expect(halfway(from: 20, to: nil, by: nil) == 60)         // from … the presentation value (100)
        #expect(halfway(from: nil, to: 60, by: nil) == 80)         // the render tree's value (100) … to
        #expect(halfway(from: nil, to: nil, by: 40) == 120)        // 100 … 100 + by
        #expect(halfway(from: nil, to: nil, by: nil) == 50)        // the previous value (0) … the current (100)
    }

    @Test func aSpringWithNeitherFromNorToRunsFromThePreviousValue() {
        let (stage, l) = hostedLayer()
        CATransaction.begin(); CATransaction.setDisableActions(true)
        l.position.x = 100
        let spring = CASpringAnimation(keyPath: "position.x")
        spring.duration = spring.settlingDuration
        l.add(spring, forKey: "spring")
        CATransaction.commit()
        stage.frame(at: 10)
        #expect(l.presentation()!.position.x == 0)                  // starts where it was drawn
        stage.frame(at: 10.1)
        let early = l.presentation()!.position.x
        #expect(early > 0 && early < 100)
        stage.frame(at: 10 + spring.settlingDuration + 0.1)
        #expect(l.presentation()!.position.x == 100)
    }

    @Test func boxedValuesAreAcceptedWhereverAppleAcceptsThem() {
        let (stage, l) = hostedLayer()
        // NSValue endpoints of a point animation, NSNumber of a scalar one.
        let move = CABasicAnimation(keyPath: "position")
        move.fromValue = NSValue(cgPoint: CGPoint(x: 0, y: 0))
        move.toValue = NSValue(cgPoint: CGPoint(x: 100, y: 40))
        move.duration = 1; move.timingFunction = CAMediaTimingFunction(name: .linear)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = NSNumber(value: 1); fade.toValue = NSNumber(value: 0.0)
        fade.duration = 1; fade.timingFunction = CAMediaTimingFunction(name: .linear)
        let spin = CAKeyframeAnimation(keyPath: "transform")
        spin.values = [NSValue(caTransform3D: CATransform3DIdentity), NSValue(caTransform3D: CATransform3DMakeScale(3, 3, 1))]
        spin.duration = 1
        for (a, k) in [(move, "move"), (fade, "fade"), (spin, "spin") as (CAAnimation, String)] { l.add(a, forKey: k) }
        stage.frame(at: 10)
        stage.frame(at: 10.5)
        let p = l.presentation()!
        #expect(p.position == CGPoint(x: 50, y: 20))
        #expect(abs(p.opacity - 0.5) < 1e-6)
        #expect(p.transform.m11 == 2)
        // Key-value coding takes boxed values too.
        CATransaction.begin(); CATransaction.setDisableActions(true)
        l.setValue(NSValue(cgRect: CGRect(x: 0, y: 0, width: 30, height: 20)), forKey: "bounds")
        l.setValue(NSValue(cgSize: CGSize(width: 2, height: 3)), forKey: "shadowOffset")
        l.setValue(NSNumber(value: 0.25), forKey: "opacity")
        l.setValue(NSValue(caTransform3D: CATransform3DMakeTranslation(5, 0, 0)), forKey: "transform")
        l.setValue(NSValue(cgAffineTransform: CGAffineTransform(scaleX: 2, y: 1)), forKey: "sublayerTransform")
        CATransaction.commit()
        #expect(l.bounds.size == CGSize(width: 30, height: 20) && l.shadowOffset == CGSize(width: 2, height: 3))
        #expect(l.opacity == 0.25 && l.transform.m41 == 5 && l.sublayerTransform.m11 == 2)
        // The overlays round-trip.
        #expect(NSValue(caTransform3D: CATransform3DMakeRotation(1, 0, 0, 1)).caTransform3DValue == CATransform3DMakeRotation(1, 0, 0, 1))
        #expect(NSValue(cgAffineTransform: CGAffineTransform(translationX: 3, y: 4)).cgAffineTransformValue == CGAffineTransform(translationX: 3, y: 4))
        #expect(NSValue(cgPoint: CGPoint(x: 1, y: 2)).cgPointValue == CGPoint(x: 1, y: 2))
        // A boxed value of the wrong kind is refused, the property keeps its value.
        CATransaction.begin(); CATransaction.setDisableActions(true)
        l.setValue(NSValue(cgPoint: CGPoint(x: 9, y: 9)), forKey: "bounds")
        CATransaction.commit()
        #expect(l.bounds.size == CGSize(width: 30, height: 20))
        withExtendedLifetime(stage) {}
    }

    @Test func anNSNullActionIsReturnedAsNil() {
        let l = CALayer()
        l.actions = ["opacity": NSNull()]
        #expect(l.action(forKey: "opacity") == nil)
        #expect(l.action(forKey: "position") is CABasicAnimation)   // the search goes on for other keys
        final class Quiet: NSObject, CALayerDelegate {
            func action(for layer: CALayer, forKey event: String) -> (any CAAction)? { NSNull() }
        }
        let quiet = Quiet()
        let m = CALayer()
        m.delegate = quiet
        #expect(m.action(forKey: "bounds") == nil)
    }

    @Test func transactionValuesAnswerForTheStandardKeys() {
        #expect(CATransaction.value(forKey: kCATransactionAnimationDuration) as? CFTimeInterval == 0.25)
        #expect(CATransaction.value(forKey: kCATransactionDisableActions) as? Bool == false)
        #expect(CATransaction.value(forKey: kCATransactionAnimationTimingFunction) == nil)
        #expect(CATransaction.value(forKey: kCATransactionCompletionBlock) == nil)
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        CATransaction.setDisableActions(true)
        let curve = CAMediaTimingFunction(name: .easeIn)
        CATransaction.setAnimationTimingFunction(curve)
        var ran = false
        CATransaction.setValue({ ran = true } as () -> Void, forKey: kCATransactionCompletionBlock)
        #expect(CATransaction.value(forKey: "animationDuration") as? CFTimeInterval == 2)
        #expect(CATransaction.value(forKey: "disableActions") as? Bool == true)
        #expect(CATransaction.value(forKey: "animationTimingFunction") as? CAMediaTimingFunction === curve)
        let block = CATransaction.value(forKey: "completionBlock") as? () -> Void
        #expect(block != nil)
        CATransaction.commit()
        CATransaction.flush()
        #expect(ran)
    }

    @Test func renderInHonoursTheBoundsOrigin() {
        let l = CALayer()
        l.bounds = CGRect(x: 10, y: 10, width: 20, height: 20)
        l.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let ctx = makeContext(50, 50)
        l.render(in: ctx)
        // Context y up: rows 10..<30 from the bottom are rows 20..<40 from the top.
        #expect(pixel(ctx, 10, 20) == 0xFFFF_0000 && pixel(ctx, 29, 39) == 0xFFFF_0000)
        #expect(pixel(ctx, 9, 20) == 0 && pixel(ctx, 30, 39) == 0 && pixel(ctx, 5, 45) == 0)
    }

    @Test func darwinNamesAppleCodeUses() {
        let a = CABasicAnimation(keyPath: "opacity")
        a.repeatCount = HUGE
        #expect(a.repeatCount == .greatestFiniteMagnitude && MAXFLOAT == HUGE)
    }
}

/// Hostile values that used to trap, each with its defined outcome: clamped, ignored or refused
/// (and counted), never a crash.
@Suite(.serialized) struct HostileTimingTests {
    @Test func infiniteSpeedsAndOffsetsRender() {
        let stage = Stage(at: 5)
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        l.speed = .infinity
        l.timeOffset = -.infinity
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0; a.toValue = 1; a.duration = 1
        a.speed = .infinity; a.timeOffset = -.infinity; a.repeatCount = HUGE
        l.add(a, forKey: "a")
        stage.add(l)
        stage.frame(at: 5)
        stage.frame(at: 6)
        #expect(l.presentation() != nil)
    }

    @Test func aHugeRelativeArcIsOneTurnPlusTheRest() {
        let p = CGMutablePath()
        p.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: 1e308)
        #expect(p.boundingBoxOfPath.width <= 20.5)
        // The end point is where the sweep ends: start + delta on the circle.
        let end = p.currentPoint
        let angle = CGFloat(1e308).truncatingRemainder(dividingBy: 2 * .pi)
        #expect(abs(end.x - 10 * cos(angle)) < 1e-6 && abs(end.y - 10 * sin(angle)) < 1e-6)
    }

    @Test func anEmitterAtAnAbsurdSpeedDraws() {
        let stage = Stage(at: 1)
        let e = CAEmitterLayer()
        e.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        e.speed = 1e38
        let cell = CAEmitterCell()
        cell.birthRate = 10; cell.lifetime = 1
        cell.contents = makeContext(2, 2).makeImage()
        e.emitterCells = [cell]
        stage.add(e)
        stage.frame(at: 1)
        stage.frame(at: 2)
        #expect(stage.renderer.makeImage() != nil)
    }

    @Test func cubicKeyframesOfMixedKindsInterpolate() {
        let stage = Stage(at: 1)
        let l = CALayer()
        stage.add(l)
        let a = CAKeyframeAnimation(keyPath: "position")
        a.values = [CGPoint(x: 0, y: 0), 5, CGPoint(x: 10, y: 10), "x", CGSize(width: 3, height: 4)]
        a.calculationMode = .cubic
        a.duration = 1
        l.add(a, forKey: "k")
        for t in stride(from: 1.0, through: 2.0, by: 0.1) { stage.frame(at: t) }
        #expect(l.presentation() != nil)
    }

    @Test func aGroupThatContainsItselfIsCutWhereItLoops() {
        let g = CAAnimationGroup()
        let inner = CAAnimationGroup()
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 0; fade.toValue = 1
        g.animations = [g, inner, fade]
        inner.animations = [g]
        defer { g.animations = nil; inner.animations = nil }   // the test's own cycle, let go at the end
        let copy = g.copy() as! CAAnimationGroup
        #expect(copy.animations?.count == 1 && copy.animations?.first is CABasicAnimation)
        let stage = Stage(at: 1)
        let l = CALayer()
        stage.add(l)
        g.duration = 1
        l.add(g, forKey: "g")
        stage.frame(at: 1)
        stage.frame(at: 1.5)
        #expect(abs(l.presentation()!.opacity - 0.5) < 1e-6)
    }

    @Test func nonFiniteOpacityIsRefused() {
        let l = CALayer()
        l.opacity = 0.5
        for bad in [Float.nan, .infinity, -.infinity] { l.opacity = bad }
        #expect(l.opacity == 0.5)
    }

    @Test func aFlushInsideACompletionBlockRunsNoBlockTwice() {
        var runs = 0
        CATransaction.begin()
        CATransaction.setCompletionBlock {
            runs += 1
            CATransaction.flush()
            CATransaction.flush()
        }
        CATransaction.commit()
        CATransaction.flush()
        CATransaction.flush()
        #expect(runs == 1)
    }
}

/// A chain of layers far deeper than any real tree: rendered (to `maxDepth` levels, deeper ones
/// skipped and counted), hit-tested and animated without exhausting a thread's stack.
@Suite(.serialized) struct DeepTreeTests {
    @Test(arguments: [1_000, 3_000]) func aDeepChainRendersAndHitTests(depth: Int) {
        let stage = Stage(at: 1)
        let top = CALayer()
        top.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        var last = top
        for i in 0..<depth {
            let l = CALayer()
            l.frame = last.bounds.insetBy(dx: 0.05, dy: 0.05)
            if i % 10 == 0 { l.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5) }
            last.addSublayer(l)
            last = l
        }
        stage.add(top)
        top.opacity = 0.5   // an animation at the top of the chain
        stage.frame(at: 1)
        stage.frame(at: 1.1)
        let image = stage.renderer.makeImage()
        #expect(image.map { $0.premultipliedPixel(x: 100, y: 100) != 0 } == true)
        #expect(stage.root.hitTest(CGPoint(x: 100, y: 100)) != nil)
        // Levels past maxDepth are skipped, and counted (once per band that reached them).
        let skipped = stage.renderer.compositor.skippedForDepth
        #expect(depth > stage.renderer.compositor.maxDepth ? skipped > 0 : skipped == 0)
    }

    @Test func settlingDurationsAreApplesDocumentedOnes() {
        let loose = CASpringAnimation(keyPath: "position.x")
        loose.damping = 5
        #expect(abs(loose.settlingDuration - 2.85) < 0.03, "\(loose.settlingDuration)")
        let firm = CASpringAnimation(keyPath: "position.x")
        firm.damping = 15
        #expect(firm.settlingDuration > 1 && firm.settlingDuration < 1.1, "\(firm.settlingDuration)")
        // A push adds amplitude: the spring takes longer to settle.
        let pushed = CASpringAnimation(keyPath: "position.x")
        pushed.initialVelocity = 20
        #expect(pushed.settlingDuration > CASpringAnimation(keyPath: "position.x").settlingDuration)
    }
}
