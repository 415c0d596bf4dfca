// Where the two bands of a split frame meet (Compositor+Bands.swift): moved after each frame
// toward equal band times, within a quarter and three quarters of the rows. That any split gives
// the one-thread frame's pixels is checked in QuartzCoreTests (CompositorTests).
@testable import LayerRender
import Testing

@Suite struct BandSplitTests {
    @Test func theBandSplitMovesTowardEqualBandTimes() {
        // Equal times keep the split; a top band twice as slow per row gives it fewer rows
        // (halfway to a third: 5/12); limits at ¼ and ¾; unmeasurable times change nothing.
        #expect(Compositor.nextShare(0.5, top: 0.5, times: 4, 4) == 0.5)
        #expect(abs(Compositor.nextShare(0.5, top: 0.5, times: 8, 4) - 5.0 / 12) < 1e-12)
        #expect(abs(Compositor.nextShare(0.5, top: 0.5, times: 4, 8) - 7.0 / 12) < 1e-12)
        #expect(Compositor.nextShare(0.3, top: 0.3, times: 100, 1) == 0.25)
        #expect(Compositor.nextShare(0.7, top: 0.7, times: 1, 100) == 0.75)
        #expect(Compositor.nextShare(0.4, top: 0.4, times: 0, 5) == 0.4)
        #expect(Compositor.nextShare(0.4, top: 0.4, times: .nan, 5) == 0.4)
        // Repeated frames of one workload settle where the bands take equal times.
        var share = 0.5
        for _ in 0..<30 {
            // The top's rows cost 3 per row, the bottom's 1 (a busy core or a busier top).
            share = Compositor.nextShare(share, top: share, times: 3 * share, 1 * (1 - share))
        }
        #expect(abs(share - 0.25) < 1e-6)
    }
}
