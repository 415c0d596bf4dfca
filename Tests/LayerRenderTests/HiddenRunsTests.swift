// What later items hide, read row by row (Raster/HiddenRuns.swift): each row's run is the longest that
// the boxes crossing it hide, boxes that meet or touch along the row taken as one.
import Foundation
@testable import LayerRender
import Testing

@Suite struct HiddenRunsTests {
    private func box(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> PixelBox { PixelBox(x0: x0, y0: y0, x1: x1, y1: y1) }

    /// Every row of 0 ..< 12, read top to bottom.
    private func runs(_ h: HiddenRuns, within lo: Int = -100, _ hi: Int = 100) -> [String] {
        var c = h.cursor
        return (0..<12).map { y in let r = c.run(y, within: lo, hi); return r.lo < r.hi ? "\(r.lo)..<\(r.hi)" : "-" }
    }

    @Test func eachRowTakesTheLongestMergedRun() {
        let t = OwnedTarget(box: box(0, 0, 8, 8))
        let h = HiddenRuns(target: t.target, boxes: [box(0, 0, 10, 5), box(8, 2, 20, 8), box(30, 4, 60, 6), box(3, 9, 3, 11)])
        // Rows 2–3: the first two meet (0..<20); rows 4–5: 30..<60 is longer; the empty box adds nothing.
        #expect(runs(h) == ["0..<10", "0..<10", "0..<20", "0..<20", "30..<60", "30..<60", "8..<20", "8..<20", "-", "-", "-", "-"])
        // Within a window: clipped to it.
        #expect(runs(h, within: 5, 40)[4] == "30..<40")
        #expect(runs(h, within: 61, 70)[4] == "-")
    }

    @Test func touchingBoxesAreOneRun() {
        let t = OwnedTarget(box: box(0, 0, 8, 8))
        let h = HiddenRuns(target: t.target, boxes: [box(10, 1, 15, 3), box(0, 0, 10, 3)])
        #expect(runs(h)[0 ..< 4] == ["0..<10", "0..<15", "0..<15", "-"])
    }

    @Test func aCursorReadsRowsInAnyOrder() {
        let t = OwnedTarget(box: box(0, 0, 8, 8))
        let h = HiddenRuns(target: t.target, boxes: [box(0, 0, 4, 2), box(5, 6, 9, 9)])
        var c = h.cursor
        #expect(c.run(7, within: 0, 20) == (5, 9))
        #expect(c.run(1, within: 0, 20) == (0, 4))
        #expect(c.run(3, within: 0, 20) == (0, 0))
        #expect(c.run(8, within: 0, 20) == (5, 9))
    }

    /// The runs hold for the target they were made for only (an offscreen's pixels are
    /// composited later, whole), and for none when no box hides anything.
    @Test func runsHoldForTheirTargetOnly() {
        let t = OwnedTarget(box: box(0, 0, 8, 8)), other = OwnedTarget(box: box(0, 0, 8, 8))
        let h = HiddenRuns(target: t.target, boxes: [box(0, 0, 4, 4)])
        #expect(h.holds(for: t.target))
        #expect(!h.holds(for: other.target))
        #expect(!HiddenRuns(target: t.target, boxes: [box(4, 4, 4, 9)]).holds(for: t.target))
    }

    /// At most `maxBoxes` boxes are read (each range of rows reads every box).
    @Test func boxesPastTheMostAreLeftOut() {
        let t = OwnedTarget(box: box(0, 0, 8, 8))
        let boxes = (0..<(HiddenRuns.maxBoxes + 5)).map { box(0, $0, 10, $0 + 1) }
        let h = HiddenRuns(target: t.target, boxes: boxes)
        #expect(h.segments.count == HiddenRuns.maxBoxes)
    }
}
