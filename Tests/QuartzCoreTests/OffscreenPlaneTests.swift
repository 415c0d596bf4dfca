// Found by fuzzing: pictures a layer needs over the whole of its target (a shadowPath's plane,
// a transition's two sides) were made the size of the frame from its origin, also inside an
// offscreen whose target covers only part of the frame (a tinted replicator's instances, a
// group) — rows past the buffer were written. Rule: inside an offscreen, a layer looks as it does
// outside it (Core Animation composites the group's result; the group changes nothing else).
@testable import QuartzCore
import TestSupport
import Testing

@Suite struct OffscreenPlaneTests {
    /// The same layer drawn in a replicator whose instances are tinted by an almost-white colour
    /// (each instance an offscreen over the band's rows: the frame is tall enough for two bands) and by white (no offscreen).
    func pair(_ build: @escaping (CALayer) -> Void) -> (CGImage, CGImage) {
        func render(_ tint: CGColor) -> CGImage {
            renderTree(256, 256, at: 5) { root in
                let r = CAReplicatorLayer()
                r.frame = root.bounds
                r.instanceCount = 1
                r.instanceColor = tint
                build(r)
                root.addSublayer(r)
            }
        }
        return (render(CGColor(red: 1, green: 1, blue: 1, alpha: 0.9999)), render(CGColor(red: 1, green: 1, blue: 1, alpha: 1)))
    }

    func largestDifference(_ a: CGImage, _ b: CGImage) -> UInt32 {
        var worst: UInt32 = 0
        for y in 0..<a.height { for x in 0..<a.width {
            let p = a.premultipliedPixel(x: x, y: y), q = b.premultipliedPixel(x: x, y: y)
            for s in stride(from: 0, through: 24, by: 8) {
                let d = Int((p >> UInt32(s)) & 0xFF) - Int((q >> UInt32(s)) & 0xFF)
                worst = max(worst, UInt32(abs(d)))
            }
        } }
        return worst
    }

    @Test func aShadowPathInsideAnOffscreenIsWhereItIsOutside() {
        let (tinted, plain) = pair { r in
            let l = CALayer()
            l.frame = CGRect(x: 20, y: 200, width: 16, height: 16)   // in the lower band
            l.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            l.shadowOpacity = 1
            l.shadowRadius = 3
            l.shadowOffset = CGSize(width: 4, height: 4)
            l.shadowPath = CGPath(rect: l.bounds, transform: nil)
            r.addSublayer(l)
        }
        #expect(largestDifference(tinted, plain) <= 2)
        #expect(plain.premultipliedPixel(x: 38, y: 218) != 0xFFFF_FFFF)   // the shadow is there
    }

    @Test func aTransitionInsideAnOffscreenIsWhereItIsOutside() {
        let (tinted, plain) = pair { r in
            let l = CALayer()
            l.frame = CGRect(x: 10, y: 196, width: 30, height: 20)
            l.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            let fade = CATransition()
            fade.type = .push
            fade.subtype = .fromRight
            fade.duration = 10
            fade.beginTime = 0.001
            l.add(fade, forKey: "t")
            r.addSublayer(l)
        }
        #expect(largestDifference(tinted, plain) <= 2)
    }
}
