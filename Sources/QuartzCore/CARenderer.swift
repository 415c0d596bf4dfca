import CoreGraphics
import Foundation
import LayerRender

/// Linux stand-in for CoreVideo's timestamp (only needed for `beginFrame`'s signature; pass nil).
public struct CVTimeStamp: Sendable {
    /// CoreVideo field (unused on Linux).
    public var version: UInt32 = 0
    /// CoreVideo field (unused on Linux).
    public var videoTimeScale: Int32 = 0
    /// CoreVideo field (unused on Linux).
    public var videoTime: Int64 = 0
    /// CoreVideo field (unused on Linux).
    public var hostTime: UInt64 = 0
    /// CoreVideo field (unused on Linux).
    public var rateScalar: Double = 0
    /// CoreVideo field (unused on Linux).
    public var videoRefreshPeriod: Int64 = 0
    /// CoreVideo field (unused on Linux).
    public var flags: UInt64 = 0
    /// CoreVideo field (unused on Linux).
    public var reserved: UInt64 = 0
    /// A zeroed timestamp.
    public init() {}
}

/// Renders a layer tree offscreen, frame by frame, at times the caller chooses.
///
/// Setting `layer` hosts the tree (it becomes live: implicit animations run and presentation
/// layers exist). Each frame: `beginFrame(atTime:timeStamp:)` commits pending changes and delivers
/// due animation callbacks at that time, `render()` evaluates the tree at that time,
/// `endFrame()` finishes. Linux: there is no Metal or OpenGL destination; output is a bitmap of
/// `bounds`' size (pixels arrive with the compositor).
open class CARenderer: NSObject, LayerHost {
    /// The root of the rendered tree; assigning hosts it (and unhosts the previous one).
    open var layer: CALayer? {
        didSet {
            LayerTreeLock.run {
                if oldValue !== layer { oldValue?.host = nil }
                guard let root = layer else { publish(nil); return }
                root.detachFromParent()
                root.host = self
                root.markSnapshotDirty()
                TransactionState.current.touch(root)
            }
        }
    }

    /// The area to render, in the root layer's superlayer space (points); also the output size.
    open var bounds: CGRect = .zero

    /// Device pixels per point of the output (a HiDPI window renders at 2): the bitmap is
    /// `bounds.size × scale` pixels. Linux extension; non-finite or non-positive values are
    /// refused (counted), and it is clamped to 1…8.
    package var scale: CGFloat = 1 {
        didSet {
            guard scale.isFinite, scale > 0 else { CGDiagnostics.record(.nonFiniteGeometry); scale = oldValue; return }
            if scale > 8 || scale < 1 { scale = min(max(scale, 1), 8) }
        }
    }

    /// The last committed snapshot of the hosted tree (a commit on any thread replaces it).
    var committedRoot: LayerSnapshot? {
        commitLock.lock(); defer { commitLock.unlock() }
        return _committedRoot
    }
    private var _committedRoot: LayerSnapshot?
    private let commitLock = NSLock()
    /// A commit arrived that no `render()` has drawn yet.
    private var unrendered = false
    /// Called after every commit reaches this renderer, on the committing thread, under the
    /// renderer's lock (hosts use it to wake their loop: a commit made while nothing animates
    /// must still reach the screen); it must not block. Setting it to nil waits for a call in
    /// progress, so a host may free what it uses afterwards.
    package var onCommit: (@Sendable () -> Void)? {
        get { commitLock.lock(); defer { commitLock.unlock() }; return onCommitValue }
        set { commitLock.lock(); onCommitValue = newValue; commitLock.unlock() }
    }
    private var onCommitValue: (@Sendable () -> Void)?
    /// The time of the frame in progress (seconds), nil between frames.
    private(set) var frameTime: Double?
    let compositor = Compositor()
    private var output: OwnedTarget?
    /// Tiled layers this renderer asked for tiles (their deliveries are committed at the next frame).
    private var tiledLayers: [WeakTiledLayer] = []
    /// Areas given to `addUpdate(_:)` since the last render (bounds' space, points).
    private var forcedUpdate: CGRect?

    /// Creates a renderer with no layer.
    public override init() { super.init() }

    deinit { layer?.host = nil }

    func publish(_ root: LayerSnapshot?) {
        commitLock.lock()
        _committedRoot = root
        unrendered = true
        onCommitValue?()
        commitLock.unlock()
    }

    /// True when a commit arrived since the last `render()`: the next frame must be drawn even
    /// if nothing animates.
    package var hasUnrenderedCommit: Bool {
        commitLock.lock(); defer { commitLock.unlock() }
        return unrendered
    }

    /// Starts a frame at media time `t` (seconds): commits pending changes and delivers callbacks due by `t`.
    open func beginFrame(atTime t: CFTimeInterval, timeStamp ts: UnsafeMutablePointer<CVTimeStamp>?) {
        let time = t.isFinite ? t : MediaClock.now()
        frameTime = time
        // Tiles drawn in the background since the last frame join this frame's commit.
        LayerTreeLock.run {
            tiledLayers.removeAll { $0.layer == nil }
            for w in tiledLayers {
                guard let l = w.layer, l.store.hasDeliveries else { continue }
                l.markSnapshotDirty()
                if let root = l.liveRoot { TransactionState.current.touch(root) }
            }
            TransactionState.current.flush(at: time)
        }
    }

    /// Marks a rectangle (in `bounds`' space, points) as needing redraw in the next `render()`.
    open func addUpdate(_ r: CGRect) {
        guard r.isFiniteRect else { CGDiagnostics.record(.nonFiniteGeometry); return }
        forcedUpdate = forcedUpdate.map { $0.union(r) } ?? r
    }

    /// The area (in `bounds`' space, points) that the last `render()` repainted: what changed
    /// since the frame before (the whole bounds for the first frame or after a resize).
    open func updateBounds() -> CGRect {
        let d = lastDamage
        guard !d.isEmpty else { return .null }
        return CGRect(x: bounds.minX + CGFloat(d.x0) / scale, y: bounds.minY + CGFloat(d.y0) / scale,
                      width: CGFloat(d.x1 - d.x0) / scale, height: CGFloat(d.y1 - d.y0) / scale)
    }

    /// Paints the tree as it is at the frame time into the renderer's bitmap (`bounds`' size,
    /// `scale` pixels per point, 1 unless a host set it). Only what changed since the last frame is repainted (damage
    /// tracking, `updateBounds()`); the rest of the bitmap is kept.
    open func render() {
        let w = CGClampToInt(Double((bounds.width * scale).rounded(.up)), in: 0...8192)
        let h = CGClampToInt(Double((bounds.height * scale).rounded(.up)), in: 0...8192)
        if output?.target.width != w || output?.target.height != h {
            output = w > 0 && h > 0 ? OwnedTarget(width: w, height: h) : nil
            compositor.invalidateDamage()
        }
        commitLock.lock()
        let committed = _committedRoot
        unrendered = false
        commitLock.unlock()
        guard let output else { lastDamage = .empty; return }
        let frame = PixelBox(x0: 0, y0: 0, x1: w, y1: h)
        guard let root = committed else {
            output.target.clear()
            compositor.invalidateDamage()
            lastDamage = frame
            return
        }
        let base = Compositor.base(scale: scale, origin: bounds.origin)
        let time = frameTime ?? MediaClock.now()
        var damage = compositor.damage(root, at: time, base: base, frame: frame)
        if let r = forcedUpdate {
            let device = CGRect(x: (r.minX - bounds.minX) * scale, y: (r.minY - bounds.minY) * scale,
                                width: r.width * scale, height: r.height * scale)
            damage = damage.union(PixelBox(covering: device, limit: frame))
            forcedUpdate = nil
        }
        lastDamage = damage
        guard !damage.isEmpty else { return }
        compositor.render(root, at: time, into: output.target, base: base, limit: damage, clearing: true)
        requestTiles()
    }

    /// Hands the tiles the compositor found missing to their tiled layers (drawn in the background).
    private func requestTiles() {
        let requests = compositor.takeTileRequests()
        guard !requests.isEmpty, let top = layer else { return }
        var stack: [CALayer] = [top]
        while let l = stack.popLast() {
            if let tiled = l as? CATiledLayer, let keys = requests[l.layerID] {
                tiled.requestTiles(keys)
                if !tiledLayers.contains(where: { $0.layer === tiled }) { tiledLayers.append(WeakTiledLayer(tiled)) }
            }
            stack.append(contentsOf: l.children)
        }
    }

    /// The pixels the last `render()` repainted (empty when nothing changed).
    package private(set) var lastDamage = PixelBox.empty

    /// The renderer's bitmap (what `render()` paints and `makeImage()` returns).
    package var outputTarget: RenderTarget? { output?.target }

    /// How many times a `shouldRasterize` subtree was reused instead of redrawn (for tests and tools).
    package var rasterCacheHits: Int { compositor.rasterHits }

    /// Workers a frame is painted with (1: on the calling thread; default: the active cores), for benchmarks.
    package var paintThreads: Int {
        get { compositor.threads }
        set { compositor.threads = newValue }
    }

    /// How many times a content layer's cached picture was reused instead of drawn again (for tests and tools).
    package var contentCacheHits: Int { compositor.contentHits }

    /// How many times a shadow was blended from a blurred plane kept from an earlier frame (for tests and tools).
    package var shadowCacheHits: Int { compositor.shadowHits }

    /// True when a commit is waiting (changes made since the last frame on this thread).
    package static var hasPendingChanges: Bool {
        let s = TransactionState.current
        return !s.touchedRoots.isEmpty || !s.stack.isEmpty || !s.completionsForNextTurn.isEmpty
    }

    /// The front-most model layer under `point` (root's superlayer space) as it is on screen:
    /// hit-tested on the presentation tree, mapped back to the model.
    package func hitTestPresentation(_ point: CGPoint) -> CALayer? {
        LayerTreeLock.run {
            guard let root = layer else { return nil }
            if let presented = root.makePresentation() { return presented.hitTest(point)?.model() }
            return root.hitTest(point)
        }
    }

    /// The last rendered frame as an image (Linux extension: Apple renders into Metal/OpenGL targets).
    public func makeImage() -> CGImage? {
        guard let t = output?.target else { return nil }
        return CGImage.fromNative(t)
    }

    /// Ends the frame.
    open func endFrame() { frameTime = nil }

    /// When the next frame is needed: now while something animates, the start of the earliest
    /// scheduled animation, or ∞ when nothing will change.
    open func nextFrameTime() -> CFTimeInterval {
        guard let root = committedRoot else { return .infinity }
        let now = frameTime ?? MediaClock.now()
        // Tiles being drawn, waiting for a commit, or fading in need frames.
        if compositor.tilesFading || tiledLayers.contains(where: { $0.layer?.store.isBusy ?? false }) { return now }
        var next = Double.infinity
        // (layer, its parent's local time, product of the speeds above it)
        var stack: [(LayerSnapshot, Double, Double)] = [(root, now, 1)]
        while let (snap, parentTime, parentRate) = stack.popLast() {
            let local = snap.localTime(fromParent: parentTime)
            let rate = parentRate * snap.state.timing.speed
            if Compositor.emits(snap.state) { return now }
            if rate != 0 {
                for (_, model) in snap.animations where !model.isFinished(at: local) {
                    let elapsed = (local - model.timing.beginTime) * model.timing.speed
                    if elapsed >= 0 { return now }
                    // Not begun yet: the absolute delay is the local delay divided by the speeds above.
                    next = min(next, now - elapsed / abs(model.timing.speed * rate))
                }
            }
            if let m = snap.mask { stack.append((m, local, rate)) }
            for s in snap.sublayers { stack.append((s, local, rate)) }
            // A replicator's last instance runs its animations (count − 1) × instanceDelay later.
            if case .replicator(let r)? = snap.state.content, r.drawnCount > 1, r.instanceDelay != 0 {
                for s in snap.sublayers { stack.append((s, local - Double(r.drawnCount - 1) * r.instanceDelay, rate)) }
            }
        }
        return next
    }
}
