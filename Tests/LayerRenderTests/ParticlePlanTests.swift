// The emitter's budget of births examined per frame (Compositor.maxBirthsExamined, documented in
// the limits table: "most births of one emitter examined per frame, its cells' and their
// sub-cells' together; top-level cells share it evenly, their sub-cells share what they leave;
// the oldest births are skipped, counted"). Found by fuzzing: sub-cells under an emitter drawn
// by a replicator examined up to a million births per parent particle, minutes a frame.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct ParticlePlanTests {
    /// Counts what the simulation hands on, never asking it to stop.
    struct Count: ParticleSink {
        var particles = 0, parents = 0
        /// Birth times (emitter seconds) of the first parent's children.
        var firstChildren: [Double] = []
        mutating func take(_ p: Compositor.Particle) -> Bool {
            particles += 1
            if p.cell == 0 { parents += 1 } else if parents == 1 { firstChildren.append(p.birth) }
            return true
        }
    }

    /// A long-lived top-level cell whose every particle emits a flood of long-lived sub-particles.
    func flood(topRate: Double, subRate: Double, subBegin: Double = 0) -> EmitterContent {
        var e = EmitterContent()
        e.seed = 5
        var parent = EmitterCellModel()
        parent.birthRate = topRate; parent.lifetime = 1000
        var child = EmitterCellModel()
        child.birthRate = subRate; child.lifetime = 1000
        child.timing.beginTime = subBegin
        parent.cells = [child]
        e.cells = [parent]
        return e
    }

    @Test func subCellsStayWithinTheEmittersBudget() {
        // 10,000 parents alive at t = 10, each with up to a million children alive: 5·10⁹
        // births without the budget.
        let e = flood(topRate: 1000, subRate: 100_000)
        let plan = ParticlePlan(e, at: 10)
        #expect(plan.births == 10_001)
        let blocks = (plan.births + ParticlePlan.blockSize - 1) / ParticlePlan.blockSize
        #expect(plan.births + blocks * plan.descendantBudget <= Compositor.maxBirthsExamined)
        let before = CGDiagnostics.count(.budgetExceeded)
        var count = Count()
        plan.simulate(0..<plan.births, into: &count)
        // Every birth examined is alive here, so the budget is used to the last birth.
        #expect(count.particles == plan.births + blocks * plan.descendantBudget)
        #expect(CGDiagnostics.count(.budgetExceeded) >= before + blocks)
    }

    @Test func aCutKeepsTheNewestBirthsAndChunksAgree() {
        let e = flood(topRate: 1000, subRate: 100_000)
        let plan = ParticlePlan(e, at: 10)
        // Simulated block by block (as chunks on painters are) or in one run: the same particles.
        var whole = Count(), parts = Count()
        plan.simulate(0..<plan.births, into: &whole)
        var start = 0
        while start < plan.births {
            let end = min(start + ParticlePlan.blockSize, plan.births)
            plan.simulate(start..<end, into: &parts)
            start = end
        }
        #expect(whole.particles == parts.particles)
        // The first parent (born at t = 0) could have 10⁶ children alive; those examined are its
        // newest, born up to now, one every 1/100,000 s.
        let children = whole.firstChildren
        #expect(!children.isEmpty)
        #expect(abs((children.max() ?? 0) - 10) < 1e-4)
        #expect(children.count < 1_000_000)
    }

    @Test func subCellsThatNeverEmitCostOnlyTheBudget() {
        // Sub-cells whose beginTime lies past every parent's life emit nothing, yet their births
        // are examined: bounded by the same budget (the frame ends with only the parents drawn).
        let e = flood(topRate: 1000, subRate: 100_000, subBegin: 1e6)
        let plan = ParticlePlan(e, at: 10)
        var count = Count()
        plan.simulate(0..<plan.births, into: &count)
        #expect(count.particles == plan.births)
    }

    @Test func topLevelCellsShareTheBudgetEvenly() {
        // Three cells each with two million births alive: each keeps a third of the budget, newest first.
        var e = EmitterContent()
        var cell = EmitterCellModel()
        cell.birthRate = 100_000; cell.lifetime = 1000
        e.cells = [cell, cell, cell]
        let plan = ParticlePlan(e, at: 20)
        #expect(plan.truncated)
        #expect(plan.runs.map(\.count) == Array(repeating: Compositor.maxBirthsExamined / 3, count: 3))
        #expect(plan.runs.allSatisfy { $0.first + Double($0.count - 1) == 2_000_000 })
    }

    @Test func subCellBirthNumbersPast2To53AreSkipped() {
        // A parent born long ago (one birth every 10⁶ s, seen 5·10¹¹ s later) whose sub-cell
        // emits 10⁵ a second: birth numbers near 5·10¹⁶, where k + 1 == k. Skipped and counted
        // (`clampedInteger`), as top-level cells past 2⁵³ are; the frame ends.
        var e = EmitterContent()
        var parent = EmitterCellModel()
        parent.birthRate = 1e-6; parent.lifetime = 1e30
        var child = EmitterCellModel()
        child.birthRate = 100_000; child.lifetime = 1e30
        parent.cells = [child]
        e.cells = [parent]
        let before = CGDiagnostics.count(.clampedInteger)
        let plan = ParticlePlan(e, at: 5e11)
        var count = Count()
        plan.simulate(0..<plan.births, into: &count)
        #expect(CGDiagnostics.count(.clampedInteger) > before)
        #expect(count.particles >= plan.births)
    }
}
