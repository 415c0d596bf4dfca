// The rounded-rect coverage kernel (Sources/CGSupport/kernels_coverage.c) against the Swift it
// reproduces — `Homography.project` of each pixel centre, `RoundedRect.coverage`, a hole's
// coverage subtracted — in every variant: random turned and scaled maps, rects, radii (some
// corners square), holes, antialiasing on and off, spans of every length; the same floats.
import CGSupport
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct CoverageKernelTests {
    @Test(arguments: [Int32(0), 1, 2])
    func rowsEqualThePerPixelCoverage(variant: Int32) {
        var s: UInt32 = 0x5EED_1234
        func unit() -> CGFloat { s = s &* 1_664_525 &+ 1_013_904_223; return CGFloat(s >> 8) / 16_777_216 }
        func rrect(_ r: RoundedRect) -> cgs_rrect {
            cgs_rrect(cx: Double(r.rect.midX), cy: Double(r.rect.midY), hx: Double(r.rect.width / 2), hy: Double(r.rect.height / 2),
                      r0: Double(r.radii.0), r1: Double(r.radii.1), r2: Double(r.radii.2), r3: Double(r.radii.3),
                      rounded: r.isRounded ? 1 : 0)
        }
        var compared = 0
        for case_ in 0..<80 {
            let rect = CGRect(x: unit() * 20, y: unit() * 20, width: 10 + unit() * 60, height: 10 + unit() * 50)
            let shape = RoundedRect(rect: rect, radius: case_ % 5 == 0 ? 0 : unit() * 20, mask: UInt(case_ % 16 == 1 ? 5 : 15))
            let hole: RoundedRect? = case_ % 3 == 0 ? shape.inset(by: 1 + unit() * 3) : nil
            let angle = unit() * 2 * .pi, k = case_ % 4 == 3 ? 1 : 0.5 + unit() * 2   // 1: the kernel leaves out d / 1
            let c = cos(angle) / k, sn = sin(angle) / k
            let inverse = Homography(m: (c, sn, 0, -sn, c, 0, unit() * 40 - 20, unit() * 40 - 20, 1))
            let pixel: CGFloat = 1 / k, antialias = case_ % 7 != 3
            var shapeC = rrect(shape), holeC = hole.map(rrect)
            let m = inverse.m, terms = [Double(m.0), Double(m.1), Double(m.3), Double(m.4), Double(m.6), Double(m.7)]
            for y in stride(from: -5, to: 90, by: 7) {
                let x0 = -10 + case_ % 9, n = case_ % 37 + 40
                var out = [Float](repeating: -1, count: n)
                if var h = holeC {
                    cgs_rrect_row_using(variant, &out, x0, n, Double(y) + 0.5, terms, &shapeC, &h, Double(pixel), antialias ? 1 : 0)
                } else {
                    cgs_rrect_row_using(variant, &out, x0, n, Double(y) + 0.5, terms, &shapeC, nil, Double(pixel), antialias ? 1 : 0)
                }
                let expected: [Float] = (0..<n).map { i in
                    let q = inverse.project(CGFloat(x0 + i) + 0.5, CGFloat(y) + 0.5)!
                    var cov = shape.coverage(q.x, q.y, pixel: pixel, antialias: antialias)
                    if cov == 0 { return 0 }
                    if let hole { cov = max(0, cov - hole.coverage(q.x, q.y, pixel: pixel, antialias: antialias)) }
                    return Float(cov)
                }
                #expect(out.map(\.bitPattern) == expected.map(\.bitPattern), "variant \(variant), case \(case_), row \(y)")
                compared += n
                holeC = hole.map(rrect)
            }
        }
        #expect(compared > 50_000)
    }

    /// Layers drawn at scales near the ends of the doubles (a pixel of 1e-160 or 1e150 layer
    /// units): the distance's terms then have squares that underflow or overflow, where the
    /// kernel's shortcut beside a straight side (the root of x·x taken as x) would not hold.
    @Test(arguments: [Int32(0), 2])
    func extremeScalesEqualThePerPixelCoverage(variant: Int32) {
        var compared = 0
        for pixel in [1e-160, 3e-155, 1e150, 2e153] as [Double] {
            let shape = RoundedRect(rect: CGRect(x: 4.3 * pixel, y: 2.6 * pixel, width: 30.4 * pixel, height: 20.7 * pixel),
                                    radius: 5 * pixel, mask: 15)
            var shapeC = cgs_rrect(cx: Double(shape.rect.midX), cy: Double(shape.rect.midY), hx: Double(shape.rect.width / 2),
                                   hy: Double(shape.rect.height / 2), r0: Double(shape.radii.0), r1: Double(shape.radii.1),
                                   r2: Double(shape.radii.2), r3: Double(shape.radii.3), rounded: 1)
            let inverse = Homography(m: (pixel, 0, 0, 0, pixel, 0, 0, 0, 1))
            let m = inverse.m, terms = [Double(m.0), Double(m.1), Double(m.3), Double(m.4), Double(m.6), Double(m.7)]
            for y in 0..<26 {
                let n = 40
                var out = [Float](repeating: -1, count: n)
                cgs_rrect_row_using(variant, &out, 0, n, Double(y) + 0.5, terms, &shapeC, nil, pixel, 1)
                let expected: [Float] = (0..<n).map { i in
                    let q = inverse.project(CGFloat(i) + 0.5, CGFloat(y) + 0.5)!
                    return Float(shape.coverage(q.x, q.y, pixel: CGFloat(pixel), antialias: true))
                }
                #expect(out.map(\.bitPattern) == expected.map(\.bitPattern), "variant \(variant), pixel \(pixel), row \(y)")
                compared += n
            }
        }
        #expect(compared == 4 * 26 * 40)
    }
}
