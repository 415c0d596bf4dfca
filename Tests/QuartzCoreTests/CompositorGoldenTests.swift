// One golden scene per visual property value of the compositor (exact match): every
// contentsGravity, every transition type and direction, each masked corner, shadow variants,
// filters (nearest, linear, trilinear), edge anti-aliasing masks, rasterization scales, group
// opacity, double-sidedness, perspective, flipped geometry, contentsRect/contentsScale and
// backing stores from display(). Numeric checks sit beside the pictures where a reader can
// reason about the pixels.
@testable import QuartzCore
import TestSupport
import Testing
import Foundation

@Suite(.serialized) struct CompositorGoldenTests {
    let warm = CGColor(red: 0.95, green: 0.55, blue: 0.2, alpha: 1)
    let cool = CGColor(red: 0.2, green: 0.45, blue: 0.85, alpha: 1)
    let leaf = CGColor(red: 0.25, green: 0.7, blue: 0.4, alpha: 1)

    /// A 24 × 16 test picture: a warm left half, a cool right half, a leaf-green top-left quarter.
    var picture: CGImage {
        let ctx = CGContext(data: nil, width: 24, height: 16, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(),
                            bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
        ctx.setFillColor(warm); ctx.fill(CGRect(x: 0, y: 0, width: 12, height: 16))
        ctx.setFillColor(cool); ctx.fill(CGRect(x: 12, y: 0, width: 12, height: 16))
        ctx.setFillColor(leaf); ctx.fill(CGRect(x: 0, y: 8, width: 12, height: 8))   // y up: the top rows
        return ctx.makeImage()!
    }

    func layer(_ f: CGRect, _ c: CGColor?) -> CALayer {
        let l = CALayer(); l.frame = f; l.backgroundColor = c; return l
    }

    static let gravities: [CALayerContentsGravity] = [.center, .top, .bottom, .left, .right, .topLeft, .topRight,
                                                      .bottomLeft, .bottomRight, .resize, .resizeAspect, .resizeAspectFill]

    @Test(arguments: gravities)
    func contentsGravity(_ g: CALayerContentsGravity) {
        let image = renderTree(60, 44) { root in
            let l = self.layer(CGRect(x: 4, y: 4, width: 52, height: 36), CGColor(gray: 0.85, alpha: 1))
            l.contents = self.picture
            l.contentsGravity = g
            root.addSublayer(l)
        }
        Golden.check("ca-gravity-\(g.rawValue)", image)
    }

    static let transitions: [(CATransitionType, CATransitionSubtype?)] = [(.fade, nil)]
        + [CATransitionType.moveIn, .push, .reveal].flatMap { t in
            [CATransitionSubtype.fromLeft, .fromRight, .fromTop, .fromBottom].map { (t, Optional($0)) }
        }

    @Test(arguments: 0..<transitions.count)
    func transitionHalfway(_ i: Int) {
        let (type, subtype) = Self.transitions[i]
        MediaClock.override = 0
        defer { MediaClock.override = nil }
        let r = CARenderer()
        let root = layer(CGRect(x: 0, y: 0, width: 48, height: 32), CGColor(gray: 1, alpha: 1))
        let card = layer(CGRect(x: 8, y: 6, width: 32, height: 20), warm)
        card.addSublayer(layer(CGRect(x: 2, y: 2, width: 8, height: 8), leaf))
        root.addSublayer(card)
        r.bounds = root.bounds
        r.layer = root
        r.beginFrame(atTime: 0, timeStamp: nil); r.render(); r.endFrame()
        CATransaction.begin(); CATransaction.setDisableActions(true)
        let t = CATransition()
        t.type = type; t.subtype = subtype; t.duration = 1
        t.timingFunction = CAMediaTimingFunction(name: .linear)
        card.add(t, forKey: kCATransition)
        card.backgroundColor = cool
        CATransaction.commit()
        r.beginFrame(atTime: 0.5, timeStamp: nil); r.render(); r.endFrame()
        Golden.check("ca-transition-\(type.rawValue)\(subtype.map { "-" + $0.rawValue } ?? "")", r.makeImage()!)
    }

    @Test(arguments: [CACornerMask.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner])
    func oneRoundedCorner(_ corner: CACornerMask) {
        let image = renderTree(40, 40) { root in
            let l = self.layer(CGRect(x: 4, y: 4, width: 32, height: 32), self.cool)
            l.cornerRadius = 14
            l.maskedCorners = corner
            l.borderWidth = 3
            l.borderColor = self.warm
            root.addSublayer(l)
        }
        Golden.check("ca-corner-\(corner.rawValue)", image)
    }

    @Test(arguments: [0, 1, 2, 3, 4])
    func shadowVariants(_ variant: Int) {
        let image = renderTree(64, 56) { root in
            let l = self.layer(CGRect(x: 14, y: 10, width: 30, height: 26), self.cool)
            l.cornerRadius = 6
            l.shadowOpacity = 0.8
            switch variant {
            case 0: l.shadowRadius = 0; l.shadowOffset = CGSize(width: 6, height: 6)      // hard
            case 1: l.shadowRadius = 2; l.shadowOffset = CGSize(width: 0, height: 4)
            case 2: l.shadowRadius = 9; l.shadowOffset = .zero                            // wide, all around
            case 3: l.shadowColor = self.warm; l.shadowRadius = 4; l.shadowOffset = CGSize(width: -4, height: 3)
            default:
                l.shadowRadius = 3; l.shadowOffset = .zero
                l.shadowPath = CGPath(ellipseIn: CGRect(x: -6, y: 22, width: 42, height: 10), transform: nil)
            }
            root.addSublayer(l)
        }
        Golden.check("ca-shadow-\(variant)", image)
    }

    /// A 128 × 128 image of one-texel black and white checks.
    var checks: CGImage {
        var bytes = [UInt8](repeating: 255, count: 128 * 128 * 4)
        for y in 0..<128 { for x in 0..<128 where (x + y) % 2 == 1 { let i = (y * 128 + x) * 4; bytes[i] = 0; bytes[i + 1] = 0; bytes[i + 2] = 0 } }
        return CGImage(width: 128, height: 128, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 512,
                       space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue),
                       provider: CGDataProvider(data: Data(bytes) as CFData)!, decode: nil, shouldInterpolate: true, intent: .defaultIntent)!
    }

    @Test(arguments: [CALayerContentsFilter.nearest, .linear, .trilinear])
    func minificationFilters(_ filter: CALayerContentsFilter) {
        // 128 texels onto 20 pixels (6.4 texels per pixel): only trilinear averages them out to grey.
        let image = renderTree(24, 24) { root in
            let l = self.layer(CGRect(x: 2, y: 2, width: 20, height: 20), nil)
            l.contents = self.checks
            l.minificationFilter = filter
            root.addSublayer(l)
        }
        Golden.check("ca-filter-\(filter.rawValue)", image)
        var lo = 255, hi = 0, sum = 0
        for y in 2..<22 { for x in 2..<22 { let v = Int(image.premultipliedPixel(x: x, y: y) & 255); lo = min(lo, v); hi = max(hi, v); sum += v } }
        if filter == .trilinear {
            #expect(hi - lo <= 8 && abs(sum / 400 - 128) <= 4)
        } else {
            #expect(hi - lo > 40)    // aliasing: some pixels hit mostly black or mostly white texels
        }
    }

    @Test func edgeAntialiasingMaskKeepsUnmaskedEdgesSharp() {
        func turned(_ mask: CAEdgeAntialiasingMask) -> CGImage {
            renderTree(60, 60) { root in
                let l = self.layer(CGRect(x: 15, y: 15, width: 30, height: 30), CGColor(gray: 0, alpha: 1))
                l.allowsEdgeAntialiasing = true
                l.edgeAntialiasingMask = mask
                l.setAffineTransform(CGAffineTransform(rotationAngle: 0.3))
                root.addSublayer(l)
            }
        }
        func partial(_ i: CGImage) -> Int { countPixels(i) { $0 != 0xFFFF_FFFF && $0 != 0xFF00_0000 } }
        let all = turned([.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge])
        let sides = turned([.layerLeftEdge, .layerRightEdge])
        let none = turned([])
        Golden.check("ca-edge-aa-left-right", sides)
        #expect(partial(all) > partial(sides) && partial(sides) > 0 && partial(none) == 0)
    }

    @Test func rasterizationScaleSetsTheBitmapResolutionAndTheBitmapIsReused() {
        MediaClock.override = 0
        defer { MediaClock.override = nil }
        func scene(_ rasterize: Bool, scale: CGFloat) -> (CARenderer, CALayer) {
            let r = CARenderer()
            let root = layer(CGRect(x: 0, y: 0, width: 80, height: 80), CGColor(gray: 1, alpha: 1))
            let l = layer(CGRect(x: 30, y: 30, width: 20, height: 20), nil)
            l.addSublayer(layer(CGRect(x: 3, y: 3, width: 7, height: 7), CGColor(gray: 0, alpha: 1)))
            l.transform = CATransform3DMakeScale(3, 3, 1)
            l.shouldRasterize = rasterize
            l.rasterizationScale = scale
            root.addSublayer(l)
            r.bounds = root.bounds
            r.layer = root
            r.beginFrame(atTime: 0, timeStamp: nil); r.render(); r.endFrame()
            return (r, l)
        }
        func grey(_ r: CARenderer) -> Int { countPixels(r.makeImage()!) { $0 != 0xFFFF_FFFF && $0 != 0xFF00_0000 } }
        let (crisp, _) = scene(false, scale: 1)
        let (soft, _) = scene(true, scale: 1)     // a 20-point bitmap magnified 3×: soft edges
        let (sharp, l) = scene(true, scale: 3)    // rasterized at the size it is shown: crisp again
        Golden.check("ca-rasterize-scale-1", soft.makeImage()!)
        #expect(grey(crisp) == 0 && grey(soft) > 20 && grey(sharp) == 0)
        // Moving and turning the rasterized layer reuses its bitmap.
        let hits = sharp.rasterCacheHits
        CATransaction.begin(); CATransaction.setDisableActions(true)
        l.position.x += 5
        l.transform = CATransform3DRotate(l.transform, 0.2, 0, 0, 1)
        CATransaction.commit()
        sharp.beginFrame(atTime: 1, timeStamp: nil); sharp.render(); sharp.endFrame()
        #expect(sharp.rasterCacheHits == hits + 1)
    }

    @Test func groupOpacityDoubleSidedPerspectiveAndFlippedGeometry() {
        for grouped in [true, false] {
            let image = renderTree(50, 40) { root in
                let g = self.layer(CGRect(x: 5, y: 5, width: 40, height: 30), nil)
                g.opacity = 0.5
                g.allowsGroupOpacity = grouped
                g.addSublayer(self.layer(CGRect(x: 0, y: 0, width: 26, height: 20), self.warm))
                g.addSublayer(self.layer(CGRect(x: 14, y: 10, width: 26, height: 20), self.cool))
                root.addSublayer(g)
            }
            Golden.check("ca-group-opacity-\(grouped)", image)
        }
        for doubleSided in [true, false] {
            let image = renderTree(50, 40) { root in
                let l = self.layer(CGRect(x: 10, y: 8, width: 30, height: 24), self.leaf)
                var t = CATransform3DIdentity
                t.m34 = -1 / 200
                l.transform = CATransform3DRotate(t, .pi * 0.8, 0, 1, 0)   // facing away
                l.isDoubleSided = doubleSided
                root.addSublayer(l)
            }
            Golden.check("ca-double-sided-\(doubleSided)", image)
            #expect((countPixels(image, 0xFFFF_FFFF) == 50 * 40) == !doubleSided)
        }
        let perspective = renderTree(80, 60) { root in
            let holder = self.layer(root.bounds, nil)
            var p = CATransform3DIdentity
            p.m34 = -1 / 150
            holder.sublayerTransform = p
            for (i, c) in [self.warm, self.cool, self.leaf].enumerated() {
                let l = self.layer(CGRect(x: 6 + CGFloat(i) * 24, y: 15, width: 20, height: 30), c)
                l.transform = CATransform3DMakeRotation(0.9, 0, 1, 0)
                holder.addSublayer(l)
            }
            root.addSublayer(holder)
        }
        Golden.check("ca-sublayer-perspective", perspective)
        let flipped = renderTree(50, 40) { root in
            let l = self.layer(CGRect(x: 5, y: 5, width: 40, height: 30), nil)
            l.isGeometryFlipped = true
            l.contents = self.picture
            l.addSublayer(self.layer(CGRect(x: 2, y: 2, width: 10, height: 6), CGColor(gray: 0, alpha: 1)))
            root.addSublayer(l)
        }
        Golden.check("ca-geometry-flipped", flipped)
    }

    @Test func contentsRectScaleAndBackingStores() {
        let rect = renderTree(40, 30) { root in
            let l = self.layer(CGRect(x: 4, y: 4, width: 32, height: 22), nil)
            l.contents = self.picture
            l.contentsRect = CGRect(x: 0.25, y: 0, width: 0.5, height: 0.5)
            l.magnificationFilter = .nearest
            root.addSublayer(l)
        }
        Golden.check("ca-contents-rect", rect)
        let scaled = renderTree(40, 30) { root in
            let l = self.layer(CGRect(x: 4, y: 4, width: 32, height: 22), CGColor(gray: 0.85, alpha: 1))
            l.contents = self.picture
            l.contentsScale = 2
            l.contentsGravity = .center
            root.addSublayer(l)
        }
        Golden.check("ca-contents-scale-2", scaled)
        // Exactly 12 × 8 points of picture at scale 2.
        #expect(countPixels(scaled) { $0 != 0xFFD9_D9D9 && $0 != 0xFFFF_FFFF } == 12 * 8)
        final class Painter: NSObject, CALayerDelegate {
            func draw(_ layer: CALayer, in ctx: CGContext) {
                ctx.setFillColor(CGColor(red: 0.2, green: 0.45, blue: 0.85, alpha: 1))
                ctx.fillEllipse(in: layer.bounds.insetBy(dx: 3, dy: 3))
                ctx.setStrokeColor(CGColor(red: 0.95, green: 0.55, blue: 0.2, alpha: 1))
                ctx.setLineWidth(2)
                ctx.move(to: CGPoint(x: 2, y: 2)); ctx.addLine(to: CGPoint(x: 30, y: 10))   // y down: a line sloping down
                ctx.strokePath()
            }
        }
        let painter = Painter()
        let drawn = renderTree(44, 32) { root in
            let l = self.layer(CGRect(x: 4, y: 4, width: 36, height: 24), nil)
            l.delegate = painter
            l.setNeedsDisplay()
            l.displayIfNeeded()
            root.addSublayer(l)
        }
        Golden.check("ca-backing-store", drawn)
        withExtendedLifetime(painter) {}
    }
}
