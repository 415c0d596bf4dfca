import CGSupport
import CoreGraphics
import Foundation
import Synchronization

/// Pixels the compositor draws into: premultiplied 32-bit words 0xAARRGGBB (B, G, R, A bytes in
/// memory on little-endian — cairo's ARGB32 and the X11 window's layout), rows of `stride` words.
package struct RenderTarget {
    package let pixels: UnsafeMutablePointer<UInt32>
    package let width: Int
    package let height: Int
    /// Words (not bytes) from one row to the next.
    package let stride: Int
    /// The frame pixel that `pixels` holds at its start: offscreen targets cover only a box of
    /// the frame but are addressed in frame coordinates.
    package let originX: Int, originY: Int

    package init(pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int, originX: Int = 0, originY: Int = 0) {
        self.pixels = pixels; self.width = width; self.height = height; self.stride = stride
        self.originX = originX; self.originY = originY
    }

    /// The target as the C kernels address it.
    var c: cgs_target { cgs_target(pixels: pixels, stride: stride, origin_x: originX, origin_y: originY) }

    /// Row `y` (frame coordinates), addressed so that `row(y)[x]` is frame pixel (x, y). The
    /// arithmetic wraps rather than checks: a row inside a target (whose sides are below 2³¹)
    /// cannot overflow it, and a row outside is no valid address either way. (Kernels ask for a
    /// row per row they paint; the checks were a fifth of a row's set-up.)
    @inline(__always)
    package func row(_ y: Int) -> UnsafeMutablePointer<UInt32> { pixels + ((y &- originY) &* stride &- originX) }

    /// Asks for every cache line of columns `xs` of row `y` (frame pixels, inside the target),
    /// to be written: a hint for rows a kernel reaches a few rows later, which it would otherwise
    /// wait on (16 words to a 64-byte line; the last column's line too).
    @inline(__always)
    func prefetch(row y: Int, _ xs: Range<Int>) {
        guard !xs.isEmpty else { return }
        let ahead = row(y)
        var x = xs.lowerBound
        while x < xs.upperBound { cgs_prefetch(ahead + x); x &+= 16 }
        cgs_prefetch(ahead + (xs.upperBound &- 1))
    }

    /// The frame pixels this target covers.
    package var box: PixelBox { PixelBox(x0: originX, y0: originY, x1: originX + width, y1: originY + height) }

    /// Sets every pixel to `color`.
    package func clear(to color: UInt32 = 0) {
        for y in 0..<height { cgs_fill_u32(pixels + y * stride, color, width) }
    }

    /// Sets the pixels of `area` (frame coordinates, clipped to this target) to transparent.
    package func clear(_ area: PixelBox) {
        let b = area.intersection(box)
        guard !b.isEmpty else { return }
        for y in b.y0..<b.y1 { (row(y) + b.x0).update(repeating: 0, count: b.x1 - b.x0) }
    }

    /// Copies the pixels of `area` from `source` (same frame coordinates) into this target.
    package func copy(_ area: PixelBox, from source: RenderTarget) {
        let b = area.intersection(box).intersection(source.box)
        guard !b.isEmpty else { return }
        for y in b.y0..<b.y1 { (row(y) + b.x0).update(from: source.row(y) + b.x0, count: b.x1 - b.x0) }
    }
}

/// The offscreen pixels one compositor's frames hold at once (its groups, masks, shadows and
/// rasterised layers), in bytes: each renderer has a budget of its own, so that one tree's
/// thousand nested groups cannot take another renderer's shadows away.
package final class OffscreenBudget: Sendable {
    fileprivate let live = Atomic<Int>(0)
    package init() {}
}

/// An owned, zeroed render target (offscreen groups and renderer output).
package final class OwnedTarget {
    package let target: RenderTarget
    /// The compositor's budget this target is charged to, if any.
    private let budget: OffscreenBudget?

    /// Bytes of offscreen pixels that one compositor's layer groups may hold at once (nested
    /// group opacity, masks, shadows, rasterised layers): past it a group is painted in place
    /// (without its isolation), counted as `.budgetExceeded`.
    #if FUZZING
    package static let maxOffscreenBytes = 32 << 20
    #else
    package static let maxOffscreenBytes = 512 << 20
    #endif
    /// Bytes of offscreen pixels all compositors together may hold at once (four renderers'
    /// worth): the process-wide bound behind the per-compositor one.
    package static let maxProcessOffscreenBytes = 4 * maxOffscreenBytes
    /// Bytes held by live targets now, process-wide.
    private static let liveBytes = Atomic<Int>(0)

    /// Whether a group offscreen over `box` fits `budget` (`maxOffscreenBytes`) and the
    /// process-wide `maxProcessOffscreenBytes` beside the targets alive now.
    package static func fitsBudget(_ box: PixelBox, _ budget: OffscreenBudget) -> Bool {
        let bytes = max(box.x1 - box.x0, 1) * max(box.y1 - box.y0, 1) * 4
        if budget.live.load(ordering: .relaxed) + bytes <= maxOffscreenBytes,
           liveBytes.load(ordering: .relaxed) + bytes <= maxProcessOffscreenBytes { return true }
        CGDiagnostics.record(.budgetExceeded)
        return false
    }

    /// A zeroed target of `width` × `height` pixels, charged to `budget` when given.
    package convenience init(width: Int, height: Int, budget: OffscreenBudget? = nil) {
        self.init(box: PixelBox(x0: 0, y0: 0, x1: max(width, 1), y1: max(height, 1)), budget: budget)
    }

    #if DEBUG
    /// What debug builds put in the pixels `init(box:budget:keeping:)` leaves uncleared (an
    /// opaque magenta unless a test sets another).
    static let keptPoison = Atomic<UInt32>(0xFFFF_00FF)
    #endif

    /// A zeroed target covering only `box` of the frame, charged to `budget` when given.
    package convenience init(box: PixelBox, budget: OffscreenBudget? = nil) {
        self.init(box: box, budget: budget, keeping: .none)
    }

    /// A target covering only `box` of the frame, zeroed but for the pixels of `cover` (frame
    /// pixels; left as the allocator gave them): for a layer whose painting into it leaves those
    /// pixels the same bytes whatever they held (its opaque background, painted first).
    init(box: PixelBox, budget: OffscreenBudget? = nil, keeping cover: OpaqueCover) {
        let w = max(box.x1 - box.x0, 1), h = max(box.y1 - box.y0, 1)
        OwnedTarget.liveBytes.add(w * h * 4, ordering: .relaxed)
        budget?.live.add(w * h * 4, ordering: .relaxed)
        self.budget = budget
        let p = UnsafeMutablePointer<UInt32>.allocate(capacity: w * h)
        target = RenderTarget(pixels: p, width: w, height: h, stride: w, originX: box.x0, originY: box.y0)
        let rows = cover.rows.intersection(target.box), columns = cover.columns.intersection(target.box)
        guard !rows.isEmpty || !columns.isEmpty else { p.initialize(repeating: 0, count: w * h); return }
        // Per row, the columns kept: the cover's straight rows span the most, its columns the rest.
        for y in target.box.y0..<target.box.y1 {
            let kept = y >= rows.y0 && y < rows.y1 ? rows : y >= columns.y0 && y < columns.y1 ? columns : .empty
            let row = target.row(y)
            if kept.isEmpty {
                (row + target.box.x0).initialize(repeating: 0, count: w)
            } else {
                (row + target.box.x0).initialize(repeating: 0, count: kept.x0 - target.box.x0)
                (row + kept.x1).initialize(repeating: 0, count: target.box.x1 - kept.x1)
                #if DEBUG
                // Tests see a pixel left to the allocator: fresh pages come zeroed, so the kept
                // pixels get `keptPoison` in debug builds (0 gives what a zeroed target gives).
                (row + kept.x0).initialize(repeating: OwnedTarget.keptPoison.load(ordering: .relaxed), count: kept.x1 - kept.x0)
                #endif
            }
        }
    }
    deinit {
        OwnedTarget.liveBytes.subtract(target.width * target.height * 4, ordering: .relaxed)
        budget?.live.subtract(target.width * target.height * 4, ordering: .relaxed)
        target.pixels.deallocate()
    }
}
