// The flattening budget (docs/ARCHITECTURE.md, "Limits and budgets"): "one flattening of a path
// makes at most CGPath.maxFlattenedPoints points; past it curves are followed by their chords".
// Found by fuzzing: a path of two million wild curves asked for 9 GB.
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
}
