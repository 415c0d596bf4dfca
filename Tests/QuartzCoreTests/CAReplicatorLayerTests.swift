// CAReplicatorLayer: Apple's defaults; instance i drawn at instanceTransform applied i times
// about the replicator's centre; colours multiplied by instanceColor + i × offsets; animations
// delayed by i × instanceDelay; the seed's ten rotated squares and its reflection; bad counts.
@testable import QuartzCore
import TestSupport
import Testing

@Suite(.serialized) struct CAReplicatorLayerTests {
    let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

    func channels(_ p: UInt32) -> (r: Int, g: Int, b: Int) { (Int(p >> 16 & 255), Int(p >> 8 & 255), Int(p & 255)) }

    /// A replicator of `frame` with one 10 × 10 sublayer at `square`, over black.
    func replicate(_ w: Int, _ h: Int, frame: CGRect, square: CGRect, color: CGColor? = nil,
                   _ configure: (CAReplicatorLayer) -> Void) -> CGImage {
        renderTree(w, h) { root in
            root.backgroundColor = CGColor(gray: 0, alpha: 1)
            let r = CAReplicatorLayer()
            r.frame = frame
            let l = CALayer()
            l.frame = square
            l.backgroundColor = color ?? self.red
            r.addSublayer(l)
            configure(r)
            root.addSublayer(r)
        }
    }

    @Test func defaultsAreApples() {
        let r = CAReplicatorLayer()
        #expect(r.instanceCount == 1 && r.instanceDelay == 0 && CATransform3DIsIdentity(r.instanceTransform))
        #expect(r.instanceColor == CGColor.white && r.instanceRedOffset == 0 && r.instanceAlphaOffset == 0 && !r.preservesDepth)
        r.setValue(4, forKey: "instanceCount")
        r.setValue(-0.5, forKey: "instanceBlueOffset")
        #expect(r.instanceCount == 4 && r.instanceBlueOffset == -0.5)
    }

    @Test func instanceIIsDrawnAtTheTransformToThePowerI() {
        let image = replicate(100, 20, frame: CGRect(x: 0, y: 0, width: 100, height: 20), square: CGRect(x: 0, y: 5, width: 10, height: 10)) {
            $0.instanceCount = 5
            $0.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        }
        #expect(countPixels(image, 0xFFFF_0000) == 500)
        for i in 0..<5 { #expect(image.premultipliedPixel(x: 20 * i + 5, y: 10) == 0xFFFF_0000) }
        #expect(image.premultipliedPixel(x: 15, y: 10) == 0xFF00_0000)
    }

    @Test func rotationsTurnAboutTheReplicatorsCentre() {
        // Four quarter turns of a square in the top-left corner fill the four corners.
        let image = replicate(40, 40, frame: CGRect(x: 0, y: 0, width: 40, height: 40), square: CGRect(x: 0, y: 0, width: 10, height: 10)) {
            $0.instanceCount = 4
            $0.instanceTransform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        }
        for (x, y) in [(5, 5), (34, 5), (34, 34), (5, 34)] { #expect(image.premultipliedPixel(x: x, y: y) == 0xFFFF_0000) }
        #expect(countPixels(image, 0xFFFF_0000) == 400)
    }

    @Test func coloursStepByTheOffsets() {
        let image = replicate(80, 20, frame: CGRect(x: 0, y: 0, width: 80, height: 20), square: CGRect(x: 0, y: 5, width: 10, height: 10), color: white) {
            $0.instanceCount = 4
            $0.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
            $0.instanceGreenOffset = -0.25
            $0.instanceBlueOffset = -0.25
        }
        for i in 0..<4 {
            let c = channels(image.premultipliedPixel(x: 20 * i + 5, y: 10))
            let expected = Int((255 * (1 - 0.25 * Double(i))).rounded())
            #expect(c.r == 255 && abs(c.g - expected) <= 1 && abs(c.b - expected) <= 1)
        }
    }

    @Test func seedTenRotatedSquaresAndReflection() {
        let squares = renderTree(160, 160) { root in
            let r = CAReplicatorLayer()
            r.frame = root.bounds
            r.instanceCount = 10
            r.instanceTransform = CATransform3DRotate(CATransform3DIdentity, .pi / 5, 0, 0, 1)
            r.instanceBlueOffset = -0.1
            r.instanceGreenOffset = -0.1
            let l = CALayer()
            l.frame = CGRect(x: 67.5, y: 0, width: 25, height: 25)
            l.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
            r.addSublayer(l)
            root.addSublayer(r)
        }
        Golden.check("replicator-seed-squares", squares)
        let reflection = replicate(40, 70, frame: CGRect(x: 10, y: 5, width: 20, height: 30), square: CGRect(x: 0, y: 0, width: 20, height: 30)) { r in
            r.instanceCount = 2
            var t = CATransform3DIdentity
            t = CATransform3DTranslate(t, 0, 30 + 2, 0)
            t = CATransform3DScale(t, 1, -1, 0)
            r.instanceTransform = t
            r.instanceAlphaOffset = -0.6
        }
        Golden.check("replicator-reflection", reflection)
        // The reflection is the square at 40 % opacity over black, 2 points below it.
        #expect(reflection.premultipliedPixel(x: 20, y: 20) == 0xFFFF_0000)
        #expect(abs(channels(reflection.premultipliedPixel(x: 20, y: 50)).r - 102) <= 1)
        #expect(reflection.premultipliedPixel(x: 20, y: 36) == 0xFF00_0000)
    }

    @Test func instanceDelayShiftsEachCopysAnimations() {
        MediaClock.override = 0
        defer { MediaClock.override = nil }
        let r = CARenderer()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
        root.backgroundColor = CGColor(gray: 0, alpha: 1)
        let rep = CAReplicatorLayer()
        rep.frame = root.bounds
        rep.instanceCount = 2
        rep.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        rep.instanceDelay = 0.5
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        l.backgroundColor = white
        rep.addSublayer(l)
        root.addSublayer(rep)
        r.bounds = root.bounds
        r.layer = root
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1; fade.toValue = 0; fade.duration = 1; fade.fillMode = .both
        fade.timingFunction = CAMediaTimingFunction(name: .linear)
        l.add(fade, forKey: nil)
        r.beginFrame(atTime: 0.5, timeStamp: nil); r.render(); r.endFrame()
        let image = r.makeImage()!
        // At 0.5 s the original is halfway (grey 128); the copy starts now (white).
        #expect(abs(channels(image.premultipliedPixel(x: 5, y: 5)).r - 128) <= 1)
        #expect(image.premultipliedPixel(x: 25, y: 5) == 0xFFFF_FFFF)
        // The copy still animates after the original has finished.
        #expect(r.nextFrameTime() <= 1.2)
    }

    @Test func badCountsAndHitTesting() {
        let square = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(countPixels(replicate(20, 20, frame: CGRect(x: 0, y: 0, width: 20, height: 20), square: square) { $0.instanceCount = 0 }, 0xFFFF_0000) == 0)
        #expect(countPixels(replicate(20, 20, frame: CGRect(x: 0, y: 0, width: 20, height: 20), square: square) { $0.instanceCount = -3 }, 0xFFFF_0000) == 0)
        let before = CGDiagnostics.count(.invalidParameter)
        let many = replicate(20, 20, frame: CGRect(x: 0, y: 0, width: 20, height: 20), square: square) { $0.instanceCount = 1_000_000 }
        #expect(countPixels(many, 0xFFFF_0000) == 100 && CGDiagnostics.count(.invalidParameter) > before)
        // Copies are drawn, not layers: hit testing finds the original only.
        let rep = CAReplicatorLayer()
        rep.frame = CGRect(x: 0, y: 0, width: 100, height: 20)
        rep.instanceCount = 3
        rep.instanceTransform = CATransform3DMakeTranslation(30, 0, 0)
        let l = CALayer()
        l.frame = square
        rep.addSublayer(l)
        #expect(rep.hitTest(CGPoint(x: 5, y: 5)) === l && rep.hitTest(CGPoint(x: 35, y: 5)) === rep)
    }

    @Test func preservesDepthDrawsFarInstancesFirst() {
        // Instance 1 is 10 points right and 50 points farther: flattened it is drawn last (on
        // top); keeping depth, instance 0 — nearer — covers it where they overlap.
        func scene(_ depth: Bool) -> CGImage {
            replicate(40, 20, frame: CGRect(x: 0, y: 0, width: 40, height: 20), square: CGRect(x: 5, y: 5, width: 10, height: 10), color: white) {
                $0.instanceCount = 2
                $0.instanceTransform = CATransform3DMakeTranslation(5, 0, -50)
                $0.instanceBlueOffset = -1
                $0.preservesDepth = depth
            }
        }
        #expect(scene(false).premultipliedPixel(x: 12, y: 10) == 0xFFFF_FF00)   // instance 1 (no blue) on top
        #expect(scene(true).premultipliedPixel(x: 12, y: 10) == 0xFFFF_FFFF)    // instance 0 in front
    }
}
