// The flattening budget (docs/ARCHITECTURE.md, "Limits and budgets"): "one flattening of a path
// makes at most CGPath.maxFlattenedPoints points; past it curves are followed by their chords".
// Found by fuzzing: a path of two million wild curves asked for 9 GB. And the drawing budget:
// "a fill or stroke of a path past CGContext.maxDrawnElements is skipped, a clip goes to the
// path's bounding box" (cairo's tessellator took minutes over millions of crossing edges).
@testable import CoreGraphics
import Testing

@Suite struct FlatteningBudgetTests {
    @Test func curvesPastTheBudgetFollowTheirChords() {
        let path = CGMutablePath()
        path.move(to: .zero)
        for i in 0..<2_000 {   // each wants the per-curve cap of 4,096 segments: 8 M points in all
            let s = CGFloat(i % 2 == 0 ? 1 : -1) * 1e9
            path.addCurve(to: CGPoint(x: CGFloat(i), y: 0), control1: CGPoint(x: s, y: -s), control2: CGPoint(x: -s, y: s))
        }
        let before = CGDiagnostics.count(.budgetExceeded)
        let points = path.flattened(tolerance: 0.01).reduce(0) { $0 + $1.points.count }
        #expect(points <= CGPath.maxFlattenedPoints + 2_000 + 1)   // the budget, then one chord a curve
        #expect(CGDiagnostics.count(.budgetExceeded) > before)
        // The chords still end where the curves do.
        #expect(path.flattened(tolerance: 0.01).last?.points.last == CGPoint(x: 1_999, y: 0))
    }

    @Test func pathsPastTheDrawingBudgetAreSkippedAndClipToTheirBounds() throws {
        let zigzag = CGMutablePath()
        zigzag.move(to: CGPoint(x: 10, y: 10))
        for i in 0..<(CGContext.maxDrawnElements + 10) { zigzag.addLine(to: CGPoint(x: 10 + CGFloat(i % 2) * 20, y: 10 + CGFloat(i % 3) * 10)) }
        let ctx = try #require(CGContext(data: nil, width: 40, height: 40, bitsPerComponent: 8, bytesPerRow: 0,
                                         space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue))
        let before = CGDiagnostics.count(.budgetExceeded)
        ctx.addPath(zigzag)
        ctx.fillPath()
        #expect(CGDiagnostics.count(.budgetExceeded) > before)
        #expect(ctx.makeImage()!.premultipliedPixel(x: 20, y: 20) == 0)   // not filled
        ctx.addPath(zigzag)
        ctx.clip()
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 40, height: 40))
        let image = ctx.makeImage()!
        // Clipped to the zigzag's box (10…30 × 10…30 in user space, y up).
        #expect(image.premultipliedPixel(x: 20, y: 20) == 0xFFFF_0000)
        #expect(image.premultipliedPixel(x: 5, y: 5) == 0 && image.premultipliedPixel(x: 35, y: 35) == 0)
    }
}
