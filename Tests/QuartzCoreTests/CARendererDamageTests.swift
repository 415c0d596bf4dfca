// Damage tracking: a renderer that repaints only what changed must show exactly the frame a
// full repaint shows, through moves, inherited opacity, clips, reordering, removal, masks,
// ancestors' shadows, animations and transitions; and what it repaints must stay small.
@testable import QuartzCore
@testable import LayerRender
import TestSupport
import Testing

@Suite(.serialized) struct CARendererDamageTests {
    func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor { CGColor(red: r, green: g, blue: b, alpha: a) }

    func box(_ f: CGRect, _ c: CGColor) -> CALayer {
        let l = CALayer(); l.frame = f; l.backgroundColor = c; return l
    }

    /// Renders the frame at `t` with damage, then the same frame in full, and counts differing pixels.
    func check(_ r: CARenderer, at t: Double) -> (differing: Int, damage: CGRect) {
        MediaClock.override = t
        defer { MediaClock.override = nil }
        r.beginFrame(atTime: t, timeStamp: nil)
        r.render()
        let damage = r.updateBounds()
        let partial = r.makeImage()!
        r.compositor.invalidateDamage()
        r.render()
        r.endFrame()
        let full = r.makeImage()!
        var differing = 0
        for y in 0..<full.height { for x in 0..<full.width where partial.premultipliedPixel(x: x, y: y) != full.premultipliedPixel(x: x, y: y) { differing += 1 } }
        return (differing, damage)
    }

    /// Commits `change` (actions off) one second after `t`, then checks that frame as `check` does.
    func advance(_ r: CARenderer, _ t: inout Double, _ change: () -> Void) -> (differing: Int, damage: CGRect) {
        t += 1
        MediaClock.override = t
        CATransaction.begin(); CATransaction.setDisableActions(true)
        change()
        CATransaction.commit()
        MediaClock.override = nil
        return check(r, at: t)
    }

    @Test func partialFramesEqualFullFrames() {
        MediaClock.override = 0
        let r = CARenderer()
        let root = box(CGRect(x: 0, y: 0, width: 200, height: 160), color(0.95, 0.95, 0.95))
        let parent = box(CGRect(x: 20, y: 20, width: 60, height: 60), color(0.2, 0.4, 0.8))
        let child = box(CGRect(x: 40, y: 40, width: 50, height: 30), color(0.9, 0.3, 0.2))   // overflows the parent
        parent.addSublayer(child)
        let shadowed = box(CGRect(x: 110, y: 20, width: 60, height: 50), color(0.3, 0.7, 0.3))
        shadowed.shadowOpacity = 0.8; shadowed.shadowRadius = 4; shadowed.shadowOffset = CGSize(width: 6, height: 8)
        let inner = box(CGRect(x: 10, y: 10, width: 20, height: 20), color(1, 1, 0))
        shadowed.addSublayer(inner)
        let clip = box(CGRect(x: 20, y: 100, width: 80, height: 50), color(0.8, 0.8, 0.9))
        clip.masksToBounds = true
        let clipped = box(CGRect(x: 40, y: 10, width: 70, height: 30), color(0.5, 0.2, 0.6))
        clip.addSublayer(clipped)
        let masked = CAGradientLayer()
        masked.frame = CGRect(x: 120, y: 100, width: 60, height: 50)
        masked.colors = [color(1, 0, 0), color(0, 0, 1)]
        let mask = CAShapeLayer()
        mask.frame = masked.bounds
        mask.path = CGPath(ellipseIn: masked.bounds, transform: nil)
        masked.mask = mask
        for l in [parent, shadowed, clip, masked] { root.addSublayer(l) }
        r.bounds = root.bounds
        r.layer = root
        MediaClock.override = nil
        var t = 0.0
        func step(_ change: () -> Void) -> (differing: Int, damage: CGRect) { advance(r, &t, change) }
        #expect(check(r, at: 0).differing == 0)
        // Nothing changed: nothing repainted.
        let idle = step {}
        #expect(idle.differing == 0 && idle.damage.isNull)
        // A move repaints the old and the new place only.
        let move = step { child.position.x += 10 }
        #expect(move.differing == 0 && move.damage.width * move.damage.height <= 70 * 40)
        #expect(step { parent.opacity = 0.5 }.differing == 0)                 // inherited by the overflowing child
        #expect(step { clip.bounds.size.width = 50 }.differing == 0)          // the clip of its sublayer
        #expect(step { inner.position.x += 8 }.differing == 0)                // an ancestor's shadow follows
        #expect(step { root.insertSublayer(clip, at: 0) }.differing == 0)     // reordering
        #expect(step { mask.path = CGPath(rect: CGRect(x: 0, y: 0, width: 30, height: 50), transform: nil) }.differing == 0)
        #expect(step { shadowed.isHidden = true }.differing == 0)
        #expect(step { shadowed.isHidden = false; child.removeFromSuperlayer() }.differing == 0)
        #expect(step { root.addSublayer(child) }.differing == 0)
        // An explicit animation and a transition, frame by frame.
        let slide = CABasicAnimation(keyPath: "position.y")
        slide.byValue = 40; slide.duration = 1; slide.beginTime = t + 1
        parent.add(slide, forKey: "slide")
        let push = CATransition()
        push.type = .push; push.subtype = .fromLeft; push.duration = 1; push.beginTime = t + 1
        masked.add(push, forKey: kCATransition)
        let start = t
        for k in 1...5 {
            #expect(check(r, at: start + 1 + Double(k) * 0.2).differing == 0)
        }
        MediaClock.override = nil
    }

    /// A layer with no background, border, contents, content or shadow draws nothing itself
    /// (CALayer: "the layer's background … is drawn first", then contents, sublayers and
    /// border, none of them here): moving or fading it repaints nothing, while a container of
    /// that kind moving its drawn sublayer repaints just the sublayer's old and new places.
    @Test func layersThatDrawNothingDamageNothing() {
        MediaClock.override = 0
        let r = CARenderer()
        let root = box(CGRect(x: 0, y: 0, width: 200, height: 160), color(0.95, 0.95, 0.95))
        let empty = CALayer()
        empty.frame = CGRect(x: 10, y: 10, width: 120, height: 100)
        let container = CALayer()
        container.frame = CGRect(x: 20, y: 20, width: 150, height: 120)
        let drawn = box(CGRect(x: 10, y: 10, width: 20, height: 20), color(0.2, 0.4, 0.8))
        container.addSublayer(drawn)
        root.addSublayer(empty)
        root.addSublayer(container)
        r.bounds = root.bounds
        r.layer = root
        MediaClock.override = nil
        #expect(check(r, at: 0).differing == 0)
        var t = 0.0
        func step(_ change: () -> Void) -> (differing: Int, damage: CGRect) { advance(r, &t, change) }
        let moved = step { empty.position.x += 30; empty.opacity = 0.5 }
        #expect(moved.differing == 0 && moved.damage.isNull)
        let carried = step { container.position.x += 15 }
        #expect(carried.differing == 0)
        #expect(carried.damage.width * carried.damage.height <= 36 * 21)   // 20 × 20 moved by 15, with a pixel spare
        // Given a background, the same layer draws: its move repaints both places.
        let painted = step { empty.backgroundColor = color(1, 0, 0, 0.5) }
        #expect(painted.differing == 0 && !painted.damage.isNull)
        #expect(step { empty.position.y += 12 }.differing == 0)
    }

    /// CAReplicatorLayer: "instanceTransform: the transform matrix applied to the previous
    /// instance to produce the current instance"; "instanceDelay: the delay between consecutive
    /// instances" of the sublayers' animations. A replicated spinner's copies are where those
    /// transforms put them: what it repaints is its own neighbourhood, not the whole window.
    @Test func aReplicatedSpinnerRepaintsOnlyItsCopies() {
        MediaClock.override = 0
        let r = CARenderer()
        let root = box(CGRect(x: 0, y: 0, width: 400, height: 300), color(0.1, 0.1, 0.1))
        let spinner = CAReplicatorLayer()
        spinner.frame = CGRect(x: 300, y: 40, width: 80, height: 80)
        spinner.instanceCount = 12
        spinner.instanceTransform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        spinner.instanceDelay = 1.0 / 12
        let bar = box(CGRect(x: 37, y: 4, width: 6, height: 20), color(1, 1, 1))
        bar.cornerRadius = 3
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1; fade.toValue = 0.1; fade.duration = 1; fade.repeatCount = .infinity
        bar.add(fade, forKey: "fade")
        spinner.addSublayer(bar)
        root.addSublayer(spinner)
        r.bounds = root.bounds
        r.layer = root
        MediaClock.override = nil
        _ = check(r, at: 0)
        for t in stride(from: 0.05, through: 1.3, by: 0.1) {
            let (differing, damage) = check(r, at: t)
            #expect(differing == 0, "t = \(t)")
            #expect(damage.width <= 90 && damage.height <= 90 && spinner.frame.insetBy(dx: -6, dy: -6).contains(damage), "t = \(t): \(damage)")
        }
        // Turning the copies (an animated instanceTransform) repaints where they were and where they are.
        spinner.instanceTransform = CATransform3DMakeRotation(.pi / 5, 0, 0, 1)
        let turned = check(r, at: 1.4)
        #expect(turned.differing == 0)
        // A replicator placing copies far apart: both the original's and the copies' places are
        // repainted (the damage is one box, so it also holds the spinner, still fading).
        let row = CAReplicatorLayer()
        row.frame = CGRect(x: 0, y: 200, width: 400, height: 40)
        row.instanceCount = 3
        row.instanceTransform = CATransform3DMakeTranslation(150, 0, 0)
        let dot = box(CGRect(x: 10, y: 10, width: 20, height: 20), color(0, 1, 0))
        row.addSublayer(dot)
        root.addSublayer(row)
        _ = check(r, at: 1.5)
        CATransaction.begin(); CATransaction.setDisableActions(true)
        dot.backgroundColor = color(1, 0, 0)
        CATransaction.commit()
        let recoloured = check(r, at: 1.6)
        #expect(recoloured.differing == 0)
        #expect(recoloured.damage.minX <= 10 && recoloured.damage.maxX >= 330 && recoloured.damage.maxY <= 232, "\(recoloured.damage)")
    }

    /// The copies' pixels stay right when the first copy is off-screen, when delayed copies move,
    /// when a copy is clipped inside itself, and when only the replicator's colours change.
    @Test func replicatedCopiesAreRepaintedWhereverTheyAre() {
        MediaClock.override = 0
        let r = CARenderer()
        let root = box(CGRect(x: 0, y: 0, width: 300, height: 120), color(0.1, 0.1, 0.1))
        let row = CAReplicatorLayer()
        row.frame = CGRect(x: -60, y: 10, width: 60, height: 40)   // the first copy is off-screen
        row.instanceCount = 5
        row.instanceTransform = CATransform3DMakeTranslation(60, 0, 0)
        let cell = box(CGRect(x: 5, y: 5, width: 30, height: 30), color(0, 1, 0))
        cell.masksToBounds = true
        let inner = box(CGRect(x: 0, y: 0, width: 30, height: 15), color(1, 1, 0))
        cell.addSublayer(inner)
        row.addSublayer(cell)
        let dots = CAReplicatorLayer()
        dots.frame = CGRect(x: 0, y: 60, width: 300, height: 60)
        dots.instanceCount = 3
        dots.instanceTransform = CATransform3DMakeTranslation(40, 0, 0)
        dots.instanceDelay = 0.2
        let dot = box(CGRect(x: 10, y: 10, width: 10, height: 10), color(1, 1, 1))
        let bounce = CABasicAnimation(keyPath: "position.y")
        bounce.fromValue = 15; bounce.toValue = 45; bounce.duration = 0.5; bounce.autoreverses = true; bounce.repeatCount = .infinity
        dot.add(bounce, forKey: "bounce")
        dots.addSublayer(dot)
        root.addSublayer(row); root.addSublayer(dots)
        r.bounds = root.bounds
        r.layer = root
        MediaClock.override = nil
        _ = check(r, at: 0)
        for t in stride(from: 0.05, through: 1.0, by: 0.07) { #expect(check(r, at: t).differing == 0, "t = \(t)") }
        CATransaction.begin(); CATransaction.setDisableActions(true)
        inner.backgroundColor = color(1, 0, 1)
        CATransaction.commit()
        #expect(check(r, at: 1.1).differing == 0)
        CATransaction.begin(); CATransaction.setDisableActions(true)
        row.instanceColor = color(1, 0.5, 0.5)
        CATransaction.commit()
        #expect(check(r, at: 1.2).differing == 0)
    }

    /// A copy on screen of a sublayer that itself lies at negative device coordinates: its
    /// changes are repainted where the copy is (the first copy's box keeps its negative place).
    @Test func aCopyOfALayerAtNegativeCoordinatesIsRepainted() {
        MediaClock.override = 0
        let r = CARenderer()
        let root = box(CGRect(x: 0, y: 0, width: 200, height: 80), color(0.1, 0.1, 0.1))
        let rep = CAReplicatorLayer()
        rep.frame = CGRect(x: 0, y: 0, width: 40, height: 80)
        rep.instanceCount = 2
        rep.instanceTransform = CATransform3DMakeScale(-1, 1, 1)   // mirrored about the replicator's centre, x = 20
        let cell = box(CGRect(x: -40, y: 20, width: 30, height: 30), color(0, 1, 0))   // its copy at 50…80
        rep.addSublayer(cell)
        root.addSublayer(rep)
        r.bounds = root.bounds
        r.layer = root
        MediaClock.override = nil
        _ = check(r, at: 0)
        CATransaction.begin(); CATransaction.setDisableActions(true)
        cell.backgroundColor = color(1, 0, 1)
        CATransaction.commit()
        let changed = check(r, at: 1)
        #expect(changed.differing == 0)
        #expect(changed.damage.minX <= 50 && changed.damage.maxX >= 80)
    }

    @Test func stillTreesNeedNoWalk() {
        // A committed tree in which nothing moves with time is not walked again: no damage while
        // it stays; an animation deep inside (or under a mask) makes every ancestor unstill, so
        // the walk runs and repaints what moves; an emitter is never still.
        MediaClock.override = 0
        defer { MediaClock.override = nil }
        let r = CARenderer()
        let root = box(CGRect(x: 0, y: 0, width: 60, height: 60), color(1, 1, 1))
        let parent = box(CGRect(x: 10, y: 10, width: 30, height: 30), color(0, 0, 1))
        let leaf = box(CGRect(x: 5, y: 5, width: 10, height: 10), color(1, 0, 0))
        let mask = box(CGRect(x: 0, y: 0, width: 30, height: 30), color(0, 0, 0))
        parent.addSublayer(leaf)
        parent.mask = mask
        root.addSublayer(parent)
        r.bounds = root.bounds
        r.layer = root
        r.beginFrame(atTime: 0, timeStamp: nil); r.render(); r.endFrame()
        #expect(r.committedRoot?.isStill == true)
        r.beginFrame(atTime: 1, timeStamp: nil); r.render(); r.endFrame()
        #expect(r.updateBounds().isNull)
        for animated in [leaf, mask] {
            let slide = CABasicAnimation(keyPath: "position.x")
            slide.byValue = 10; slide.duration = 10; slide.beginTime = 1
            animated.add(slide, forKey: "slide")
            r.beginFrame(atTime: 2, timeStamp: nil); r.render(); r.endFrame()
            #expect(r.committedRoot?.isStill == false)
            #expect(r.committedRoot?.sublayers.first?.isStill == false)
            #expect(check(r, at: 3).differing == 0 && !check(r, at: 4).damage.isNull, "animated: \(animated === leaf ? "leaf" : "mask")")
            animated.removeAnimation(forKey: "slide")
        }
        let emitter = CAEmitterLayer()
        root.addSublayer(emitter)
        r.beginFrame(atTime: 5, timeStamp: nil); r.render(); r.endFrame()
        #expect(r.committedRoot?.isStill == false)
    }

    @Test func addUpdateForcesARepaint() {
        MediaClock.override = 0
        defer { MediaClock.override = nil }
        let r = CARenderer()
        let root = box(CGRect(x: 0, y: 0, width: 50, height: 50), color(1, 1, 1))
        r.bounds = root.bounds
        r.layer = root
        r.beginFrame(atTime: 0, timeStamp: nil); r.render(); r.endFrame()
        #expect(r.updateBounds() == root.bounds)                // the first frame is painted whole
        r.addUpdate(CGRect(x: 10, y: 10, width: 5, height: 5))
        r.beginFrame(atTime: 1, timeStamp: nil); r.render(); r.endFrame()
        #expect(r.updateBounds() == CGRect(x: 10, y: 10, width: 5, height: 5))
        r.beginFrame(atTime: 2, timeStamp: nil); r.render(); r.endFrame()
        #expect(r.updateBounds().isNull)
    }

    /// A repainted area is cleared first unless the root's opaque background covers it: either
    /// way a moved layer leaves nothing behind, and a translucent or partial root shows what is
    /// under it (transparent), not the old frame.
    @Test func repaintsClearUnlessAnOpaqueRootCovers() {
        for (rootColor, rootFrame) in [(color(0.9, 0.9, 0.9), CGRect(x: 0, y: 0, width: 200, height: 160)),
                                       (color(0.9, 0.9, 0.9, 0.5), CGRect(x: 0, y: 0, width: 200, height: 160)),
                                       (color(0.9, 0.9, 0.9), CGRect(x: 0, y: 0, width: 150, height: 160))] {
            MediaClock.override = 0
            let r = CARenderer()
            let root = box(rootFrame, rootColor)
            let card = box(CGRect(x: 20, y: 20, width: 40, height: 40), color(0.8, 0.1, 0.1))
            root.addSublayer(card)
            r.bounds = CGRect(x: 0, y: 0, width: 200, height: 160)
            r.layer = root
            MediaClock.override = nil
            r.beginFrame(atTime: 0, timeStamp: nil); r.render(); r.endFrame()
            CATransaction.begin(); CATransaction.setDisableActions(true)
            card.position = CGPoint(x: 170, y: 120)
            CATransaction.commit()
            let result = check(r, at: 1)
            #expect(result.differing == 0)
            r.beginFrame(atTime: 2, timeStamp: nil); r.render(); r.endFrame()
            let image = r.makeImage()!
            let expected: UInt32 = rootColor.alpha < 1 ? 0x8073_7373 : 0xFFE6_E6E6
            #expect(image.premultipliedPixel(x: 40, y: 40) == expected)
            // Beyond a narrower root nothing is drawn but the card: transparent.
            #expect(image.premultipliedPixel(x: 190, y: 10) == (rootFrame.width < 200 ? 0 : expected))
        }
        let full = LayerSnapshot(id: 1, state: LayerState(), sublayers: [], mask: nil, animations: [])
        #expect(!Compositor().root(full, at: 0, base: .identity, covers: PixelBox(x0: 0, y0: 0, x1: 1, y1: 1)))
    }
}
