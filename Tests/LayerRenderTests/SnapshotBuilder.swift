// Layer snapshots built directly (without QuartzCore), for tests of the prepare pass and the bands.
import CoreGraphics
import Foundation
@testable import LayerRender

/// Makes snapshots with fresh identities: an opaque red layer at a frame unless configured.
struct SnapshotBuilder {
    private var nextID: UInt64 = 1

    /// A snapshot of a layer at `frame` (superlayer space), with `configure` applied.
    mutating func layer(_ frame: CGRect, _ subs: [LayerSnapshot] = [], mask: LayerSnapshot? = nil,
                        _ configure: (inout LayerState) -> Void = { _ in }) -> LayerSnapshot {
        var s = LayerState()
        s.bounds = CGRect(origin: .zero, size: frame.size)
        s.position = CGPoint(x: frame.midX, y: frame.midY)
        s.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        configure(&s)
        defer { nextID += 1 }
        return LayerSnapshot(id: nextID, state: s, sublayers: subs, mask: mask, animations: [])
    }
}
