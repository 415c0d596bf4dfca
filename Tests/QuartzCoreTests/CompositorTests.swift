// Pixels of the compositor through CARenderer and render(in:). Apple's order: background,
// contents, sublayers, border on top; border inset inside bounds following the corners;
// masksToBounds clips sublayers (rounded with cornerRadius); a translucent layer with sublayers
// composites as one image when allowsGroupOpacity; single-sided layers facing away are not drawn.
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

@Suite(.serialized) struct CompositorTests {
    let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    let green = CGColor(red: 0, green: 0.6, blue: 0, alpha: 1)

    func render(_ w: Int, _ h: Int, at time: Double = 0, _ build: (CALayer) -> Void) -> CGImage {
        renderTree(w, h, at: time, build)
    }

    func count(_ image: CGImage, _ color: UInt32) -> Int { countPixels(image, color) }

    func box(_ frame: CGRect, _ color: CGColor?) -> CALayer {
        let l = CALayer(); l.frame = frame; l.backgroundColor = color; return l
    }

    @Test func axisAlignedLayersArePixelExact() {
        let image = render(20, 20) { $0.addSublayer(box(CGRect(x: 5, y: 5, width: 10, height: 10), red)) }
        #expect(count(image, 0xFFFF_0000) == 100)
        #expect(count(image, 0xFFFF_FFFF) == 300)
        #expect(image.premultipliedPixel(x: 5, y: 5) == 0xFFFF_0000 && image.premultipliedPixel(x: 4, y: 5) == 0xFFFF_FFFF)
    }

    @Test func borderIsInsetAndDrawnAboveSublayers() {
        let image = render(20, 20) { root in
            let l = box(CGRect(x: 0, y: 0, width: 20, height: 20), nil)
            l.borderWidth = 2
            l.borderColor = blue
            l.addSublayer(box(CGRect(x: 0, y: 0, width: 20, height: 20), red))
            root.addSublayer(l)
        }
        #expect(count(image, 0xFF00_00FF) == 400 - 256)   // the 2-px ring
        #expect(count(image, 0xFFFF_0000) == 256)         // the child shows inside it only
    }

    @Test func cornersBordersAndMaskedCorners() {
        let image = render(120, 60) { root in
            let a = box(CGRect(x: 5, y: 5, width: 50, height: 50), red)
            a.cornerRadius = 12
            a.borderWidth = 3
            a.borderColor = blue
            let b = box(CGRect(x: 65, y: 5, width: 50, height: 50), green)
            b.cornerRadius = 20
            b.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
            root.addSublayer(a); root.addSublayer(b)
        }
        Golden.check("ca-corners-borders", image)
        #expect(image.premultipliedPixel(x: 6, y: 6) == 0xFFFF_FFFF)      // rounded corner is empty
        #expect(image.premultipliedPixel(x: 113, y: 6) != 0xFFFF_FFFF)    // unmasked corner stays square
    }

    @Test func masksToBoundsClipsSublayersToTheRoundedBounds() {
        let image = render(60, 60) { root in
            let clip = box(CGRect(x: 10, y: 10, width: 40, height: 40), nil)
            clip.masksToBounds = true
            clip.cornerRadius = 20
            clip.addSublayer(box(CGRect(x: -10, y: -10, width: 60, height: 60), red))
            root.addSublayer(clip)
        }
        Golden.check("ca-masks-to-bounds", image)
        #expect(image.premultipliedPixel(x: 11, y: 11) == 0xFFFF_FFFF && image.premultipliedPixel(x: 30, y: 30) == 0xFFFF_0000)
        #expect(count(image, 0xFFFF_0000) < 40 * 40 && count(image, 0xFFFF_0000) > 1100)   // ≈ π·20² = 1257
    }

    @Test func groupOpacityCompositesTheSubtreeOnce() {
        func scene(_ group: Bool) -> CGImage {
            render(40, 20) { root in
                let parent = box(CGRect(x: 0, y: 0, width: 40, height: 20), nil)
                parent.opacity = 0.5
                parent.allowsGroupOpacity = group
                parent.addSublayer(box(CGRect(x: 0, y: 0, width: 25, height: 20), red))
                parent.addSublayer(box(CGRect(x: 15, y: 0, width: 25, height: 20), red))
                root.addSublayer(parent)
            }
        }
        let grouped = scene(true), separate = scene(false)
        // As one image, the overlap is as light as the rest; separately it is darker.
        #expect(grouped.premultipliedPixel(x: 20, y: 10) == grouped.premultipliedPixel(x: 5, y: 10))
        #expect(separate.premultipliedPixel(x: 20, y: 10) != separate.premultipliedPixel(x: 5, y: 10))
        #expect(grouped.premultipliedPixel(x: 5, y: 10) == 0xFFFF_7F7F || grouped.premultipliedPixel(x: 5, y: 10) == 0xFFFF_8080)
    }

    @Test func zPositionHiddenAndSingleSidedCulling() {
        let image = render(30, 10) { root in
            let a = box(CGRect(x: 0, y: 0, width: 10, height: 10), red)
            a.zPosition = 1
            root.addSublayer(a)
            root.insertSublayer(box(CGRect(x: 0, y: 0, width: 10, height: 10), blue), above: a)   // later, but lower z
            let hidden = box(CGRect(x: 10, y: 0, width: 10, height: 10), blue)
            hidden.isHidden = true
            root.addSublayer(hidden)
            let back = box(CGRect(x: 20, y: 0, width: 10, height: 10), blue)
            back.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
            back.isDoubleSided = false
            root.addSublayer(back)
        }
        #expect(image.premultipliedPixel(x: 5, y: 5) == 0xFFFF_0000)
        #expect(image.premultipliedPixel(x: 15, y: 5) == 0xFFFF_FFFF && image.premultipliedPixel(x: 25, y: 5) == 0xFFFF_FFFF)
    }

    @Test func affineAndPerspectiveTransforms() {
        let image = render(160, 80) { root in
            let rotated = box(CGRect(x: 20, y: 20, width: 40, height: 40), red)
            rotated.transform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
            rotated.allowsEdgeAntialiasing = true
            rotated.borderWidth = 2
            rotated.borderColor = blue
            let stage = box(CGRect(x: 80, y: 0, width: 80, height: 80), nil)
            var p = CATransform3DIdentity
            p.m34 = -1 / 200
            stage.sublayerTransform = p
            let card = box(CGRect(x: 15, y: 15, width: 50, height: 50), green)
            card.transform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
            card.allowsEdgeAntialiasing = true
            stage.addSublayer(card)
            root.addSublayer(rotated); root.addSublayer(stage)
        }
        Golden.check("ca-transforms", image)
        // The card's left edge comes nearer under perspective: it is taller than the right edge.
        func column(_ x: Int) -> Int { (0..<80).filter { image.premultipliedPixel(x: x, y: $0) != 0xFFFF_FFFF }.count }
        #expect(column(101) > column(134) && column(134) > 0)
    }

    @Test func contentsGravityPlacesTheImage() {
        // A 10×6 image: red with a blue top row, so orientation is visible.
        let ctx = CGContext(data: nil, width: 10, height: 6, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(),
                            bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
        ctx.setFillColor(red); ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 6))
        ctx.setFillColor(blue); ctx.fill(CGRect(x: 0, y: 5, width: 10, height: 1))
        let picture = ctx.makeImage()!
        let gravities: [CALayerContentsGravity] = [.center, .top, .bottom, .left, .right, .topLeft, .topRight,
                                                   .bottomLeft, .bottomRight, .resize, .resizeAspect, .resizeAspectFill]
        let image = render(4 * 30, 3 * 30) { root in
            for (i, g) in gravities.enumerated() {
                let l = box(CGRect(x: CGFloat(i % 4) * 30 + 3, y: CGFloat(i / 4) * 30 + 3, width: 24, height: 24),
                            CGColor(gray: 0.85, alpha: 1))
                l.contents = picture
                l.contentsGravity = g
                l.magnificationFilter = .nearest
                root.addSublayer(l)
            }
        }
        Golden.check("ca-contents-gravity", image)
        // center: the 10×6 image sits in the middle, its first row (blue) on top.
        #expect(image.premultipliedPixel(x: 3 + 7, y: 3 + 9) == 0xFF00_00FF)
        #expect(image.premultipliedPixel(x: 3 + 7, y: 3 + 10) == 0xFFFF_0000)
        // top = maximum y (Apple's layer-coordinate names): the image touches the bottom edge.
        #expect(image.premultipliedPixel(x: 30 + 3 + 12, y: 3 + 23) == 0xFFFF_0000)
    }

    @Test func renderInContextMatchesTheRenderer() {
        func build(_ root: CALayer) {
            let a = box(CGRect(x: 4, y: 4, width: 30, height: 20), red)
            a.cornerRadius = 6
            a.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
            a.allowsEdgeAntialiasing = true
            root.addSublayer(a)
            root.addSublayer(box(CGRect(x: 20, y: 14, width: 16, height: 12), blue))
        }
        let viaRenderer = render(40, 30, build)
        let root = CALayer()
        root.frame = CGRect(x: 100, y: 100, width: 40, height: 30)   // position is ignored by render(in:)
        root.backgroundColor = CGColor(gray: 1, alpha: 1)
        build(root)
        let ctx = makeContext(40, 30)
        ctx.translateBy(x: 0, y: 30)
        ctx.scaleBy(x: 1, y: -1)   // a y-down context, as UIKit hands out
        root.render(in: ctx)
        let viaContext = ctx.makeImage()!
        var same = true
        for y in 0..<30 { for x in 0..<40 where viaRenderer.premultipliedPixel(x: x, y: y) != viaContext.premultipliedPixel(x: x, y: y) { same = false } }
        #expect(same)
    }

    @Test func aFrameMidAnimationShowsTheInterpolatedPosition() {
        MediaClock.override = 0
        defer { MediaClock.override = nil }
        let r = CARenderer()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 10)
        let dot = box(CGRect(x: 0, y: 0, width: 10, height: 10), red)
        root.addSublayer(dot)
        r.bounds = root.bounds
        r.layer = root
        r.beginFrame(atTime: 0, timeStamp: nil); r.render(); r.endFrame()
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = 5; a.toValue = 85; a.duration = 1
        dot.add(a, forKey: nil)
        r.beginFrame(atTime: 0, timeStamp: nil); r.render(); r.endFrame()
        r.beginFrame(atTime: 0.5, timeStamp: nil); r.render(); r.endFrame()
        let image = r.makeImage()!
        // Halfway: x = 45, so the 10-px square covers pixels 40..<50.
        #expect(image.premultipliedPixel(x: 40, y: 5) == 0xFFFF_0000 && image.premultipliedPixel(x: 49, y: 5) == 0xFFFF_0000)
        #expect(image.premultipliedPixel(x: 39, y: 5) == 0 && image.premultipliedPixel(x: 50, y: 5) == 0)
    }

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

/// Two-core frames: the same pixels as one thread, including shadows, masks, transitions,
/// particles and content layers that cross the line between the bands.
@Suite(.serialized) struct BandedRenderingTests {
    func frame(threads: Int, at time: Double, share: Double? = nil) -> CGImage {
        MediaClock.override = 0
        defer { MediaClock.override = nil }
        let r = CARenderer()
        r.compositor.threads = threads
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 240, height: 200)
        root.backgroundColor = CGColor(gray: 0.9, alpha: 1)
        for i in 0..<6 {
            let l = CALayer()
            l.frame = CGRect(x: 10 + i * 38, y: 70 + (i % 3) * 12, width: 34, height: 50)
            l.backgroundColor = CGColor(red: CGFloat(i) / 6, green: 0.4, blue: 0.8, alpha: 1)
            l.cornerRadius = 8
            l.shadowOpacity = 0.8
            l.shadowRadius = 6
            l.shadowOffset = CGSize(width: 3, height: 9)
            l.transform = CATransform3DMakeRotation(CGFloat(i) * 0.2, 0, 0, 1)
            root.addSublayer(l)
        }
        let g = CAGradientLayer()
        g.frame = CGRect(x: 20, y: 130, width: 200, height: 60)
        g.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        let m = CAShapeLayer()
        m.frame = g.bounds
        m.path = CGPath(ellipseIn: g.bounds, transform: nil)
        g.mask = m
        root.addSublayer(g)
        // Overlapping, turning, differently coloured particles across the band line, drawn in
        // strips (unordered): each band must draw the ones it shares in the same order.
        let sparks = CAEmitterLayer()
        sparks.frame = root.bounds
        sparks.emitterPosition = CGPoint(x: 120, y: 100)
        sparks.emitterShape = .rectangle
        sparks.emitterSize = CGSize(width: 220, height: 180)
        let cell = CAEmitterCell()
        cell.contents = CAEmitterLayerTests.square
        cell.birthRate = 2000; cell.lifetime = 1; cell.scale = 2; cell.spin = 3; cell.spinRange = 3
        cell.color = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.8)
        cell.redRange = 0.5; cell.greenRange = 0.5; cell.blueRange = 0.5
        sparks.emitterCells = [cell]
        root.addSublayer(sparks)
        let card = CALayer()
        card.frame = CGRect(x: 60, y: 60, width: 120, height: 80)
        card.backgroundColor = CGColor(red: 0.2, green: 0.7, blue: 0.3, alpha: 1)
        root.addSublayer(card)
        r.bounds = root.bounds
        r.layer = root
        r.beginFrame(atTime: 0, timeStamp: nil); r.render(); r.endFrame()
        let t = CATransition()
        t.type = .push; t.subtype = .fromTop; t.duration = 1
        card.add(t, forKey: kCATransition)
        card.backgroundColor = CGColor(red: 0.9, green: 0.5, blue: 0.1, alpha: 1)
        if let share { r.compositor.bandShare = share }
        r.beginFrame(atTime: time, timeStamp: nil); r.render(); r.endFrame()
        return r.makeImage()!
    }

    @Test func twoBandsPaintTheSamePixelsAsOne() {
        // Wherever the bands meet: the middle, and the split moved as far as it goes either way.
        for time in [0.0, 0.4] {
            let one = frame(threads: 1, at: time)
            for share in [nil, 0.25, 0.75] {
                let two = frame(threads: 2, at: time, share: share)
                var differing = 0
                for y in 0..<200 { for x in 0..<240 where one.premultipliedPixel(x: x, y: y) != two.premultipliedPixel(x: x, y: y) { differing += 1 } }
                #expect(differing == 0, "share \(share.map(String.init(describing:)) ?? "0.5")")
            }
        }
    }

    @Test func anyWorkerCountPaintsTheSamePixels() {
        // A worker count of 0 (or less) paints on one thread, any count above 1 in two bands:
        // bad counts are clamped, never refused, and never change a pixel.
        let one = frame(threads: 1, at: 0.4)
        for threads in [0, -5, 3, 7, 1_000] {
            let other = frame(threads: threads, at: 0.4)
            var differing = 0
            for y in 0..<200 { for x in 0..<240 where one.premultipliedPixel(x: x, y: y) != other.premultipliedPixel(x: x, y: y) { differing += 1 } }
            #expect(differing == 0, "threads \(threads)")
        }
    }
}
