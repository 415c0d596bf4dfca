// Replicators' budgets (docs/ARCHITECTURE.md, "Limits and budgets": "copies across nesting stay
// within ReplicatorContent.maxInstances; copies of an emitter within 16"). Found by fuzzing: an
// emitter reached through a mask was not seen by the replicators above it, so 1,200 copies of it
// were simulated each frame (minutes under AddressSanitizer).
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct ReplicatorBudgetTests {
    func layer(_ id: UInt64, _ content: LayerContent? = nil, _ subs: [LayerSnapshot] = [], mask: LayerSnapshot? = nil) -> LayerSnapshot {
        var s = LayerState()
        s.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        s.content = content
        return LayerSnapshot(id: id, state: s, sublayers: subs, mask: mask, animations: [])
    }

    @Test func anEmitterIsFoundBelowSublayersAndMasks() {
        let emitter = layer(1, .emitter(EmitterContent()))
        #expect(Compositor.containsEmitter([layer(2, nil, [emitter])]))
        // In a mask, or in a sublayer of a mask's sublayer: painted once per copy all the same.
        #expect(Compositor.containsEmitter([layer(3, mask: emitter)]))
        #expect(Compositor.containsEmitter([layer(4, nil, [layer(5, mask: layer(6, nil, [emitter]))])]))
        #expect(!Compositor.containsEmitter([layer(7, nil, [layer(8)], mask: layer(9))]))
    }
}
