import CGSupport
import CoreGraphics
import Foundation

// Stage: paint, from the display list. Reads: the frame's display list (read-only, shared by
// every band) and the footprints it points to. Produces: the pixels of one band, through the
// same body, border and group painters as the recursive walk, with the same arguments, so
// that both give the same pixels. Walks no tree and evaluates no layer, except inside groups.

extension Compositor {
    /// Paints the items of `list` that meet `band` (rows of `target`; `frame` the whole target).
    ///
    /// Occlusion: an item that makes much of the band opaque to the same bytes whatever was
    /// painted before it (`occluder`: a solid rect, or its `OpaqueCover`), so the items listed
    /// before it are painted only around it — plain items in each part of the band it leaves (at most four boxes),
    /// groups (whose sublayers may overflow their own box) once in the box that holds those
    /// parts. Same pixels: nothing under it shows.
    func paint(_ list: DisplayList, band: PixelBox, target: RenderTarget, frame: PixelBox) {
        skippedForDepth += list.skippedForDepth
        // Items and contexts are read in place: a copy of an item, of a context or of a layer's
        // state would move its bytes and retain every reference it holds, for each item and band.
        // Items are culled by their extents, a few bytes each, before their own bytes are read.
        list.contexts.withUnsafeBufferPointer { contexts in
            list.items.withUnsafeBufferPointer { items in
                list.extents.withUnsafeBufferPointer { extents in
                    let occluder = list.largestCover < band.area / 4 ? (index: 0, box: PixelBox.empty)
                        : list.covers.withUnsafeBufferPointer { Compositor.occluder(items, extents, $0, band: band) }
                    // A group relies on later items' covers only while the band's budget surely
                    // pays for every later item (past it they are skipped, and would leave holes).
                    let later = list.groups > 0 ? list.charges.withUnsafeBufferPointer { Compositor.laterSpend(extents, $0, band: band) } : []
                    // Later items looked at for hidden runs, at most `laterItemsPerBand` a band.
                    var looked = 0
                    func hidden(after i: Int, _ limit: PixelBox) -> HiddenRuns? {
                        guard (items.baseAddress! + i).pointee.kind == .group, !overBudget,
                              later[i + 1] <= paintBudget - paintedPixels, looked < Compositor.laterItemsPerBand else { return nil }
                        looked += min(Compositor.laterItems, items.count - i - 1)
                        return list.covers.withUnsafeBufferPointer {
                            Compositor.hidden(after: i, items, $0, limit: limit, target: target)
                        }
                    }
                    // `general`: an item the path below takes although it is solid (the C call
                    // for its run stopped before it: the band's budget would not pay for it, and
                    // the path below says so and counts it).
                    var next = 0, general = -1
                    while next < items.count {
                        let i = next
                        next += 1
                        guard !overBudget else { culledLayers += 1; continue }
                        // A run of solid items above the occluder: one C call paints them all.
                        if i != general && i >= occluder.index && list.solidIndex[i] >= 0 {
                            var end = next
                            while end < items.count && list.solidIndex[end] >= 0 { end += 1 }
                            next = i + paintSolids(list, i..<end, band: band, target: target)
                            if next < end { general = next }
                            continue
                        }
                        let limit = extents[i].limit.intersection(band)
                        guard !limit.isEmpty else { continue }
                        // What the item can touch misses the band (paintPlain's own test, earlier).
                        guard !extents[i].touched.intersection(band).isEmpty else { culledLayers += 1; continue }
                        let item = items.baseAddress! + i
                        let c = contexts.baseAddress! + Int(item.pointee.context)
                        guard i < occluder.index else {
                            paint(item, c, limit: limit, target: target, frame: frame,
                                  hidden: later.isEmpty ? nil : hidden(after: i, limit))
                            continue
                        }
                        // A plain item paints within its box; a group's sublayers may reach
                        // beyond its own box, so it is bounded by the band's parts alone.
                        let plain = item.pointee.geometry != nil
                        let parts = (plain ? limit.intersection(item.pointee.box) : limit).parts(outside: occluder.box)
                        guard !parts.isEmpty else { culledLayers += 1; continue }
                        if plain {
                            parts.forEach { paint(item, c, limit: $0, target: target, frame: frame) }
                        } else {
                            paint(item, c, limit: parts.bounds, target: target, frame: frame,
                                  hidden: later.isEmpty ? nil : hidden(after: i, parts.bounds))
                        }
                    }
                }
            }
        }
    }

    /// Paints the solid items `run` of `list` (consecutive there) within `band`, as the band's
    /// loop would one by one, and counts them; returns how many it went through: fewer than the
    /// run when the band's budget would not pay for the next.
    private func paintSolids(_ list: DisplayList, _ run: Range<Int>, band: PixelBox, target: RenderTarget) -> Int {
        var tally = cgs_solid_tally()
        let done = list.solids.withUnsafeBufferPointer {
            cgs_paint_solids(target.c, $0.baseAddress! + Int(list.solidIndex[run.lowerBound]), run.count, SolidRect.cBox(band),
                             paintedPixels, paintBudget, &tally)
        }
        paintedPixels += tally.charged
        paintedLayers += tally.painted
        culledLayers += tally.culled
        return done
    }

    /// The topmost item that makes at least a quarter of `band` opaque whatever lay under it (a
    /// solid rect with a background, or a box of its `OpaqueCover`: an opaque background's or an
    /// opaque image's inside), and the pixels of the band it covers; index 0 when there is none
    /// (nothing lies below the first item).
    static func occluder(_ items: UnsafeBufferPointer<DisplayItem>, _ extents: UnsafeBufferPointer<DisplayList.Extent>,
                         _ covers: UnsafeBufferPointer<OpaqueCover>, band: PixelBox) -> (index: Int, box: PixelBox) {
        let quarter = (band.x1 - band.x0) * (band.y1 - band.y0) / 4
        func area(_ b: PixelBox) -> Int { b.isEmpty ? 0 : (b.x1 - b.x0) * (b.y1 - b.y0) }
        var i = items.count - 1
        while i > 0 {
            // What it covers lies in what the item can touch (a drawing layer's box holds its
            // bounds' pixels in the frame): an item touching less cannot cover it.
            if area(extents[i].touched.intersection(band)) >= quarter {
                let item = items.baseAddress! + i
                var best = item.pointee.solidCover.intersection(extents[i].limit).intersection(band)
                func consider(_ b: PixelBox) {
                    let inBand = b.intersection(extents[i].limit).intersection(band)
                    if area(inBand) > area(best) { best = inBand }
                }
                consider(covers[i].rows)
                consider(covers[i].columns)
                if !best.isEmpty, area(best) >= quarter { return (i, best) }
            }
            i -= 1
        }
        return (0, .empty)
    }

    /// What the items after `i` cover of what item `i` (a group) may paint within `limit`: the
    /// runs its shadow and composite skip. Nil for a plain item (its painters keep no runs), or
    /// when none is covered. Up to `laterItems` items are looked at, so that a long list of groups
    /// costs each no more than that.
    static func hidden(after i: Int, _ items: UnsafeBufferPointer<DisplayItem>, _ covers: UnsafeBufferPointer<OpaqueCover>,
                       limit: PixelBox, target: RenderTarget) -> HiddenRuns? {
        let item = items.baseAddress! + i
        guard item.pointee.kind == .group else { return nil }
        // A group without sublayers paints within its box (its shadow included); else anywhere.
        let area = item.pointee.leaf ? limit.intersection(item.pointee.box) : limit
        guard !area.isEmpty else { return nil }
        var boxes: [PixelBox] = []
        func add(_ b: PixelBox) { if !b.isEmpty { boxes.append(b) } }
        for j in (i + 1)..<min(items.count, i + 1 + laterItems) where !covers[j].isEmpty {
            add(covers[j].rows.intersection(area))
            add(covers[j].columns.intersection(area))
            if boxes.count >= HiddenRuns.maxBoxes { break }
        }
        guard !boxes.isEmpty else { return nil }
        let hidden = HiddenRuns(target: target, boxes: boxes)
        return hidden.segments.isEmpty ? nil : hidden
    }

    /// For each item, the most that it and the items after it that meet `band` may charge to
    /// the band's budget (saturating at `Int.max`); one more entry, 0, after the last.
    static func laterSpend(_ extents: UnsafeBufferPointer<DisplayList.Extent>, _ charges: UnsafeBufferPointer<Int>,
                           band: PixelBox) -> [Int] {
        var later = [Int](repeating: 0, count: extents.count + 1)
        for i in extents.indices.reversed() {
            let spend = extents[i].touched.intersection(band).isEmpty ? 0 : charges[i]
            let (sum, o) = later[i + 1].addingReportingOverflow(spend)
            later[i] = o ? Int.max : sum
        }
        return later
    }

    /// Most later items a group's hidden runs are gathered from.
    static let laterItems = 256
    /// Most later items a band looks at for all its groups' hidden runs (a list of a million
    /// groups would otherwise read 256 items for each): past it, groups paint all they cover.
    static let laterItemsPerBand = 1 << 20

    /// A painted item: a group through the recursive painter (with what later items hide), a
    /// plain layer through its own.
    private func paint(_ item: UnsafePointer<DisplayItem>, _ c: UnsafePointer<DisplayContext>, limit: PixelBox,
                       target: RenderTarget, frame: PixelBox, hidden: HiddenRuns? = nil) {
        if item.pointee.geometry == nil {
            var ctx = c.pointee.context(alpha: c.pointee.alpha, target: target, limit: limit, frame: frame)
            ctx.hidden = hidden
            paint(item.pointee.footprint.snapshot, ctx)
        } else {
            paintPlain(item, c, limit: limit, target: target, frame: frame)
        }
    }

    /// One plain layer's item: its body, its border, or both.
    private func paintPlain(_ item: UnsafePointer<DisplayItem>, _ c: UnsafePointer<DisplayContext>, limit: PixelBox,
                            target: RenderTarget, frame: PixelBox) {
        // `limit` meets what the layer can touch: the band's loop culled by the item's extent.
        let box = item.pointee.geometry.unsafelyUnwrapped.box.intersection(limit)
        if item.pointee.solid {
            // Opaque colour on whole pixels: stored, with no painter's context (same pixels).
            if item.pointee.kind == .layer {
                guard spend(box) else { culledLayers += 1; return }
                paintedLayers += 1
            }
            item.pointee.geometry.unsafelyUnwrapped.solid.unsafelyUnwrapped
                .paint(target, box: box, body: item.pointee.kind == .layer,
                       ring: item.pointee.kind == .border || item.pointee.bordered)
            return
        }
        let f = item.pointee.footprint
        paint(item, f, f.statePointer, c, box: box, limit: limit, target: target, frame: frame)
    }

    /// A plain layer's item through the general painters (a painter's context of its own).
    @inline(never)
    private func paint(_ item: UnsafePointer<DisplayItem>, _ f: Footprint, _ s: UnsafePointer<LayerState>,
                       _ c: UnsafePointer<DisplayContext>, box: PixelBox, limit: PixelBox, target: RenderTarget,
                       frame: PixelBox) {
        let g = item.pointee.geometry.unsafelyUnwrapped
        let own = c.pointee.context(alpha: c.pointee.alpha * min(max(s.pointee.opacity, 0), 1), target: target, limit: limit,
                                    frame: frame)
        if item.pointee.kind == .layer {
            guard spend(box) else { culledLayers += 1; return }
            paintBody(f.snapshot, s, own, local: item.pointee.local, world: f.world, inverse: g.inverse, pixel: g.pixel, box: box,
                      shape: g.shape, clipSelf: ClipShape(shape: g.shape, inverse: g.inverse, pixel: g.pixel, box: box),
                      flipped: c.pointee.flipped != s.pointee.isGeometryFlipped)
        }
        if item.pointee.kind == .border || item.pointee.bordered {
            paintBorder(s, own, inverse: g.inverse, pixel: g.pixel, box: box, shape: g.shape)
        }
    }
}

extension DisplayContext {
    /// The painter's context for an item of this context, with `alpha`, painting into `target`
    /// within `limit` (the band's part of the clip box) of `frame`.
    func context(alpha: Double, target: RenderTarget, limit: PixelBox, frame: PixelBox) -> Compositor.Context {
        var inherited = self
        inherited.alpha = alpha
        inherited.limit = limit
        return Compositor.Context(inherited, target: target, frame: frame)
    }
}
