// The compositor's path rasteriser against geometry: total coverage equals the polygon's area,
// pixel-aligned edges give exact 0/1 coverage, a pixel cut by a line gets the area on its side,
// same-wound overlapping pieces cover as their union, and edges outside the box are harmless.
import CGSupport
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct PathRasterizerTests {
    let scratch = RasterScratch()

    /// Coverage of `path` over a `w` × `h` box at the origin, row-major.
    func coverage(_ path: CGPath, _ w: Int, _ h: Int, transform: CGAffineTransform = .identity) -> [Float] {
        var out = [Float](repeating: 0, count: w * h)
        var r = PathRasterizer(box: PixelBox(x0: 0, y0: 0, x1: w, y1: h), scratch: scratch)
        r.addPath(path, transform: transform)
        r.resolve { y, row, _ in for x in 0..<w { out[y * w + x] = row[x] } }
        return out
    }

    @Test func alignedRectanglesAreExact() {
        let c = coverage(CGPath(rect: CGRect(x: 2, y: 3, width: 5, height: 4), transform: nil), 10, 10)
        #expect(c.filter { $0 == 1 }.count == 20 && c.filter { $0 != 0 && $0 != 1 }.isEmpty)
        // Half-pixel edges: the ring of pixels cut in half has coverage ½ (¼ at the corners).
        let h = coverage(CGPath(rect: CGRect(x: 2.5, y: 2.5, width: 4, height: 4), transform: nil), 10, 10)
        #expect(h[2 * 10 + 2] == 0.25 && h[2 * 10 + 4] == 0.5 && h[4 * 10 + 4] == 1)
        #expect(abs(h.reduce(0, +) - 16) < 1e-4)
    }

    /// Writes what a consumer is handed into a row-major array over a box, counting the
    /// columns handed over more than once, and those outside the box or the row begun.
    struct Recorder: CoverageConsumer {
        let box: PixelBox
        var out: [Float]
        var seen: [Bool]
        var twice = 0, outside = 0, rowsBegun = 0
        var y = Int.min
        init(box: PixelBox) {
            self.box = box
            out = [Float](repeating: 0, count: (box.x1 - box.x0) * (box.y1 - box.y0))
            seen = [Bool](repeating: false, count: out.count)
        }
        mutating func begin(row y: Int) { self.y = y; rowsBegun += 1 }
        mutating func put(_ x: Int, _ c: Float) {
            guard x >= box.x0, x < box.x1, y >= box.y0, y < box.y1 else { outside += 1; return }
            let i = (y - box.y0) * (box.x1 - box.x0) + x - box.x0
            if seen[i] { twice += 1 }
            seen[i] = true
            out[i] = c
        }
        mutating func quad(_ x: Int, _ coverage: SIMD4<Float>) { for i in 0..<4 { put(x + i, coverage[i]) } }
        mutating func pixel(_ x: Int, _ coverage: Float) { put(x, coverage) }
        mutating func run(_ xs: Range<Int>, _ coverage: Float) { for x in xs { put(x, coverage) } }
    }

    @Test func fourAtATimeGivesWhatResolveWrites() {
        // resolve(into:) hands over what resolve writes (groups of four with touched cells, the
        // box's last columns one by one, constant stretches as runs), each column at most once,
        // in boxes that hold the shape (its width not a multiple of four), cut it and hold it
        // with a margin, the scratch shared between them.
        func viaPixels(_ path: CGPath, _ box: PixelBox, _ memory: RasterScratch) -> [Float] {
            var r = PathRasterizer(box: box, scratch: memory)
            r.addPath(path, transform: .identity)
            var recorder = Recorder(box: box)
            r.resolve(into: &recorder)
            #expect(recorder.twice == 0 && recorder.outside == 0 && recorder.rowsBegun > 0)
            return recorder.out
        }
        func viaResolve(_ path: CGPath, _ box: PixelBox) -> [Float] {
            let w = box.x1 - box.x0
            var out = [Float](repeating: 0, count: w * (box.y1 - box.y0))
            // The rasteriser holds the scratch's memory, not the scratch: keep it alive.
            let memory = RasterScratch()
            withExtendedLifetime(memory) {
                var r = PathRasterizer(box: box, scratch: memory)
                r.addPath(path, transform: .identity)
                r.resolve { y, row, columns in for i in columns { out[(y - box.y0) * w + i] = row[i] } }
            }
            return out
        }
        let ring = CGMutablePath()
        ring.addEllipse(in: CGRect(x: 1.3, y: 2.1, width: 26, height: 22))
        ring.addEllipse(in: CGRect(x: 8.2, y: 8.7, width: 9, height: 8))
        let star = CGMutablePath()
        for k in 0..<10 {
            let t = Double(k) * .pi / 5, r: Double = k % 2 == 0 ? 14 : 6
            let p = CGPoint(x: 20 + r * sin(t), y: 16 - r * cos(t))
            if k == 0 { star.move(to: p) } else { star.addLine(to: p) }
        }
        star.closeSubpath()
        let shared = RasterScratch()
        let boxes = [PixelBox(x0: 0, y0: 0, x1: 30, y1: 28), PixelBox(x0: 5, y0: 3, x1: 19, y1: 20),
                     PixelBox(x0: -4, y0: -2, x1: 40, y1: 33)]
        for (i, box) in boxes.enumerated() {
            let path = i == 1 ? star : ring
            // Equal, except that a group's lanes after the row's last touched cell carry the sum
            // as it is: a residue under `residue` where resolve leaves 0.
            let quads = viaPixels(path, box, shared), resolved = viaResolve(path, box)
            let differing = zip(quads, resolved).filter { $0 != $1 && !($1 == 0 && $0 < PathRasterizer.residue) }
            #expect(quads.count == resolved.count && differing.isEmpty, "box \(i)")
        }
    }

    @Test func aSharedScratchIsClearForEveryShape() {
        // resolve(into:) leaves the cells it read zero instead of the next shape clearing them:
        // the same shapes through one scratch, after shapes resolved that way (one cut by the
        // box's right side, whose edges reach the two cells past the box), resolved the other
        // way (which leaves coverage in the cells), never resolved, and in a box larger than the
        // scratch held, give what a fresh scratch gives.
        let star = CGMutablePath()
        for k in 0..<10 {
            let t = Double(k) * .pi / 5 + 0.3, r: Double = k % 2 == 0 ? 13.7 : 5.9
            let p = CGPoint(x: 16.4 + r * sin(t), y: 15.2 - r * cos(t))
            if k == 0 { star.move(to: p) } else { star.addLine(to: p) }
        }
        star.closeSubpath()
        let ring = CGMutablePath()
        ring.addEllipse(in: CGRect(x: 2.3, y: 1.6, width: 27.2, height: 25.5))
        ring.addEllipse(in: CGRect(x: 9.1, y: 8.4, width: 10, height: 9.5))
        func recorded(_ path: CGPath, _ box: PixelBox, _ memory: RasterScratch) -> [Float] {
            var r = PathRasterizer(box: box, scratch: memory)
            r.addPath(path, transform: .identity)
            var recorder = Recorder(box: box)
            r.resolve(into: &recorder)
            return recorder.out
        }
        let small = PixelBox(x0: 0, y0: 0, x1: 33, y1: 31), large = PixelBox(x0: -200, y0: -3, x1: 230, y1: 60)
        let fresh = RasterScratch(), freshLarge = RasterScratch()
        let expected = recorded(star, small, fresh), expectedRing = recorded(ring, small, RasterScratch())
        let expectedLarge = recorded(ring, large, freshLarge)
        let cut = PixelBox(x0: 0, y0: 0, x1: 21, y1: 31)
        let expectedCut = recorded(ring, cut, RasterScratch())
        let shared = RasterScratch()
        #expect(recorded(ring, small, shared) == expectedRing)
        #expect(recorded(star, small, shared) == expected)
        #expect(recorded(ring, cut, shared) == expectedCut)
        #expect(recorded(star, small, shared) == expected)
        var other = PathRasterizer(box: small, scratch: shared)
        other.addPath(ring, transform: .identity)
        other.resolve { _, _, _ in }
        #expect(recorded(star, small, shared) == expected)
        var unresolved = PathRasterizer(box: small, scratch: shared)
        unresolved.addPath(ring, transform: .identity)
        #expect(recorded(star, small, shared) == expected)
        #expect(recorded(ring, large, shared) == expectedLarge)
        #expect(recorded(star, small, shared) == expected)
        withExtendedLifetime(unresolved) {}
    }

    @Test func rowsReportTheColumnsThatCanBeCovered() {
        // A turned square with a square hole (wound the other way) and a bar running past the
        // box's right side: each row's reported stretches hold every non-zero pixel, the sums stop
        // at the last edge inside the box only when nothing carries on beyond it, and the hole's
        // inside (no edge there, sum 0) is left out.
        let hole = CGMutablePath()
        hole.move(to: CGPoint(x: 9.5, y: 9.5)); hole.addLine(to: CGPoint(x: 9.5, y: 14.5)); hole.addLine(to: CGPoint(x: 14.5, y: 14.5))
        hole.addLine(to: CGPoint(x: 14.5, y: 9.5)); hole.closeSubpath()
        let ring = CGMutablePath()
        ring.move(to: CGPoint(x: 12, y: 2)); ring.addLine(to: CGPoint(x: 22, y: 12)); ring.addLine(to: CGPoint(x: 12, y: 22))
        ring.addLine(to: CGPoint(x: 2, y: 12)); ring.closeSubpath()
        ring.addPath(hole)
        ring.addRect(CGRect(x: 18.3, y: 24.2, width: 30, height: 3))
        let w = 30, h = 30
        var full = [Float](repeating: 0, count: w * h), reported = [[Range<Int>]](repeating: [], count: h)
        var r = PathRasterizer(box: PixelBox(x0: 0, y0: 0, x1: w, y1: h), scratch: scratch)
        r.addPath(ring, transform: .identity)
        r.resolve { y, row, columns in
            if let last = reported[y].last { #expect(last.upperBound <= columns.lowerBound, "in order, apart") }
            reported[y].append(columns)
            for x in 0..<w { full[y * w + x] = row[x] }
        }
        for y in 0..<h {
            for x in 0..<w where full[y * w + x] > 0 {
                #expect(reported[y].contains { $0.contains(x) }, "row \(y), column \(x)")
            }
        }
        // The hole's middle is empty and skipped, the bar reaches the box's last column, the
        // diamond's tips do not.
        #expect(full[12 * w + 12] == 0 && full[12 * w + 5] == 1)
        #expect(reported[12].count == 2 && !reported[12].contains { $0.contains(12) })
        #expect(full[25 * w + 29] == 1 && reported[25] == [18..<30])
        #expect(reported[3].last.map { $0.upperBound < w } == true)
        // Areas: the diamond 20 × 20 / 2, less the 5 × 5 hole, plus the bar's 11.7 × 3 inside the box.
        let area: Float = 200 - 25 + 11.7 * 3
        #expect(abs(full.reduce(0, +) - area) < 1e-3)
    }

    @Test func pixelsInsideAShapeAreFullyCovered() {
        // Convex polygons at random angles: every pixel whose square lies inside gets coverage
        // exactly 1 through both resolves (a row's sums come to 1 − 2·10⁻⁶ and the like in a box
        // 64 wide, which would take a channel at a rounding tie, 0.1 × 255, one level down).
        // Without `PathRasterizer.full` 2,117 of these pixels are below 1, with it at 1 − 2⁻¹⁹ 33.
        var random = StrokeOutlineTests.Random(s: 0x1F11_0C0D)
        var inside = 0
        for _ in 0..<100 {
            let c = CGPoint(x: 30 + 4 * random.unit(), y: 30 + 4 * random.unit())
            let n = 3 + Int(random.unit() * 6), a0 = random.unit() * 2 * .pi, r = 12 + 16 * random.unit()
            let corners = (0..<n).map { k in
                CGPoint(x: c.x + r * cos(a0 + Double(k) * 2 * .pi / Double(n)), y: c.y + r * sin(a0 + Double(k) * 2 * .pi / Double(n)))
            }
            let path = CGMutablePath()
            path.addLines(between: corners)
            path.closeSubpath()
            // Inside a convex polygon wound one way, a hundredth of a pixel from every edge at
            // least (closer, the edge's own rounding may take a millionth off a pixel's coverage).
            func holds(_ p: CGPoint) -> Bool {
                (0..<n).allSatisfy { k in
                    let a = corners[k], b = corners[(k + 1) % n]
                    let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                    return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) >= 0.01 * length
                }
            }
            let box = PixelBox(x0: 0, y0: 0, x1: 64, y1: 64)
            let written = coverage(path, 64, 64)
            var handed = Recorder(box: box)
            var raster = PathRasterizer(box: box, scratch: scratch)
            raster.addPath(path, transform: .identity)
            raster.resolve(into: &handed)
            for y in 0..<64 {
                for x in 0..<64 where [(0, 0), (1, 0), (0, 1), (1, 1)].allSatisfy({ holds(CGPoint(x: x + $0.0, y: y + $0.1)) }) {
                    inside += 1
                    #expect(written[y * 64 + x] == 1 && handed.out[y * 64 + x] == 1, "pixel (\(x), \(y))")
                }
            }
        }
        #expect(inside > 40_000)
    }

    @Test func aNearlyVerticalEdgeCrossingAColumnKeepsItsArea() {
        // The right side of a rect runs from x = 999.99996 to 999.99998 down 720 rows: as Floats
        // its ends are 999.99994 and 1000, so one row's piece crosses into column 1000 although
        // the edge moves 8.5·10⁻⁸ pixel a row. Column 999 is covered but for 6·10⁻⁵ at most, column
        // 1000 at most that much (a coverage per unit of x taken from the slope, not from the
        // piece, gave column 999 0.978 in that row).
        let p = CGMutablePath()
        p.addLines(between: [CGPoint(x: 990, y: 0), CGPoint(x: 999.99996, y: 0), CGPoint(x: 999.99998, y: 720),
                             CGPoint(x: 990, y: 720)])
        p.closeSubpath()
        let w = 1004, c = coverage(p, w, 720)
        let left = (0..<720).map { c[$0 * w + 999] }, right = (0..<720).map { c[$0 * w + 1000] }
        #expect(left.min()! > 0.9999 && right.max()! < 0.0001)
    }

    @Test func coverageSumsToTheArea() {
        // A circle of radius 20 flattened to 0.05 px: area within 0.5 % of π·400.
        let circle = coverage(CGPath(ellipseIn: CGRect(x: 5.3, y: 4.7, width: 40, height: 40), transform: nil), 50, 50)
        #expect(abs(Double(circle.reduce(0, +)) - Double.pi * 400) / (Double.pi * 400) < 0.005)
        // A square rotated by 30°: area 400 whatever the angle.
        let square = CGPath(rect: CGRect(x: -10, y: -10, width: 20, height: 20), transform: nil)
        let turned = coverage(square, 40, 40, transform: CGAffineTransform(rotationAngle: .pi / 6).concatenating(.init(translationX: 20.2, y: 19.9)))
        #expect(abs(turned.reduce(0, +) - 400) < 0.01)
        // A line through a pixel's centre at 45° cuts it in half.
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0)); p.addLine(to: CGPoint(x: 10, y: 10)); p.addLine(to: CGPoint(x: 0, y: 10)); p.closeSubpath()
        let tri = coverage(p, 10, 10)
        #expect(abs(tri[5 * 10 + 5] - 0.5) < 1e-5 && tri[5 * 10 + 4] == 1 && tri[5 * 10 + 6] == 0)
    }

    @Test func strokeOutlinesCoverTheirExactArea() {
        // An L stroked 5 wide (miter): arms 20 × 5 and 5 × 20 overlapping in 2.5 × 2.5, plus the
        // 2.5 × 2.5 square of the miter — 200 units². Its inner corner, where the offset lines
        // y = 12.5 and x = 27.5 cross, is the centre of pixel (27, 12): half of it lies in each
        // arm and a quarter in both, so it is ¾ covered. (An inner side detouring through the
        // vertex wound the corner twice: |sum| over a pixel counts that quarter twice.)
        let l = CGMutablePath()
        l.move(to: CGPoint(x: 10, y: 10)); l.addLine(to: CGPoint(x: 30, y: 10)); l.addLine(to: CGPoint(x: 30, y: 30))
        for join in [CGLineJoin.miter, .bevel] {
            let c = coverage(l.copy(strokingWithWidth: 5, lineCap: .butt, lineJoin: join, miterLimit: 10), 40, 40)
            #expect(abs(c[12 * 40 + 27] - 0.75) < 1e-5, "\(join)")
            #expect(abs(c[13 * 40 + 27] - 0.5) < 1e-5 && abs(c[12 * 40 + 26] - 0.5) < 1e-5)
            // A bevel cuts the miter square in half.
            #expect(abs(c.reduce(0, +) - (join == .miter ? 200 : 196.875)) < 1e-3, "\(join)")
        }
        // Round joins and caps are arcs of the outline, not circles laid over it (which counted
        // the pixels along their rims twice): a circle stroked 5 wide covers its annulus,
        // 4π·25·2.5, whatever the join; a round-capped line 40 long and 6 wide, 40·6 + π·3²
        // (within the flattening of the circle and of the caps' arcs).
        let circle = CGPath(ellipseIn: CGRect(x: 10.3, y: 10.7, width: 50, height: 50), transform: nil)
        let annulus: Double = 4 * .pi * 25 * 2.5
        for join in [CGLineJoin.miter, .round, .bevel] {
            let ring = coverage(circle.copy(strokingWithWidth: 5, lineCap: .butt, lineJoin: join, miterLimit: 10), 80, 80)
            let area = Double(ring.reduce(0, +))
            #expect(abs(area / annulus - 1) < 0.001, "\(join)")
        }
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 20.2, y: 30.6)); line.addLine(to: CGPoint(x: 60.2, y: 30.6))
        let capped = coverage(line.copy(strokingWithWidth: 6, lineCap: .round, lineJoin: .round, miterLimit: 10), 80, 60)
        let stadium: Double = 240 + .pi * 9, area = Double(capped.reduce(0, +))
        #expect(abs(area / stadium - 1) < 0.002)
    }

    @Test func sameWoundPiecesCoverTheirUnionAndOutsideEdgesAreHarmless() {
        let p = CGMutablePath()
        p.addRect(CGRect(x: 1, y: 1, width: 6, height: 6))
        p.addRect(CGRect(x: 4, y: 4, width: 6, height: 6))
        let c = coverage(p, 12, 12)
        #expect(c.filter { $0 == 1 }.count == 36 + 36 - 9 && c.allSatisfy { $0 >= 0 && $0 <= 1 })
        // Shapes reaching far outside the box are clipped to it; rows and columns stay in range.
        let big = coverage(CGPath(rect: CGRect(x: -1e6, y: -50, width: 2e6, height: 55.5), transform: nil), 8, 8)
        #expect(big[0] == 1 && big[5 * 8 + 3] == 0.5 && big[7 * 8] == 0)
        let none = coverage(CGPath(rect: CGRect(x: 100, y: 100, width: 5, height: 5), transform: nil), 8, 8)
        #expect(none.allSatisfy { $0 == 0 })
    }
}

extension PathRasterizerTests {
    @Test func boxesCutThroughAShapeGiveItsOwnCoverage() {
        // A slanted triangle rasterised whole and in two halves cut at a column: same coverage.
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 1.3, y: 2.1)); p.addLine(to: CGPoint(x: 18.7, y: 5.4)); p.addLine(to: CGPoint(x: 6.2, y: 17.9))
        p.closeSubpath()
        let whole = coverage(p, 20, 20)
        for cut in [4, 9, 13] {
            var parts = [Float](repeating: 0, count: 400)
            for (x0, x1) in [(0, cut), (cut, 20)] {
                var r = PathRasterizer(box: PixelBox(x0: x0, y0: 0, x1: x1, y1: 20), scratch: scratch)
                r.addPath(p, transform: .identity)
                r.resolve { y, row, _ in for x in x0..<x1 { parts[y * 20 + x] = row[x - x0] } }
            }
            #expect(zip(whole, parts).allSatisfy { abs($0 - $1) < 1e-4 })
        }
    }

    @Test func fourRowsAtATimeAddWhatEachRowAdds() {
        // cgs_edge_rows4 (whole rows of an edge less than two columns a row, four at a time)
        // against cgs_place (the rasteriser's one definition of a piece) row by row from the
        // same x: the same cells and marks, bit for bit, for edges of every slope
        // in (−2, 2) — vertical, nearly vertical (divided per piece), either way round — at any
        // offset; and it stops before a row whose piece crosses more boundaries than it takes.
        var seed: UInt32 = 0x5EED_0007
        func unit() -> Float { seed = seed &* 1_664_525 &+ 1_013_904_223; return Float(seed >> 8) / 16_777_216 }
        let stride = 120, words = 2, height = 40
        var wrong = 0, stopped = 0
        for i in 0..<3_000 {
            let slope: Float = i % 7 == 0 ? 0 : i % 11 == 0 ? (unit() - 0.5) / 100 : (unit() * 2 - 1) * (i % 5 == 0 ? 2.6 : i % 3 == 0 ? 1.999 : 0.999)
            let three: Int32 = abs(slope) < 1 ? 0 : 1
            // x stays within 7 … 103: inside the cells and marks of a row, as in the rasteriser.
            let x0 = 50 + unit() * 10, y0 = unit() * 3 - 1, sign: Float = i % 2 == 0 ? 1 : -1
            let d: Float = abs(slope) >= 1.0 / 64 ? sign / abs(slope) : 0
            let rows = 4 + Int(unit() * 20), next = Float(1 + Int(unit() * 4))
            let xa = x0 + (next - 1 - y0) * slope
            var cellsA = [Float](repeating: 0, count: stride * height + 4), marksA = [UInt64](repeating: 0, count: words * height + 1)
            var cellsB = cellsA, marksB = marksA
            let done = cellsA.withUnsafeMutableBufferPointer { c in
                marksA.withUnsafeMutableBufferPointer { m in
                    cgs_edge_rows4(c.baseAddress!, m.baseAddress!, stride, words, rows, x0, y0, slope, next, xa, sign, d, three)
                }
            }
            var top = xa, expected = 0
            for r in 0..<rows {
                let bottom = x0 + (next + Float(r) - y0) * slope
                let a = min(top, bottom), b = max(top, bottom)
                let c0 = Int(a), cb = Int(b)
                if cb > c0 + 1 + Int(three) || r >= rows / 4 * 4 { break }
                if r % 4 == 3 { expected = r + 1 }
                cellsB.withUnsafeMutableBufferPointer { c in
                    marksB.withUnsafeMutableBufferPointer { m in
                        cgs_place(c.baseAddress! + r * stride, m.baseAddress! + r * words, c0, cb, a, b, sign, d != 0 ? d : sign / (b - a))
                    }
                }
                top = bottom
            }
            // Rows of a group it stopped at were not added by it either.
            if done < expected || done % 4 != 0 { wrong += 1; continue }
            if done < rows / 4 * 4 { stopped += 1 }
            for r in done..<rows { for c in 0..<stride { cellsB[r * stride + c] = 0 }; for w in 0..<words { marksB[r * words + w] = 0 } }
            if cellsA.map(\.bitPattern) != cellsB.map(\.bitPattern) || marksA != marksB { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(stopped > 0)
    }
}
