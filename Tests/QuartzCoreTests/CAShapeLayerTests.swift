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
