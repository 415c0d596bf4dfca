// CAGradientLayer: Apple's defaults, ramp values a reader can compute (straight-alpha
// interpolation, end colours extended), the three geometries, rounded corners, smoothness,
// animation of colours and points, and what is drawn for incomplete input (nothing).
@testable import QuartzCore
import TestSupport
import Testing
import Foundation

@Suite(.serialized) struct CAGradientLayerTests {
    let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    let yellow = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
    let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

    func gradient(_ w: Int, _ h: Int, _ configure: (CAGradientLayer) -> Void) -> CGImage {
        renderTree(w, h) { root in
            let g = CAGradientLayer()
            g.frame = CGRect(x: 0, y: 0, width: w, height: h)
            configure(g)
            root.addSublayer(g)
        }
    }

    func channels(_ p: UInt32) -> (r: Int, g: Int, b: Int) { (Int(p >> 16 & 255), Int(p >> 8 & 255), Int(p & 255)) }

    @Test func defaultsAreApples() {
        let g = CAGradientLayer()
        #expect(g.colors == nil && g.locations == nil && g.type == .axial && g.type.rawValue == "axial")
        #expect(g.startPoint == CGPoint(x: 0.5, y: 0) && g.endPoint == CGPoint(x: 0.5, y: 1))
        #expect(CAGradientLayer.defaultValue(forKey: "endPoint") as? CGPoint == CGPoint(x: 0.5, y: 1))
        g.setValue([0, 0.5], forKey: "locations")
        #expect(g.locations?.map(\.doubleValue) == [0, 0.5])
    }

    @Test func axialRampMatchesTheInterpolationFormula() {
        // Top to bottom (the default), red → blue over 256 rows: row y is at t = (y + ½) / 256.
        let image = gradient(4, 256) { $0.colors = [self.red, self.blue] }
        var worst = 0
        for y in 0..<256 {
            let t = (Double(y) + 0.5) / 256
            let c = channels(image.premultipliedPixel(x: 1, y: y))
            worst = max(worst, abs(c.r - Int((255 * (1 - t)).rounded())), abs(c.b - Int((255 * t).rounded())), c.g)
        }
        // Tolerance 1: the ramp is sampled at 1,024 points, a quarter of a level apart, then rounded.
        #expect(worst <= 1)
    }

    @Test func seedGradientWithLocationsAlongTheDiagonal() {
        let image = gradient(100, 100) { g in
            g.colors = [self.red, self.yellow, self.blue]
            g.locations = [0, 0.25, 0.5]
            g.startPoint = CGPoint(x: 0, y: 0)
            g.endPoint = CGPoint(x: 1, y: 1)
        }
        Golden.check("gradient-seed-diagonal", image)
        // Beyond the last location (t ≥ 0.5: below the anti-diagonal) the last colour extends.
        #expect(image.premultipliedPixel(x: 90, y: 90) == 0xFF00_00FF && image.premultipliedPixel(x: 60, y: 60) == 0xFF00_00FF)
        // Pixel (0, 0) is at t = 1 / 200: 2 % of the way from red to yellow (green 5).
        #expect(abs(channels(image.premultipliedPixel(x: 0, y: 0)).g - 5) <= 1)
        // t = 0.25 on the line x + y = 50: yellow.
        let c = channels(image.premultipliedPixel(x: 25, y: 24))
        #expect(c.r >= 254 && c.g >= 250 && c.b <= 2)
    }

    @Test func radialAndConicGeometry() {
        let radial = gradient(101, 101) { g in
            g.type = .radial
            g.colors = [self.white, self.black]
            g.startPoint = CGPoint(x: 0.5, y: 0.5)
            g.endPoint = CGPoint(x: 1, y: 1)
        }
        Golden.check("gradient-radial", radial)
        #expect(radial.premultipliedPixel(x: 50, y: 50) == 0xFFFF_FFFF)           // centre: first colour
        #expect(radial.premultipliedPixel(x: 0, y: 0) == 0xFF00_0000)             // outside the ellipse: last colour
        let mid = channels(radial.premultipliedPixel(x: 75, y: 50))                // half the radius: grey
        #expect(abs(mid.r - 127) <= 2)
        let conic = gradient(101, 101) { g in
            g.type = .conic
            g.colors = [self.white, self.black]
            g.startPoint = CGPoint(x: 0.5, y: 0.5)
            g.endPoint = CGPoint(x: 1, y: 0.5)
        }
        Golden.check("gradient-conic", conic)
        // Starts towards +x (white just below the start line, since y runs down), a quarter turn at +y.
        #expect(channels(conic.premultipliedPixel(x: 95, y: 51)).r >= 250)
        #expect(abs(channels(conic.premultipliedPixel(x: 50, y: 95)).r - 191) <= 2)   // t = 0.25
        #expect(abs(channels(conic.premultipliedPixel(x: 5, y: 50)).r - 127) <= 3)    // t = 0.5
    }

    @Test func interpolationUsesStraightAlphaAsApplesDoes() {
        // clear (0, 0, 0, 0) → white: halfway the colour is 50 % grey at 50 % alpha, over white 191.
        let image = gradient(4, 256) { $0.colors = [CGColor(red: 0, green: 0, blue: 0, alpha: 0), self.white] }
        #expect(abs(channels(image.premultipliedPixel(x: 1, y: 128)).r - 191) <= 1)
    }

    @Test func roundedCornersAndSmoothness() {
        let image = gradient(60, 60) { g in
            g.colors = [self.red, self.blue]
            g.cornerRadius = 20
        }
        #expect(image.premultipliedPixel(x: 1, y: 1) == 0xFFFF_FFFF && image.premultipliedPixel(x: 58, y: 58) == 0xFFFF_FFFF)
        // A full-range ramp over 1,024 pixels: neighbours differ by at most one level, never backwards.
        let ramp = gradient(1024, 2) { g in
            g.colors = [self.black, self.white]
            g.startPoint = CGPoint(x: 0, y: 0.5); g.endPoint = CGPoint(x: 1, y: 0.5)
        }
        var steps = true
        for x in 1..<1024 {
            let d = channels(ramp.premultipliedPixel(x: x, y: 0)).r - channels(ramp.premultipliedPixel(x: x - 1, y: 0)).r
            if d < 0 || d > 1 { steps = false }
        }
        #expect(steps)
    }

    @Test func incompleteInputDrawsNothing() {
        let empty = 0xFFFF_FFFF as UInt32
        #expect(countPixels(gradient(10, 10) { $0.colors = [self.red] }, empty) == 100)
        #expect(countPixels(gradient(10, 10) { $0.colors = [self.red, self.blue]; $0.locations = [0] }, empty) == 100)
        #expect(countPixels(gradient(10, 10) { $0.colors = [self.red, self.blue]; $0.endPoint = $0.startPoint }, empty) == 100)
        #expect(countPixels(gradient(10, 10) { $0.colors = [self.red, self.blue]; $0.locations = [0, NSNumber(value: Double.nan)] }, empty) == 100)
        #expect(countPixels(gradient(10, 10) { $0.colors = ["red", self.blue] }, empty) == 100)   // one CGColor
        // Locations that go backwards hold: a hard step at 0.5.
        let step = gradient(2, 100) { $0.colors = [self.red, self.blue]; $0.locations = [0.5, 0.2] }
        #expect(step.premultipliedPixel(x: 0, y: 40) == 0xFFFF_0000 && step.premultipliedPixel(x: 0, y: 60) == 0xFF00_00FF)
    }

    @Test func coloursAndPointsAnimate() {
        let d = FrameDriver(10, 100)
        let g = CAGradientLayer()
        g.frame = CGRect(x: 0, y: 0, width: 10, height: 100)
        g.colors = [red, red]
        d.change(at: 0) { d.root.addSublayer(g) }
        d.frame(at: 0)
        let a = CABasicAnimation(keyPath: "colors")
        a.fromValue = [red, red]; a.toValue = [blue, blue]; a.duration = 1
        a.timingFunction = CAMediaTimingFunction(name: .linear)
        g.add(a, forKey: nil)
        d.frame(at: 0)
        let mid = channels(d.frame(at: 0.5).premultipliedPixel(x: 5, y: 50))
        #expect(abs(mid.r - 128) <= 1 && abs(mid.b - 128) <= 1)
        // Implicit: changing startPoint on a live layer adds a basic animation for it.
        d.change(at: 2) { g.startPoint = CGPoint(x: 0, y: 0) }
        #expect(g.animation(forKey: "startPoint") is CABasicAnimation)
    }
}
