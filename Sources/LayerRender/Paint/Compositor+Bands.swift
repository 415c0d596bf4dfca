import CoreGraphics
import Foundation

// Frames on every core: the frame's rows are cut into bands of at least `bandRows` rows,
// `bandsPerWorker` for each worker, and the workers — this compositor and helpers, each with its
// own caches and scratch memory — take the next band not yet taken as they finish one, so that
// a slow core (a neighbour busy on it) paints fewer bands instead of holding the frame. Every
// write to the shared target stays inside the painter's band (`Context.limit`); offscreens whose
// pixels move (shadows, sliding transitions) are painted beyond the band (`Context.frame`), so a
// banded frame is identical, pixel for pixel, to a frame painted on one thread, for any worker
// count and band height.
extension Compositor {
    /// Frames shorter than this many rows are painted on one thread (threads cost more than they save).
    static let minRowsToSplit = 128
    /// Workers a frame may use at most (more than the cores buy nothing; each keeps its caches).
    package static let maxWorkers = 64
    /// Bands per worker. More than one lets a fast worker take another band while a slow one
    /// finishes, but each band repeats work (its walk of the list, the margins of the blurred
    /// shadows it paints beyond its rows, the rasterising of shapes that cross it): two per
    /// worker made every canonical scene slower on two cores (docs/PERFORMANCE.md), so it is one.
    static let bandsPerWorker = 1

    /// The rows where `count` bands of `area` meet (count + 1 edges, from area.y0 to area.y1): with
    /// a display list, where the work its items ask for (their pixels in each row, a group's —
    /// an offscreen, maybe a blurred shadow — weighed `groupWeight` times a plain layer's) is
    /// shared equally, each band keeping at least `minRows` rows; without one, or with fewer than
    /// `minRows` rows for each band, equal rows.
    static func bandEdges(area: PixelBox, count: Int, minRows: Int, list: DisplayList?) -> [Int] {
        let rows = area.y1 - area.y0
        let even = (0...count).map { area.y0 + rows * $0 / count }
        guard let list, count > 1, rows >= count * minRows else { return even }
        // Each row's work: items' widths there, added where they start and taken off where they end.
        // (Items are read in place: a copy would move an item's bytes and retain its footprint.)
        var change = [Double](repeating: 0, count: rows + 1)
        list.items.withUnsafeBufferPointer { items in
            list.extents.withUnsafeBufferPointer { extents in
                for i in items.indices {
                    let item = items.baseAddress! + i
                    let group = item.pointee.kind == .group
                    let b = (group ? item.pointee.box.intersection(extents[i].limit) : extents[i].touched).intersection(area)
                    guard !b.isEmpty else { continue }
                    let weight = group ? groupWeight : item.pointee.solid ? solidWeight : 1
                    let w = Double(b.x1 - b.x0) * weight
                    change[b.y0 - area.y0] += w
                    change[b.y1 - area.y0] -= w
                }
            }
        }
        var work = [Double](repeating: 0, count: rows + 1)   // work[r]: rows area.y0 ..< area.y0 + r
        var perRow = 0.0
        for r in 0..<rows {
            perRow += change[r]
            work[r + 1] = work[r] + perRow
        }
        let total = work[rows]
        guard total > 0 else { return even }
        var edges = [area.y0]
        var r = 0
        for k in 1..<count {
            let share = total * Double(k) / Double(count)
            while r < rows && work[r] < share { r += 1 }
            // At least `minRows` for this band and for each band after it.
            let lo = edges[k - 1] - area.y0 + minRows, hi = rows - (count - k) * minRows
            edges.append(area.y0 + min(max(r, lo), hi))
        }
        edges.append(area.y1)
        return edges
    }

    /// What band edges were worked out for (`keptBandEdges`).
    struct BandEdgesKey: Equatable {
        var generation: Int, area: PixelBox, count: Int, minRows: Int
    }

    /// A group's work per pixel against a plain layer's (an offscreen cleared, painted and
    /// composited, and most often a shadow blurred and blended under it).
    static let groupWeight = 4.0
    /// A solid rect's work per pixel against a plain layer's blend (a store).
    static let solidWeight = 0.25

    /// Helpers from `first` on did not paint this frame: their caches age as if they had, so
    /// that what they keep is dropped after `cacheFrames` frames like the others'.
    private func ageIdleHelpers(from first: Int) {
        for helper in helpers.dropFirst(first) {
            helper.frameNumber += 1
            helper.trimContentCache()
            helper.trimShadowCache()
        }
    }

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
        let rows = area.y1 - area.y0
        let workers = min(max(threads, 1), Compositor.maxWorkers)
        let count = min(workers * Compositor.bandsPerWorker, rows / max(bandRows, 1))
        guard workers > 1, rows >= Compositor.minRowsToSplit, count > 1 else {
            let work = BandWork(pool: [self], bands: [area], root: root, time: time, target: target, base: base,
                                clearing: clearing, list: list)
            paint(deep: root.height > Compositor.shallowHeight, [{ work.run(worker: 0, frame: full) }])
            ageIdleHelpers(from: 0)
            return
        }
        while helpers.count < min(workers, count) - 1 { helpers.append(Compositor(helping: self)) }
        let pool = [self] + helpers.prefix(min(workers, count) - 1)
        defer { ageIdleHelpers(from: pool.count - 1) }
        for helper in pool.dropFirst() {
            helper.maxDepth = maxDepth
            helper.paintBudget = paintBudget
            helper.threads = 1
            helper.tilesFading = false
            helper.particleShare = particleShare
            helper.cullBoxes = cullBoxes
        }
        defer { for helper in pool.dropFirst() { helper.cullBoxes = nil } }
        // Bands of about equal work (of equal rows without a list), top to bottom (the first rows
        // are taken first), kept while the list, the area and the band count stay (a still tree
        // keeps its list).
        let key = BandEdgesKey(generation: list?.generation ?? -1, area: area, count: count, minRows: max(bandRows, 1))
        if keptBandEdges?.key != key {
            keptBandEdges = (key, Compositor.bandEdges(area: area, count: count, minRows: key.minRows, list: list))
        }
        let edges = keptBandEdges!.edges
        let bands = (0..<count).map { i in PixelBox(x0: area.x0, y0: edges[i], x1: area.x1, y1: edges[i + 1]) }
        let work = BandWork(pool: pool, bands: bands, root: root, time: time, target: target, base: base, clearing: clearing,
                            list: list)
        let runs: [@Sendable () -> Void] = (0..<pool.count).map { w in { work.run(worker: w, frame: full) } }
        paint(deep: root.height > Compositor.shallowHeight, runs)
        for (helper, before) in zip(pool.dropFirst(), work.hitsBefore.dropFirst()) {
            culledLayers += helper.culledLayers
            paintedLayers += helper.paintedLayers
            skippedForDepth += helper.skippedForDepth
            rasterHits += helper.rasterHits - before.raster
            contentHits += helper.contentHits - before.content
            shadowHits += helper.shadowHits - before.shadow
            tilesFading = tilesFading || helper.tilesFading
            for (id, keys) in helper.takeTileRequests() { tileRequests[id, default: []].formUnion(keys) }
        }
    }

    /// Trees up to this many levels have their first band painted on the calling thread; deeper
    /// ones (the painter recurses once per level) only on the worker pool's threads, whose stacks
    /// hold `maxDepth` levels.
    static let shallowHeight = 128

    /// Stack of a thread that paints a deep tree: room for `maxDepth` levels of recursion, each
    /// with its offscreen and clip frames, with a wide margin.
    static let deepStackBytes = 64 << 20

    /// Runs `bands` at once and returns when all have finished: the first on the calling thread
    /// and the others on the worker pool's threads, or, for a `deep` tree, all on the pool's
    /// threads, whose stacks hold `maxDepth` levels.
    func paint(deep: Bool, _ bands: [@Sendable () -> Void]) {
        bandThreads.run(bands, callerRuns: !deep)
    }

    /// Paints the rows of `band` (one thread's share of the frame): from the frame's display list
    /// when there is one, else by walking the tree.
    func paintBand(_ root: LayerSnapshot, at time: Double, into target: RenderTarget, base: Homography, band: PixelBox,
                   frame: PixelBox, clearing: Bool = false, list: DisplayList? = nil) {
        paintedPixels = 0; overBudget = false
        if clearing && !self.root(root, at: time, base: base, covers: band) { target.clear(band) }
        if let list {
            paint(list, band: band, target: target, frame: frame)
        } else {
            let top = DisplayContext(parentTime: time, parentWorld: base, parentSublayer: nil, flipped: false, clips: [], alpha: 1,
                                     limit: band, depth: 0)
            paint(root, Context(top, target: target, frame: frame))
        }
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

/// What the band painters share: the bands, the next one not taken, and each worker's compositor.
private final class BandWork: @unchecked Sendable {   // bands are taken under `lock`; each worker writes only its bands' rows
    let pool: [Compositor]
    let bands: [PixelBox]
    let root: LayerSnapshot
    let time: Double
    let target: RenderTarget
    let base: Homography
    let clearing: Bool
    let list: DisplayList?
    /// Each worker's cumulative cache hits before the frame (the frame adds its own to the main compositor's).
    let hitsBefore: [(raster: Int, content: Int, shadow: Int)]
    private let lock = NSLock()
    private var next = 0

    init(pool: [Compositor], bands: [PixelBox], root: LayerSnapshot, time: Double, target: RenderTarget, base: Homography,
         clearing: Bool, list: DisplayList?) {
        self.pool = pool; self.bands = bands; self.root = root; self.time = time; self.target = target; self.base = base
        self.clearing = clearing; self.list = list
        hitsBefore = pool.map { ($0.rasterHits, $0.contentHits, $0.shadowHits) }
    }

    /// Worker `w`: paints bands with its compositor until none is left.
    func run(worker w: Int, frame: PixelBox) {
        let c = pool[w]
        c.culledLayers = 0; c.paintedLayers = 0; c.skippedForDepth = 0
        c.frameNumber += 1
        while true {
            lock.lock()
            let i = next
            next += 1
            lock.unlock()
            guard i < bands.count else { break }
            c.paintBand(root, at: time, into: target, base: base, band: bands[i], frame: frame, clearing: clearing, list: list)
        }
        c.trimContentCache()
        c.trimShadowCache()
    }
}
