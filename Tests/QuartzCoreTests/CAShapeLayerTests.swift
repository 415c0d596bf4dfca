// CAShapeLayer: Apple's defaults (opaque black fill, no stroke, width 1, miter limit 10, butt caps,
// miter joins), pixel counts a reader can check by hand, trimming with strokeStart/strokeEnd,
// crisp re-rasterisation under scale, animation of its properties, and bad input.
@testable import QuartzCore
import TestSupport
import Testing

@Suite(.serialized) struct CAShapeLayerTests {
    let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    let white: UInt32 = 0xFFFF_FFFF

    /// An 80 × 60 shape layer at the origin whose path is the rect (10, 10, 40, 30).
    func rectShape(_ configure: (CAShapeLayer) -> Void = { _ in }) -> CGImage {
        renderTree(80, 60) { root in
            let s = CAShapeLayer()
            s.frame = CGRect(x: 0, y: 0, width: 80, height: 60)
            s.path = CGPath(rect: CGRect(x: 10, y: 10, width: 40, height: 30), transform: nil)
            configure(s)
            root.addSublayer(s)
        }
    }

    @Test func defaultsAreApples() {
        let s = CAShapeLayer()
        #expect(s.path == nil && s.fillColor == CGColor.black && s.strokeColor == nil)
        #expect(s.lineWidth == 1 && s.miterLimit == 10 && s.lineCap == .butt && s.lineJoin == .miter)
        #expect(s.fillRule == .nonZero && s.fillRule.rawValue == "non-zero" && CAShapeLayerFillRule.evenOdd.rawValue == "even-odd")
        #expect(s.strokeStart == 0 && s.strokeEnd == 1 && s.lineDashPhase == 0 && s.lineDashPattern == nil)
        #expect(CAShapeLayer.defaultValue(forKey: "lineWidth") as? CGFloat == 1)
        #expect(s.value(forKey: "strokeEnd") as? CGFloat == 1)
        s.setValue(0.25, forKey: "strokeEnd")
        s.setValue("round", forKey: "lineCap")
        #expect(s.strokeEnd == 0.25 && s.lineCap == .round)
    }

    @Test func aMutablePathIsCopiedWhenSet() {
        // As Core Animation: a CGMutablePath changed after it is set changes nothing drawn (the
        // layer holds a copy) until it is set again.
        let grown = CGMutablePath()
        grown.addRect(CGRect(x: 10, y: 10, width: 40, height: 30))
        let image = rectShape { s in
            s.path = grown
            grown.addRect(CGRect(x: 55, y: 5, width: 20, height: 50))
        }
        #expect(countPixels(image, 0xFF00_0000) == 1_200)
        let again = rectShape { s in s.path = grown }
        #expect(countPixels(again, 0xFF00_0000) == 1_200 + 1_000)
        let s = CAShapeLayer()
        s.path = grown
        #expect(s.path == grown && s.path !== grown)
    }

    @Test func pixelCountsOfFillAndStroke() {
        // Fill only (the default): the 40 × 30 rectangle.
        #expect(countPixels(rectShape(), 0xFF00_0000) == 1_200)
        // No fill, no stroke: nothing.
        #expect(countPixels(rectShape { $0.fillColor = nil }, white) == 80 * 60)
        // Stroke only, width 4 centred on the edges: 44 × 34 − 36 × 26.
        let stroke = rectShape { $0.fillColor = nil; $0.strokeColor = self.blue; $0.lineWidth = 4 }
        #expect(countPixels(stroke, 0xFF00_00FF) == 560)
        // Fill and stroke: the stroke covers the outer 2 px of the fill.
        let both = rectShape { $0.fillColor = self.red; $0.strokeColor = self.blue; $0.lineWidth = 4 }
        #expect(countPixels(both, 0xFF00_00FF) == 560 && countPixels(both, 0xFFFF_0000) == 936)
        #expect(countPixels(both) { $0 != self.white } == 1_496)
    }

    @Test func strokeEndAndStartTrimTheStroke() {
        // Half the 140-point perimeter: the top edge and the right edge, butt-capped, mitred at the corner.
        let half = rectShape { $0.fillColor = nil; $0.strokeColor = self.blue; $0.lineWidth = 4; $0.strokeEnd = 0.5 }
        #expect(countPixels(half, 0xFF00_00FF) == 280)
        let otherHalf = rectShape { $0.fillColor = nil; $0.strokeColor = self.blue; $0.lineWidth = 4; $0.strokeStart = 0.5 }
        #expect(countPixels(otherHalf, 0xFF00_00FF) == 280)
        let none = rectShape { $0.fillColor = nil; $0.strokeColor = self.blue; $0.lineWidth = 4; $0.strokeStart = 0.6; $0.strokeEnd = 0.4 }
        #expect(countPixels(none, white) == 80 * 60)
        // The fill is never trimmed.
        let fill = rectShape { $0.strokeEnd = 0 }
        #expect(countPixels(fill, 0xFF00_0000) == 1_200)
    }

    @Test func trimmedCurvesStayOnTheCurve() {
        // A quarter of a circle of radius 10 is 15.7 long; trimming at half ends at 45°.
        let path = CGMutablePath()
        path.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        let half = path.trimmed(from: 0, to: 0.5)
        let end = half.currentPoint
        #expect(abs(end.x - 10 * cos(.pi / 4)) < 0.01 && abs(end.y - 10 * sin(.pi / 4)) < 0.01)
        #expect(path.trimmed(from: 0, to: 1) === path)
    }

    @Test func evenOddLeavesTheHoleAndDashesBreakTheLine() {
        let rings = renderTree(60, 60) { root in
            let s = CAShapeLayer()
            s.frame = root.bounds
            let p = CGMutablePath()
            p.addRect(CGRect(x: 10, y: 10, width: 40, height: 40))
            p.addRect(CGRect(x: 20, y: 20, width: 20, height: 20))
            s.path = p
            s.fillRule = .evenOdd
            root.addSublayer(s)
        }
        #expect(countPixels(rings, 0xFF00_0000) == 1_600 - 400)
        let dashed = renderTree(100, 20) { root in
            let s = CAShapeLayer()
            s.frame = root.bounds
            let p = CGMutablePath()
            p.move(to: CGPoint(x: 0, y: 10)); p.addLine(to: CGPoint(x: 100, y: 10))
            s.path = p
            s.strokeColor = self.blue
            s.lineWidth = 2
            s.lineDashPattern = [10, 10]
            root.addSublayer(s)
        }
        // Five 10-point dashes, 2 px high.
        #expect(countPixels(dashed, 0xFF00_00FF) == 100)
        #expect(dashed.premultipliedPixel(x: 5, y: 9) == 0xFF00_00FF && dashed.premultipliedPixel(x: 15, y: 9) == white)
    }

    @Test func scaledShapesAreRedrawnCrisply() {
        // A 2 × 2 square scaled 4× is an exact 8 × 8 block, not a blurred bitmap.
        let image = renderTree(40, 40) { root in
            let s = CAShapeLayer()
            s.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            s.position = CGPoint(x: 20, y: 20)
            s.transform = CATransform3DMakeScale(4, 4, 1)
            s.path = CGPath(rect: CGRect(x: 1, y: 1, width: 2, height: 2), transform: nil)
            root.addSublayer(s)
        }
        #expect(countPixels(image, 0xFF00_0000) == 64)
        #expect(countPixels(image) { $0 != 0xFF00_0000 && $0 != self.white } == 0)
    }

    @Test func shapesOverflowTheirBoundsUnlessMasked() {
        func scene(_ masks: Bool) -> CGImage {
            renderTree(60, 60) { root in
                let s = CAShapeLayer()
                s.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
                s.path = CGPath(rect: CGRect(x: 10, y: 10, width: 30, height: 30), transform: nil)
                s.masksToBounds = masks
                root.addSublayer(s)
            }
        }
        #expect(countPixels(scene(false), 0xFF00_0000) == 900)
        #expect(countPixels(scene(true), 0xFF00_0000) == 100)
    }

    @Test func strokeEndAnimatesImplicitlyAndPathsMorph() {
        let d = FrameDriver(80, 60)
        let s = CAShapeLayer()
        s.frame = CGRect(x: 0, y: 0, width: 80, height: 60)
        s.path = CGPath(rect: CGRect(x: 10, y: 10, width: 40, height: 30), transform: nil)
        s.fillColor = nil
        s.strokeColor = blue
        s.lineWidth = 4
        s.strokeEnd = 0
        d.change(at: 0) { d.root.addSublayer(s) }
        #expect(countPixels(d.frame(at: 0), 0xFF00_00FF) == 0)
        // Implicit: 0.25 s with the default curve; explicit linear animation to check numbers.
        d.change(at: 1) { s.strokeEnd = 1 }
        #expect(s.animation(forKey: "strokeEnd") is CABasicAnimation)
        s.removeAllAnimations()
        let a = CABasicAnimation(keyPath: "strokeEnd")
        a.fromValue = 0; a.toValue = 1; a.duration = 2; a.beginTime = 1
        a.timingFunction = CAMediaTimingFunction(name: .linear)
        s.add(a, forKey: "draw")
        d.frame(at: 0)
        #expect(countPixels(d.frame(at: 2), 0xFF00_00FF) == 280)      // halfway: half the stroke
        #expect(countPixels(d.frame(at: 3.5), 0xFF00_00FF) == 560)

        let morph = CABasicAnimation(keyPath: "path")
        morph.fromValue = CGPath(rect: CGRect(x: 0, y: 0, width: 20, height: 20), transform: nil)
        morph.toValue = CGPath(rect: CGRect(x: 0, y: 0, width: 60, height: 40), transform: nil)
        morph.duration = 1; morph.beginTime = 10
        morph.timingFunction = CAMediaTimingFunction(name: .linear)
        s.fillColor = red
        s.strokeColor = nil
        s.add(morph, forKey: "morph")
        d.frame(at: 0)
        // Halfway the rectangle is 40 × 30.
        #expect(countPixels(d.frame(at: 10.5), 0xFFFF_0000) == 1_200)
    }

    @Test func badInputIsBounded() {
        let before = CGDiagnostics.count(.nonFiniteGeometry)
        let s = CAShapeLayer()
        s.lineWidth = .nan
        s.strokeEnd = .infinity
        #expect(s.lineWidth == 1 && s.strokeEnd == 1)
        #expect(CGDiagnostics.count(.nonFiniteGeometry) >= before + 2)
        // Zero and negative widths, dash patterns of zeros, empty and huge paths: defined pictures.
        let zero = rectShape { $0.fillColor = nil; $0.strokeColor = self.blue; $0.lineWidth = 0 }
        #expect(countPixels(zero, white) == 80 * 60)
        let negative = rectShape { $0.fillColor = nil; $0.strokeColor = self.blue; $0.lineWidth = -3 }
        #expect(countPixels(negative, white) == 80 * 60)
        let zeros = rectShape { $0.fillColor = nil; $0.strokeColor = self.blue; $0.lineWidth = 4; $0.lineDashPattern = [0, 0] }
        #expect(countPixels(zeros, 0xFF00_00FF) == 560)   // solid, as CGContext draws an invalid pattern
        #expect(countPixels(rectShape { $0.path = CGMutablePath() }, white) == 80 * 60)
        let big = CGMutablePath()
        big.move(to: CGPoint(x: 0, y: 0))
        for i in 0..<100_000 { big.addLine(to: CGPoint(x: Double(i) * 0.0008, y: 30 + 20 * sin(Double(i) * 0.001))) }
        let huge = rectShape { $0.path = big; $0.fillColor = nil; $0.strokeColor = self.blue }
        #expect(countPixels(huge, 0xFF00_00FF) > 0)
    }
}

/// The content layers inside the rest of the compositor: as masks, under clips and perspective,
/// casting shadows, and through `render(in:)`.
@Suite(.serialized) struct ContentLayerCompositingTests {
    let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    func star(in r: CGRect) -> CGPath {
        let p = CGMutablePath()
        for i in 0..<10 {
            let angle = CGFloat(i) * .pi / 5 - .pi / 2
            let radius = i % 2 == 0 ? r.width / 2 : r.width / 5
            let q = CGPoint(x: r.midX + radius * cos(angle), y: r.midY + radius * sin(angle))
            if i == 0 { p.move(to: q) } else { p.addLine(to: q) }
        }
        p.closeSubpath()
        return p
    }

    @Test func shapeAndGradientLayersAsMasks() {
        // A circle-shaped mask leaves only the disc of a red square: π·20² ≈ 1,257 pixels.
        let disc = renderTree(60, 60) { root in
            let l = CALayer()
            l.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
            l.backgroundColor = self.red
            let m = CAShapeLayer()
            m.frame = l.bounds
            m.path = CGPath(ellipseIn: l.bounds, transform: nil)
            l.mask = m
            root.addSublayer(l)
        }
        let reddish = countPixels(disc) { $0 >> 16 & 255 == 255 && $0 & 255 < 128 }
        #expect(abs(reddish - 1_257) < 40)
        #expect(disc.premultipliedPixel(x: 11, y: 11) == 0xFFFF_FFFF)
        // A gradient mask from opaque to clear fades the layer top to bottom.
        let fade = renderTree(10, 100) { root in
            let l = CALayer()
            l.frame = root.bounds
            l.backgroundColor = self.blue
            let m = CAGradientLayer()
            m.frame = l.bounds
            m.colors = [CGColor(gray: 0, alpha: 1), CGColor(gray: 0, alpha: 0)]
            l.mask = m
            root.addSublayer(l)
        }
        let top = fade.premultipliedPixel(x: 5, y: 0), mid = fade.premultipliedPixel(x: 5, y: 50)
        #expect(top & 255 == 255 && top >> 16 & 255 <= 3)
        #expect(abs(Int(mid >> 16 & 255) - 127) <= 2)          // half blue over white
        #expect(fade.premultipliedPixel(x: 5, y: 99) >> 16 & 255 >= 252)
    }

    @Test func aLoneShapeMaskGivesTheSamePixelsAsTheGeneralMaskPath() {
        func scene(general: Bool) -> CGImage {
            renderTree(80, 60) { root in
                let g = CAGradientLayer()
                g.frame = CGRect(x: 4, y: 6, width: 70, height: 50)
                g.colors = [self.red, self.blue]
                let m = CAShapeLayer()
                m.frame = g.bounds
                m.path = self.star(in: CGRect(x: 5.3, y: 2.7, width: 48, height: 48))
                m.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
                if general { m.addSublayer(CALayer()) }   // an (empty) sublayer forces the general path
                g.mask = m
                root.addSublayer(g)
            }
        }
        let fast = scene(general: false), general = scene(general: true)
        var differing = 0
        for y in 0..<60 { for x in 0..<80 where fast.premultipliedPixel(x: x, y: y) != general.premultipliedPixel(x: x, y: y) { differing += 1 } }
        #expect(differing == 0 && countPixels(fast) { $0 != 0xFFFF_FFFF } > 500)
    }

    @Test func shadowsFollowThePathAndClipsAndPerspectiveApply() {
        // A hard shadow offset by (30, 0) repeats the star's pixels, not the layer's bounds.
        let shadowed = renderTree(100, 50) { root in
            let s = CAShapeLayer()
            s.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
            s.path = self.star(in: CGRect(x: 5, y: 5, width: 40, height: 40))
            s.fillColor = self.red
            s.shadowOpacity = 1
            s.shadowRadius = 0
            s.shadowOffset = CGSize(width: 50, height: 0)
            root.addSublayer(s)
        }
        let starPixels = countPixels(shadowed, 0xFFFF_0000)
        #expect(starPixels > 200 && abs(countPixels(shadowed, 0xFF00_0000) - starPixels) <= 2)
        // cornerRadius + masksToBounds on a gradient layer clip it like a plain layer's background.
        let rounded = renderTree(40, 40) { root in
            let g = CAGradientLayer()
            g.frame = root.bounds
            g.colors = [self.red, self.blue]
            g.cornerRadius = 20
            g.masksToBounds = true
            root.addSublayer(g)
        }
        #expect(rounded.premultipliedPixel(x: 1, y: 1) == 0xFFFF_FFFF)
        // Perspective: a shape layer tilted about y is narrower on its far side.
        let tilted = renderTree(100, 100) { root in
            let s = CAShapeLayer()
            s.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
            s.path = CGPath(rect: s.bounds, transform: nil)
            var t = CATransform3DIdentity
            t.m34 = -1 / 200
            s.transform = CATransform3DRotate(t, .pi / 4, 0, 1, 0)
            root.addSublayer(s)
        }
        func column(_ x: Int) -> Int { (0..<100).filter { tilted.premultipliedPixel(x: x, y: $0) == 0xFF00_0000 }.count }
        #expect(column(35) != column(65) && min(column(35), column(65)) > 30)
        Golden.check("shape-perspective", tilted)
    }

    @Test func renderInContextMatchesTheRenderer() {
        func build(_ root: CALayer) {
            let s = CAShapeLayer()
            s.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
            s.path = star(in: CGRect(x: 10, y: 0, width: 40, height: 40))
            s.fillColor = red
            s.strokeColor = blue
            s.lineWidth = 2
            let g = CAGradientLayer()
            g.frame = CGRect(x: 60, y: 0, width: 40, height: 40)
            g.colors = [red, blue]
            g.cornerRadius = 8
            let t = CATextLayer()
            t.frame = CGRect(x: 0, y: 40, width: 100, height: 20)
            t.foregroundColor = blue
            t.fontSize = 12
            t.string = "render(in:)"
            root.addSublayer(s); root.addSublayer(g); root.addSublayer(t)
        }
        let viaRenderer = renderTree(100, 60, build)
        Golden.check("content-layers", viaRenderer)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 60)
        root.backgroundColor = CGColor(gray: 1, alpha: 1)
        build(root)
        let ctx = CGContext(data: nil, width: 100, height: 60, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(),
                            bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
        ctx.translateBy(x: 0, y: 60)
        ctx.scaleBy(x: 1, y: -1)
        root.render(in: ctx)
        let viaContext = ctx.makeImage()!
        var differing = 0
        for y in 0..<60 { for x in 0..<100 where viaRenderer.premultipliedPixel(x: x, y: y) != viaContext.premultipliedPixel(x: x, y: y) { differing += 1 } }
        #expect(differing == 0)
    }
}
