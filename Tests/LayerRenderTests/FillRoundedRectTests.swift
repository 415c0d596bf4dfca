// `Raster.fill` of a rounded rect through an affine map, row by row in C (`cgs_fill_rrect`, in
// each variant), against the general loop it stands in for (`Raster.fillRows`: `CoverPlan`'s
// spans in Swift, the same coverage kernel): the same pixels for random turns, scales (pixels of
// 1/3 to 2 layer units, and exactly 1), flips, rects, radii (some corners square, some radii
// over half the side), opaque and translucent colours, over random destinations and band boxes
// that cut the shape.
import CGSupport
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct FillRoundedRectTests {
    @Test(arguments: [Int32(0), 2, 3])
    func rowsInCEqualTheGeneralLoop(variant: Int32) {
        var lcg = TestLCG(seed: 0xF111_0C75)
        let width = 96, height = 80
        var differing = 0, painted = 0
        for case_ in 0..<300 {
            let rect = CGRect(x: lcg.unit() * 30 - 5, y: lcg.unit() * 30 - 5, width: 1 + lcg.unit() * 60, height: 1 + lcg.unit() * 50)
            let radius = case_ % 6 == 0 ? 0 : lcg.unit() * 40
            let shape = RoundedRect(rect: rect, radius: radius, mask: UInt(case_ % 11 == 1 ? 6 : 15))
            let k = case_ % 4 == 3 ? 1 : 0.5 + lcg.unit() * 2.5, flip: CGFloat = case_ % 5 == 2 ? -1 : 1
            let angle = case_ % 8 == 0 ? 0 : case_ % 8 == 1 ? .pi / 2 : lcg.unit() * 2 * .pi
            let c = cos(angle) / k, s = sin(angle) / k
            let inverse = Homography(m: (c * flip, s, 0, -s * flip, c, 0, lcg.unit() * 60 - 30, lcg.unit() * 60 - 30, 1))
            let alpha = case_ % 3 == 0 ? 1 : Double(lcg.unit())
            let color = PremultipliedColor(CGColor(red: lcg.unit(), green: lcg.unit(), blue: lcg.unit(), alpha: 1), alpha: alpha)
            let x0 = Int(lcg.next() % 40), y0 = Int(lcg.next() % 40)
            let box = PixelBox(x0: x0, y0: y0, x1: x0 + Int(lcg.next() % UInt32(width - x0)) + 1,
                               y1: y0 + Int(lcg.next() % UInt32(height - y0)) + 1)
            let start = (0..<(width * height)).map { _ in lcg.premultipliedWord(opaque: case_ % 2 == 0) }
            let (fast, slow) = Self.fills(start, width: width, height: height, box: box, inverse: inverse, pixel: 1 / k,
                                          shape: shape, color: color, variant: variant, antialias: case_ % 2 == 0)
            differing += zip(fast, slow).filter { $0 != $1 }.count
            painted += zip(fast, start).filter { $0 != $1 }.count
            #expect(fast == slow, "variant \(variant), case \(case_)")
        }
        #expect(differing == 0)
        #expect(painted > 10_000, "the shapes paint: \(painted) pixels changed")
    }

    /// Unturned rects, tall enough for a straight stretch between their corners (whose edge
    /// runs keep their coverages from row to row), at whole and fractional places, scales of
    /// 1 and not, mirrored, with corners of different radii above and below, some thinner than
    /// two pixels: the same pixels as the general loop.
    @Test(arguments: [Int32(0), 2, 3])
    func unturnedRectsEqualTheGeneralLoop(variant: Int32) {
        var lcg = TestLCG(seed: 0xA11_6AED)
        let width = 96, height = 96
        var differing = 0
        for case_ in 0..<160 {
            let whole = case_ % 2 == 0
            let x = whole ? CGFloat(Int(lcg.next() % 30)) : lcg.unit() * 30, y = whole ? CGFloat(Int(lcg.next() % 20)) : lcg.unit() * 20
            // Some narrower than two pixels: an edge run then holds columns of both sides.
            let w = case_ % 10 == 9 ? 0.5 + lcg.unit() * 2 : 8 + CGFloat(Int(lcg.next() % 50)) + (whole ? 0 : lcg.unit())
            let rect = CGRect(x: x, y: y, width: w, height: 30 + CGFloat(Int(lcg.next() % 40)) + (whole ? 0 : lcg.unit()))
            let radius = case_ % 7 == 0 ? 0 : lcg.unit() * 14
            // Masks 3 and 12 round only the top or only the bottom corners (radii differ across the centre).
            let mask: UInt = [15, 3, 12, 5, 10, 15][case_ % 6]
            let shape = RoundedRect(rect: rect, radius: radius, mask: mask)
            let k: CGFloat = case_ % 3 == 0 ? 1 : 0.5 + lcg.unit() * 2, flipX: CGFloat = case_ % 5 == 4 ? -1 : 1
            let flipY: CGFloat = case_ % 9 == 8 ? -1 : 1
            let tx = flipX < 0 ? 90 : lcg.unit() * 8, ty = flipY < 0 ? 92 : lcg.unit() * 8
            let inverse = Homography(m: (flipX / k, 0, 0, 0, flipY / k, 0, -tx * flipX / k, -ty * flipY / k, 1))
            let alpha = case_ % 4 == 0 ? 1 : Double(lcg.unit())
            let color = PremultipliedColor(CGColor(red: lcg.unit(), green: lcg.unit(), blue: lcg.unit(), alpha: 1), alpha: alpha)
            let box = PixelBox(x0: 0, y0: Int(lcg.next() % 20), x1: width, y1: height - Int(lcg.next() % 20))
            let start = (0..<(width * height)).map { _ in lcg.premultipliedWord(opaque: case_ % 2 == 1) }
            let (fast, slow) = Self.fills(start, width: width, height: height, box: box, inverse: inverse, pixel: 1 / k,
                                          shape: shape, color: color, variant: variant, antialias: case_ % 2 == 0)
            differing += zip(fast, slow).filter { $0 != $1 }.count
            #expect(fast == slow, "variant \(variant), case \(case_)")
        }
        #expect(differing == 0)
    }

    /// Long, nearly level shapes turned a little: their top and bottom rows are edge runs of
    /// hundreds of pixels (more than the kernel gathers at once, so a run is split between
    /// batches) and their sides many short runs (more runs than a batch holds).
    @Test(arguments: [Int32(0), 2, 3])
    func longEdgeRunsEqualTheGeneralLoop(variant: Int32) {
        var lcg = TestLCG(seed: 0x10_6ED6E5)
        let width = 700, height = 90
        var differing = 0
        for case_ in 0..<12 {
            let rect = CGRect(x: 20 + lcg.unit() * 10, y: 20 + lcg.unit() * 10, width: 560 + lcg.unit() * 80, height: 30 + lcg.unit() * 20)
            let shape = RoundedRect(rect: rect, radius: case_ % 3 == 0 ? 0 : 2 + lcg.unit() * 10, mask: 15)
            let angle = (case_ % 2 == 0 ? 1 : -1) * (0.001 + lcg.unit() * 0.02)
            let c = cos(angle), s = sin(angle)
            let inverse = Homography(m: (c, s, 0, -s, c, 0, lcg.unit() * 4, lcg.unit() * 4, 1))
            let alpha = case_ % 4 == 1 ? 1 : 0.2 + Double(lcg.unit()) * 0.7
            let color = PremultipliedColor(CGColor(red: lcg.unit(), green: lcg.unit(), blue: lcg.unit(), alpha: 1), alpha: alpha)
            let box = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
            let start = (0..<(width * height)).map { _ in lcg.premultipliedWord(opaque: case_ % 2 == 0) }
            let (fast, slow) = Self.fills(start, width: width, height: height, box: box, inverse: inverse, pixel: 1,
                                          shape: shape, color: color, variant: variant, antialias: true)
            differing += zip(fast, slow).filter { $0 != $1 }.count
            #expect(fast == slow, "variant \(variant), case \(case_)")
        }
        #expect(differing == 0)
    }

    /// Maps that crush a row to a point or a line (columns mapped to one x, or to one y) or scale
    /// it by 1e-12 or 1e12: the rows' spans (solved in vector lanes, with infinite reciprocals)
    /// give the general loop's pixels. A map with a NaN or infinite term covers nothing, in C as
    /// through `Raster.fill` (its NaN clips would otherwise pass every column).
    @Test(arguments: [Int32(0), 2, 3])
    func degenerateMapsEqualTheGeneralLoop(variant: Int32) {
        let width = 40, height = 30
        let shape = RoundedRect(rect: CGRect(x: 3.5, y: 2.25, width: 20, height: 14), radius: 5, mask: 15)
        let color = PremultipliedColor(CGColor(red: 0.2, green: 0.6, blue: 0.9, alpha: 1), alpha: 0.7)
        var lcg = TestLCG(seed: 0xDE6E_7E)
        let start = (0..<(width * height)).map { _ in lcg.premultipliedWord(opaque: true) }
        let box = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        let finite: [(CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat)] = [
            (0, 0, 0, 1, 10, 0), (0, 0, 1, 0, 0, 5), (1, 0, 0, 0, 0, 8), (0, 1, 1, 0, 0, 0),
            (1e-12, 0, 0, 1e-12, 10, 8), (1e12, 0, 0, 1e12, -1e13, -1e13), (0.5, 0.5, -0.5, 0.5, 4, 2),
        ]
        for (i, t) in finite.enumerated() {
            let inverse = Homography(m: (t.0, t.1, 0, t.2, t.3, 0, t.4, t.5, 1))
            let (fast, slow) = Self.fills(start, width: width, height: height, box: box, inverse: inverse, pixel: 1,
                                          shape: shape, color: color, variant: variant, antialias: true)
            #expect(fast == slow, "variant \(variant), map \(i)")
        }
        for bad in [CGFloat.nan, .infinity, -.infinity] {
            for slot in 0..<6 {
                var t: [CGFloat] = [1, 0, 0, 1, 2, 3]
                t[slot] = bad
                let inverse = Homography(m: (t[0], t[1], 0, t[2], t[3], 0, t[4], t[5], 1))
                var fast = start, filled = start
                fast.withUnsafeMutableBufferPointer { p in
                    Raster.fillAffine(RenderTarget(pixels: p.baseAddress!, width: width, height: height, stride: width), box: box,
                                      inverse: inverse, pixel: 1, shape: shape, color: color, variant: variant)
                }
                filled.withUnsafeMutableBufferPointer { p in
                    Raster.fill(RenderTarget(pixels: p.baseAddress!, width: width, height: height, stride: width), box: box,
                                inverse: inverse, pixel: 1, outer: shape, inner: nil, color: color, antialias: true, clips: [])
                }
                #expect(fast == start && filled == start, "variant \(variant), \(bad) in slot \(slot)")
            }
        }
    }

    /// A shape handed to the C rows directly with radii above half its shorter side (which
    /// `RoundedRect` clamps, so only a caller of the kernel could): the full runs stay inside,
    /// so every pixel is the coverage kernel's own blend (rotated and not).
    @Test(arguments: [Int32(0), 2, 3])
    func oversizedRadiiStayWithinTheShape(variant: Int32) {
        let width = 48, height = 40
        let color = PremultipliedColor(CGColor(red: 0.9, green: 0.4, blue: 0.1, alpha: 1), alpha: 0.8)
        var lcg = TestLCG(seed: 0x0B16_5EED)
        let start = (0..<(width * height)).map { _ in lcg.premultipliedWord(opaque: true) }
        for (angle, radius) in [(0.0, 15.0), (0.3, 15.0), (0.0, 40.0), (1.1, 25.0)] {
            var shape = cgs_rrect(cx: 20.5, cy: 18.25, hx: 10, hy: 10, r0: radius, r1: radius, r2: radius, r3: radius, rounded: 1)
            let m = [cos(angle), sin(angle), -sin(angle), cos(angle), 3.0, -2.0]
            var fast = start, slow = start
            fast.withUnsafeMutableBufferPointer { p in
                cgs_fill_rrect_using(variant, p.baseAddress!, width, 0, 0, width, height, m, &shape, 1, color.r, color.g, color.b,
                                     color.a, color.word, 0)
            }
            slow.withUnsafeMutableBufferPointer { p in
                var cov = [Float](repeating: 0, count: width)
                for y in 0..<height {
                    cgs_rrect_row(&cov, 0, width, Double(y) + 0.5, m, &shape, nil, 1, 1)
                    cgs_blend_coverage(p.baseAddress! + y * width, cov, width, color.r, color.g, color.b, color.a)
                }
            }
            #expect(fast == slow, "variant \(variant), angle \(angle), radius \(radius)")
        }
    }

    /// `start` filled with `shape` by the C rows in `variant` and by the general loop (with edge
    /// antialiasing when `antialias`: a rounded shape without it has the same coverage, its
    /// corners being smooth either way, so the C rows stand in for that loop too).
    static func fills(_ start: [UInt32], width: Int, height: Int, box: PixelBox, inverse: Homography, pixel: CGFloat,
                      shape: RoundedRect, color: PremultipliedColor, variant: Int32, antialias: Bool) -> ([UInt32], [UInt32]) {
        var fast = start, slow = start
        fast.withUnsafeMutableBufferPointer { p in
            Raster.fillAffine(RenderTarget(pixels: p.baseAddress!, width: width, height: height, stride: width), box: box,
                              inverse: inverse, pixel: pixel, shape: shape, color: color, variant: variant)
        }
        slow.withUnsafeMutableBufferPointer { p in
            Raster.fillRows(RenderTarget(pixels: p.baseAddress!, width: width, height: height, stride: width), box: box,
                            inverse: inverse, pixel: pixel, outer: shape, inner: nil, color: color,
                            antialias: !shape.isRounded || antialias, clips: [])
        }
        return (fast, slow)
    }
}
