import CoreGraphics
import Dispatch
import Foundation
import LayerRender

/// A layer whose content is drawn in tiles, on demand, at the level of detail it is shown at:
/// Core Animation's CATiledLayer.
///
/// The compositor shows the tiles drawn so far and asks for the visible ones that are missing;
/// they are drawn off the main thread by `draw(in:)` (so the delegate's `draw(_:in:)` must be
/// thread-safe, as on Apple systems) into a context whose clip is the tile (`boundingBoxOfClipPath`
/// tells which), then fade in over `fadeDuration()`. A frame never waits for a tile: coarser
/// levels stand in. Level 0 is drawn at 2^levelsOfDetailBias pixels per point, each further level
/// at half the previous one. At most `maxTiles` tiles are kept (the oldest are dropped);
/// tile sizes are clamped to 16…4096 pixels.
open class CATiledLayer: CALayer {
    /// Tiles kept at most; older tiles are dropped first.
    public static let maxTiles = 256

    /// The seconds a new tile takes to fade in (0.25; subclasses may override).
    open class func fadeDuration() -> CFTimeInterval { 0.25 }

    /// The size of a tile in pixels (default 256 × 256; clamped to 16…4096 a side, counted).
    open var tileSize: CGSize {
        get { self[TiledProperties.tileSize] }
        set { self[TiledProperties.tileSize] = newValue }
    }

    /// How many levels of detail exist (default 1; clamped to 1…16 when drawn).
    open var levelsOfDetail: Int {
        get { self[TiledProperties.levelsOfDetail] }
        set { self[TiledProperties.levelsOfDetail] = newValue }
    }

    /// How many of those levels magnify beyond one pixel per point (default 0; clamped to 0…15).
    open var levelsOfDetailBias: Int {
        get { self[TiledProperties.levelsOfDetailBias] }
        set { self[TiledProperties.levelsOfDetailBias] = newValue }
    }

    var tileSizeValue = CGSize(width: 256, height: 256)
    var levelsValue = 1
    var levelsBiasValue = 0

    let store = TileStore()

    /// Creates a tiled layer (256-pixel tiles, one level of detail).
    public override init() { super.init() }

    /// Creates a shadow copy of `layer`.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CATiledLayer {
            tileSizeValue = other.tileSizeValue; levelsValue = other.levelsValue; levelsBiasValue = other.levelsBiasValue
        }
    }

    /// Apple's archiving initialiser (archives are not supported on Linux: a default layer).
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// A tiled layer has no backing store: displaying drops every tile, so visible ones are redrawn.
    override open func display() {
        locked {
            store.invalidate(nil)
            markSnapshotDirty()
        }
    }

    /// Drops the tiles that overlap `r` (layer coordinates); they are redrawn when visible.
    override open func setNeedsDisplay(_ r: CGRect) {
        locked {
            store.invalidate(r)
            markSnapshotDirty()
            if let root = liveRoot { TransactionState.current.touch(root) }
        }
    }

    var content: TiledContent {
        var c = TiledContent()
        c.tileSize = tileSize
        c.levelsOfDetail = levelsOfDetail
        c.levelsOfDetailBias = levelsOfDetailBias
        c.fadeDuration = Self.fadeDuration()
        return c
    }

    override class var keyTable: [String: LayerKey] { tiledKeys }

    override func makeState() -> LayerState {
        var s = baseState()
        s.contents = .none   // tiles are the picture
        var c = content
        (c.tiles, c.version) = store.commit(now: convertTime(MediaClock.now(), from: nil))
        s.content = .tiled(c)
        return s
    }

    override func presentationInstance() -> CALayer { CATiledLayer(layer: self) }

    /// Draws the missing tiles `keys` in the background (those already drawn or being drawn are skipped).
    func requestTiles(_ keys: Set<TileKey>) {
        let c = content, b = bounds
        // Drawing threads reach the layer weakly; Apple's contract makes draw(in:) thread-safe.
        let owner = WeakTiledLayer(self)
        for key in store.claim(keys) {
            let rect = c.rect(key, bounds: b)
            let scale = c.scale(key.level)
            TileStore.queue.async(group: TileStore.group) {
                guard let self = owner.layer else { return }
                let w = CGClampToInt(Double((rect.width * scale).rounded(.up)), in: 0...4096)
                let h = CGClampToInt(Double((rect.height * scale).rounded(.up)), in: 0...4096)
                guard w > 0, h > 0, let ctx = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                                                     space: CGColorSpaceCreateDeviceRGB(),
                                                     bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)
                else { self.store.fail(key); return }
                // Layer coordinates, y down, scaled to the level; clipped to the tile.
                ctx.translateBy(x: 0, y: CGFloat(h))
                ctx.scaleBy(x: scale, y: -scale)
                ctx.translateBy(x: -rect.minX, y: -rect.minY)
                ctx.clip(to: rect)
                self.draw(in: ctx)
                if let image = ctx.makeImage() { self.store.deliver(key, image: image, rect: rect) } else { self.store.fail(key) }
            }
        }
    }

    /// Waits until every tile requested so far has been drawn (for tests and tools: frames never wait).
    package static func waitForTiles() { TileStore.group.wait() }
}

/// A weak reference that drawing threads may hold.
final class WeakTiledLayer: @unchecked Sendable {   // a weak reference only; weak loads are atomic
    weak var layer: CATiledLayer?
    init(_ layer: CATiledLayer) { self.layer = layer }
}

/// The tiles of one tiled layer, shared between the drawing threads and the commit (locked).
final class TileStore: @unchecked Sendable {   // every field is read and written under its lock
    static let queue = DispatchQueue(label: "CATiledLayer.tiles", qos: .userInitiated, attributes: .concurrent)
    static let group = DispatchGroup()

    private let lock = NSLock()
    private var tiles: [TileKey: Tile] = [:]
    private var order: [TileKey] = []
    private var inFlight: Set<TileKey> = []
    private var inbox: [(TileKey, CGImage, CGRect)] = []
    private var version = 0

    /// Whether drawn tiles wait for a commit.
    var hasDeliveries: Bool { lock.lock(); defer { lock.unlock() }; return !inbox.isEmpty }

    /// Whether tiles are being drawn or wait for a commit.
    var isBusy: Bool { lock.lock(); defer { lock.unlock() }; return !inbox.isEmpty || !inFlight.isEmpty }

    /// The keys not drawn and not being drawn, now marked as being drawn.
    func claim(_ keys: Set<TileKey>) -> [TileKey] {
        lock.lock(); defer { lock.unlock() }
        let fresh = keys.filter { tiles[$0] == nil && !inFlight.contains($0) }
        inFlight.formUnion(fresh)
        return Array(fresh)
    }

    func deliver(_ key: TileKey, image: CGImage, rect: CGRect) {
        lock.lock(); inbox.append((key, image, rect)); lock.unlock()
    }

    func fail(_ key: TileKey) {
        lock.lock(); inFlight.remove(key); lock.unlock()
    }

    /// Moves delivered tiles in (arriving at layer time `now`), drops the oldest beyond the bound,
    /// and returns the tiles with their version.
    func commit(now: Double) -> ([TileKey: Tile], Int) {
        lock.lock(); defer { lock.unlock() }
        if !inbox.isEmpty {
            for (key, image, rect) in inbox where inFlight.contains(key) {
                tiles[key] = Tile(image: image, rect: rect, arrival: now)
                order.append(key)
                inFlight.remove(key)
            }
            inbox = []
            while order.count > CATiledLayer.maxTiles { tiles[order.removeFirst()] = nil }
            version += 1
        }
        return (tiles, version)
    }

    /// Drops the tiles overlapping `rect` (all when nil).
    func invalidate(_ rect: CGRect?) {
        lock.lock(); defer { lock.unlock() }
        if let rect {
            tiles = tiles.filter { !$0.value.rect.intersects(rect) }
            order.removeAll { tiles[$0] == nil }
        } else {
            tiles = [:]; order = []
        }
        version += 1
    }
}

// CATiledLayer's properties, each declared once (LayerProperty.swift); any change drops the
// tiles drawn so far.
extension CATiledLayer {
    enum TiledProperties {
        typealias P<V> = LayerProperty<CATiledLayer, V>
        static let tileSize = P<CGSize>("tileSize", \.tileSizeValue, \.tileSize, Coerce.size, adjust: { size in
            let w = size.width.isFinite ? min(max(size.width, 16), 4096) : 256
            let h = size.height.isFinite ? min(max(size.height, 16), 4096) : 256
            if w != size.width || h != size.height { CGDiagnostics.record(.invalidParameter) }
            return CGSize(width: w, height: h)
        }, didStore: { l, _ in l.store.invalidate(nil) })
        static let levelsOfDetail = P<Int>("levelsOfDetail", \.levelsValue, \.levelsOfDetail,
                                           { Coerce.double($0).map { CGClampToInt($0) } }, didStore: { l, _ in l.store.invalidate(nil) })
        static let levelsOfDetailBias = P<Int>("levelsOfDetailBias", \.levelsBiasValue, \.levelsOfDetailBias,
                                               { Coerce.double($0).map { CGClampToInt($0) } }, didStore: { l, _ in l.store.invalidate(nil) })

        nonisolated(unsafe) static let all: [LayerKey] = [   // immutable after init; closures keep it from being Sendable
            tileSize.erased, levelsOfDetail.erased, levelsOfDetailBias.erased,
        ]
    }

    nonisolated(unsafe) static let tiledKeys = LayerKey.table(TiledProperties.all, over: builtInKeys)   // immutable after init; closures keep it from being Sendable
}
