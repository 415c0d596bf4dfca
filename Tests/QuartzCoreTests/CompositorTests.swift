// Pixels of the compositor through CARenderer and render(in:). Apple's order: background,
// contents, sublayers, border on top; border inset inside bounds following the corners;
// masksToBounds clips sublayers (rounded with cornerRadius); a translucent layer with sublayers
// composites as one image when allowsGroupOpacity; single-sided layers facing away are not drawn.
@testable import LayerRender
@testable import QuartzCore
import TestSupport
import Testing

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
}
