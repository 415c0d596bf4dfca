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

    /// Unturned, unrounded shapes whose edges fall on pixel boundaries (an image scaled to whole
    /// pixels, as S4's): their outermost pixels are covered exactly once, at coverage 1, and
    /// `cover` hands them to `full` with their rows' other pixels rather than one by one to
    /// `edge` — with antialiasing on and off, every pixel still its per-pixel coverage.
    @Test(arguments: [true, false])
    func wholePixelEdgesAreFull(antialias: Bool) {
        var rng = TestLCG(seed: 0x5EED_0002)
        var mismatches = 0, fullAtEdge = 0, edgeAtOne = 0
        for c in 0..<120 {
            // Destination pixels: x0 ..< x1, y0 ..< y1; the layer's rect and scale map onto them.
            let x0 = Int(rng.next() % 30), y0 = Int(rng.next() % 30)
            let x1 = x0 + 2 + Int(rng.next() % 60), y1 = y0 + 2 + Int(rng.next() % 60)
            let scales: [CGFloat] = [1, 2.5, 1.40625, 0.78125, 0.5, 3]
            let sx = scales[c % scales.count], sy = scales[(c / 2) % scales.count]
            let rect = CGRect(x: 0, y: 0, width: CGFloat(x1 - x0) / sx, height: CGFloat(y1 - y0) / sy)
            let world = Homography(Transform3D.scale(sx, sy, 1).concatenating(.translation(CGFloat(x0), CGFloat(y0), 0)))
            guard let inverse = world.inverse else { continue }
            let shape = RoundedRect(rect: rect, radius: 0, mask: 0)
            let box = PixelBox(x0: 0, y0: 0, x1: 100, y1: 100)
            let pixel = Quad(rect, through: world).pixelSize(inverse)
            var got = [Float](repeating: 0, count: 100 * 100)
            Raster.cover(box: box, inverse: inverse, pixel: pixel, shape: shape, hole: nil, antialias: antialias, clips: [],
                         full: { y, xs in
                             for x in xs { got[y * 100 + x] = 1 }
                             if xs.lowerBound == x0 || xs.upperBound == x1 { fullAtEdge += 1 }
                         },
                         edge: { y, x, cov in got[y * 100 + x] = cov; if cov == 1 { edgeAtOne += 1 } })
            for y in 0..<100 {
                for x in 0..<100 {
                    let q = inverse.project(CGFloat(x) + 0.5, CGFloat(y) + 0.5)!
                    if got[y * 100 + x] != Float(shape.coverage(q.x, q.y, pixel: pixel, antialias: antialias)) { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
        #expect(fullAtEdge > 1000, "rows whose full run reaches the shape's first or last column")
        #expect(edgeAtOne == 0, "pixels of coverage 1 painted one by one: \(edgeAtOne)")
    }
}
