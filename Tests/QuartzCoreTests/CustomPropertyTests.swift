// The textbook custom animatable property (Apple's "Core Animation Programming Guide" and the
// popular samples built on it: a CALayer subclass with its own property, redrawn as it animates),
// ported with only the edits docs/PORTING.md lists (`@NSManaged var progress: CGFloat` →
// `var progress: CGFloat = 0`). Apple's rules, quoted from its documentation:
// - needsDisplay(forKey:): "Subclasses override this method and return true if the layer should be
//   redisplayed when the value of the specified attribute changes. Animations changing the value
//   of the attribute also trigger redisplay."
// - presentation(): "returns a copy of the presentation layer object that represents the state of
//   the layer as it currently appears onscreen … While an animation is in progress, you can
//   retrieve this object and use it to get the current values for those animations."
// - init(layer:): "This initializer is used to create shadow copies of layers, for example, for the
//   presentation() method … Subclasses can override this method to copy their instance variables
//   into the presentation object."
// - action(forKey:): the layer's own override is asked for the action of a changed key; the action
//   runs inside the transaction open then (its duration; `setDisableActions(true)` skips it).
// - CATransaction.setCompletionBlock: "The completion block object that is called after all
//   animations added by this transaction group are removed."
// - Key-value coding: "CALayer … provide[s] key-value coding compliance for the properties it
//   defines" — and for the properties of subclasses; scalars travel as NSNumber.
@testable import QuartzCore
import Foundation
import TestSupport
import Testing

/// A pie-free progress bar: blue across `progress` of the width (Apple sample code, unchanged but
/// for `@NSManaged`).
final class ProgressBarLayer: CALayer {
    var progress: CGFloat = 0
    var barColor: CGColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    /// Every value of `progress` that `draw(in:)` saw (model and presentation copies).
    nonisolated(unsafe) static var drawn: [CGFloat] = []

    override init() { super.init() }

    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? ProgressBarLayer {
            progress = other.progress
            barColor = other.barColor
        }
    }

    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

    override class func needsDisplay(forKey key: String) -> Bool {
        if key == "progress" { return true }
        return super.needsDisplay(forKey: key)
    }

    override func action(forKey event: String) -> CAAction? {
        if event == "progress" {
            let animation = CABasicAnimation(keyPath: event)
            animation.timingFunction = CAMediaTimingFunction(name: .linear)
            animation.fromValue = presentation()?.progress ?? progress
            return animation
        }
        return super.action(forKey: event)
    }

    override func draw(in ctx: CGContext) {
        ProgressBarLayer.drawn.append(progress)
        ctx.setFillColor(barColor)
        ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * progress, height: bounds.height))
    }
}

@Suite(.serialized) struct CustomPropertyTests {
    /// A 100 × 10 bar on a 100 × 10 white stage, committed at progress 0 at t = 100.
    func stage() -> (FrameDriver, ProgressBarLayer) {
        let d = FrameDriver(100, 10)
        let bar = ProgressBarLayer()
        bar.frame = CGRect(x: 0, y: 0, width: 100, height: 10)
        bar.setNeedsDisplay()
        d.change(at: 100) {
            CATransaction.setDisableActions(true)
            d.root.addSublayer(bar)
        }
        d.frame(at: 100)
        ProgressBarLayer.drawn = []
        return (d, bar)
    }

    /// How many blue pixels the bar's row shows.
    func blueWidth(_ image: CGImage) -> Int {
        (0..<image.width).filter { image.premultipliedPixel(x: $0, y: 5) == 0xFF00_00FF }.count
    }

    @Test func settingTheCustomPropertyAnimatesItFrameByFrame() {
        let (d, bar) = stage()
        d.change(at: 100) {
            CATransaction.setAnimationDuration(1)
            bar.progress = 1
        }
        #expect(bar.animationKeys() == ["progress"])
        #expect(blueWidth(d.frame(at: 100.25)) == 25)
        #expect(blueWidth(d.frame(at: 100.5)) == 50)
        #expect(blueWidth(d.frame(at: 100.75)) == 75)
        #expect(blueWidth(d.frame(at: 101.5)) == 100)
        // draw(in:) saw the model value (the model redraws once) and the in-between values (presentation copies).
        #expect(ProgressBarLayer.drawn.contains { abs($0 - 0.5) < 1e-9 })
        #expect(ProgressBarLayer.drawn.contains(1))
        #expect(bar.animationKeys() == nil)
    }

    @Test func presentationIsAnInstanceOfTheSubclassWithTheValueOnScreen() {
        let (d, bar) = stage()
        d.change(at: 100) {
            CATransaction.setAnimationDuration(1)
            bar.progress = 1
        }
        d.frame(at: 100.5)
        MediaClock.override = 100.5
        defer { MediaClock.override = nil }
        let shown = bar.presentation()
        #expect(shown != nil)
        #expect(shown?.progress == 0.5)
        #expect(shown?.value(forKey: "progress") as? CGFloat == 0.5)
        #expect(shown?.barColor == bar.barColor)
        #expect(shown?.model() === bar)
        #expect(bar.progress == 1)
    }

    @Test func anAnimationStartsFromWhereTheLastOneIsNow() {
        let (d, bar) = stage()
        d.change(at: 100) { CATransaction.setAnimationDuration(1); bar.progress = 1 }
        d.frame(at: 100.5)
        // Reversed half way: the action's fromValue is the presentation value (0.5), not the model's 1.
        d.change(at: 100.5) { CATransaction.setAnimationDuration(1); bar.progress = 0 }
        #expect(blueWidth(d.frame(at: 100.5)) == 50)
        #expect(blueWidth(d.frame(at: 101)) == 25)
        #expect(blueWidth(d.frame(at: 102)) == 0)
    }

    @Test func theCompletionBlockWaitsForTheAnimation() {
        let (d, bar) = stage()
        var completed: Double?
        MediaClock.override = 100
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setCompletionBlock { completed = MediaClock.now() }
        bar.progress = 1
        CATransaction.commit()
        MediaClock.override = nil
        d.frame(at: 100.5)
        #expect(completed == nil)
        d.frame(at: 101.1)
        #expect(completed == 101.1)
    }

    @Test func disabledActionsJumpToTheNewValue() {
        let (d, bar) = stage()
        d.change(at: 100) {
            CATransaction.setDisableActions(true)
            bar.progress = 0.3
        }
        #expect(bar.animationKeys() == nil)
        #expect(blueWidth(d.frame(at: 100.01)) == 30)
    }

    @Test func anExplicitAnimationOfTheKeyRedrawsAndEndsOnTheModel() {
        let (d, bar) = stage()
        bar.progress = 0.2
        d.change(at: 100) { CATransaction.setDisableActions(true) }
        let anim = CABasicAnimation(keyPath: "progress")
        anim.fromValue = NSNumber(value: 0.0)
        anim.toValue = NSNumber(value: 1.0)
        anim.duration = 2
        d.change(at: 100) { bar.add(anim, forKey: "fill") }
        #expect(blueWidth(d.frame(at: 101)) == 50)
        #expect(blueWidth(d.frame(at: 103)) == 20)
    }

    @Test func keyValueCodingReachesTheProperty() {
        let (d, bar) = stage()
        d.change(at: 100) {
            CATransaction.setDisableActions(true)
            bar.setValue(NSNumber(value: 0.4), forKey: "progress")
        }
        #expect(bar.progress == 0.4)
        #expect(bar.value(forKey: "progress") as? CGFloat == 0.4)
        #expect(blueWidth(d.frame(at: 100.1)) == 40)
        // A value the property's type cannot take is refused and counted; the property keeps its value.
        let before = CGDiagnostics.count(.invalidKeyValue)
        bar.setValue("most", forKey: "progress")
        #expect(bar.progress == 0.4)
        #expect(CGDiagnostics.count(.invalidKeyValue) == before + 1)
        // Keys the class does not declare still store per layer.
        bar.setValue(7, forKey: "tag")
        #expect(bar.value(forKey: "tag") as? Int == 7)
    }

    @Test func aChangeMadeBeforeATransactionBeginsKeepsTheEnclosingDuration() {
        let (d, bar) = stage()
        MediaClock.override = 100
        bar.progress = 1   // the implicit transaction: 0.25 s
        CATransaction.begin()
        CATransaction.setAnimationDuration(4)
        CATransaction.commit()
        CATransaction.flush()
        MediaClock.override = nil
        #expect(bar.animation(forKey: "progress")?.duration == 0.25)
        #expect(blueWidth(d.frame(at: 100.125)) == 50)
    }

    @Test func aLayerThatIsNotOnScreenRedrawsWithoutAnimating() {
        let bar = ProgressBarLayer()
        bar.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        bar.progress = 0.5
        CATransaction.flush()
        #expect(bar.needsDisplay())
        #expect(bar.animationKeys() == nil)
        #expect(bar.presentation() == nil)
    }

    @Test func theClassDefaultActionAndTheAnimationDelegateWork() {
        let d = FrameDriver(20, 20)
        let dot = TintLayer()
        dot.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        d.change(at: 100) { CATransaction.setDisableActions(true); d.root.addSublayer(dot) }
        d.frame(at: 100)
        d.change(at: 100) { dot.tint = CGColor(red: 0, green: 0, blue: 1, alpha: 1) }
        // defaultAction(forKey:) gave a 1 s animation from red; half way, half blue.
        let mid = d.frame(at: 100.5).premultipliedPixel(x: 10, y: 10)
        #expect((mid >> 16) & 0xFF > 0x70 && (mid >> 16) & 0xFF < 0x90 && mid & 0xFF > 0x70 && mid & 0xFF < 0x90)
        #expect(TintLayer.stops.isEmpty)
        #expect(d.frame(at: 101.1).premultipliedPixel(x: 10, y: 10) == 0xFF00_00FF)
        #expect(TintLayer.stops == [true])
    }

    @Test func aShapeLayerSubclassKeepsItsClassItsShapeAndItsReferences() {
        let d = FrameDriver(40, 40)
        let owner = NSObject()
        let ring = RingLayer()
        ring.owner = owner
        ring.path = CGPath(rect: CGRect(x: 0, y: 0, width: 40, height: 40), transform: nil)
        d.change(at: 100) { CATransaction.setDisableActions(true); d.root.addSublayer(ring) }
        d.frame(at: 100)
        d.change(at: 100) { CATransaction.setAnimationDuration(1); ring.spin = 90 }
        d.frame(at: 100.5)
        MediaClock.override = 100.5
        defer { MediaClock.override = nil }
        // The presentation tree holds the subclass's copy, as the layer's own presentation() does.
        let tree = d.root.presentation()
        let shown = tree?.sublayers?.first as? RingLayer
        #expect(ring.presentation()?.spin == 45)
        #expect(shown?.spin == 45)
        #expect(shown?.owner === owner)
        #expect(shown?.path?.boundingBox == CGRect(x: 0, y: 0, width: 40, height: 40))
        #expect(shown?.superlayer === tree && shown?.model() === ring)
    }
}

/// A colour property animated through the class's default action (no instance override), with
/// an animation delegate (Apple sample pattern).
final class TintLayer: CALayer, CAAnimationDelegate {
    var tint: CGColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    nonisolated(unsafe) static var stops: [Bool] = []

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "tint" || super.needsDisplay(forKey: key)
    }

    override class func defaultAction(forKey event: String) -> CAAction? {
        guard event == "tint" else { return super.defaultAction(forKey: event) }
        let animation = CABasicAnimation(keyPath: event)
        animation.duration = 1
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        return animation
    }

    override func action(forKey event: String) -> CAAction? {
        let action = super.action(forKey: event)
        if let basic = action as? CABasicAnimation, event == "tint" {
            basic.fromValue = presentation()?.tint
            basic.delegate = self
        }
        return action
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { TintLayer.stops.append(flag) }

    override func draw(in ctx: CGContext) {
        ctx.setFillColor(tint)
        ctx.fill(bounds)
    }
}

/// A CAShapeLayer subclass with a custom number and a weak reference.
final class RingLayer: CAShapeLayer {
    var spin: CGFloat = 0
    weak var owner: NSObject?

    override func action(forKey event: String) -> CAAction? {
        guard event == "spin" else { return super.action(forKey: event) }
        let animation = CABasicAnimation(keyPath: event)
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        animation.fromValue = presentation()?.spin ?? spin
        return animation
    }
}
