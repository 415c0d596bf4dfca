// The particle simulation's sine and cosine against the C library's: within 2 ulps of the result
// (or 2·10⁻¹⁶ absolute near zero) over angles from −2²⁰ to 2²⁰, and exact at the quadrant points.
import Foundation
@testable import LayerRender
import Testing

@Suite struct SineCosineTests {
    func close(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= max(2 * b.ulp, 2e-16)
    }

    @Test func matchesTheCLibrary() {
        var state: UInt64 = 0x1234_5678
        var worst = 0.0
        for i in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / Double(1 << 53)
            let scale = [1.0, 10, 1000, 1_000_000][i % 4]
            let x = (unit * 2 - 1) * scale
            let (s, c) = SineCosine.of(x)
            #expect(close(s, sin(x)) && close(c, cos(x)), "x = \(x)")
            worst = max(worst, abs(s - sin(x)), abs(c - cos(x)))
            if worst > 1e-12 { break }
        }
        #expect(worst < 1e-15)
        #expect(SineCosine.of(0) == (0, 1))
        #expect(SineCosine.of(.pi / 2).sin == 1 && abs(SineCosine.of(.pi / 2).cos) < 1e-16)
        #expect(SineCosine.of(-.pi).cos == -1)
        #expect(SineCosine.of(1e9) == (sin(1e9), cos(1e9)))
    }
}
