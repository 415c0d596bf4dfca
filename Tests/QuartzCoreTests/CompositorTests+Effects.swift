// Pixels of the compositor's offscreen effects (shadows, masks, transitions, rasterised layers)
// and of its content caches, through CARenderer: the rest of CompositorTests (same helpers).
@testable import LayerRender
@testable import QuartzCore
import TestSupport
import Testing

/// A five-pointed star filling a `size` × `size` box (points at its edges), turned a little.
private func star(_ size: CGFloat) -> CGPath {
    let p = CGMutablePath()
    for k in 0..<10 {
        let theta = 0.3 + Double(k) * .pi / 5, r = k % 2 == 0 ? size / 2 : size / 4.5
        let q = CGPoint(x: size / 2 + r * sin(theta), y: size / 2 - r * cos(theta))
        if k == 0 { p.move(to: q) } else { p.addLine(to: q) }
    }
    p.closeSubpath()
    return p
}

extension CompositorTests {
    @Test func hardShadowFollowsTheLayerAndItsOffset() {
        let image = render(40, 40) { root in
            let l = box(CGRect(x: 5, y: 5, width: 10, height: 10), red)
            l.shadowOpacity = 1
            l.shadowRadius = 0
            l.shadowOffset = CGSize(width: 10, height: 10)   // y down: right and below
            root.addSublayer(l)
        }
        #expect(count(image, 0xFFFF_0000) == 100)
        #expect(count(image, 0xFF00_0000) == 100)
        #expect(image.premultipliedPixel(x: 20, y: 20) == 0xFF00_0000 && image.premultipliedPixel(x: 15, y: 15) == 0xFF00_0000)
    }

    @Test func blurredShadowsAndShadowPaths() {
        let image = render(140, 70) { root in
            let a = box(CGRect(x: 15, y: 10, width: 40, height: 40), red)
            a.cornerRadius = 8
            a.shadowOpacity = 0.6
            a.shadowRadius = 6
            a.shadowOffset = CGSize(width: 0, height: 5)
            let b = box(CGRect(x: 85, y: 10, width: 40, height: 40), blue)
            b.shadowOpacity = 0.8
            b.shadowRadius = 4
            b.shadowPath = CGPath(ellipseIn: CGRect(x: -5, y: 38, width: 50, height: 12), transform: nil)   // a contact shadow
            b.shadowOffset = .zero
            root.addSublayer(a); root.addSublayer(b)
        }
        Golden.check("ca-shadows", image)
        // The default shadow reaches about twice the radius beyond the shape, and no further.
        #expect(image.premultipliedPixel(x: 35, y: 50 + 5 + 3) != 0xFFFF_FFFF)
        #expect(image.premultipliedPixel(x: 35, y: 50 + 5 + 14) == 0xFFFF_FFFF)
    }

    @Test func maskLayersMultiplyByTheirAlpha() {
        let image = render(60, 60) { root in
            let l = box(CGRect(x: 10, y: 10, width: 40, height: 40), red)
            let m = CALayer()
            m.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
            m.cornerRadius = 20
            m.backgroundColor = CGColor(gray: 0, alpha: 1)
            let outer = CALayer()
            outer.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
            outer.addSublayer(m)
            l.mask = outer
            l.addSublayer(box(CGRect(x: 0, y: 0, width: 40, height: 10), blue))   // sublayers are masked too
            root.addSublayer(l)
        }
        Golden.check("ca-mask", image)
        #expect(image.premultipliedPixel(x: 11, y: 11) == 0xFFFF_FFFF)   // outside the circle
        #expect(image.premultipliedPixel(x: 30, y: 30) == 0xFFFF_0000)
        #expect(image.premultipliedPixel(x: 30, y: 12) == 0xFF00_00FF)
    }

    @Test func shapeMasksSkipOnlyWhatTheyThrowAway() {
        // A lone shape mask is rasterised first and the masked layer's kernels skip its empty
        // columns; a mask with an (empty) sublayer takes the general path (painted, multiplied,
        // composited whole). Both must give the same pixels: gradients, translucency, sublayers,
        // a shadow (it reads the whole offscreen) and an ancestor's rounded clip. Below the clip,
        // plain gradients go through the mask row by row without an offscreen: alone, translucent,
        // clipped to their own rounded bounds, under a translucent parent, across the frame's edges.
        func scene(general: Bool) -> CGImage {
            render(120, 150) { root in
                let clip = box(CGRect(x: 5, y: 5, width: 110, height: 80), nil)
                clip.masksToBounds = true
                clip.cornerRadius = 18
                root.addSublayer(clip)
                for (i, kind) in ["plain", "translucent", "sublayer", "shadow"].enumerated() {
                    let g = CAGradientLayer()
                    g.frame = CGRect(x: -6 + Double(i) * 30, y: 8 + Double(i % 2) * 22, width: 44, height: 44)
                    g.colors = [red, CGColor(red: 0.2, green: 0.9, blue: 0.1, alpha: 0.6), blue]
                    g.startPoint = CGPoint(x: 0, y: 0.2); g.endPoint = CGPoint(x: 1, y: 0.9)
                    if kind == "translucent" { g.opacity = 0.55 }
                    if kind == "sublayer" { g.addSublayer(box(CGRect(x: 10, y: 30, width: 30, height: 8), green)) }
                    if kind == "shadow" { g.shadowOpacity = 0.8; g.shadowRadius = 3; g.shadowOffset = CGSize(width: 2, height: 4) }
                    let m = CAShapeLayer()
                    m.frame = g.bounds
                    m.path = star(44)
                    if general { m.addSublayer(CALayer()) }
                    g.mask = m
                    clip.addSublayer(g)
                }
                let faded = CALayer()
                faded.frame = CGRect(x: 0, y: 0, width: 120, height: 150)
                faded.opacity = 0.7
                root.addSublayer(faded)
                for (i, kind) in ["left edge", "translucent", "rounded", "faded parent", "right edge"].enumerated() {
                    let g = CAGradientLayer()
                    g.frame = CGRect(x: -14 + Double(i) * 30.3, y: 92.6 + Double(i % 2) * 13, width: 44, height: 44)
                    // Opaque ramps (copied where the mask is full) and one with a translucent middle.
                    g.colors = i % 2 == 0 ? [red, blue] : [red, CGColor(red: 0.2, green: 0.9, blue: 0.1, alpha: 0.6), blue]
                    g.startPoint = CGPoint(x: 0.1, y: 0); g.endPoint = CGPoint(x: 0.8, y: 1)
                    if kind == "translucent" { g.opacity = 0.55 }
                    if kind == "rounded" { g.masksToBounds = true; g.cornerRadius = 12 }
                    let m = CAShapeLayer()
                    m.frame = g.bounds
                    m.path = star(44)
                    if general { m.addSublayer(CALayer()) }
                    g.mask = m
                    (kind == "faded parent" ? faded : root).addSublayer(g)
                }
                // The default vertical gradient (one colour per row) at fractional positions, its
                // own anti-aliased edges under the star's tips: opaque, with a translucent stop,
                // faded, across the frame's left and bottom edges, and through a rectangle with
                // fractional sides (rows of one partial coverage between its edges).
                for (i, kind) in ["opaque", "translucent stop", "faded", "frame edge", "rect"].enumerated() {
                    let g = CAGradientLayer()
                    g.frame = CGRect(x: 6.3 + Double(i) * 27.2, y: 40.45 + Double(i % 2) * 9.3, width: 30.6, height: 30.6)
                    if kind == "frame edge" { g.frame.origin = CGPoint(x: -9.7, y: 131.2) }
                    if kind == "rect" { g.frame.origin = CGPoint(x: 85.6, y: 118.35); g.opacity = 0.8 }
                    g.colors = kind == "translucent stop" ? [red, CGColor(red: 0.2, green: 0.9, blue: 0.1, alpha: 0.6), blue] : [green, blue]
                    if kind == "faded" { g.opacity = 0.45 }
                    let m = CAShapeLayer()
                    m.frame = g.bounds
                    m.path = kind == "rect" ? CGPath(rect: CGRect(x: 2.3, y: 3.4, width: 24.2, height: 20.5), transform: nil) : star(30.6)
                    if general { m.addSublayer(CALayer()) }
                    g.mask = m
                    root.addSublayer(g)
                }
            }
        }
        let fast = scene(general: false), general = scene(general: true)
        #expect(count(fast, 0xFFFF_FFFF) < 120 * 150 - 5000, "the stars are drawn")
        #expect(differingPixels(fast, general) == 0)
    }

    @Test func contentsCenterStretchesOnlyTheMiddle() {
        // A 9×9 image: a 3-px blue frame around a red middle.
        let ctx = makeContext(9, 9)
        ctx.setFillColor(blue); ctx.fill(CGRect(x: 0, y: 0, width: 9, height: 9))
        ctx.setFillColor(red); ctx.fill(CGRect(x: 3, y: 3, width: 3, height: 3))
        let picture = ctx.makeImage()!
        let image = render(60, 40) { root in
            let l = box(CGRect(x: 0, y: 0, width: 60, height: 40), nil)
            l.contents = picture
            l.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
            l.magnificationFilter = .nearest
            root.addSublayer(l)
        }
        Golden.check("ca-contents-center", image)
        // The frame stays 3 px wide at any size; the middle fills the rest.
        #expect(image.premultipliedPixel(x: 2, y: 20) == 0xFF00_00FF && image.premultipliedPixel(x: 3, y: 20) == 0xFFFF_0000)
        #expect(image.premultipliedPixel(x: 56, y: 20) == 0xFFFF_0000 && image.premultipliedPixel(x: 57, y: 20) == 0xFF00_00FF)
        #expect(count(image, 0xFFFF_0000) == 54 * 34)
    }

    /// Renders a layer that turns from red to blue under `transition`, half way through.
    func transitionFrame(_ configure: (CATransition) -> Void) -> CGImage {
        MediaClock.override = 0
        defer { MediaClock.override = nil }
        let r = CARenderer()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        let l = box(CGRect(x: 0, y: 0, width: 40, height: 20), red)
        root.addSublayer(l)
        r.bounds = root.bounds
        r.layer = root
        r.beginFrame(atTime: 0, timeStamp: nil); r.render(); r.endFrame()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        let t = CATransition()
        t.duration = 1
        t.timingFunction = CAMediaTimingFunction(name: .linear)
        configure(t)
        l.add(t, forKey: kCATransition)
        l.backgroundColor = blue
        CATransaction.commit()
        r.beginFrame(atTime: 0, timeStamp: nil); r.render(); r.endFrame()
        r.beginFrame(atTime: 0.5, timeStamp: nil); r.render(); r.endFrame()
        return r.makeImage()!
    }

    @Test func transitionsCrossFadeAndSlide() {
        let fade = transitionFrame { _ in }
        let p = fade.premultipliedPixel(x: 20, y: 10)
        #expect(p >> 24 == 255 && abs(Int((p >> 16) & 255) - 128) <= 1 && abs(Int(p & 255) - 128) <= 1)
        let push = transitionFrame { $0.type = .push; $0.subtype = .fromRight }
        // Half way: the old (red) half has moved left, the new (blue) half fills the right.
        #expect(push.premultipliedPixel(x: 5, y: 10) == 0xFFFF_0000 && push.premultipliedPixel(x: 35, y: 10) == 0xFF00_00FF)
        let moveIn = transitionFrame { $0.type = .moveIn; $0.subtype = .fromLeft }
        #expect(moveIn.premultipliedPixel(x: 5, y: 10) == 0xFF00_00FF && moveIn.premultipliedPixel(x: 35, y: 10) == 0xFFFF_0000)
        let reveal = transitionFrame { $0.type = .reveal; $0.subtype = .fromBottom }
        // fromBottom moves upward: the old content slides up and away, revealing the new below it.
        #expect(reveal.premultipliedPixel(x: 20, y: 2) == 0xFFFF_0000 && reveal.premultipliedPixel(x: 20, y: 18) == 0xFF00_00FF)
    }

    @Test func hugeLayersHugeShadowsAndSingularTransformsStayBounded() {
        let image = render(40, 40) { root in
            let huge = box(CGRect(x: -1e9, y: -1e9, width: 2e9, height: 2e9), red)
            huge.shadowOpacity = 1
            huge.shadowRadius = 1e6            // σ is capped; work stays bounded by the frame
            root.addSublayer(huge)
            let flat = box(CGRect(x: 0, y: 0, width: 20, height: 20), blue)
            flat.transform = CATransform3DMakeScale(0, 1, 1)   // singular: culled
            root.addSublayer(flat)
            let behind = box(CGRect(x: 0, y: 0, width: 20, height: 20), blue)
            var perspective = CATransform3DIdentity
            perspective.m34 = -1 / 500
            // Moved 600 toward a viewer 500 away: w < 0, behind the eye, not drawn.
            behind.transform = CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 600), perspective)
            root.addSublayer(behind)
        }
        #expect(count(image, 0xFFFF_0000) == 40 * 40)
    }

    @Test func shouldRasterizeReusesTheCachedPictureUntilTheLayerChanges() {
        MediaClock.override = 0
        defer { MediaClock.override = nil }
        func scene(_ rasterize: Bool) -> (CARenderer, CALayer, CALayer) {
            let r = CARenderer()
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
            let card = box(CGRect(x: 5, y: 5, width: 50, height: 30), red)
            card.cornerRadius = 8
            card.shouldRasterize = rasterize
            card.addSublayer(box(CGRect(x: 10, y: 10, width: 20, height: 10), blue))
            root.addSublayer(card)
            r.bounds = root.bounds
            r.layer = root
            return (r, root, card)
        }
        func frame(_ r: CARenderer, _ t: Double) -> CGImage {
            r.beginFrame(atTime: t, timeStamp: nil); r.render(); r.endFrame()
            return r.makeImage()!
        }
        let (plain, _, _) = scene(false)
        let (cachedRenderer, _, card) = scene(true)
        let reference = frame(plain, 0)
        let first = frame(cachedRenderer, 0)
        // Nothing changed, so damage tracking would repaint nothing: ask for the whole frame.
        cachedRenderer.addUpdate(cachedRenderer.bounds)
        let second = frame(cachedRenderer, 1)
        #expect(cachedRenderer.rasterCacheHits == 1)
        var same = true
        for y in 0..<40 { for x in 0..<60 where first.premultipliedPixel(x: x, y: y) != reference.premultipliedPixel(x: x, y: y)
            || second.premultipliedPixel(x: x, y: y) != reference.premultipliedPixel(x: x, y: y) { same = false } }
        #expect(same)
        CATransaction.begin(); CATransaction.setDisableActions(true)
        card.backgroundColor = blue
        CATransaction.commit()
        let changed = frame(cachedRenderer, 2)
        #expect(cachedRenderer.rasterCacheHits == 1 && changed.premultipliedPixel(x: 8, y: 20) == 0xFF00_00FF)
    }

    @Test func aContentPictureOutlivesAFewFramesWithoutItsLayer() {
        // A layer that leaves the painted rows for a few frames (another band's rows, or outside
        // the damage) finds its picture again; after more than `Compositor.cacheFrames` frames
        // it is drawn anew.
        let d = FrameDriver(40, 40)
        let shape = CAShapeLayer()
        shape.frame = d.root.bounds
        shape.path = CGPath(ellipseIn: CGRect(x: 5, y: 5, width: 30, height: 30), transform: nil)
        shape.fillRule = .evenOdd   // drawn by CoreGraphics into a picture (a non-zero one is drawn each frame)
        d.root.addSublayer(shape)
        var t = 0.0
        func frames(_ n: Int, hidden: Bool) {
            d.change(at: t) {
                CATransaction.begin(); CATransaction.setDisableActions(true)
                shape.isHidden = hidden
                CATransaction.commit()
            }
            for _ in 0..<n {
                t += 1
                d.renderer.addUpdate(d.renderer.bounds)   // every frame paints (and counts for the cache)
                d.frame(at: t)
            }
        }
        frames(1, hidden: false)
        let drawn = d.renderer.contentCacheHits
        frames(Compositor.cacheFrames - 1, hidden: true)
        frames(1, hidden: false)
        #expect(d.renderer.contentCacheHits == drawn + 1)
        frames(Compositor.cacheFrames + 2, hidden: true)
        frames(1, hidden: false)
        #expect(d.renderer.contentCacheHits == drawn + 1)
    }

    @Test func shapesTheRasteriserDrawsCheaplyAreDrawnEachFrame() {
        // A plain stroked star is drawn again each frame (no picture, no hit); a dashed one and
        // one of more than 256 path elements are cached (a hit in each frame after the first).
        func hits(_ configure: (CAShapeLayer) -> Void) -> Int {
            let d = FrameDriver(60, 60)
            let shape = CAShapeLayer()
            shape.frame = d.root.bounds
            shape.path = star(60)
            shape.strokeColor = CGColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 1)
            shape.lineWidth = 3
            configure(shape)
            d.root.addSublayer(shape)
            for t in 1...3 {
                d.renderer.addUpdate(d.renderer.bounds)   // every frame paints
                _ = d.frame(at: Double(t))
            }
            return d.renderer.contentCacheHits
        }
        #expect(hits { _ in } == 0)
        #expect(hits { $0.lineDashPattern = [4, 2] } == 2)
        #expect(hits { s in
            let p = CGMutablePath()
            p.addPath(s.path!)
            for i in 0..<300 { p.addRect(CGRect(x: Double(i % 50), y: 55, width: 0.5, height: 0.5)) }
            s.path = p
        } == 2)
    }
}
