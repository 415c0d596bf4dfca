// Apple: frame is derived (the bounding box of bounds transformed about the anchor point);
// setting it under a transform changes bounds and position so that it reads back, and
// bounds.origin never moves the layer itself. sublayerTransform acts about the anchor point.
import QuartzCore
import Testing

@Suite struct CALayerGeometryTests {
    func near(_ a: CGPoint, _ b: CGPoint, _ eps: CGFloat = 1e-9) -> Bool { abs(a.x - b.x) <= eps && abs(a.y - b.y) <= eps }
    func near(_ a: CGRect, _ b: CGRect, _ eps: CGFloat = 1e-9) -> Bool {
        near(a.origin, b.origin, eps) && abs(a.width - b.width) <= eps && abs(a.height - b.height) <= eps
    }

    @Test func frameIsDerivedFromBoundsPositionAndAnchor() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        l.position = CGPoint(x: 200, y: 300)
        #expect(l.frame == CGRect(x: 150, y: 275, width: 100, height: 50))
        l.transform = CATransform3DMakeScale(2, 4, 1)
        #expect(l.frame == CGRect(x: 100, y: 200, width: 200, height: 200))
        l.transform = CATransform3DIdentity
        l.anchorPoint = .zero
        #expect(l.frame == CGRect(x: 200, y: 300, width: 100, height: 50))
    }

    @Test func settingFrameKeepsBoundsOrigin() {
        let l = CALayer()
        l.bounds = CGRect(x: 7, y: 9, width: 1, height: 1)
        l.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        #expect(l.bounds == CGRect(x: 7, y: 9, width: 30, height: 40))
        #expect(l.position == CGPoint(x: 25, y: 40))
        #expect(l.frame == CGRect(x: 10, y: 20, width: 30, height: 40))
    }

    @Test func settingFrameUnderATransformReadsBack() {
        let l = CALayer()
        l.transform = CATransform3DMakeScale(2, 4, 1)
        l.frame = CGRect(x: 100, y: 200, width: 200, height: 200)
        #expect(l.bounds.size == CGSize(width: 100, height: 50))
        #expect(l.position == CGPoint(x: 200, y: 300))
        l.transform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        l.frame = CGRect(x: 10, y: 10, width: 120, height: 80)
        #expect(near(l.frame, CGRect(x: 10, y: 10, width: 120, height: 80), 1e-9))
    }

    @Test func rotatedFrameIsTheBoundingBox() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        l.position = CGPoint(x: 50, y: 50)
        l.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        let d = 100 * 2.0.squareRoot()
        #expect(near(l.frame, CGRect(x: 50 - d / 2, y: 50 - d / 2, width: d, height: d), 1e-9))
    }

    @Test func affineTransformAccessors() {
        let l = CALayer()
        l.setAffineTransform(CGAffineTransform(scaleX: 3, y: 2))
        #expect(l.transform.m11 == 3 && l.transform.m22 == 2)
        #expect(l.affineTransform() == CGAffineTransform(scaleX: 3, y: 2))
    }

    @Test func convertThroughPositionsAndBoundsOrigin() {
        let root = CALayer(); root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        let a = CALayer(); a.frame = CGRect(x: 10, y: 20, width: 100, height: 100)
        let b = CALayer(); b.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        root.addSublayer(a); a.addSublayer(b)
        #expect(b.convert(CGPoint.zero, to: root) == CGPoint(x: 15, y: 25))
        #expect(root.convert(CGPoint(x: 15, y: 25), to: b) == .zero)
        #expect(b.convert(CGPoint(x: 15, y: 25), from: root) == .zero)
        a.bounds.origin = CGPoint(x: 50, y: 0)      // scrolls a's contents, not a itself
        #expect(a.frame.origin == CGPoint(x: 10, y: 20))
        #expect(b.convert(CGPoint.zero, to: root) == CGPoint(x: -35, y: 25))
        #expect(b.convert(CGRect(x: 0, y: 0, width: 2, height: 2), to: root) == CGRect(x: -35, y: 25, width: 2, height: 2))
        #expect(b.convert(CGPoint.zero, to: nil) == CGPoint(x: -35, y: 25))
    }

    @Test func sublayerTransformActsAboutTheAnchorPoint() {
        let p = CALayer(); p.bounds = CGRect(x: 0, y: 0, width: 100, height: 100); p.position = CGPoint(x: 50, y: 50)
        let c = CALayer(); c.frame = CGRect(x: 50, y: 50, width: 10, height: 10)
        p.addSublayer(c)
        p.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        // (50, 50) is p's anchor, so c's top-left stays; its far corner moves out to 70.
        #expect(near(c.convert(CGPoint.zero, to: p), CGPoint(x: 50, y: 50)))
        #expect(near(c.convert(CGPoint(x: 10, y: 10), to: p), CGPoint(x: 70, y: 70)))
        #expect(c.frame == CGRect(x: 50, y: 50, width: 10, height: 10))   // frame ignores sublayerTransform
    }

    @Test func perspectiveConversionRoundTrips() {
        let p = CALayer(); p.bounds = CGRect(x: 0, y: 0, width: 200, height: 200); p.position = CGPoint(x: 100, y: 100)
        var persp = CATransform3DIdentity; persp.m34 = -1 / 500
        p.sublayerTransform = persp
        let c = CALayer(); c.bounds = CGRect(x: 0, y: 0, width: 100, height: 100); c.position = CGPoint(x: 100, y: 100)
        c.transform = CATransform3DMakeRotation(0.6, 0, 1, 0)
        p.addSublayer(c)
        let q = c.convert(CGPoint(x: 20, y: 70), to: p)
        #expect(near(p.convert(q, to: c), CGPoint(x: 20, y: 70), 1e-9))
        // With y-rotation and perspective, the left half comes nearer: it appears larger.
        let left = c.convert(CGPoint(x: 0, y: 0), to: p), right = c.convert(CGPoint(x: 100, y: 0), to: p)
        #expect(abs(left.y - 100) > abs(right.y - 100))
    }

    @Test func geometryFlippedPutsSublayersFromTheBottom() {
        let p = CALayer(); p.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let c = CALayer(); c.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        p.addSublayer(c)
        p.isGeometryFlipped = true
        // Within p's own space c is where it was; seen from p's superlayer, p's y axis points up.
        #expect(c.convert(CGPoint.zero, to: p) == .zero)
        #expect(c.convert(CGPoint.zero, to: nil) == CGPoint(x: 0, y: 100))
        #expect(c.contentsAreFlipped() && p.contentsAreFlipped() && !CALayer().contentsAreFlipped())
    }

    @Test func timeConversionFollowsBeginSpeedAndOffset() {
        let p = CALayer(), c = CALayer()
        p.addSublayer(c)
        c.beginTime = 2; c.speed = 2; c.timeOffset = 1
        // local = (parent − 2) × 2 + 1
        #expect(c.convertTime(10, from: p) == 17)
        #expect(c.convertTime(17, to: p) == 10)
        p.speed = 0.5
        #expect(c.convertTime(10, from: nil) == (5 - 2) * 2 + 1)
    }
}
