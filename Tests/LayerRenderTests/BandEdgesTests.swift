// Where a frame's bands meet (Compositor+Bands.swift): each worker's band should ask about as
// much work as the others', which the display list tells (a band's rows may differ); the pixels
// do not depend on it (BandedRenderingTests).
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct BandEdgesTests {
    private var snapshots = SnapshotBuilder()
    private let frame = PixelBox(x0: 0, y0: 0, x1: 200, y1: 200)

    private func list(_ root: LayerSnapshot) -> DisplayList {
        let c = Compositor()
        _ = c.damage(root, at: 0, base: Compositor.base(scale: 1, origin: .zero), frame: frame)
        return c.displayList
    }

    /// Shadowed cards in the top quarter: the first band ends near them, and the others share
    /// the rest; an even tree gives even bands.
    @Test mutating func bandsShareTheWork() {
        let cards = (0..<4).map { i in
            snapshots.layer(CGRect(x: Double(i) * 50, y: 5, width: 40, height: 40)) { $0.shadowOpacity = 0.5; $0.shadowRadius = 3 }
        }
        let root = snapshots.layer(CGRect(x: 0, y: 0, width: 200, height: 200), cards) { $0.backgroundColor = nil }
        let edges = Compositor.bandEdges(area: frame, count: 2, minRows: 10, list: list(root))
        #expect(edges.count == 3 && edges.first == 0 && edges.last == 200)
        #expect(edges[1] > 10 && edges[1] < 50, "\(edges)")
        // Even work: even rows.
        let plain = snapshots.layer(CGRect(x: 0, y: 0, width: 200, height: 200))
        #expect(Compositor.bandEdges(area: frame, count: 4, minRows: 10, list: list(plain)) == [0, 50, 100, 150, 200])
    }

    /// Every band keeps at least `minRows` rows, however the work lies; without a list, or with
    /// too few rows, the rows are shared equally.
    @Test mutating func everyBandKeepsItsRows() {
        let card = snapshots.layer(CGRect(x: 0, y: 0, width: 200, height: 6)) { $0.shadowOpacity = 0.5 }
        let root = snapshots.layer(CGRect(x: 0, y: 0, width: 200, height: 200), [card]) { $0.backgroundColor = nil }
        let edges = Compositor.bandEdges(area: frame, count: 3, minRows: 30, list: list(root))
        for k in 1..<edges.count { #expect(edges[k] - edges[k - 1] >= 30, "\(edges)") }
        #expect(Compositor.bandEdges(area: frame, count: 3, minRows: 30, list: nil) == [0, 66, 133, 200])
        #expect(Compositor.bandEdges(area: frame, count: 3, minRows: 70, list: list(root)) == [0, 66, 133, 200])
        let area = PixelBox(x0: 0, y0: 40, x1: 200, y1: 140)
        #expect(Compositor.bandEdges(area: area, count: 1, minRows: 10, list: list(root)) == [40, 140])
    }
}
