import CoreGraphics
import Foundation
import LayerRender

/// A layer that emits particles: Core Animation's CAEmitterLayer.
///
/// Particles are computed in closed form from their birth time and a seeded hash (see
/// `Compositor+Emitter.swift`), so frames depend only on their time: the same `seed` and frame
/// times give the same pictures. Emission starts when the layer is first committed in a hosted
/// tree. Particles move in depth (which orders them in backToFront mode); with `preservesDepth`
/// they are placed at that depth through the layer's 3D chain, else drawn in its plane; at most 50,000 particles
/// are drawn per emitter (the oldest beyond are dropped, counted); birth rates above 100,000 per
/// second per cell are clamped and cells nest 8 levels deep at most. `birthRate`, `lifetime`,
/// `velocity`, `scale`, `spin`, `emitterPosition`, `emitterSize` and cell values through
/// `emitterCells.<name>.<key>` animate.
open class CAEmitterLayer: CALayer {
    /// The committed emitter values, in the engine's form (cells are read at each commit).
    var emitter = EmitterContent()
    var cellObjects: [CAEmitterCell]?
    private var emissionStarted = false

    /// Creates an emitter with Apple's defaults (no cells, a point at the origin).
    public override init() { super.init() }

    /// Creates a shadow copy of `layer`, emitter properties included.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAEmitterLayer {
            emitter = other.emitter; cellObjects = other.cellObjects; emissionStarted = other.emissionStarted
        }
    }

    /// Apple's archiving initialiser (archives are not supported on Linux: a default layer).
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// The kinds of particles emitted.
    open var emitterCells: [CAEmitterCell]? {
        get { self[EmitterProperties.emitterCells] }
        set { self[EmitterProperties.emitterCells] = newValue }
    }

    /// Multiplies every cell's birth rate (default 1). Animatable.
    open var birthRate: Float {
        get { self[EmitterProperties.birthRate] }
        set { self[EmitterProperties.birthRate] = newValue }
    }
    /// Multiplies every cell's lifetime (default 1). Animatable.
    open var lifetime: Float {
        get { self[EmitterProperties.lifetime] }
        set { self[EmitterProperties.lifetime] = newValue }
    }
    /// Multiplies every cell's velocity (default 1). Animatable.
    open var velocity: Float {
        get { self[EmitterProperties.velocity] }
        set { self[EmitterProperties.velocity] = newValue }
    }
    /// Multiplies every cell's scale (default 1). Animatable.
    open var scale: Float {
        get { self[EmitterProperties.scale] }
        set { self[EmitterProperties.scale] = newValue }
    }
    /// Multiplies every cell's spin (default 1). Animatable.
    open var spin: Float {
        get { self[EmitterProperties.spin] }
        set { self[EmitterProperties.spin] = newValue }
    }
    /// The centre of the emitter shape, in layer coordinates. Animatable.
    open var emitterPosition: CGPoint {
        get { self[EmitterProperties.emitterPosition] }
        set { self[EmitterProperties.emitterPosition] = newValue }
    }
    /// The emitter's z position: where particles start in depth. Animatable.
    open var emitterZPosition: CGFloat {
        get { self[EmitterProperties.emitterZPosition] }
        set { self[EmitterProperties.emitterZPosition] = newValue }
    }
    /// The size of the emitter shape (a circle's diameter is its width). Animatable.
    open var emitterSize: CGSize {
        get { self[EmitterProperties.emitterSize] }
        set { self[EmitterProperties.emitterSize] = newValue }
    }
    /// The depth of cuboid and sphere shapes: the spread of starting depths. Animatable.
    open var emitterDepth: CGFloat {
        get { self[EmitterProperties.emitterDepth] }
        set { self[EmitterProperties.emitterDepth] = newValue }
    }
    /// The emitter's shape (default point).
    open var emitterShape: CAEmitterLayerEmitterShape {
        get { self[EmitterProperties.emitterShape] }
        set { self[EmitterProperties.emitterShape] = newValue }
    }
    /// Where on the shape particles start (default volume).
    open var emitterMode: CAEmitterLayerEmitterMode {
        get { self[EmitterProperties.emitterMode] }
        set { self[EmitterProperties.emitterMode] = newValue }
    }
    /// Order and blending of particles (default unordered; additive adds colours).
    open var renderMode: CAEmitterLayerRenderMode {
        get { self[EmitterProperties.renderMode] }
        set { self[EmitterProperties.renderMode] = newValue }
    }
    /// Whether particles keep their depth (placed through the layer's 3D chain) instead of being
    /// drawn in its plane. Default false.
    open var preservesDepth: Bool {
        get { self[EmitterProperties.preservesDepth] }
        set { self[EmitterProperties.preservesDepth] = newValue }
    }
    /// The seed of every random choice (default 0).
    open var seed: UInt32 {
        get { self[EmitterProperties.seed] }
        set { self[EmitterProperties.seed] = newValue }
    }

    // MARK: Engine hooks

    override class var keyTable: [String: LayerKey] { emitterKeys }
    override class var frameworkDefaults: [String: Any] { emitterDefaults }

    override func makeState() -> LayerState {
        var s = baseState()
        if !emissionStarted && liveRoot != nil {
            emissionStarted = true
            emitter.startTime = convertTime(MediaClock.now(), from: nil)
        }
        emitter.cells = (cellObjects ?? []).map { $0.model() }
        s.content = .emitter(emitter)
        return s
    }

    override func applyPresentationState(_ state: LayerState) {
        applyBaseState(state)
        if case .emitter(let c)? = state.content { emitter = c }
    }

    override func presentationInstance() -> CALayer { CAEmitterLayer(layer: self) }

    /// `emitterCells.<name>[.<name>…].<key>`: sets the value on that cell (then commits it).
    func setCellValue(_ value: Any?, path: ArraySlice<String>) -> Bool {
        guard path.count >= 2, let first = path.first, let top = cellObjects?.first(where: { $0.name == first }),
              let cell = top.cell(at: path.dropFirst().dropLast()), let key = path.last else { return false }
        cell.setValue(value, forKey: key)
        didChange("emitterCells")
        return true
    }

    nonisolated(unsafe) static let emitterDefaults: [String: Any] = builtInDefaults.merging([   // immutable after init; `Any` values keep it from being Sendable
        "birthRate": Float(1), "lifetime": Float(1), "velocity": Float(1), "scale": Float(1), "spin": Float(1),
        "emitterPosition": CGPoint.zero, "emitterZPosition": CGFloat(0), "emitterSize": CGSize.zero, "emitterDepth": CGFloat(0),
        "emitterShape": CAEmitterLayerEmitterShape.point, "emitterMode": CAEmitterLayerEmitterMode.volume,
        "renderMode": CAEmitterLayerRenderMode.unordered, "preservesDepth": false, "seed": UInt32(0),
    ]) { $1 }

    nonisolated(unsafe) static let emitterKeys = LayerKey.table(EmitterProperties.all, over: builtInKeys)   // immutable after init; closures keep it from being Sendable
}
