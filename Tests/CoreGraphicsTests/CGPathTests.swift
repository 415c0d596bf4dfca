// Apple: paths store points mapped by the builder's transform; boundingBox includes control
// points, boundingBoxOfPath does not; contains() treats subpaths as closed, with winding or
// even-odd rules; an empty path's bounding box is CGRect.null.
import CoreGraphics
import Foundation
import Testing
import TestSupport

@Suite struct CGPathTests {
    func close(_ a: CGFloat, _ b: CGFloat, _ eps: CGFloat = 1e-9) -> Bool { abs(a - b) <= eps }

    func elements(_ p: CGPath) -> [(CGPathElementType, [CGPoint])] {
        var out: [(CGPathElementType, [CGPoint])] = []
        p.applyWithBlock { e in
            let n = [1, 1, 2, 3, 0][Int(e.pointee.type.rawValue)]
            out.append((e.pointee.type, (0..<n).map { e.pointee.points[$0] }))
        }
        return out
    }

    @Test func emptyPathHasNullBoundsAndZeroCurrentPoint() {
        let p = CGMutablePath()
        #expect(p.isEmpty)
        #expect(p.boundingBox.isNull)
        #expect(p.boundingBoxOfPath.isNull)
        #expect(p.currentPoint == .zero)
    }

    @Test func rectPathIsMoveThreeLinesAndClose() {
        let p = CGPath(rect: CGRect(x: 1, y: 2, width: 3, height: 4), transform: nil)
        let e = elements(p)
        #expect(e.map(\.0) == [.moveToPoint, .addLineToPoint, .addLineToPoint, .addLineToPoint, .closeSubpath])
        #expect(e[0].1 == [CGPoint(x: 1, y: 2)] && e[2].1 == [CGPoint(x: 4, y: 6)])
        var r = CGRect.zero
        #expect(p.isRect(&r) && r == CGRect(x: 1, y: 2, width: 3, height: 4))
    }

    @Test func transformIsAppliedWhenPointsAreAdded() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 1, y: 1), transform: CGAffineTransform(scaleX: 10, y: 10))
        p.addLine(to: CGPoint(x: 2, y: 1), transform: CGAffineTransform(translationX: 5, y: 0))
        #expect(elements(p).map(\.1) == [[CGPoint(x: 10, y: 10)], [CGPoint(x: 7, y: 1)]])
        #expect(p.currentPoint == CGPoint(x: 7, y: 1))
    }

    @Test func lineWithoutCurrentPointIsIgnoredAndCounted() {
        let before = CGDiagnostics.count(.invalidDrawingState)
        let p = CGMutablePath()
        p.addLine(to: CGPoint(x: 5, y: 5))
        #expect(p.isEmpty)
        #expect(CGDiagnostics.count(.invalidDrawingState) == before + 1)
    }

    @Test func nonFinitePointsAreIgnored() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: CGFloat.nan, y: 0))
        p.addRect(CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 1))
        #expect(p.isEmpty)
    }

    @Test func boundingBoxIncludesControlPointsButPathBoxDoesNot() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0))
        p.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 0, y: 100), control2: CGPoint(x: 100, y: 100))
        #expect(p.boundingBox == CGRect(x: 0, y: 0, width: 100, height: 100))
        // The curve peaks at t = 0.5: y = 3·0.25·0.5·100·2 = 75.
        let tight = p.boundingBoxOfPath
        #expect(close(tight.height, 75) && close(tight.width, 100))
    }

    @Test func ellipseStartsAtMaxXMidYAndPassesThroughExtremes() {
        let p = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 50), transform: nil)
        let e = elements(p)
        #expect(e.first!.1 == [CGPoint(x: 100, y: 25)])
        #expect(e.map(\.0).filter { $0 == .addCurveToPoint }.count == 4)
        #expect(e[1].1[2] == CGPoint(x: 50, y: 50))
        #expect(p.boundingBoxOfPath == CGRect(x: 0, y: 0, width: 100, height: 50))
    }

    @Test func containsUsesWindingAndEvenOddRules() {
        let p = CGMutablePath()
        p.addRect(CGRect(x: 0, y: 0, width: 100, height: 100))
        p.addRect(CGRect(x: 25, y: 25, width: 50, height: 50))
        let centre = CGPoint(x: 50, y: 50)
        #expect(p.contains(centre, using: .winding))
        #expect(!p.contains(centre, using: .evenOdd))
        #expect(p.contains(CGPoint(x: 10, y: 10), using: .evenOdd))
        #expect(!p.contains(CGPoint(x: 150, y: 50)))
        #expect(p.contains(CGPoint(x: 150, y: 50), transform: CGAffineTransform(translationX: 100, y: 0)))
        #expect(!p.contains(CGPoint(x: CGFloat.nan, y: 0)))
    }

    @Test func containsFollowsCurves() {
        let circle = CGPath(ellipseIn: CGRect(x: -10, y: -10, width: 20, height: 20), transform: nil)
        #expect(circle.contains(CGPoint(x: 7, y: 7)))      // r = 9.90
        #expect(!circle.contains(CGPoint(x: 7.2, y: 7.2)))  // r = 10.18
    }

    @Test func counterClockwiseArcFromZeroToHalfPiEndsOnPositiveY() {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(close(p.currentPoint.x, 0) && close(p.currentPoint.y, 10))
        #expect(close(p.boundingBoxOfPath.width, 10) && close(p.boundingBoxOfPath.height, 10))
        let q = CGMutablePath()
        q.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        // Clockwise goes the long way round: three quarters of the circle.
        #expect(close(q.boundingBoxOfPath.width, 20) && close(q.boundingBoxOfPath.height, 20))
    }

    @Test func arcPointsLieOnTheCircle() {
        let p = CGMutablePath()
        p.addRelativeArc(center: CGPoint(x: 5, y: 5), radius: 20, startAngle: 0.3, delta: 2.5)
        let poly = p.copy(dashingWithPhase: 0, lengths: [1000])
        var worst: CGFloat = 0
        poly.applyWithBlock { e in
            if e.pointee.type != .closeSubpath {
                let q = e.pointee.points[0]
                worst = max(worst, abs(hypot(q.x - 5, q.y - 5) - 20))
            }
        }
        // Cubic arcs of at most 90° deviate from the circle by under 0.03 % of the radius.
        #expect(worst < 20 * 0.0003)
    }

    @Test func tangentArcMeetsBothLines() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0))
        p.addArc(tangent1End: CGPoint(x: 100, y: 0), tangent2End: CGPoint(x: 100, y: 100), radius: 20)
        let e = elements(p)
        #expect(e[1].1 == [CGPoint(x: 80, y: 0)])
        #expect(close(p.currentPoint.x, 100) && close(p.currentPoint.y, 20))
    }

    @Test func roundedRectClampsCornerSizes() {
        let p = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 40, height: 20), cornerWidth: 100, cornerHeight: 100, transform: nil)
        #expect(p.boundingBoxOfPath == CGRect(x: 0, y: 0, width: 40, height: 20))
        #expect(!p.contains(CGPoint(x: 1, y: 1)))
        #expect(p.contains(CGPoint(x: 20, y: 1)))
    }

    @Test func strokedCopyCoversTheStrokeArea() {
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 0, y: 0)); line.addLine(to: CGPoint(x: 100, y: 0))
        let butt = line.copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        #expect(butt.contains(CGPoint(x: 50, y: 4.9)))
        #expect(!butt.contains(CGPoint(x: 50, y: 5.1)))
        #expect(!butt.contains(CGPoint(x: -1, y: 0)))
        let square = line.copy(strokingWithWidth: 10, lineCap: .square, lineJoin: .miter, miterLimit: 10)
        #expect(square.contains(CGPoint(x: -4.9, y: 0)) && !square.contains(CGPoint(x: -5.1, y: 0)))
        let round = line.copy(strokingWithWidth: 10, lineCap: .round, lineJoin: .miter, miterLimit: 10)
        #expect(round.contains(CGPoint(x: -4.9, y: 0)) && !round.contains(CGPoint(x: -4, y: 4)))
        #expect(round.boundingBoxOfPath == CGRect(x: -5, y: -5, width: 110, height: 10))
    }

    @Test func strokedOutlinesAreOneContourPerSide() {
        // A closed 40 × 30 rect stroked 4 wide with miter joins: an outer ring through the four
        // miter tips and an inner ring through the four points where the inner offset lines
        // cross — the corners of the true outline; 44 × 34 − 36 × 26 = 560 units².
        let rect = CGPath(rect: CGRect(x: 10, y: 10, width: 40, height: 30), transform: nil)
        let outline = rect.copy(strokingWithWidth: 4, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        let parts = elements(outline)
        #expect(parts.filter { $0.0 == .moveToPoint }.count == 2)
        #expect(parts.filter { $0.0 == .closeSubpath }.count == 2)
        // Each ring goes straight from corner to corner (a segment's offset ends lie on the lines
        // to them), starting and ending at vertex 0's: 1 move, 3 lines, 1 close each.
        #expect(parts.count == 5 + 5)
        let points = Set(parts.flatMap { $0.1 }.map { "\($0.x),\($0.y)" })
        #expect(points == ["8.0,8.0", "52.0,8.0", "52.0,42.0", "8.0,42.0", "12.0,12.0", "48.0,12.0", "48.0,38.0", "12.0,38.0"])
        var area = 0
        for y in 0..<60 { for x in 0..<70 where outline.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) { area += 1 } }
        #expect(area == 560)
        // Where the inner offset lines cross beyond half a segment (a 1-unit segment, 4 wide),
        // the inner side goes through the vertex: the outline still covers both segments.
        let hook = CGMutablePath()
        hook.move(to: CGPoint(x: 0, y: 20)); hook.addLine(to: CGPoint(x: 30, y: 20)); hook.addLine(to: CGPoint(x: 30, y: 21))
        let hooked = hook.copy(strokingWithWidth: 4, lineCap: .butt, lineJoin: .bevel, miterLimit: 10)
        #expect(elements(hooked).contains { $0.1 == [CGPoint(x: 30, y: 20)] })
        #expect(hooked.contains(CGPoint(x: 29, y: 18.5)) && hooked.contains(CGPoint(x: 31.5, y: 20.8)))
        #expect(!hooked.contains(CGPoint(x: 29, y: 22.5)))
        // An open polyline is one ring, round joins and caps included: the ring goes round the
        // join's arc on its outer side and round each cap's half circle, as curves.
        let zigzag = CGMutablePath()
        zigzag.move(to: .zero); zigzag.addLine(to: CGPoint(x: 20, y: 20)); zigzag.addLine(to: CGPoint(x: 40, y: 0))
        #expect(elements(zigzag.copy(strokingWithWidth: 4, lineCap: .butt, lineJoin: .bevel, miterLimit: 10))
            .filter { $0.0 == .moveToPoint }.count == 1)
        let rounded = elements(zigzag.copy(strokingWithWidth: 4, lineCap: .round, lineJoin: .round, miterLimit: 10))
        #expect(rounded.filter { $0.0 == .moveToPoint }.count == 1)
        // A quarter turn of arc at the join, two at each cap.
        #expect(rounded.filter { $0.0 == .addCurveToPoint }.count == 1 + 2 + 2)
        // A path folding straight back keeps its vertex's circle for a round join.
        let fold = CGMutablePath()
        fold.move(to: .zero); fold.addLine(to: CGPoint(x: 20, y: 0)); fold.addLine(to: CGPoint(x: 10, y: 0))
        #expect(elements(fold.copy(strokingWithWidth: 4, lineCap: .butt, lineJoin: .round, miterLimit: 10))
            .filter { $0.0 == .moveToPoint }.count == 2)
        // A zero-length segment: a square cap gives a width × width square, a butt cap nothing.
        let point = CGMutablePath()
        point.move(to: CGPoint(x: 5, y: 5)); point.addLine(to: CGPoint(x: 5, y: 5))
        let square = point.copy(strokingWithWidth: 4, lineCap: .square, lineJoin: .miter, miterLimit: 10)
        #expect(square.boundingBoxOfPath == CGRect(x: 3, y: 3, width: 4, height: 4))
        #expect(square.contains(CGPoint(x: 3.1, y: 6.9)) && !square.contains(CGPoint(x: 2.9, y: 5)))
        #expect(point.copy(strokingWithWidth: 4, lineCap: .butt, lineJoin: .miter, miterLimit: 10).isEmpty)
    }

    @Test func miterJoinsRespectTheLimit() {
        // A right angle: miter length / width = √2 ≈ 1.414.
        let corner = CGMutablePath()
        corner.move(to: CGPoint(x: 0, y: 0)); corner.addLine(to: CGPoint(x: 100, y: 0)); corner.addLine(to: CGPoint(x: 100, y: 100))
        let tip = CGPoint(x: 104.9, y: -4.9)
        let mitered = corner.copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: .miter, miterLimit: 1.5)
        #expect(mitered.contains(tip))
        let bevelled = corner.copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: .miter, miterLimit: 1.4)
        #expect(!bevelled.contains(tip))
        let rounded = corner.copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: .round, miterLimit: 10)
        #expect(!rounded.contains(tip) && rounded.contains(CGPoint(x: 103, y: -3)))
    }

    @Test func dashingSplitsIntoOnStretches() {
        let line = CGMutablePath()
        line.move(to: .zero); line.addLine(to: CGPoint(x: 100, y: 0))
        let dashed = line.copy(dashingWithPhase: 0, lengths: [10, 5])
        let moves = elements(dashed).filter { $0.0 == .moveToPoint }.map { $0.1[0].x }
        #expect(moves == [0, 15, 30, 45, 60, 75, 90])
        let shifted = line.copy(dashingWithPhase: 12, lengths: [10, 5])
        // Phase 12 skips the first dash (10) and 2 of the gap: the first dash starts at x = 3.
        #expect(elements(shifted).filter { $0.0 == .moveToPoint }.map { $0.1[0].x }.prefix(2) == [3, 18])
    }

    @Test func invalidDashPatternsLeaveThePathUnchanged() {
        let line = CGMutablePath()
        line.move(to: .zero); line.addLine(to: CGPoint(x: 100, y: 0))
        let before = CGDiagnostics.count(.invalidParameter)
        #expect(line.copy(dashingWithPhase: 0, lengths: [0, 0]) == line)
        #expect(line.copy(dashingWithPhase: 0, lengths: [-1, 5]) == line)
        #expect(CGDiagnostics.count(.invalidParameter) == before + 2)
    }

    @Test func equalityComparesElements() {
        let a = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: nil)
        let b = CGMutablePath(); b.addRect(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(a == b)
        b.addLine(to: CGPoint(x: 5, y: 5))
        #expect(a != b)
    }

    @Test func addPathAndCopiesKeepElements() {
        let a = CGMutablePath()
        a.addPath(CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: nil),
                  transform: CGAffineTransform(translationX: 10, y: 0))
        #expect(a.boundingBox == CGRect(x: 10, y: 0, width: 1, height: 1))
        var t = CGAffineTransform(scaleX: 2, y: 2)
        #expect(a.copy(using: &t)!.boundingBox == CGRect(x: 20, y: 0, width: 2, height: 2))
        a.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 3, y: 4)])
        #expect(a.currentPoint == CGPoint(x: 3, y: 4))
    }

    @Test func aHundredThousandElementPathStaysFast() {
        let p = CGMutablePath()
        p.move(to: .zero)
        for i in 0..<100_000 { p.addLine(to: CGPoint(x: CGFloat(i % 100), y: CGFloat(i / 100))) }
        #expect(p.boundingBox == CGRect(x: 0, y: 0, width: 99, height: 999))
        _ = p.contains(CGPoint(x: 50, y: 50))
    }

    @Test func roundJoinsBetweenHugeCoordinatesStrokeWithoutTrapping() {
        // Found by fuzzing: points past ±1e154 overflow a round join's angle to NaN, and the arc
        // was cut into a NaN count of pieces (a trap). Such a join is a straight line instead.
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0))
        p.addLine(to: CGPoint(x: 1e300, y: 1e300))
        p.addLine(to: CGPoint(x: -1e300, y: 1e300))
        let stroked = p.copy(strokingWithWidth: 4, lineCap: .round, lineJoin: .round, miterLimit: 10)
        #expect(!stroked.isEmpty)
    }
}
