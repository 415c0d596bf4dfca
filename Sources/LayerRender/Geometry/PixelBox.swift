import CoreGraphics
import Foundation

/// A half-open box of pixels [x0, x1) × [y0, y1).
package struct PixelBox: Equatable, Sendable {
    package var x0: Int, y0: Int, x1: Int, y1: Int
    package var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    /// Its pixel count (0 when empty; `Int.max` when it would overflow).
    var area: Int {
        guard !isEmpty else { return 0 }
        let (a, o) = (x1 - x0).multipliedReportingOverflow(by: y1 - y0)
        return o ? Int.max : a
    }
    /// The smallest box holding both (an empty box contributes nothing).
    package func union(_ o: PixelBox) -> PixelBox {
        if o.isEmpty { return self }
        if isEmpty { return o }
        return PixelBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }
    package func intersection(_ o: PixelBox) -> PixelBox {
        PixelBox(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }
    /// The pixels touched by a box of real coordinates (pixel space), clamped to `limit`.
    package init(covering r: CGRect, limit: PixelBox) {
        guard r.isFiniteRect, !r.isNull else { self = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0); return }
        self.init(covering: Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY), limit: limit)
    }

    /// The pixels touched by the real box minX…maxX × minY…maxY (pixel space), clamped to
    /// `limit`; empty unless all four are finite.
    @inline(__always)
    package init(covering minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double, limit: PixelBox) {
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { self = .empty; return }
        // Clamping to the limit is the point here, not bad input: nothing is counted. The bounds
        // are integers, so clamping before rounding gives what rounding first would. (A limit
        // reaching below 0, such as the unlimited box of a replicated layer, keeps negative
        // coordinates: they were once clamped to −1 whatever the limit.)
        let right = max(limit.x0, limit.x1), bottom = max(limit.y0, limit.y1)
        x0 = PixelBox.floor(minX, limit.x0, right)
        y0 = PixelBox.floor(minY, limit.y0, bottom)
        x1 = PixelBox.ceil(maxX, limit.x0, right)
        y1 = PixelBox.ceil(maxY, limit.y0, bottom)
    }

    /// ⌊v⌋ clamped to lo…hi, for finite `v` (one conversion, no call into libm: boxes are made
    /// for every layer and particle).
    @inline(__always)
    static func floor(_ v: Double, _ lo: Int, _ hi: Int) -> Int {
        if v <= Double(lo) { return lo }
        if v >= Double(hi) { return hi }
        let t = Int(v)
        return Double(t) > v ? t - 1 : t
    }

    /// ⌈v⌉ clamped to lo…hi, for finite `v`.
    @inline(__always)
    static func ceil(_ v: Double, _ lo: Int, _ hi: Int) -> Int {
        if v <= Double(lo) { return lo }
        if v >= Double(hi) { return hi }
        let t = Int(v)
        return Double(t) < v ? t + 1 : t
    }
    package init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
    /// The empty box.
    package static let empty = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
}

extension PixelBox {
    /// The pixels of a box that another box leaves: up to four boxes (the rows above and below
    /// it, then the columns left and right of it in its rows), disjoint, some possibly empty.
    /// Four stored boxes, not an array: one is made per item and band.
    struct Parts {
        var above: PixelBox, below: PixelBox, left: PixelBox, right: PixelBox
        /// No pixel is left.
        var isEmpty: Bool { above.isEmpty && below.isEmpty && left.isEmpty && right.isEmpty }
        /// The smallest box holding every part.
        var bounds: PixelBox { above.union(below).union(left).union(right) }
        /// Calls `body` with each part that is not empty.
        func forEach(_ body: (PixelBox) -> Void) {
            for b in [above, below, left, right] where !b.isEmpty { body(b) }
        }
    }

    /// The parts of this box outside `o`.
    func parts(outside o: PixelBox) -> Parts {
        let cut = intersection(o)
        guard !cut.isEmpty else { return Parts(above: self, below: .empty, left: .empty, right: .empty) }
        return Parts(above: PixelBox(x0: x0, y0: y0, x1: x1, y1: cut.y0), below: PixelBox(x0: x0, y0: cut.y1, x1: x1, y1: y1),
                     left: PixelBox(x0: x0, y0: cut.y0, x1: cut.x0, y1: cut.y1), right: PixelBox(x0: cut.x1, y0: cut.y0, x1: x1, y1: cut.y1))
    }
}
