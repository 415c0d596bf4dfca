// How far a layer's shadow reaches, from Apple's measured behaviour (FACTS: "shadows reach
// twice `shadowRadius` beyond the shape"): an opaque black shadow of radius r still paints
// non-zero pixels almost 2r beyond the edge of the shape, fading as a Gaussian does — half
// its strength at the edge itself — and nothing beyond 2r.
@testable import QuartzCore
import Testing

@Suite struct ShadowReachTests {
    /// The shadow of a 40 × 200-point layer on white, with no offset, read along the row through
    /// its middle to the right of its edge (far from the corners for every radius tested, so the
    /// edge acts as a straight one): the darkening (255 − red) at each distance.
    func profile(radius: CGFloat) -> [Int] {
        let image = renderTree(200, 240) { root in
            let l = CALayer()
            l.frame = CGRect(x: 60, y: 20, width: 40, height: 200)
            l.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)   // the shadow alone darkens
            l.shadowOpacity = 1
            l.shadowRadius = radius
            l.shadowOffset = .zero
            root.addSublayer(l)
        }
        return (100..<200).map { x in 255 - Int((image.premultipliedPixel(x: x, y: 120) >> 16) & 0xFF) }
    }

    @Test(arguments: [3.0, 6.0, 10.0, 20.0]) func theShadowReachesAlmostTwiceItsRadius(radius: Double) {
        let darkening = profile(radius: radius)
        let last = darkening.lastIndex { $0 > 0 }!   // pixel column just past the edge is distance 0.5
        let reach = Double(last) + 0.5
        // A Gaussian of σ = 2r/3 across a straight edge stays at or above half a level out to
        // 2.88 σ = 1.92 r; a pixel of rounding (and the kernel sampled at whole pixels) either way.
        #expect(reach >= 1.9 * radius - 1, "radius \(radius): non-zero pixels end at \(reach)")
        #expect(reach <= 2 * radius + 1, "radius \(radius): non-zero pixels end at \(reach)")
        // It fades without a step: every pixel up to the last darkens no less than the next.
        #expect(zip(darkening, darkening.dropFirst()).allSatisfy { $0 >= $1 })
    }

    @Test func theShadowIsGaussianAcrossTheEdge() {
        // A Gaussian of σ = 2r/3 across a straight edge: ½ erfc(d / (σ√2)) of full strength at
        // distance d outside it (the middle of a 40-point side is far from the corners).
        let r = 12.0, sigma = 2 * r / 3
        let darkening = profile(radius: r)
        for d in [0.5, 4.5, 8.5, 12.5, 16.5] {
            let expected = 255 * 0.5 * erfc(d / (sigma * 2.0.squareRoot()))
            #expect(abs(Double(darkening[Int(d)]) - expected) <= 3, "at \(d) points: \(darkening[Int(d)]) against \(expected)")
        }
    }
}
