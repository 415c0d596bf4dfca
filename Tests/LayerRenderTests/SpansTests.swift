// Row spans (Raster/Spans.swift) against the per-pixel path they stand in for: "Pixels in the
// outer span but not in a full span go through the exact per-pixel coverage, so results are
// those of the per-pixel path". A pixel left out of the outer span must have coverage 0, and a
// pixel in a full span coverage exactly 1.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct SpansTests {
    /// Shapes (square and rounded, with and without a hole) under rotations, scales, shears and
    /// perspective: `Raster.cover` gives every pixel of its box the coverage that
    /// `RoundedRect.coverage` (less the hole's) gives it pixel by pixel.
    @Test func coverGivesEveryPixelItsPerPixelCoverage() {
        var rng = TestLCG(seed: 0x5EED_0001)
        func unit() -> CGFloat { rng.unit() }
        var mismatches = 0, visitedEdges = 0
        for c in 0..<240 {
            let w = 4 + unit() * 60, h = 4 + unit() * 50
            let rect = CGRect(x: 0, y: 0, width: w, height: h)
            var shape = RoundedRect(rect: rect, radius: c % 3 == 0 ? 0 : unit() * 20, mask: 15)
            if c % 7 == 0 { shape = RoundedRect(rect: rect, radius: unit() * 20, mask: UInt(c % 16)) }
            let hole = c % 4 == 1 ? shape.inset(by: 1 + unit() * 4) : nil
            var t = Transform3D.translation(-w / 2, -h / 2, 0)
            switch c % 5 {
            case 0: break
            case 1: t = t.concatenating(.rotation(unit() * 2 * .pi, 0, 0, 1))
            case 2: t = t.concatenating(.scale(0.3 + unit() * 3, 0.3 + unit() * 3, 1))
            case 3:
                var shear = Transform3D.identity
                shear.m21 = unit() - 0.5
                t = t.concatenating(shear).concatenating(.rotation(unit(), 0, 0, 1))
            default:
                var p = Transform3D.identity
                p.m34 = -1 / (200 + unit() * 300)
                t = t.concatenating(.rotation(unit() * 1.2, 0, 1, 0)).concatenating(p)
            }
            t = t.concatenating(.translation(50 + unit(), 50 + unit(), 0))
            let world = Homography(t)
            guard let inverse = world.inverse else { continue }
            let box = PixelBox(x0: 0, y0: 0, x1: 100, y1: 100)
            let pixel = Quad(rect, through: world).pixelSize(inverse)
            var got = [Float](repeating: 0, count: 100 * 100)
            Raster.cover(box: box, inverse: inverse, pixel: pixel, shape: shape, hole: hole, antialias: true, clips: [],
                         full: { y, xs in for x in xs { got[y * 100 + x] = 1 } },
                         edge: { y, x, cov in got[y * 100 + x] = cov; visitedEdges += 1 })
            for y in 0..<100 {
                for x in 0..<100 {
                    var expected: CGFloat = 0
                    if let q = inverse.project(CGFloat(x) + 0.5, CGFloat(y) + 0.5) {
                        expected = shape.coverage(q.x, q.y, pixel: pixel, antialias: true)
                        if let hole, expected > 0 {
                            expected = max(0, expected - hole.coverage(q.x, q.y, pixel: pixel, antialias: true))
                        }
                    }
                    if got[y * 100 + x] != Float(expected) { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
        #expect(visitedEdges > 10_000)
    }
}
