import Foundation

/// Pixels of one target that items painted later overwrite with opaque pixels, whatever lies
/// under them (frame pixels): what is painted there now is never seen, so the kernels that
/// paint it row by row (a shadow's blur and blend, an offscreen's composite) may skip it.
/// Read as one run per row: the longest that the boxes it was made of hide, worked out once for
/// each range of rows the same boxes cross.
struct HiddenRuns {
    /// The pixels of the target the runs hold for (an offscreen's own pixels are composited
    /// later, whole: the runs say nothing about them).
    let pixels: UnsafeMutablePointer<UInt32>
    /// Rows y0 ..< y1 whose hidden run is lo ..< hi, in order of rows, disjoint; rows in none
    /// have no run.
    private(set) var segments: [PixelBox] = []

    /// Most boxes taken: later ones add little, and each range of rows reads every box.
    static let maxBoxes = 32

    /// The runs of `boxes` (the first `maxBoxes` not empty) in `target`.
    init(target: RenderTarget, boxes: [PixelBox]) {
        pixels = target.pixels
        // A handful of boxes: sorted by insertion in buffers on the stack (one is made per group
        // item and band).
        segments = withUnsafeTemporaryAllocation(of: PixelBox.self, capacity: HiddenRuns.maxBoxes) { sorted in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * HiddenRuns.maxBoxes) { edges in
                var n = 0, e = 0
                for b in boxes where !b.isEmpty && n < HiddenRuns.maxBoxes {
                    // By left side.
                    var i = n
                    while i > 0 && sorted[i - 1].x0 > b.x0 { sorted[i] = sorted[i - 1]; i -= 1 }
                    sorted[i] = b
                    n += 1
                    func insert(_ y: Int) {
                        var j = e
                        while j > 0 && edges[j - 1] > y { edges[j] = edges[j - 1]; j -= 1 }
                        edges[j] = y
                        e += 1
                    }
                    insert(b.y0)
                    insert(b.y1)
                }
                var segments: [PixelBox] = []
                for k in 1..<max(e, 1) where edges[k] != edges[k - 1] {
                    let y0 = edges[k - 1], y1 = edges[k]
                    // The boxes crossing these rows, by their left sides: runs that meet or touch merge.
                    var best = (lo: 0, hi: 0), cur = (lo: 0, hi: 0)
                    for b in UnsafeBufferPointer(start: sorted.baseAddress, count: n) where b.y0 <= y0 && y0 < b.y1 {
                        if cur.lo < cur.hi && b.x0 <= cur.hi { cur.hi = max(cur.hi, b.x1); continue }
                        if cur.hi - cur.lo > best.hi - best.lo { best = cur }
                        cur = (b.x0, b.x1)
                    }
                    if cur.hi - cur.lo > best.hi - best.lo { best = cur }
                    if best.lo < best.hi { segments.append(PixelBox(x0: best.lo, y0: y0, x1: best.hi, y1: y1)) }
                }
                return segments
            }
        }
    }

    /// Whether the runs hold for `target` (and there is one).
    func holds(for target: RenderTarget) -> Bool { target.pixels == pixels && !segments.isEmpty }

    /// Reads the runs row after row: each call's row at or below the last one's is found from
    /// where the last stopped (a row above it starts again from the top).
    struct Cursor {
        let segments: [PixelBox]
        var next = 0

        /// The hidden run of row `y`, within `lo ..< hi`; lo ..< lo when there is none.
        mutating func run(_ y: Int, within lo: Int, _ hi: Int) -> (lo: Int, hi: Int) {
            if next > 0 && segments[next - 1].y1 > y { next = 0 }
            while next < segments.count && segments[next].y1 <= y { next += 1 }
            guard next < segments.count, segments[next].y0 <= y else { return (lo, lo) }
            let a = max(segments[next].x0, lo), e = min(segments[next].x1, hi)
            return a < e ? (a, e) : (lo, lo)
        }
    }

    var cursor: Cursor { Cursor(segments: segments) }
}
