// Stroke outlines against the stroke's definition: for random polylines, widths, joins and caps,
// the rasterised outline's coverage matches the union of the pieces a stroke is made of — a
// rectangle per segment, per join a disk (round), the miter wedge or the bevel triangle, per
// open end a half disk or half square — sampled 8 × 8 per pixel. A side going round the wrong
// way, a corner taken where it does not lie on both offset lines or a cap on the wrong side
// leaves whole pixels wrong; the sampling leaves at most a few hundredths.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct StrokeOutlineTests {
    /// A fixed-seed generator (Numerical Recipes' LCG), so failures reproduce.
    struct Random {
        var s: UInt32
        mutating func unit() -> CGFloat {
            s = s &* 1_664_525 &+ 1_013_904_223
            return CGFloat(s >> 8) / 16_777_216
        }
    }

    /// Whether `q` lies in the stroke of `pts` (width 2·hw) by its definition.
    static func inStroke(_ q: CGPoint, _ pts: [CGPoint], closed: Bool, hw: CGFloat, join: CGLineJoin, cap: CGLineCap,
                         miterLimit: CGFloat) -> Bool {
        let n = pts.count, segments = closed ? n : n - 1
        func unit(_ a: CGPoint, _ b: CGPoint) -> CGPoint {
            let l = hypot(b.x - a.x, b.y - a.y)
            return CGPoint(x: (b.x - a.x) / l, y: (b.y - a.y) / l)
        }
        func cross(_ a: CGPoint, _ b: CGPoint) -> CGFloat { a.x * b.y - a.y * b.x }
        func inConvex(_ poly: [CGPoint]) -> Bool {
            var sign: CGFloat = 0
            for i in poly.indices {
                let a = poly[i], b = poly[(i + 1) % poly.count]
                let c = cross(CGPoint(x: b.x - a.x, y: b.y - a.y), CGPoint(x: q.x - a.x, y: q.y - a.y))
                if c == 0 { continue }
                if sign == 0 { sign = c } else if (c > 0) != (sign > 0) { return false }
            }
            return true
        }
        for i in 0..<segments {
            let a = pts[i], b = pts[(i + 1) % n], d = unit(a, b), l = hypot(b.x - a.x, b.y - a.y)
            let v = CGPoint(x: q.x - a.x, y: q.y - a.y)
            let t = v.x * d.x + v.y * d.y
            if t >= 0 && t <= l && abs(cross(d, v)) <= hw { return true }
        }
        let joints = closed ? Array(0..<n) : Array(1..<(n - 1))
        for j in joints {
            let p = pts[j], d0 = unit(pts[(j - 1 + n) % n], p), d1 = unit(p, pts[(j + 1) % n])
            if join == .round {
                if hypot(q.x - p.x, q.y - p.y) <= hw { return true }
                continue
            }
            let s: CGFloat = cross(d0, d1) > 0 ? -1 : 1
            let n0 = CGPoint(x: -d0.y * hw * s + p.x, y: d0.x * hw * s + p.y)
            let n1 = CGPoint(x: -d1.y * hw * s + p.x, y: d1.x * hw * s + p.y)
            let cosHalf = ((1 + d0.x * d1.x + d0.y * d1.y) / 2).squareRoot()
            if join == .miter && cosHalf > 1e-9 && 1 / cosHalf <= miterLimit {
                let bx = -d0.y - d1.y, by = d0.x + d1.x, bl = hypot(bx, by)
                let tip = CGPoint(x: p.x + s * bx / bl * hw / cosHalf, y: p.y + s * by / bl * hw / cosHalf)
                if inConvex([p, n0, tip, n1]) { return true }
            } else if inConvex([p, n0, n1]) {
                return true
            }
        }
        if !closed {
            for (end, d) in [(pts[0], unit(pts[1], pts[0])), (pts[n - 1], unit(pts[n - 2], pts[n - 1]))] {
                let v = CGPoint(x: q.x - end.x, y: q.y - end.y)
                let t = v.x * d.x + v.y * d.y
                switch cap {
                case .round: if hypot(v.x, v.y) <= hw { return true }
                case .square: if t >= 0 && t <= hw && abs(cross(d, v)) <= hw { return true }
                default: break
                }
            }
        }
        return false
    }

    @Test func randomStrokesCoverTheirDefinition() {
        let scratch = RasterScratch()
        var random = Random(s: 0xC0FF_EE07)
        let size = 48
        var worst: Float = 0, cases = 0
        for round in 0..<24 {
            // Outlines wound once everywhere (where pieces overlap, anti-aliased coverage counts
            // the overlap twice along the rim — the non-zero rule's known limit): open polylines
            // going right in steps of 8–14 with turns under 120°, closed ones convex (a ring of
            // 3–6 points at random radii), half-widths up to 2 so inner corners meet within
            // half a segment.
            let count = 3 + Int(random.unit() * 4)
            let closed = round % 3 == 0
            var pts: [CGPoint] = []
            if closed {
                for k in 0..<count {
                    let a = (CGFloat(k) + random.unit() * 0.5) * 2 * .pi / CGFloat(count), r = 12 + random.unit() * 8
                    pts.append(CGPoint(x: 24 + r * cos(a), y: 24 + r * sin(a)))
                }
            } else {
                var p = CGPoint(x: 4 + random.unit() * 3, y: 12 + random.unit() * 24), heading: CGFloat = 0
                pts.append(p)
                for _ in 1..<count {
                    heading = max(min(heading + (random.unit() - 0.5) * 2 * .pi / 3, 1.2), -1.2)
                    let step = 8 + random.unit() * 6
                    p = CGPoint(x: p.x + step * cos(heading), y: min(max(p.y + step * sin(heading), 4), 44))
                    pts.append(p)
                }
            }
            let hw = 0.5 + random.unit() * 1.5
            let join: CGLineJoin = [.miter, .bevel, .round][(round / 3 + round) % 3]
            let cap: CGLineCap = [.butt, .round, .square][(round / 2) % 3]
            let path = CGMutablePath()
            path.addLines(between: pts)
            if closed { path.closeSubpath() }
            let outline = path.copy(strokingWithWidth: 2 * hw, lineCap: cap, lineJoin: join, miterLimit: 4)
            var c = [Float](repeating: 0, count: size * size)
            var r = PathRasterizer(box: PixelBox(x0: 0, y0: 0, x1: size, y1: size), scratch: scratch)
            r.addPath(outline, transform: .identity)
            r.resolve { y, row, _ in for x in 0..<size { c[y * size + x] = row[x] } }
            // Pixels farther from the polyline than a miter tip reaches are not sampled: 0.
            func far(_ x: Int, _ y: Int) -> Bool {
                let q = CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5)
                for i in 0..<(closed ? pts.count : pts.count - 1) {
                    let a = pts[i], b = pts[(i + 1) % pts.count]
                    let dx = b.x - a.x, dy = b.y - a.y
                    let t = min(max(((q.x - a.x) * dx + (q.y - a.y) * dy) / (dx * dx + dy * dy), 0), 1)
                    if hypot(a.x + t * dx - q.x, a.y + t * dy - q.y) < 4 * hw + 1 { return false }
                }
                return true
            }
            for y in 0..<size {
                for x in 0..<size {
                    if far(x, y) {
                        #expect(c[y * size + x] < 1e-3, "case \(round): pixel \(x), \(y) far from the stroke")
                        continue
                    }
                    var inside = 0
                    for i in 0..<8 {
                        for j in 0..<8 {
                            let q = CGPoint(x: CGFloat(x) + (CGFloat(i) + 0.5) / 8, y: CGFloat(y) + (CGFloat(j) + 0.5) / 8)
                            if StrokeOutlineTests.inStroke(q, pts, closed: closed, hw: hw, join: join, cap: cap, miterLimit: 4) {
                                inside += 1
                            }
                        }
                    }
                    let difference = abs(c[y * size + x] - Float(inside) / 64)
                    worst = max(worst, difference)
                    #expect(difference < 0.2, "case \(round) (\(join.rawValue), \(cap.rawValue), closed \(closed)) pixel \(x), \(y)")
                }
            }
            cases += 1
        }
        // Every case ran, and the sampling disagreed somewhere (the check is not vacuous).
        #expect(cases == 24 && worst > 0.01)
    }

    @Test func curvesStayCloseToTheCircleWhenTheLayerIsScaledUp() {
        // A circle of radius 4 stroked 1 wide, drawn 10× its size: the outline is made in layer
        // units before the map to pixels, so it must follow the curve 10× finer there. Every
        // pixel near the ring's rims within 0.15 of its exact coverage (sampled 8 × 8); at the
        // layer's own tolerance (0.05 units: 0.5 pixel here) the chords were 0.28 off.
        var sh = ShapeContent()
        sh.path = CGPath(ellipseIn: CGRect(x: 1, y: 1, width: 8, height: 8), transform: nil)
        sh.fillColor = nil
        sh.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        sh.lineWidth = 1
        let owned = OwnedTarget(width: 100, height: 100)
        Compositor().rasterize(sh, transform: CGAffineTransform(scaleX: 10, y: 10), into: owned.target,
                               box: PixelBox(x0: 0, y0: 0, x1: 100, y1: 100), alpha: 1, clips: [])
        var worst: Float = 0
        for y in 0..<100 {
            for x in 0..<100 {
                let d = hypot(CGFloat(x) + 0.5 - 50, CGFloat(y) + 0.5 - 50)
                guard abs(d - 35) < 1.5 || abs(d - 45) < 1.5 else { continue }
                var inside = 0
                for i in 0..<8 {
                    for j in 0..<8 {
                        let r = hypot(CGFloat(x) + (CGFloat(i) + 0.5) / 8 - 50, CGFloat(y) + (CGFloat(j) + 0.5) / 8 - 50)
                        if r >= 35 && r <= 45 { inside += 1 }
                    }
                }
                let alpha = Float(owned.target.row(y)[x] >> 24) / 255
                worst = max(worst, abs(alpha - Float(inside) / 64))
            }
        }
        #expect(worst < 0.15)
    }
}
