import CoreGraphics
import Foundation

// Stage: paint. Reads: the snapshot tree at the frame time, the damage walk's boxes (when they
// were taken for this tree, time and base). Produces: the pixels of its band of the target,
// inside the limit it is given, through the Raster kernels; offscreens and caches are its own.
// Never changes a snapshot.

/// Turns a committed layer tree into pixels at a frame time.
///
/// Stages per layer (Apple's order): evaluate the presentation state at the layer's local time →
/// world map (layer space → pixels, flattened per level except below transform layers) → cull
/// (hidden, transparent, singular, back-facing when single-sided) → paint: background (rounded
/// by cornerRadius/maskedCorners), contents (gravity, contentsRect, nine-slice, filters), the
/// content of shape/text/gradient/emitter/tiled layers, sublayers by zPosition (clipped by
/// masksToBounds; repeated by replicators; depth-sorted under transform layers), border on top.
/// A translucent layer with sublayers is painted as one group (allowsGroupOpacity). Never reads
/// CALayer objects: only `LayerSnapshot`s.
///
/// Offscreen passes: group opacity, shadows (from the drawn alpha or `shadowPath`, Gaussian of
/// σ = ⅔ shadowRadius so it reaches twice the radius), `mask` layers (their alpha multiplies),
/// transitions and rasterized layers. Frames are painted in bands of rows on every core
/// (Compositor+Bands.swift) inside the damage the footprint walk found (Compositor+Damage.swift),
/// from the display list it wrote (Prepare/).
/// Depth is capped at `maxDepth` levels (deeper subtrees are skipped and counted in `skippedForDepth`).
/// The fields touched once per layer are unchecked for exclusive access (`@exclusivity`): one
/// thread paints with a compositor at a time, and the runtime's checks cost more than the work.
package final class Compositor {
    /// The deepest level painted.
    package var maxDepth = 1024
    /// Layers culled in the last frame (hidden, transparent, singular or back-facing).
    @exclusivity(unchecked) package internal(set) var culledLayers = 0
    /// Layers whose own content was painted in the last frame.
    @exclusivity(unchecked) package internal(set) var paintedLayers = 0
    /// Subtrees skipped because they were deeper than `maxDepth`.
    package internal(set) var skippedForDepth = 0
    /// Rasterized subtrees reused from the cache (cumulative).
    package internal(set) var rasterHits = 0
    /// Every layer's footprint in the last damage walk (Compositor+Damage.swift).
    var footprints: [UInt64: Footprint] = [:]
    /// Damage walks so far: footprints carry the last walk that reached their layer.
    var footprintWalk = 0
    var footprintBase: Homography?
    var footprintFrame: PixelBox?
    var footprintRoot: LayerSnapshot?
    var footprintTime: Double?
    /// What the root layer inherited in the last damage walk (kept while the base and frame stay).
    var rootInherited: Inherited?
    /// Every footprint's box, as values (both bands read them at once without touching the
    /// footprints' reference counts).
    var footprintBoxes: [UInt64: PixelBox] = [:]
    /// The frame's layers in painting order, written with the footprints (Prepare/DisplayList.swift).
    var displayList = DisplayList()
    /// The last band edges worked out from a list, and what for (Compositor+Bands.swift).
    var keptBandEdges: (key: BandEdgesKey, edges: [Int])?
    /// While painting the frame whose damage walk made the footprints (same tree, time and
    /// base): their boxes, for leaves to be culled by (set on the band helper too).
    var cullBoxes: [UInt64: PixelBox]?
    /// Workers a frame is painted with (clamped to 1…`maxWorkers`; 1 or less paints on the
    /// calling thread): each takes bands of rows as it finishes the last (Compositor+Bands.swift).
    /// The output is the same for any count.
    package var threads = Compositor.defaultWorkers
    /// The machine's active cores, at most `maxWorkers`.
    package static let defaultWorkers = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), maxWorkers)
    /// The compositors of the other workers.
    var helpers: [Compositor] = []
    /// The threads the workers run on (made when a frame first needs them; helpers have none).
    lazy var bandThreads = WorkerPool()
    /// The fewest rows of a band (a frame is cut into fewer, taller bands when it has few rows).
    package var bandRows = 64

    /// Layer-space bitmaps of `shouldRasterize` layers, by layer identity (Compositor+Rasterize.swift).
    var rasterCache: [UInt64: RasterEntry] = [:]
    /// Pictures of shape and text content, by layer identity (Compositor+LayerContent.swift).
    var contentCache: [UInt64: ContentEntry] = [:]
    /// Tiles of tiled layers that were visible but not drawn yet, by layer identity.
    var tileRequests: [UInt64: Set<TileKey>] = [:]
    /// True when the last frame showed a tile still fading in (another frame is needed).
    package internal(set) var tilesFading = false
    /// Mip chains of images drawn with the trilinear filter, by image identity.
    var mipCache: [ObjectIdentifier: MipChain] = [:]
    /// Colour ramps of gradient layers, by layer identity.
    @exclusivity(unchecked) var rampCache: [UInt64: RampEntry] = [:]
    /// This frame's particles, shared with the band helper (simulated once per frame).
    var particleShare = ParticleShare()
    /// The offscreen pixels this compositor's frames hold (its helpers share it).
    let offscreens: OffscreenBudget
    /// Cell memory of the path rasteriser.
    let rasterScratch = RasterScratch()
    /// The shadow blur's plane, kept from one shadow to the next (each worker has its own).
    let blurScratch = ShadowBlur.Scratch()
    /// The shadow blend's tables of the last shadow colour (each worker has its own).
    let blendTables = ShadowTables()
    /// The one-row buffer of masked gradients (Compositor+MaskedGradient.swift).
    let rowBuffer = MaskPlane.RowBuffer()
    /// Blurred shadow planes kept by layer identity (Compositor+Shadow.swift), and their bytes.
    var shadowCache: [UInt64: ShadowEntry] = [:]
    var shadowCacheBytes = 0
    /// Shadows blended from a kept plane (cumulative).
    @exclusivity(unchecked) package internal(set) var shadowHits = 0
    /// Content pictures reused from the cache (cumulative).
    @exclusivity(unchecked) package internal(set) var contentHits = 0
    /// Frames rendered so far (ages the content cache).
    @exclusivity(unchecked) var frameNumber = 0
    /// At most this many rasterized subtrees are kept (the cache is dropped when full).
    static let rasterCacheLimit = 64
    /// At most this many bytes of rasterized bitmaps are kept (a quarter of the offscreen budget).
    static let rasterCacheBytes = OwnedTarget.maxOffscreenBytes / 4

    /// Pixels one band may paint in a frame by default (`paintBudget`). Fuzzing builds use a
    /// smaller one so that inputs which reach it stay cheap enough to explore.
    #if FUZZING
    package static let maxPaintPixels = 1 << 21
    #else
    package static let maxPaintPixels = 1 << 28
    #endif
    /// Pixels one band may paint in a frame, counted as layer boxes, offscreens and tinted
    /// replicator copies: past it the band's remaining layers are skipped (counted once a frame
    /// as `.budgetExceeded`). Each layer keeps within its own limits; this bounds what they
    /// multiply to (10,000 replicator copies of a 4,096² rasterised bitmap). A last resort for
    /// time, not a rendering rule: each band spends its own budget on what it paints, so a frame
    /// past it may differ with the number of bands and where they meet.
    package var paintBudget = Compositor.maxPaintPixels
    /// Pixels this band has painted in the current frame (against `paintBudget`).
    @exclusivity(unchecked) var paintedPixels = 0
    /// Set once the band's budget is spent: the rest of the frame's layers are skipped.
    @exclusivity(unchecked) var overBudget = false

    /// Charges `box` to the band's pixel budget: false (the paint is skipped) once it is spent.
    func spend(_ box: PixelBox) -> Bool {
        guard !overBudget else { return false }
        let (area, o1) = box.isEmpty ? (0, false) : (box.x1 - box.x0).multipliedReportingOverflow(by: box.y1 - box.y0)
        let (after, o2) = paintedPixels.addingReportingOverflow(area)
        guard o1 || o2 || after > paintBudget else { paintedPixels = after; return true }
        overBudget = true
        CGDiagnostics.record(.budgetExceeded)
        return false
    }

    /// True when nothing in the subtree animates (its pixels do not depend on time).
    static func isStatic(_ snap: LayerSnapshot) -> Bool {
        var stack = [snap]
        while let n = stack.popLast() {
            if !n.animations.isEmpty { return false }
            stack.append(contentsOf: n.sublayers)
            if let m = n.mask { stack.append(m) }
        }
        return true
    }

    package init() { offscreens = OffscreenBudget() }

    /// A band worker for `owner`: its frames' offscreens are charged to the owner's budget.
    init(helping owner: Compositor) { offscreens = owner.offscreens }

    /// Paints `root` at absolute time `time` into `target`; `scale` pixels per point, `origin` the
    /// point (in the root's superlayer space) at the target's top-left corner.
    package func render(_ root: LayerSnapshot, at time: Double, into target: RenderTarget, scale: CGFloat = 1,
                        origin: CGPoint = .zero, limit: PixelBox? = nil, clearing: Bool = false) {
        render(root, at: time, into: target, base: Compositor.base(scale: scale, origin: origin), limit: limit, clearing: clearing)
    }

    /// The map from the root's superlayer space to pixels: `scale` pixels per point, `origin` at the top-left pixel.
    package static func base(scale: CGFloat, origin: CGPoint) -> Homography {
        Homography(m: (scale, 0, 0, 0, scale, 0, -origin.x * scale, -origin.y * scale, 1))
    }

    /// Paints `root` with `base` mapping the root's superlayer space to target pixels, inside
    /// `limit` only when given (the rest of the target is left as it is). With `clearing`, the
    /// area is made transparent first (by each band, and not at all where the root's opaque
    /// background is about to cover it).
    package func render(_ root: LayerSnapshot, at time: Double, into target: RenderTarget, base: Homography,
                        limit: PixelBox? = nil, clearing: Bool = false) {
        renderBands(root, at: time, into: target, base: base, limit: limit, clearing: clearing)
    }

    /// What the painter carries down the tree: what a layer inherits (as the display list keeps
    /// it, `limit` narrowed to the pixels being painted) and where and how it is painted.
    struct Context {
        var inherited: DisplayContext
        var target: RenderTarget
        /// The whole frame: offscreens whose pixels move (blurred shadows, sliding transitions)
        /// are painted beyond `limit`, up to here, so a band of the frame sees what moves into it.
        var frame: PixelBox
        /// Set while painting one side of a transition (so it is not transitioned again).
        var inTransition = false
        /// Under a CATransformLayer: the 4×4 map from the parent's space into the plane of
        /// `parentWorld` (nil: the parent is that plane).
        var parent3D: Transform3D? = nil
        /// How many copies of this subtree enclosing replicators already draw (their instance
        /// counts multiplied): nested replicators share one budget, `ReplicatorContent.maxInstances`.
        var copies = 1
        /// Pixels of the frame that items listed later overwrite (nil: none known).
        var hidden: HiddenRuns? = nil

        init(_ inherited: DisplayContext, target: RenderTarget, frame: PixelBox) {
            self.inherited = inherited; self.target = target; self.frame = frame
        }

        var parentTime: Double { get { inherited.parentTime } set { inherited.parentTime = newValue } }
        var parentWorld: Homography { get { inherited.parentWorld } set { inherited.parentWorld = newValue } }
        /// The parent's sublayerTransform, already placed about the parent's anchor (nil: identity).
        var parentSublayer: Transform3D? { get { inherited.parentSublayer } set { inherited.parentSublayer = newValue } }
        var flipped: Bool { get { inherited.flipped } set { inherited.flipped = newValue } }
        var clips: [ClipShape] { get { inherited.clips } set { inherited.clips = newValue } }
        var alpha: Double { get { inherited.alpha } set { inherited.alpha = newValue } }
        /// The pixels to paint: the band's part of what the masksToBounds superlayers leave.
        var limit: PixelBox { get { inherited.limit } set { inherited.limit = newValue } }
        var depth: Int { get { inherited.depth } set { inherited.depth = newValue } }
    }

    func paint(_ snap: LayerSnapshot, _ ctx: Context) {
        guard ctx.depth < maxDepth else { skippedForDepth += 1; return }
        guard !overBudget else { culledLayers += 1; return }
        // A leaf whose footprint (this frame's damage walk) misses the area being painted draws
        // nothing (a mask only takes pixels away).
        if let boxes = cullBoxes, !ctx.inTransition, snap.sublayers.isEmpty, let box = boxes[snap.id],
           box.intersection(ctx.limit).isEmpty {
            culledLayers += 1
            return
        }
        let local = snap.localTime(fromParent: ctx.parentTime)
        if !ctx.inTransition, let (transition, progress) = activeTransition(snap, at: local), let from = transition.from {
            paintTransition(transition, progress: progress, from: from, to: snap, ctx)
            return
        }
        // Without animations the committed state is painted as it is, not copied (a copy retains
        // and releases every colour, image and path of the layer).
        if snap.animations.isEmpty {
            paint(snap, snap.state, local: local, ctx)
        } else {
            paint(snap, snap.presentationState(atLocalTime: local), local: local, ctx)
        }
    }

    /// Paints `snap` in its presentation state `s` at its local time `local`.
    private func paint(_ snap: LayerSnapshot, _ s: LayerState, local: Double, _ ctx: Context) {
        let opacity = min(max(s.opacity, 0), 1)
        guard !s.isHidden, opacity > 0, s.bounds.isFiniteRect else { culledLayers += 1; return }
        // Under a CATransformLayer the 3D chain is kept and flattened once, into the plane of the
        // nearest ordinary ancestor (`parentWorld`).
        let local4 = Compositor.localTransform(s, parentSublayer: ctx.parentSublayer)
        let full4 = ctx.parent3D.map { local4.concatenating($0) } ?? local4
        let world = Homography(full4).concatenating(ctx.parentWorld)
        if case .transformLayer? = s.content {
            paintTransformLayer(snap, s, ctx, local: local, full4: full4, opacity: opacity)
            return
        }
        guard let inverse = world.inverse else { culledLayers += 1; return }
        let b = s.bounds.standardized
        let corners = Quad(b, through: world)
        if !s.isDoubleSided, corners.isComplete, corners.signedArea < 0 { culledLayers += 1; return }
        let flipped = ctx.flipped != s.isGeometryFlipped
        let pixel = corners.pixelSize(inverse)
        let shadowAlpha = min(max(s.shadowOpacity, 0), 1)
        let hasShadow = shadowAlpha > 0 && (s.shadowColor?.alpha ?? 0) > 0
        // A shadow moves and blurs the layer's pixels: its offscreen covers what can reach `limit`.
        var reach = ctx.limit
        if hasShadow {
            let m = Compositor.shadowMargin(s, pixel: pixel)
            reach = PixelBox(x0: reach.x0 - m.x, y0: reach.y0 - m.y, x1: reach.x1 + m.x, y1: reach.y1 + m.y).intersection(ctx.frame)
        }
        let box = corners.isComplete ? PixelBox(covering: corners.bounds, limit: reach) : PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
        var shape = RoundedRect(rect: b, radius: s.cornerRadius, mask: s.maskedCorners)
        if s.allowsEdgeAntialiasing { shape.hardEdges = UInt8(~s.edgeAntialiasingMask & 15) }
        let clipSelf = ClipShape(shape: shape, inverse: inverse, pixel: pixel, box: box)

        // Offscreen when the layer must be composited as one image: group opacity, a shadow cast
        // by everything it draws, or a mask multiplying it.
        let group = opacity < 1 && s.allowsGroupOpacity && !snap.sublayers.isEmpty
        // An offscreen covers only what the layer can draw: its own box (and overflowing contents)
        // when it has no sublayers, else everything its parent allows.
        var groupBox = reach
        if snap.sublayers.isEmpty {
            groupBox = box
            if let image = s.contentsImage {
                groupBox = groupBox.union(withUnsafePointer(to: s) { contentsBox(image, $0, world: world, limit: reach) })
            }
            if let content = s.content { groupBox = groupBox.union(contentBox(content, bounds: s.bounds, world: world, limit: reach)) }
        }
        // shouldRasterize: the layer and its sublayers come from a bitmap in layer space, drawn
        // through the layer's place on screen.
        var raster: (pixels: OwnedTarget, extent: CGRect, scale: CGFloat)? = nil
        if s.shouldRasterize && !ctx.inTransition && Compositor.rasterizable(snap) {
            raster = rasterBitmap(snap, s, own: ctx, local: local, flipped: flipped)
            if let r = raster { groupBox = Compositor.box(of: r.extent, world: world, limit: reach) }
        }
        // A plain shape mask is rasterised first: what the layer paints beyond it is thrown away,
        // so its own content's kernels may skip those pixels. (Not its sublayers': a shadow or a
        // transition below moves pixels from beyond the mask's rows into them.)
        let plainMask = snap.mask.flatMap { shapeMask($0, parentTime: local, world: world, box: groupBox) }
        // A gradient cut out by such a mask needs no offscreen and no plane
        // (Compositor+MaskedGradient.swift).
        if let plainMask, !group, !hasShadow, raster == nil, ctx.clips.isEmpty,
           paintMaskedGradient(snap, s, ctx, mask: plainMask, world: world, inverse: inverse, pixel: pixel, groupBox: groupBox,
                               shape: shape, clipSelf: clipSelf, opacity: opacity) { return }
        let plane = plainMask.map { maskPlane($0, box: groupBox) }
        let isolated = (group || hasShadow || snap.mask != nil || raster != nil) && OwnedTarget.fitsBudget(groupBox, offscreens)
        guard spend(isolated ? groupBox : box) else { culledLayers += 1; return }
        // The layer's opaque background, painted first, leaves its inside the same bytes whatever
        // the offscreen held there: only the rest is cleared (not under a mask plane, whose rows
        // the body may skip, nor for a rasterized bitmap, drawn instead of the body).
        let keeping = isolated && plane == nil && raster == nil
            ? withUnsafePointer(to: s) { Compositor.backgroundCover($0, world: world, limit: box) } : .none
        let offscreen = isolated ? OwnedTarget(box: groupBox, budget: offscreens, keeping: keeping) : nil
        var own = ctx
        if let offscreen {
            own.target = offscreen.target
            own.alpha = 1
            own.clips = []
            own.limit = groupBox
        } else {
            own.alpha = ctx.alpha * opacity
        }
        if let r = raster, let offscreen {
            let p = r.pixels.target
            Raster.image(offscreen.target, box: groupBox, inverse: inverse, pixel: pixel, dest: r.extent,
                         source: CGRect(x: 0, y: 0, width: r.extent.width * r.scale, height: r.extent.height * r.scale),
                         flipped: false, level: ImageLevel(pixels: UnsafePointer(p.pixels), width: p.width, height: p.height, stride: p.stride),
                         nearest: false, alpha: 1, antialias: true, clips: [])
        } else {
            paintOwnContent(snap, s, own, local: local, world: world, inverse: inverse, pixel: pixel, box: box,
                            shape: shape, clipSelf: clipSelf, flipped: flipped, depth: ctx.depth, full4: full4, rows: plane?.rows)
        }
        guard let offscreen else { return }
        // Only the mask's rows are composited when nothing else reads the offscreen.
        let rowsOnly = !hasShadow && ctx.clips.isEmpty
        if let plane {
            plane.multiply(offscreen.target, rowsOnly: rowsOnly)
        } else if let mask = snap.mask {
            // The mask is drawn in this layer's space (not through its sublayerTransform); its alpha multiplies.
            let m = OwnedTarget(box: groupBox, budget: offscreens)
            var maskCtx = ctx
            maskCtx.target = m.target
            maskCtx.parentTime = local
            maskCtx.parentWorld = world
            maskCtx.parent3D = nil
            maskCtx.parentSublayer = nil
            maskCtx.flipped = flipped
            maskCtx.clips = []
            maskCtx.alpha = 1
            maskCtx.depth = ctx.depth + 1
            maskCtx.limit = groupBox
            paint(mask, maskCtx)
            Raster.multiplyAlpha(offscreen.target, by: m.target, box: groupBox)
        }
        if hasShadow {
            var source = offscreen.target
            var pathPlane: OwnedTarget? = nil
            if let path = s.shadowPath {
                // Over the target's own box (frame coordinates): inside an offscreen that box
                // does not start at the frame's origin.
                let plane = OwnedTarget(box: ctx.target.box, budget: offscreens)
                Raster.fillPath(plane.target, path: path, world: world, box: ctx.limit)
                pathPlane = plane
                source = plane.target
            }
            let exactCover = ctx.alpha * opacity == 1 && ctx.clips.isEmpty
            let cast = paintShadow(s, ctx, from: source, pixel: pixel, opacity: opacity,
                                   opaqueAbove: exactCover ? offscreen.target : nil,
                                   keep: Compositor.keepsShadow(s, ctx) ? snap.id : nil)
            withExtendedLifetime(pathPlane) {}
            guard cast else { return }
        }
        if let plane, rowsOnly {
            plane.composite(offscreen.target, onto: ctx.target, limit: groupBox.intersection(ctx.limit), alpha: Float(ctx.alpha * opacity))
        } else {
            Raster.composite(offscreen.target, onto: ctx.target, box: groupBox.intersection(ctx.limit), alpha: Float(ctx.alpha * opacity),
                             clips: ctx.clips, hidden: ctx.hidden)
        }
    }

    /// Background, contents, sublayers and border of one layer, into `own.target`.
    func paintOwnContent(_ snap: LayerSnapshot, _ s: LayerState, _ own: Context, local: Double, world: Homography,
                                 inverse: Homography, pixel: CGFloat, box: PixelBox, shape: RoundedRect,
                                 clipSelf: ClipShape, flipped: Bool, depth: Int, full4: Transform3D? = nil,
                                 rows: MaskPlane.Rows? = nil) {
        withUnsafePointer(to: s) {
            paintBody(snap, $0, own, local: local, world: world, inverse: inverse, pixel: pixel, box: box, shape: shape,
                      clipSelf: clipSelf, flipped: flipped, full4: full4, rows: rows)
        }
        if !snap.sublayers.isEmpty {
            paintSublayers(snap, s, own, local: local, world: world, box: box, clipSelf: clipSelf, flipped: flipped,
                           depth: depth, full4: full4)
        }
        withUnsafePointer(to: s) { paintBorder($0, own, inverse: inverse, pixel: pixel, box: box, shape: shape) }
    }

    /// What a layer draws below its sublayers: background, contents and its class's content.
    /// The state comes by address: passed as a value, the display list's bands copied it for
    /// each item (retaining every reference in it, shared colours included, from every worker).
    func paintBody(_ snap: LayerSnapshot, _ state: UnsafePointer<LayerState>, _ own: Context, local: Double, world: Homography,
                   inverse: Homography, pixel: CGFloat, box: PixelBox, shape: RoundedRect, clipSelf: ClipShape,
                   flipped: Bool, full4: Transform3D? = nil, rows: MaskPlane.Rows? = nil) {
        let antialias = state.pointee.allowsEdgeAntialiasing
        paintedLayers += 1
        if let bg = state.pointee.backgroundColor, bg.alpha > 0 {
            Raster.fill(own.target, box: box, inverse: inverse, pixel: pixel, outer: shape, inner: nil,
                        color: PremultipliedColor(bg, alpha: own.alpha), antialias: antialias, clips: own.clips)
        }
        if let image = state.pointee.contents.image {
            paintContents(image, state, world: world, limit: own.limit, inverse: inverse, pixel: pixel, flipped: flipped,
                          clips: state.pointee.masksToBounds ? own.clips + [clipSelf] : own.clips, alpha: own.alpha,
                          antialias: antialias, target: own.target)
        }
        if let content = state.pointee.content {
            paintContent(content, snap, state, target: own.target, limit: own.limit, world: world, inverse: inverse, pixel: pixel,
                         shape: shape, flipped: flipped, clips: state.pointee.masksToBounds ? own.clips + [clipSelf] : own.clips,
                         alpha: own.alpha, antialias: antialias, local: local,
                         space3D: full4.map { ($0, own.parentWorld) }, rows: rows)
        }
    }

    /// A layer's sublayers, in its coordinate system (sublayerTransform, masksToBounds, replicator copies).
    private func paintSublayers(_ snap: LayerSnapshot, _ s: LayerState, _ own: Context, local: Double, world: Homography,
                                box: PixelBox, clipSelf: ClipShape, flipped: Bool, depth: Int, full4: Transform3D?) {
        var child = own
        child.parentTime = local
        child.parentWorld = world
        child.parent3D = nil
        child.flipped = flipped
        child.depth = depth + 1
        child.parentSublayer = Compositor.placedSublayerTransform(s)
        if s.masksToBounds {
            child.clips.append(clipSelf)
            child.limit = child.limit.intersection(box)
        }
        guard !child.limit.isEmpty else { return }
        if case .replicator(let r)? = s.content, r.preservesDepth, let full4 {
            // Instances keep their depth: chained in 3D into this layer's parent plane, sorted.
            var deep = child
            deep.parentWorld = own.parentWorld
            deep.parent3D = full4
            paintInstancesInDepth(snap.sublayers, r, bounds: s.bounds.standardized, deep)
        } else if case .replicator(let r)? = s.content {
            paintInstances(snap.sublayers, r, bounds: s.bounds.standardized, child)
        } else {
            for sub in Compositor.paintOrder(snap.sublayers) { paint(sub, child) }
        }
    }

    /// What a layer draws above its sublayers: its border, inside its bounds.
    func paintBorder(_ state: UnsafePointer<LayerState>, _ own: Context, inverse: Homography, pixel: CGFloat, box: PixelBox,
                     shape: RoundedRect) {
        let width = state.pointee.borderWidth
        guard width > 0, let bc = state.pointee.borderColor, bc.alpha > 0 else { return }
        let b = state.pointee.bounds.standardized
        let innerRect = b.insetBy(dx: width, dy: width)
        let inner = innerRect.isNull || innerRect.width <= 0 || innerRect.height <= 0 ? nil : shape.inset(by: width)
        Raster.fill(own.target, box: box, inverse: inverse, pixel: pixel, outer: shape, inner: inner,
                    color: PremultipliedColor(bc, alpha: own.alpha), antialias: state.pointee.allowsEdgeAntialiasing,
                    clips: own.clips)
    }


    // MARK: Geometry helpers

    /// The layer → superlayer map of CALayer's geometry, with the parent's sublayerTransform.
    static func localTransform(_ s: LayerState, parentSublayer: Transform3D?) -> Transform3D {
        withUnsafePointer(to: s) { localTransform($0, parentSublayer: parentSublayer) }
    }

    /// `localTransform(_:parentSublayer:)` of a state lent by address (a state passed on as
    /// `pointer.pointee` is copied whole first, retaining every reference in it).
    static func localTransform(_ s: UnsafePointer<LayerState>, parentSublayer: Transform3D?) -> Transform3D {
        let b = s.pointee.bounds, anchor = s.pointee.anchorPoint, position = s.pointee.position
        let a = CGPoint(x: b.minX + anchor.x * b.width, y: b.minY + anchor.y * b.height)
        // Most layers: no transform of their own, no flip, no sublayerTransform above them — two
        // translations, whose product is the translation by their sum (the same sums the 4×4
        // product makes; every other entry of it is 0 or 1 exactly).
        if parentSublayer == nil, !s.pointee.isGeometryFlipped, s.pointee.transform.isIdentity {
            return .translation(position.x - a.x, position.y - a.y, s.pointee.zPosition - s.pointee.anchorPointZ)
        }
        var m = Transform3D.translation(-a.x, -a.y, -s.pointee.anchorPointZ)
        if s.pointee.isGeometryFlipped {
            m = Transform3D.scale(1, -1, 1).concatenating(.translation(0, 2 * b.midY, 0)).concatenating(m)
        }
        if !s.pointee.transform.isIdentity { m = m.concatenating(s.pointee.transform) }
        m = m.concatenating(.translation(position.x, position.y, s.pointee.zPosition))
        if let p = parentSublayer { m = m.concatenating(p) }
        return m
    }

    /// A layer's sublayerTransform applied about its anchor point, as its sublayers see it (nil: identity).
    static func placedSublayerTransform(_ s: LayerState) -> Transform3D? {
        withUnsafePointer(to: s) { placedSublayerTransform($0) }
    }

    /// `placedSublayerTransform(_:)` of a state lent by address.
    static func placedSublayerTransform(_ s: UnsafePointer<LayerState>) -> Transform3D? {
        guard !s.pointee.sublayerTransform.isIdentity else { return nil }
        let b = s.pointee.bounds.standardized, anchor = s.pointee.anchorPoint
        let a = CGPoint(x: b.minX + anchor.x * b.width, y: b.minY + anchor.y * b.height)
        return Transform3D.translation(-a.x, -a.y, 0).concatenating(s.pointee.sublayerTransform).concatenating(.translation(a.x, a.y, 0))
    }

    /// How far a layer's shadow reaches beyond what it draws, in pixels along x and y: the blur's
    /// reach plus the offset taken both ways (the map may turn or flip it).
    static func shadowMargin(_ s: LayerState, pixel: CGFloat) -> (x: Int, y: Int) {
        let r = ShadowBlur.reach(sigma: min(max(s.shadowRadius, 0) / pixel * 2 / 3, ShadowBlur.maxSigma))
        let dx = CGClampToInt(Double((abs(s.shadowOffset.width) / pixel).rounded(.up)), in: 0...(1 << 20))
        let dy = CGClampToInt(Double((abs(s.shadowOffset.height) / pixel).rounded(.up)), in: 0...(1 << 20))
        return (r + dx, r + dy)
    }

    /// Sublayers in painting order: ascending zPosition, stable.
    static func paintOrder(_ subs: [LayerSnapshot]) -> [LayerSnapshot] {
        guard subs.contains(where: { $0.state.zPosition != 0 }) else { return subs }
        return subs.enumerated().sorted {
            $0.element.state.zPosition != $1.element.state.zPosition
                ? $0.element.state.zPosition < $1.element.state.zPosition : $0.offset < $1.offset
        }.map(\.element)
    }

}
