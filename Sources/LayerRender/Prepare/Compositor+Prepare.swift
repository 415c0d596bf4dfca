import CoreGraphics
import Foundation

// Stage: prepare. Reads: one layer's footprint of this frame (state, world map, inherited
// context) as the damage walk reaches it, in painting order. Produces: that layer's display
// items and the context its sublayers are listed in. Paints nothing, and decides what is a
// plain layer and what is an offscreen group with the same rules as the recursive painter
// (Compositor.swift), so that both paint the same pixels.

extension Compositor {
    /// Lists `snap` (its footprint `f`, local time `local`) in the context `k` of the display
    /// list. Returns the context its sublayers are listed in (-1: they are not) and, when its
    /// border must follow its sublayers, the index in `borders` of the border item it appended
    /// there, to be listed after them (-1: none).
    func list(_ snap: LayerSnapshot, _ f: Footprint, local: Double, context k: Int32, frame: PixelBox,
              borders: inout [DisplayItem]) -> (sublayers: Int32, border: Int) {
        guard k >= 0 else { return (-1, -1) }
        guard displayList.contexts[Int(k)].depth < maxDepth else { displayList.skippedForDepth += 1; return (-1, -1) }
        return list(snap, f, UnsafePointer(f.statePointer), local: local, context: k, frame: frame, borders: &borders)
    }

    /// `list` with the footprint's state `s` read in place, field by field (a copy retains every
    /// reference it holds; the state passed on as a value, even borrowed, was copied).
    private func list(_ snap: LayerSnapshot, _ f: Footprint, _ s: UnsafePointer<LayerState>, local: Double, context k: Int32,
                      frame: PixelBox, borders: inout [DisplayItem]) -> (sublayers: Int32, border: Int) {
        guard !Compositor.needsGroup(snap, s, transitioning: f.transitioning) else {
            // Drawn apart for a reason other than a shadow: covers nothing. A leaf drawn apart
            // only for its shadow charges its offscreen and its blur's plane, each within its box
            // (the shadow's spread included); any other group, its subtree.
            let apart = Compositor.needsGroup(snap, s, transitioning: f.transitioning, forShadow: false)
            let cover = Compositor.opaqueCover(s, world: f.world, context: displayList.contexts[Int(k)], apart: apart)
            let leaf = snap.sublayers.isEmpty
            let bounded = leaf && !apart
            let (three, overflow) = f.box.area.multipliedReportingOverflow(by: 3)
            displayList.append(DisplayItem(kind: .group, context: k, leaf: leaf, footprint: f, box: f.box, local: local, geometry: nil),
                               cover: cover, charge: bounded && !overflow ? three : Int.max)
            return (-1, -1)
        }
        let bordered = s.pointee.borderWidth > 0 && (s.pointee.borderColor?.alpha ?? 0) > 0
        let draws = (s.pointee.backgroundColor?.alpha ?? 0) > 0 || (snap.mayShowContents && s.pointee.contents.image != nil)
            || snap.contentKind != nil
        let leaf = snap.sublayers.isEmpty
        // A leaf that draws nothing, or touches no pixel of the frame (its box, which bands cull
        // by, is empty), is not listed (nor worked out).
        guard (draws || bordered) && !f.box.isEmpty || !leaf, let g = geometry(f, frame: frame) else { return (-1, -1) }
        let solid = g.solid != nil && displayList.contexts[Int(k)].alpha == 1 && displayList.contexts[Int(k)].clips.isEmpty
        if draws || (bordered && leaf) {
            let cover = Compositor.opaqueCover(s, world: f.world, context: displayList.contexts[Int(k)], apart: false)
            displayList.append(DisplayItem(kind: .layer, context: k, bordered: bordered && leaf, solid: solid,
                                           footprint: f, box: f.box, local: local, geometry: g), cover: cover)
        }
        guard !leaf else { return (-1, -1) }
        let c = displayList.contexts[Int(k)]
        let flipped = c.flipped != s.pointee.isGeometryFlipped
        var child = DisplayContext(parentTime: local, parentWorld: f.world, parentSublayer: f.sublayers?.sublayer.value, flipped: flipped,
                                   clips: c.clips, alpha: c.alpha * min(max(s.pointee.opacity, 0), 1), limit: c.limit,
                                   depth: c.depth + 1)
        if s.pointee.masksToBounds {
            child.clips.append(ClipShape(shape: g.shape, inverse: g.inverse, pixel: g.pixel, box: g.box))
            child.limit = child.limit.intersection(g.box)
        }
        var border = -1
        if bordered {
            borders.append(DisplayItem(kind: .border, context: k, solid: solid, footprint: f, box: f.box, local: local, geometry: g))
            border = borders.count - 1
        }
        guard !child.limit.isEmpty else { return (-1, border) }
        displayList.contexts.append(child)
        return (Int32(displayList.contexts.count - 1), border)
    }

    /// Whether the recursive painter draws the layer through an offscreen group or a path of its
    /// own (Compositor.swift's `paint`): then it and its subtree are one `.group` item.
    /// `forShadow`: false to leave a shadow out of the reasons (what else would make it a group).
    static func needsGroup(_ snap: LayerSnapshot, _ s: UnsafePointer<LayerState>, transitioning: Bool,
                           forShadow: Bool = true) -> Bool {
        if transitioning || snap.mask != nil || s.pointee.shouldRasterize { return true }
        if min(max(s.pointee.opacity, 0), 1) < 1 && s.pointee.allowsGroupOpacity && !snap.sublayers.isEmpty { return true }
        if forShadow, min(max(s.pointee.shadowOpacity, 0), 1) > 0 && (s.pointee.shadowColor?.alpha ?? 0) > 0 { return true }
        switch snap.contentKind {
        case nil: return false
        case .transformLayer?, .replicator?: return true
        case .emitter?: break
        default: return false
        }
        switch s.pointee.content {
        case .emitter(let e)?: return e.preservesDepth
        default: return false
        }
    }

    /// A plain layer's geometry (worked out once per footprint), or nil when the painter culls
    /// it with its sublayers: a singular map, or the back of a single-sided layer.
    func geometry(_ f: Footprint, frame: PixelBox) -> ItemGeometry? {
        if f.hasGeometry { return f.geometry }
        f.hasGeometry = true
        f.geometry = Compositor.geometry(UnsafePointer(f.statePointer), world: f.world, frame: frame)
        return f.geometry
    }

    private static func geometry(_ s: UnsafePointer<LayerState>, world: Homography, frame: PixelBox) -> ItemGeometry? {
        guard let inverse = world.inverse else { return nil }
        let b = s.pointee.bounds.standardized
        let corners = Quad(b, through: world)
        if !s.pointee.isDoubleSided, corners.isComplete, corners.signedArea < 0 { return nil }
        var shape = RoundedRect(rect: b, radius: s.pointee.cornerRadius, mask: s.pointee.maskedCorners)
        if s.pointee.allowsEdgeAntialiasing { shape.hardEdges = UInt8(~s.pointee.edgeAntialiasingMask & 15) }
        let box = corners.isComplete ? PixelBox(covering: corners.bounds, limit: frame) : .empty
        return ItemGeometry(inverse: inverse, pixel: corners.pixelSize(inverse), box: box, shape: shape,
                            solid: SolidRect(s, inverse: inverse, shape: shape))
    }
}
