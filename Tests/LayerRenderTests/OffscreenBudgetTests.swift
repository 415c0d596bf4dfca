// The offscreen budget (docs/ARCHITECTURE.md, budgets: "offscreen pixels of one compositor's
// layer groups alive at once … 512 MiB … the group is painted in place"): each compositor's
// frames are charged to a budget of their own, so a tree that fills its renderer's budget (a
// thousand nested groups) leaves another renderer's groups and shadows alone; and the targets
// that free their pixels give their bytes back.
@testable import LayerRender
import Testing

@Suite struct OffscreenBudgetTests {
    @Test func eachCompositorHasABudgetOfItsOwn() {
        let full = OwnedTarget.maxOffscreenBytes / 4   // pixels of a target that fills the budget
        let a = OffscreenBudget(), b = OffscreenBudget()
        let box = PixelBox(x0: 0, y0: 0, x1: 4096, y1: full / 4096)
        let half = PixelBox(x0: 0, y0: 0, x1: 4096, y1: full / 4096 / 2)
        #expect(OwnedTarget.fitsBudget(box, a))
        do {
            let held = OwnedTarget(box: half, budget: a)
            #expect(held.target.width == 4096)
            #expect(!OwnedTarget.fitsBudget(box, a), "a budget half held has no room for a whole one")
            #expect(OwnedTarget.fitsBudget(box, b), "another compositor's budget is its own")
        }
        #expect(OwnedTarget.fitsBudget(box, a), "the bytes came back when the target went")
    }

    @Test func aCompositorsBandWorkersShareItsBudget() {
        let owner = Compositor()
        let helper = Compositor(helping: owner)
        #expect(helper.offscreens === owner.offscreens)
        #expect(Compositor().offscreens !== owner.offscreens)
    }
}
