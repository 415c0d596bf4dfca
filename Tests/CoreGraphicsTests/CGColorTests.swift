// Apple: CGColor holds components in its colour space plus alpha; copy(alpha:) replaces alpha;
// .black/.white/.clear are gray colours; CGColorSpace(name:) is nil for unknown names.
import CoreGraphics
import Foundation
import Testing
import TestSupport

@Suite struct CGColorTests {
    @Test func rgbColourKeepsComponentsAndAlpha() {
        let c = CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
        #expect(c.components == [0.1, 0.2, 0.3, 0.4])
        #expect(c.numberOfComponents == 4 && c.alpha == 0.4)
        #expect(c.colorSpace?.model == .rgb)
    }

    @Test func namedColoursAreGray() {
        #expect(CGColor.black.components == [0, 1] && CGColor.white.components == [1, 1] && CGColor.clear.components == [0, 0])
        #expect(CGColor.white.colorSpace?.model == .monochrome)
    }

    @Test func copyWithAlphaReplacesOnlyAlpha() {
        let c = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1).copy(alpha: 0.25)!
        #expect(c.components == [1, 0.5, 0, 0.25])
        #expect(CGColor.black.copy(alpha: .nan) == nil)
    }

    @Test func equalityIsBySpaceAndComponents() {
        #expect(CGColor(red: 1, green: 0, blue: 0, alpha: 1) == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(CGColor(gray: 1, alpha: 1) != CGColor(red: 1, green: 1, blue: 1, alpha: 1))
    }

    @Test func componentsInitialiserChecksCountAndFiniteness() {
        let rgb = CGColorSpaceCreateDeviceRGB()
        #expect(CGColor(colorSpace: rgb, components: [0.5, 0.5, 0.5, 1])?.components == [0.5, 0.5, 0.5, 1])
        #expect(CGColor(colorSpace: rgb, components: [0.5, .nan, 0.5, 1]) == nil)
        let gray = CGColor(colorSpace: CGColorSpaceCreateDeviceGray(), components: [0.25, 1])!
        #expect(gray.rgba.r == 0.25 && gray.rgba.b == 0.25)
    }

    @Test func conversionToGrayUsesRec709Luma() {
        let g = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            .converted(to: CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)!, intent: .defaultIntent, options: nil)!
        #expect(abs(g.components![0] - 0.2126) < 1e-12)
    }

    @Test func colourSpacesByName() {
        #expect(CGColorSpace(name: CGColorSpace.sRGB)?.numberOfComponents == 3)
        #expect(CGColorSpace(name: CGColorSpace.linearGray)?.model == .monochrome)
        #expect(CGColorSpace(name: "kCGColorSpaceNoSuchThing") == nil)
        #expect(CGColorSpaceCreateDeviceRGB() == CGColorSpaceCreateDeviceRGB())
    }

    @Test func outOfRangeComponentsAreKeptButClampedForRendering() {
        let c = CGColor(red: 1.5, green: -0.5, blue: 0.5, alpha: 2)
        #expect(c.components == [1.5, -0.5, 0.5, 2])
        #expect(c.rgba == (1, 0, 0.5, 1))
    }
}
