import CoreGraphics
import Foundation

// Stage: damage and prepare. Reads: the snapshot tree at the frame time and the last frame's
// footprints. Produces: this frame's footprints, their boxes (paint culls leaves by them), the
// damage box, and the display list the bands paint (Prepare/). Paints nothing.

// Damage: which pixels can differ from the previous frame this compositor painted.
//
// Before painting, a light walk of the tree records every layer's *footprint*: its presentation
// state, its place (world map), what it inherits (opacity product, the clip box of its
// masksToBounds ancestors, the order of its sublayers) and the pixels it can touch (bounds,
// overflowing contents and shapes, its shadow, and the shadows of its ancestors, which repeat
// its pixels elsewhere). A layer whose footprint differs from last frame's — or that is in a
// transition, whose pixels move while its state does not — damages its old and new boxes; a
// layer that left damages its old box. The frame is then painted inside the damage box only.
extension Compositor {
    /// A class, so that carrying an unchanged footprint into the next frame costs one retain.
    final class Footprint {
        let snapshot: LayerSnapshot
        /// The presentation state, kept at a fixed address: passed on as `statePointer.pointee`
        /// it is lent in place, where a stored property was copied for each item a band painted
        /// (retaining each of its references — on objects such as a colour every layer shares,
        /// from every worker at once).
        private(set) var statePointer: UnsafeMutablePointer<LayerState>
        var state: LayerState { unsafeAddress { UnsafePointer(statePointer) } }
        /// Where the layer is and what it and its sublayers inherit, worked out from the state.
        private(set) var place: Place
        /// The layer's local time when this footprint was taken.
        var time: Double = 0
        /// The damage walk that last found the layer in the tree (`Compositor.footprintWalk`).
        var walk = 0
        /// Where the replicators above place the layer's other copies (device → device maps).
        var instances: [Homography]?
        /// Its display item geometry, once worked out (Compositor+Prepare.swift).
        var geometry: ItemGeometry?
        var hasGeometry = false
        /// A second state of the same snapshot (an earlier frame's): the next frame of an
        /// animated layer is evaluated in it by resetting only the animated fields.
        var spare: UnsafeMutablePointer<LayerState>?

        /// Takes ownership of `state` (initialised, allocated for one).
        init(snapshot: LayerSnapshot, state: UnsafeMutablePointer<LayerState>, place: Place) {
            self.snapshot = snapshot; statePointer = state; self.place = place
        }

        /// Takes the next frame's state of the same snapshot (owned) and its place; the state it
        /// held becomes its spare. Its display geometry is worked out again.
        func update(state: UnsafeMutablePointer<LayerState>, place: Place) {
            if let spare { Footprint.free(spare) }
            spare = statePointer
            statePointer = state
            self.place = place
            geometry = nil
            hasGeometry = false
        }

        deinit {
            Footprint.free(statePointer)
            if let spare { Footprint.free(spare) }
        }

        private static func free(_ p: UnsafeMutablePointer<LayerState>) {
            p.deinitialize(count: 1)
            p.deallocate()
        }

        var world: Homography { place.world }
        var parentWorld: Homography { place.parentWorld }
        var parentSublayer: Transform3D? { place.parentSublayer.value }
        var parent3D: Transform3D? { place.parent3D.value }
        var alpha: Double { place.alpha }
        var clip: PixelBox { place.clip }
        var spread: Spread { place.spread }
        var children: [UInt64] { place.children }
        var box: PixelBox { place.box }
        var transitioning: Bool { place.transitioning }
        var visible: Bool { place.visible }
        var childAlpha: Double { place.childAlpha }
        var childSublayer: Transform3D? { place.childSublayer.value }
        var childClip: PixelBox { place.childClip }
        var childSpread: Spread { place.childSpread }
        var childWorld: Homography { place.childWorld }
        var child3D: Transform3D? { place.child3D.value }
    }

    /// A footprint's values apart from its state: the layer's map to pixels, what it inherits,
    /// the pixels it can touch, and what its sublayers inherit from it.
    struct Place {
        let world: Homography
        // What the layer inherits.
        let parentWorld: Homography
        let parentSublayer: BoxedTransform
        let parent3D: BoxedTransform
        let alpha: Double
        let clip: PixelBox
        let spread: Spread
        let children: [UInt64]
        let box: PixelBox
        let transitioning: Bool
        // What its sublayers inherit from it.
        let visible: Bool
        let childAlpha: Double
        let childSublayer: BoxedTransform
        let childClip: PixelBox
        let childSpread: Spread
        /// The plane and 3D chain the sublayers are placed in (a transform layer passes its own on).
        let childWorld: Homography
        let child3D: BoxedTransform
    }

    /// How far ancestors' shadows can carry a layer's pixels (pixels, each side).
    struct Spread: Equatable {
        var left = 0, top = 0, right = 0, bottom = 0
        func grow(_ b: PixelBox, within frame: PixelBox) -> PixelBox {
            guard !b.isEmpty, self != Spread() else { return b }
            return PixelBox(x0: b.x0 - left, y0: b.y0 - top, x1: b.x1 + right, y1: b.y1 + bottom).intersection(frame)
        }
    }

    /// The pixels of `frame` that may differ from the last frame painted with the same `base`
    /// (everything the first time, or when the base or frame changed). Updates the footprints.
    package func damage(_ root: LayerSnapshot, at time: Double, base: Homography, frame: PixelBox) -> PixelBox {
        // What a layer inherits from its parent, shared by all the children of one parent (the
        // stack holds a layer and the index of its context). A class, so that reading it for a
        // layer costs a retain, not a copy of its transforms (it is never changed once made).
        final class Item {
            let parentTime: Double, parentWorld: Homography, parentSublayer: BoxedTransform
            let parent3D: BoxedTransform
            let alpha: Double, clip: PixelBox, spread: Spread
            /// Under a replicator that draws several instances: drawn elsewhere too.
            let replicated: Bool
            /// Device → device maps from the first copy to the others, when the replicator's
            /// instance transforms are flat (nil under a replicator: anywhere in the clip).
            let instances: [Homography]?
            /// The clip at the replicator whose copies these are (inner clips move with the copies).
            let replicatorClip: PixelBox
            /// Under a replicator whose delayed copies animate, or whose own settings changed this
            /// frame: the layer's box is damaged.
            let delayed: Bool
            /// The display list context the layers are listed in (-1: not listed: painted inside
            /// an offscreen group, or culled with their superlayer).
            let listed: Int32

            init(parentTime: Double, parentWorld: Homography, parentSublayer: BoxedTransform, parent3D: BoxedTransform = .none,
                 alpha: Double, clip: PixelBox, spread: Spread, replicated: Bool = false, instances: [Homography]? = nil,
                 replicatorClip: PixelBox = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0), delayed: Bool = false, listed: Int32 = -1) {
                self.parentTime = parentTime; self.parentWorld = parentWorld; self.parentSublayer = parentSublayer
                self.parent3D = parent3D; self.alpha = alpha; self.clip = clip; self.spread = spread
                self.replicated = replicated; self.instances = instances; self.replicatorClip = replicatorClip
                self.delayed = delayed; self.listed = listed
            }
        }
        let known = footprintBase == base && footprintFrame == frame
        // The tree the footprints were taken of, and nothing in it moves with time: nothing
        // changed, and the footprints stay as they are (the walk would find every one unchanged).
        if known, root === footprintRoot, root.isStill {
            footprintTime = time
            return PixelBox(x0: frame.x0, y0: frame.y0, x1: frame.x0, y1: frame.y0)
        }
        // The footprints and their boxes are kept from frame to frame and updated where a layer
        // changed: an unchanged layer costs a lookup, not an insertion into a new table (and the
        // release of the old one). Layers the walk did not reach are removed after it.
        footprintWalk &+= 1
        let walk = footprintWalk
        var reached = 0
        var damage = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
        var contexts = [Item(parentTime: time, parentWorld: base, parentSublayer: .none, alpha: 1, clip: frame, spread: Spread(),
                             listed: 0)]
        displayList.removeAll()
        displayList.contexts.append(DisplayContext(parentTime: time, parentWorld: base, parentSublayer: nil, flipped: false,
                                                   clips: [], alpha: 1, limit: frame, depth: 0))
        // Borders waiting for their layer's sublayers to be listed (the stack holds their index,
        // `border` ≥ 0, after the sublayers).
        var borders: [DisplayItem] = []
        var stack: [(snap: LayerSnapshot, context: Int, border: Int)] = [(root, 0, -1)]
        func push(_ snap: LayerSnapshot, _ f: Footprint, _ local: Double, _ item: Item, changed: Bool = false) {
            let listed = list(snap, f, local: local, context: item.listed, frame: frame)
            if let border = listed.border {
                borders.append(border)
                stack.append((snap, -1, borders.count - 1))
            }
            var copies = item.replicated, instances = item.instances, delayed = item.delayed
            var replicatorClip = item.replicatorClip
            if snap.contentKind == .replicator, case .replicator(let r)? = f.statePointer.pointee.content, r.drawnCount != 1 {
                // A replicator under another one: its copies' copies are bounded by the clip only.
                instances = copies ? nil : Compositor.instanceMaps(r, bounds: f.statePointer.pointee.bounds, f)
                if !copies { replicatorClip = f.childClip }
                copies = true
                // Delayed copies animate after the original: every animated layer below damages its
                // copies each frame — and a copy shown at another time may be elsewhere, unless the
                // animations change only paint (then the maps place every copy).
                if r.instanceDelay != 0 && !snap.sublayers.allSatisfy(Compositor.isStatic) {
                    delayed = true
                    if !snap.sublayers.allSatisfy(Compositor.animatesPaintOnly) { instances = nil }
                }
                // Colours, delay or count changed: every copy is drawn anew.
                if changed { delayed = true }
            }
            if let m = snap.mask {
                contexts.append(Item(parentTime: local, parentWorld: f.world, parentSublayer: .none, alpha: f.childAlpha,
                                     clip: f.clip, spread: f.childSpread, replicated: item.replicated, instances: item.instances,
                                     replicatorClip: item.replicatorClip, delayed: item.delayed))
                stack.append((m, contexts.count - 1, -1))
            }
            guard !snap.sublayers.isEmpty else { return }
            contexts.append(Item(parentTime: local, parentWorld: f.childWorld, parentSublayer: f.place.childSublayer,
                                 parent3D: f.place.child3D, alpha: f.childAlpha, clip: f.childClip, spread: f.childSpread,
                                 replicated: copies, instances: instances, replicatorClip: replicatorClip, delayed: delayed,
                                 listed: listed.sublayers))
            let k = contexts.count - 1
            // Popped in painting order, so that the display list is written in it.
            for c in Compositor.paintOrder(snap.sublayers).reversed() { stack.append((c, k, -1)) }
        }
        while let (snap, k, border) = stack.popLast() {
            if border >= 0 { displayList.items.append(borders[border]); continue }
            let item = contexts[k]
            let local = snap.localTime(fromParent: item.parentTime)
            // The same snapshot, without animations, in the same inherited context: the same footprint.
            // Last frame's footprint of this layer, looked up once.
            let last = footprints[snap.id]
            if last?.walk != walk { reached += 1 }
            if known, !item.delayed, let old = last, old.snapshot === snap, snap.animations.isEmpty,
               old.instances == item.instances,
               !(snap.hasTimedContent && Compositor.changesByItself(snap.state.content, since: old.time)),
               old.parentWorld == item.parentWorld, old.place.parentSublayer == item.parentSublayer, old.place.parent3D == item.parent3D,
               old.alpha == item.alpha,
               old.clip == item.clip, old.spread == item.spread {
                old.time = local
                old.walk = walk
                if old.visible { push(snap, old, local, item) }
                continue
            }
            // The presentation state is evaluated where the footprint keeps it: a state made
            // apart and then stored was copied, and each copy retains every reference it holds.
            // An animated layer in the same snapshot and context as last frame is evaluated in its
            // footprint's spare state (an earlier frame's) with only the animated fields reset:
            // no copy of the state, and only those fields compared.
            let evaluated: UnsafeMutablePointer<LayerState>
            var previous: Footprint? = nil
            if known, !item.delayed, let old = last, old.walk != walk, old.snapshot === snap, let fields = snap.animatedFields,
               old.instances == item.instances, old.parentWorld == item.parentWorld, old.place.parentSublayer == item.parentSublayer,
               old.place.parent3D == item.parent3D, old.alpha == item.alpha, old.clip == item.clip, old.spread == item.spread {
                let buffer = old.spare ?? Compositor.copy(snap.state)
                old.spare = nil
                for f in fields { snap.reset(f, in: buffer) }
                snap.applyAnimations(to: &buffer.pointee, atLocalTime: local)
                if fields.allSatisfy({ LayerState.same($0, buffer, old.statePointer) }) {
                    // The same state in the same context: the same footprint.
                    old.spare = buffer
                    if old.visible && snap.hasTimedContent && Compositor.changesByItself(old.statePointer.pointee.content, since: old.time) {
                        damage = damage.union(old.box)
                    }
                    old.time = local
                    old.walk = walk
                    if old.visible { push(snap, old, local, item) }
                    continue
                }
                evaluated = buffer
                previous = old
            } else {
                evaluated = Compositor.copy(snap.state)
                snap.applyAnimations(to: &evaluated.pointee, atLocalTime: local)
            }
            let transitioning = snap.animations.contains { $0.model.transitionProgress(at: local) != nil }
            let local4 = Compositor.localTransform(evaluated, parentSublayer: item.parentSublayer.value)
            let full4 = item.parent3D.value.map { local4.concatenating($0) } ?? local4
            let world = Homography(full4).concatenating(item.parentWorld)
            let opacity = min(max(evaluated.pointee.opacity, 0), 1)
            let isTransformLayer = snap.contentKind == .transformLayer
            let visible = !evaluated.pointee.isHidden && opacity > 0 && evaluated.pointee.bounds.isFiniteRect && (isTransformLayer || world.inverse != nil)
            var box = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
            var spread = item.spread
            if visible && !isTransformLayer {
                // A replicated layer's first copy may lie outside the frame while others do not:
                // its box is taken whole, then placed for every copy and clipped.
                let limit = item.replicated ? Compositor.unlimited : frame
                // A layer that draws nothing of its own touches no pixels: its box stays empty, so
                // moving or fading it damages nothing (its sublayers' boxes hold their pixels).
                if item.replicated || Compositor.drawsItself(snap, evaluated, transitioning: transitioning) {
                    box = Compositor.box(of: evaluated.pointee.bounds.standardized, world: world, limit: limit)
                }
                if snap.mayShowContents, let image = evaluated.pointee.contents.image { box = box.union(contentsBox(image, evaluated, world: world, limit: limit)) }
                if snap.contentKind != nil, let content = evaluated.pointee.content { box = box.union(contentBox(content, bounds: evaluated.pointee.bounds, world: world, limit: limit)) }
                if evaluated.pointee.shadowOpacity > 0, (evaluated.pointee.shadowColor?.alpha ?? 0) > 0 {
                    let own = Compositor.shadowSpread(evaluated.pointee, world: world)
                    spread = Spread(left: spread.left + own.left, top: spread.top + own.top,
                                    right: spread.right + own.right, bottom: spread.bottom + own.bottom)
                }
                box = spread.grow(box, within: limit)
                // Copies of a replicated layer: where the instance maps put them, else anywhere the
                // replicator's clip allows (clips inside the copies move with them).
                if item.replicated { box = Compositor.replicatedBox(box, item.instances, clip: item.replicatorClip) }
            }
            let b = evaluated.pointee.bounds.standardized
            let sub = visible ? Compositor.placedSublayerTransform(evaluated) : nil
            let clip = visible && evaluated.pointee.masksToBounds && !isTransformLayer ? item.clip.intersection(Compositor.box(of: b, world: world, limit: frame)) : item.clip
            let children = snap.sublayers.map(\.id)
            var replicatorChanged = false
            if snap.contentKind == .replicator, let old = last, !LayerState.same(&old.statePointer.pointee, &evaluated.pointee) { replicatorChanged = true }
            let place = Place(world: world, parentWorld: item.parentWorld, parentSublayer: item.parentSublayer, parent3D: item.parent3D,
                              alpha: item.alpha, clip: item.clip, spread: item.spread, children: children, box: box,
                              transitioning: transitioning, visible: visible, childAlpha: item.alpha * opacity, childSublayer: BoxedTransform(sub),
                              childClip: clip, childSpread: spread, childWorld: isTransformLayer ? item.parentWorld : world,
                              child3D: isTransformLayer ? BoxedTransform(full4) : .none)
            // (From here on the state is read from the footprint: a copy would retain its references.)
            if let old = last, known {
                if transitioning || old.transitioning || old.world != world || old.box != box || old.alpha != item.alpha
                    || old.clip != item.clip || old.children != children || previous != nil
                    || !LayerState.same(&old.statePointer.pointee, &evaluated.pointee) {
                    damage = damage.union(old.box).union(box)
                }
            } else {
                damage = damage.union(box)
            }
            // An animated layer's footprint is updated in place (last frame's state becomes its spare).
            let lastBox = last?.box, lastTime = last?.time
            let mine: Footprint
            if let previous {
                previous.update(state: evaluated, place: place)
                mine = previous
            } else {
                mine = Footprint(snapshot: snap, state: evaluated, place: place)
                footprints[snap.id] = mine
            }
            mine.walk = walk
            if lastBox != box { footprintBoxes[snap.id] = box }
            // Particles move every frame, anywhere the emitter's clip allows.
            mine.time = local
            mine.instances = item.instances
            if visible && (item.delayed || (snap.hasTimedContent && Compositor.changesByItself(evaluated.pointee.content, since: lastTime))) { damage = damage.union(box) }
            if visible { push(snap, mine, local, item, changed: replicatorChanged) }
        }
        if reached != footprints.count {
            let gone = footprints.filter { $0.value.walk != walk }
            for (id, old) in gone {
                damage = damage.union(old.box)
                footprints[id] = nil
                footprintBoxes[id] = nil
            }
        }
        if !known { damage = frame }
        footprintBase = base
        footprintFrame = frame
        footprintRoot = root
        footprintTime = time
        return damage.intersection(frame)
    }

    /// Whether a layer puts pixels of its own on screen, beside its sublayers': a background, a
    /// border, contents, class content or a shadow. A mask, rasterisation or a transition, which
    /// paint it apart, count as drawing.
    static func drawsItself(_ snap: LayerSnapshot, _ s: UnsafePointer<LayerState>, transitioning: Bool) -> Bool {
        if snap.contentKind != nil || snap.mask != nil || transitioning || s.pointee.shouldRasterize { return true }
        if (s.pointee.backgroundColor?.alpha ?? 0) > 0 { return true }
        if s.pointee.borderWidth > 0 && (s.pointee.borderColor?.alpha ?? 0) > 0 { return true }
        if s.pointee.shadowOpacity > 0 && (s.pointee.shadowColor?.alpha ?? 0) > 0 { return true }
        return snap.mayShowContents && s.pointee.contents.image != nil
    }

    /// Whether the state is an emitter that can have particles on screen.
    package static func emits(_ s: LayerState) -> Bool {
        if case .emitter(let e)? = s.content { return e.isActive }
        return false
    }

    /// Whether a layer with this content changed its pixels by time alone since the frame at local time `previous`:
    /// particles move, and a tile that was still fading in then is drawn differently now.
    static func changesByItself(_ content: LayerContent?, since previous: Double?) -> Bool {
        switch content {
        case .emitter(let e)?: return e.isActive
        case .tiled(let t)?:
            guard let previous else { return true }
            return t.fadeDuration > 0 && t.tiles.values.contains { $0.arrival + t.fadeDuration > previous }
        default: return false
        }
    }

    /// Device → device maps from a replicator's first copy to each other one, or nil when they
    /// cannot be written so (instance or sublayer transforms that use depth, a 3D chain, a
    /// plane that does not invert): the copies are then bounded by the clip alone.
    static func instanceMaps(_ r: ReplicatorContent, bounds: CGRect, _ f: Footprint) -> [Homography]? {
        guard f.child3D == nil else { return nil }
        let sub = f.childSublayer ?? .identity
        // Flattening to 2D commutes with the product only when depth does not feed x, y or w.
        func flat(_ t: Transform3D) -> Bool { t.m31 == 0 && t.m32 == 0 && t.m34 == 0 }
        guard flat(sub), let back = Homography(sub).concatenating(f.childWorld).inverse else { return nil }
        var maps: [Homography] = []
        maps.reserveCapacity(r.drawnCount - 1)
        for t in r.transforms(bounds: bounds).dropFirst() {
            guard let t else { continue }
            let placed = t.concatenating(sub)
            guard flat(placed) else { return nil }
            maps.append(back.concatenating(Homography(placed)).concatenating(f.childWorld))
        }
        return maps
    }

    /// A box large enough to hold any layer's pixels (device space).
    static let unlimited = PixelBox(x0: -(1 << 24), y0: -(1 << 24), x1: 1 << 24, y1: 1 << 24)

    /// The animation keys whose changes stay within what the layer already covers.
    static let paintOnlyKeys: Set<String> = ["opacity", "backgroundColor", "borderColor", "borderWidth", "cornerRadius",
                                             "hidden", "fillColor", "strokeColor", "strokeStart", "strokeEnd", "colors",
                                             "locations", "foregroundColor", "contentsRect"]

    /// Whether every animation in the subtree changes only paint (not where the layers are).
    static func animatesPaintOnly(_ snap: LayerSnapshot) -> Bool {
        func paintOnly(_ m: AnimationModel) -> Bool {
            switch m.kind {
            case .group(let children): return children.allSatisfy(paintOnly)
            case .transition: return false
            default: return m.keyPath.first.map(paintOnlyKeys.contains) ?? false
            }
        }
        var stack = [snap]
        while let s = stack.popLast() {
            guard s.animations.allSatisfy({ paintOnly($0.model) }) else { return false }
            if let m = s.mask { stack.append(m) }
            stack.append(contentsOf: s.sublayers)
        }
        return true
    }

    /// A replicated layer's box: its first copy's box and its images under the instance maps,
    /// inside `clip`; the whole clip when the maps are unknown or a copy reaches behind the viewer.
    static func replicatedBox(_ box: PixelBox, _ maps: [Homography]?, clip: PixelBox) -> PixelBox {
        guard let maps else { return clip }
        guard !box.isEmpty else { return box }
        let r = CGRect(x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0)
        var all = box
        for m in maps {
            guard let a = m.apply(CGPoint(x: r.minX, y: r.minY)), let b = m.apply(CGPoint(x: r.maxX, y: r.minY)),
                  let c = m.apply(CGPoint(x: r.maxX, y: r.maxY)), let d = m.apply(CGPoint(x: r.minX, y: r.maxY)) else { return clip }
            all = all.union(PixelBox(covering: Double(min(a.x, b.x, c.x, d.x)) - 1, Double(min(a.y, b.y, c.y, d.y)) - 1,
                                     Double(max(a.x, b.x, c.x, d.x)) + 1, Double(max(a.y, b.y, c.y, d.y)) + 1, limit: clip))
        }
        return all.intersection(clip)
    }

    /// A state of its own at a fixed address, initialised to `s` (the footprint that keeps it frees it).
    static func copy(_ s: LayerState) -> UnsafeMutablePointer<LayerState> {
        let p = UnsafeMutablePointer<LayerState>.allocate(capacity: 1)
        p.initialize(to: s)
        return p
    }

    /// Forgets the footprints: the next damage is the whole frame.
    package func invalidateDamage() { footprintFrame = nil }

    /// Pixels a layer's shadow reaches beyond what the layer draws, per side (one pixel spare).
    static func shadowSpread(_ s: LayerState, world: Homography) -> Spread {
        let b = s.bounds
        let m = shadowMargin(s, pixel: Quad(b, through: world).pixelSize(world.inverse ?? .identity))
        return Spread(left: m.x + 1, top: m.y + 1, right: m.x + 1, bottom: m.y + 1)
    }
}
