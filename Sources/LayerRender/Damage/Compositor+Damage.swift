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
    /// Where the walk lists a layer: what it inherits, its superlayer's local time (seconds)
    /// and the display list context it is listed in (-1: not listed: painted inside an
    /// offscreen group, or culled with its superlayer).
    private struct WalkContext {
        let inherited: Inherited
        let time: Double
        let listed: Int32
    }

    /// The pixels of `frame` that may differ from the last frame painted with the same `base`
    /// (everything the first time, or when the base or frame changed). Updates the footprints.
    package func damage(_ root: LayerSnapshot, at time: Double, base: Homography, frame: PixelBox) -> PixelBox {
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
        rootInherited = Inherited(world: base, alpha: 1, clip: frame, spread: Spread()).keeping(rootInherited)
        var contexts = [WalkContext(inherited: rootInherited!, time: time, listed: 0)]
        displayList.removeAll()
        displayList.contexts.append(DisplayContext(parentTime: time, parentWorld: base, parentSublayer: nil, flipped: false,
                                                   clips: [], alpha: 1, limit: frame, depth: 0))
        // Borders waiting for their layer's sublayers to be listed (the stack holds their index,
        // `border` ≥ 0, after the sublayers).
        var borders: [DisplayItem] = []
        var stack: [(snap: LayerSnapshot, context: Int, border: Int)] = [(root, 0, -1)]
        func push(_ snap: LayerSnapshot, _ f: Footprint, _ local: Double, listedIn k: Int32, changed: Bool = false) {
            let listed = list(snap, f, local: local, context: k, frame: frame, borders: &borders)
            if listed.border >= 0 { stack.append((snap, -1, listed.border)) }
            if let m = snap.mask {
                let i = f.inherited
                let mask = Inherited(world: f.world, alpha: f.place.childAlpha, clip: i.clip, spread: f.place.childSpread,
                                     replicated: i.replicated, instances: i.instances, replicatorClip: i.replicatorClip, delayed: i.delayed)
                contexts.append(WalkContext(inherited: mask, time: local, listed: -1))
                stack.append((m, contexts.count - 1, -1))
            }
            guard var sublayers = f.sublayers else { return }
            if snap.contentKind == .replicator, case .replicator(let r)? = f.statePointer.pointee.content, r.drawnCount != 1 {
                sublayers = Compositor.replicating(sublayers, r, bounds: f.statePointer.pointee.bounds, snap, changed: changed)
            }
            contexts.append(WalkContext(inherited: sublayers, time: local, listed: listed.sublayers))
            let k = contexts.count - 1
            // Popped in painting order, so that the display list is written in it.
            for c in Compositor.paintOrder(snap.sublayers).reversed() { stack.append((c, k, -1)) }
        }
        while let (snap, k, border) = stack.popLast() {
            if border >= 0 { displayList.append(borders[border]); continue }
            let context = contexts[k]
            let inherited = context.inherited
            let local = snap.localTime(fromParent: context.time)
            // Last frame's footprint of this layer, looked up once.
            let last = footprints[snap.id]
            if last?.walk != walk { reached += 1 }
            // The same snapshot, without animations, in the same inherited context: the same footprint.
            if known, !inherited.delayed, let old = last, old.snapshot === snap, snap.animations.isEmpty,
               old.inherited.same(as: inherited),
               !(snap.hasTimedContent && Compositor.changesByItself(snap.state.content, since: old.time)) {
                old.place.inherited = inherited
                old.time = local
                old.walk = walk
                if old.visible { push(snap, old, local, listedIn: context.listed) }
                continue
            }
            // The presentation state is evaluated where the footprint keeps it: a state made
            // apart and then stored was copied, and each copy retains every reference it holds.
            // An animated layer in the same snapshot and context as last frame is evaluated in its
            // footprint's spare state (an earlier frame's) with only the animated fields reset:
            // no copy of the state, and only those fields compared.
            let evaluated: UnsafeMutablePointer<LayerState>
            var previous: Footprint? = nil
            if known, !inherited.delayed, let old = last, old.walk != walk, old.snapshot === snap, let fields = snap.animatedFields,
               old.inherited.same(as: inherited) {
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
                    old.place.inherited = inherited
                    old.time = local
                    old.walk = walk
                    if old.visible { push(snap, old, local, listedIn: context.listed) }
                    continue
                }
                evaluated = buffer
                previous = old
            } else {
                evaluated = Compositor.copy(snap.state)
                snap.applyAnimations(to: &evaluated.pointee, atLocalTime: local)
            }
            let place = self.place(snap, evaluated, inherited, local: local, frame: frame, last: last?.sublayers)
            // (From here on the state is read from the footprint: a copy would retain its references.)
            var replicatorChanged = false
            if snap.contentKind == .replicator, let old = last, !LayerState.same(&old.statePointer.pointee, &evaluated.pointee) { replicatorChanged = true }
            if let old = last, known {
                if place.transitioning || old.transitioning || old.world != place.world || old.box != place.box
                    || old.inherited.alpha != inherited.alpha || old.inherited.clip != inherited.clip || previous != nil
                    || !Compositor.sameSublayers(old.snapshot, snap) || !LayerState.same(&old.statePointer.pointee, &evaluated.pointee) {
                    damage = damage.union(old.box).union(place.box)
                }
            } else {
                damage = damage.union(place.box)
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
            if lastBox != place.box { footprintBoxes[snap.id] = place.box }
            // Particles move every frame, anywhere the emitter's clip allows.
            mine.time = local
            if place.visible && (inherited.delayed || (snap.hasTimedContent && Compositor.changesByItself(evaluated.pointee.content, since: lastTime))) {
                damage = damage.union(place.box)
            }
            if place.visible { push(snap, mine, local, listedIn: context.listed, changed: replicatorChanged) }
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

    /// A layer's place this frame from its evaluated state `s` and what it inherits: its world
    /// map, whether it is visible, the pixels it can touch, and what its sublayers inherit
    /// (`last`, what they inherited last frame, when that is unchanged).
    private func place(_ snap: LayerSnapshot, _ s: UnsafeMutablePointer<LayerState>, _ inherited: Inherited,
                              local: Double, frame: PixelBox, last: Inherited?) -> Place {
        let transitioning = snap.animations.contains { $0.model.transitionProgress(at: local) != nil }
        let draws = Compositor.drawsItself(snap, s, transitioning: transitioning)
        // A leaf that draws nothing of its own (and is not copied by a replicator) touches no
        // pixels, is not listed and passes nothing on: its map is not worked out, as nothing
        // would read it. A change that makes it draw changes its footprint, which places it.
        if snap.sublayers.isEmpty, snap.mask == nil, !inherited.replicated, !draws {
            return Place(inherited: inherited, world: .identity, box: PixelBox(x0: 0, y0: 0, x1: 0, y1: 0),
                         transitioning: transitioning, visible: false, childAlpha: inherited.alpha * min(max(s.pointee.opacity, 0), 1),
                         childSpread: inherited.spread, sublayers: nil)
        }
        let local4 = Compositor.localTransform(s, parentSublayer: inherited.sublayer.value)
        let full4 = inherited.transform3D.value.map { local4.concatenating($0) } ?? local4
        let world = Homography(full4).concatenating(inherited.world)
        let opacity = min(max(s.pointee.opacity, 0), 1)
        let isTransformLayer = snap.contentKind == .transformLayer
        let visible = !s.pointee.isHidden && opacity > 0 && s.pointee.bounds.isFiniteRect && (isTransformLayer || world.isInvertible)
        var box = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
        var spread = inherited.spread
        if visible && !isTransformLayer {
            // A replicated layer's first copy may lie outside the frame while others do not:
            // its box is taken whole, then placed for every copy and clipped.
            let limit = inherited.replicated ? Compositor.unlimited : frame
            // A layer that draws nothing of its own touches no pixels: its box stays empty, so
            // moving or fading it damages nothing (its sublayers' boxes hold their pixels).
            if inherited.replicated || draws {
                box = Compositor.box(of: s.pointee.bounds.standardized, world: world, limit: limit)
            }
            if snap.mayShowContents, let image = s.pointee.contents.image { box = box.union(contentsBox(image, s, world: world, limit: limit)) }
            if snap.contentKind != nil, let content = s.pointee.content { box = box.union(contentBox(content, bounds: s.pointee.bounds, world: world, limit: limit)) }
            if s.pointee.shadowOpacity > 0, (s.pointee.shadowColor?.alpha ?? 0) > 0 {
                let own = Compositor.shadowSpread(s.pointee, world: world)
                spread = Spread(left: spread.left + own.left, top: spread.top + own.top,
                                right: spread.right + own.right, bottom: spread.bottom + own.bottom)
            }
            box = spread.grow(box, within: limit)
            // Copies of a replicated layer: where the instance maps put them, else anywhere the
            // replicator's clip allows (clips inside the copies move with them).
            if inherited.replicated { box = Compositor.replicatedBox(box, inherited.instances, clip: inherited.replicatorClip) }
        }
        var sublayers: Inherited? = nil
        if visible && !snap.sublayers.isEmpty {
            let clip = s.pointee.masksToBounds && !isTransformLayer
                ? inherited.clip.intersection(Compositor.box(of: s.pointee.bounds.standardized, world: world, limit: frame)) : inherited.clip
            sublayers = Inherited(world: isTransformLayer ? inherited.world : world,
                                  sublayer: BoxedTransform(Compositor.placedSublayerTransform(s)),
                                  transform3D: isTransformLayer ? BoxedTransform(full4) : .none, alpha: inherited.alpha * opacity,
                                  clip: clip, spread: spread, replicated: inherited.replicated, instances: inherited.instances,
                                  replicatorClip: inherited.replicatorClip, delayed: inherited.delayed).keeping(last)
        }
        return Place(inherited: inherited, world: world, box: box, transitioning: transitioning, visible: visible,
                     childAlpha: inherited.alpha * opacity, childSpread: spread, sublayers: sublayers)
    }

    /// Whether two snapshots of a layer have the same sublayers, in the same order.
    private static func sameSublayers(_ a: LayerSnapshot, _ b: LayerSnapshot) -> Bool {
        a === b || a.sublayers.elementsEqual(b.sublayers) { $0.id == $1.id }
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

    /// A box large enough to hold any layer's pixels (device space).
    static let unlimited = PixelBox(x0: -(1 << 24), y0: -(1 << 24), x1: 1 << 24, y1: 1 << 24)

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
