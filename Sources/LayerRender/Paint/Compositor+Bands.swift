import CoreGraphics
import Dispatch
import Foundation

// Two-core frames: the frame is cut into a top and a bottom band of rows, painted at the same
// time by this compositor and a helper (each with its own caches and scratch memory). Every
// write to the shared target stays inside the painter's band (`Context.limit`); offscreens whose
// pixels move (shadows, sliding transitions) are painted beyond the band (`Context.frame`), so a
// banded frame is identical, pixel for pixel, to a frame painted on one thread.
//
// Where the bands meet follows the last frames' band times: a virtual machine's two cores are
// often not equally fast (a neighbour busy on one of them), and a frame takes as long as its
// slower band. The split moves halfway toward the one that would have made the last frame's
// bands equal, assuming each band's cost per row stays as measured, between ¼ and ¾ of the rows;
// which rows a thread paints never changes a pixel.
extension Compositor {
    /// Frames shorter than this many rows are painted on one thread (threads cost more than they save).
    static let minRowsToSplit = 128

    func renderBands(_ root: LayerSnapshot, at time: Double, into target: RenderTarget, base: Homography, limit: PixelBox?,
                     clearing: Bool = false) {
        // Footprints describe this frame only when the damage walk just ran for this tree, time and base.
        cullBoxes = footprintRoot === root && footprintTime == time && footprintBase == base ? footprintBoxes : nil
        defer { cullBoxes = nil }
        // The display list describes this frame when the footprints do (they are written together).
        let list = cullBoxes != nil ? displayList : nil
        tilesFading = false
        particleShare.reset()
        let full = PixelBox(x0: 0, y0: 0, x1: target.width, y1: target.height)
        let area = limit?.intersection(full) ?? full
        guard threads > 1, area.y1 - area.y0 >= Compositor.minRowsToSplit else {
            let work = BandWork(main: self, helper: self, root: root, time: time, target: target, base: base, clearing: clearing,
                                list: list)
            Compositor.paint(deep: root.height > Compositor.shallowHeight, [{
                work.main.paintBand(work.root, at: work.time, into: work.target, base: work.base, band: area, frame: full,
                                    clearing: work.clearing, list: work.list)
            }])
            return
        }
        let helper = bandHelper ?? Compositor()
        bandHelper = helper
        helper.maxDepth = maxDepth
        helper.paintBudget = paintBudget
        helper.threads = 1
        helper.tilesFading = false
        helper.particleShare = particleShare
        helper.cullBoxes = cullBoxes
        defer { helper.cullBoxes = nil }
        let rows = area.y1 - area.y0
        let mid = area.y0 + CGClampToInt((Double(rows) * bandShare).rounded(), in: 1...(rows - 1))
        let top = PixelBox(x0: area.x0, y0: area.y0, x1: area.x1, y1: mid)
        let bottom = PixelBox(x0: area.x0, y0: mid, x1: area.x1, y1: area.y1)
        let work = BandWork(main: self, helper: helper, root: root, time: time, target: target, base: base, clearing: clearing,
                            list: list)
        let bands: [@Sendable () -> Void] = (0..<2).map { i in {
            let c = i == 0 ? work.main : work.helper
            let start = DispatchTime.now().uptimeNanoseconds
            c.paintBand(work.root, at: work.time, into: work.target, base: work.base, band: i == 0 ? top : bottom, frame: full,
                        clearing: work.clearing, list: work.list)
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            if i == 0 { work.topNanoseconds = elapsed } else { work.bottomNanoseconds = elapsed }
        } }
        Compositor.paint(deep: root.height > Compositor.shallowHeight, bands)
        bandShare = Compositor.nextShare(bandShare, top: Double(mid - area.y0) / Double(rows),
                                         times: Double(work.topNanoseconds), Double(work.bottomNanoseconds))
        culledLayers += helper.culledLayers
        paintedLayers += helper.paintedLayers
        skippedForDepth += helper.skippedForDepth
        rasterHits += helper.rasterHits - work.helperRasterHits
        tilesFading = tilesFading || helper.tilesFading
        for (id, keys) in helper.takeTileRequests() { tileRequests[id, default: []].formUnion(keys) }
        contentHits += helper.contentHits - work.helperContentHits
    }

    /// Trees up to this many levels are painted on the calling thread and dispatch's workers;
    /// deeper ones (the painter recurses once per level) on threads whose stacks hold `maxDepth`
    /// levels.
    static let shallowHeight = 128

    /// Stack of a thread that paints a deep tree: room for `maxDepth` levels of recursion, each
    /// with its offscreen and clip frames, with a wide margin.
    static let deepStackBytes = 64 << 20

    /// Runs `bands` at once and returns when all have finished: on dispatch's workers, or, for a
    /// `deep` tree, each on a thread of its own with a stack of `deepStackBytes`.
    static func paint(deep: Bool, _ bands: [@Sendable () -> Void]) {
        guard deep else {
            if bands.count == 1 { bands[0]() } else { DispatchQueue.concurrentPerform(iterations: bands.count) { bands[$0]() } }
            return
        }
        let done = DispatchGroup()
        for band in bands {
            done.enter()
            let thread = Thread { band(); done.leave() }
            thread.stackSize = deepStackBytes
            thread.start()
        }
        done.wait()
    }

    /// The top band's next share of the rows, from this frame's share `top` (in (0, 1)) and band
    /// times: halfway toward the share that would have made them equal at the measured costs per
    /// row, within ¼…¾. Times too short to measure keep the share.
    package static func nextShare(_ share: Double, top: Double, times t0: Double, _ t1: Double) -> Double {
        guard t0 > 0, t1 > 0, t0.isFinite, t1.isFinite, top > 0, top < 1 else { return share }
        let perTop = t0 / top, perBottom = t1 / (1 - top)
        let balanced = perBottom / (perTop + perBottom)
        return min(max((share + balanced) / 2, 0.25), 0.75)
    }

    /// Paints the rows of `band` (one thread's share of the frame): from the frame's display list
    /// when there is one, else by walking the tree.
    func paintBand(_ root: LayerSnapshot, at time: Double, into target: RenderTarget, base: Homography, band: PixelBox,
                   frame: PixelBox, clearing: Bool = false, list: DisplayList? = nil) {
        culledLayers = 0; paintedLayers = 0; skippedForDepth = 0; paintedPixels = 0; overBudget = false
        frameNumber += 1
        if clearing && !self.root(root, at: time, base: base, covers: band) { target.clear(band) }
        if let list {
            paint(list, band: band, target: target, frame: frame)
        } else {
            paint(root, Context(parentTime: time, parentWorld: base, parentSublayer: nil, flipped: false, clips: [],
                                alpha: 1, target: target, limit: band, frame: frame, depth: 0))
        }
        trimContentCache()
    }
}

extension Compositor {
    /// True when `root`'s own background will cover every pixel of `box` with an opaque colour
    /// (so clearing the box first would change nothing): a plain, opaque, unrounded, untransformed
    /// layer drawn straight into the target, its pixel rect holding the box.
    func root(_ root: LayerSnapshot, at time: Double, base: Homography, covers box: PixelBox) -> Bool {
        let local = root.localTime(fromParent: time)
        guard activeTransition(root, at: local) == nil else { return false }
        let s = root.presentationState(atLocalTime: local)
        guard !s.isHidden, s.opacity >= 1, let bg = s.backgroundColor, bg.alpha >= 1, s.cornerRadius == 0, root.mask == nil,
              s.shadowOpacity <= 0 || (s.shadowColor?.alpha ?? 0) <= 0, !s.shouldRasterize, s.content == nil
        else { return false }
        let world = Homography(Compositor.localTransform(s, parentSublayer: nil)).concatenating(base)
        let m = world.m
        guard m.1 == 0, m.2 == 0, m.3 == 0, m.5 == 0, m.8 == 1, m.0 > 0, m.4 > 0 else { return false }
        let b = s.bounds.standardized
        let x0 = b.minX * m.0 + m.6, x1 = b.maxX * m.0 + m.6, y0 = b.minY * m.4 + m.7, y1 = b.maxY * m.4 + m.7
        return x0 <= CGFloat(box.x0) && x1 >= CGFloat(box.x1) && y0 <= CGFloat(box.y0) && y1 >= CGFloat(box.y1)
    }
}

/// What both band painters share; each touches only its own compositor and its own rows.
private final class BandWork: @unchecked Sendable {   // bands take rows under its lock; each writes only its own rows
    let main: Compositor, helper: Compositor
    let root: LayerSnapshot
    let time: Double
    let target: RenderTarget
    let base: Homography
    let clearing: Bool
    let list: DisplayList?
    let helperRasterHits: Int, helperContentHits: Int
    /// Each band's painting time (written by its own thread, read after both finished).
    var topNanoseconds: UInt64 = 0, bottomNanoseconds: UInt64 = 0

    init(main: Compositor, helper: Compositor, root: LayerSnapshot, time: Double, target: RenderTarget, base: Homography,
         clearing: Bool, list: DisplayList?) {
        self.main = main; self.helper = helper; self.root = root; self.time = time; self.target = target; self.base = base
        self.clearing = clearing; self.list = list
        helperRasterHits = helper.rasterHits; helperContentHits = helper.contentHits
    }
}
