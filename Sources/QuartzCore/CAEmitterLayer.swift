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
    private var cellObjects: [CAEmitterCell]?
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
        get { locked { cellObjects } }
        set { locked { cellObjects = newValue; didChange("emitterCells") } }
    }

    /// Multiplies every cell's birth rate (default 1). Animatable.
    open var birthRate: Float {
        get { locked { Float(emitter.birthRate) } }
        set { setChecked(newValue.isFinite, "birthRate") { emitter.birthRate = Double(newValue) } }
    }
    /// Multiplies every cell's lifetime (default 1). Animatable.
    open var lifetime: Float {
        get { locked { Float(emitter.lifetime) } }
        set { setChecked(newValue.isFinite, "lifetime") { emitter.lifetime = Double(newValue) } }
    }
    /// Multiplies every cell's velocity (default 1). Animatable.
    open var velocity: Float {
        get { locked { Float(emitter.velocity) } }
        set { setChecked(newValue.isFinite, "velocity") { emitter.velocity = Double(newValue) } }
    }
    /// Multiplies every cell's scale (default 1). Animatable.
    open var scale: Float {
        get { locked { Float(emitter.scale) } }
        set { setChecked(newValue.isFinite, "scale") { emitter.scale = Double(newValue) } }
    }
    /// Multiplies every cell's spin (default 1). Animatable.
    open var spin: Float {
        get { locked { Float(emitter.spin) } }
        set { setChecked(newValue.isFinite, "spin") { emitter.spin = Double(newValue) } }
    }
    /// The centre of the emitter shape, in layer coordinates. Animatable.
    open var emitterPosition: CGPoint {
        get { locked { emitter.position } }
        set { setChecked(newValue.isFinite, "emitterPosition") { emitter.position = newValue } }
    }
    /// The emitter's z position: where particles start in depth.
    open var emitterZPosition: CGFloat {
        get { locked { emitter.zPosition } }
        set { setChecked(newValue.isFinite, "emitterZPosition") { emitter.zPosition = newValue } }
    }
    /// The size of the emitter shape (a circle's diameter is its width). Animatable.
    open var emitterSize: CGSize {
        get { locked { emitter.size } }
        set { setChecked(newValue.width.isFinite && newValue.height.isFinite, "emitterSize") { emitter.size = newValue } }
    }
    /// The depth of cuboid and sphere shapes: the spread of starting depths.
    open var emitterDepth: CGFloat {
        get { locked { emitter.depth } }
        set { setChecked(newValue.isFinite, "emitterDepth") { emitter.depth = newValue } }
    }
    /// The emitter's shape (default point).
    open var emitterShape: CAEmitterLayerEmitterShape {
        get { locked { CAEmitterLayerEmitterShape(rawValue: emitter.shape) } }
        set { locked { emitter.shape = newValue.rawValue; didChange("emitterShape") } }
    }
    /// Where on the shape particles start (default volume).
    open var emitterMode: CAEmitterLayerEmitterMode {
        get { locked { CAEmitterLayerEmitterMode(rawValue: emitter.mode) } }
        set { locked { emitter.mode = newValue.rawValue; didChange("emitterMode") } }
    }
    /// Order and blending of particles (default unordered; additive adds colours).
    open var renderMode: CAEmitterLayerRenderMode {
        get { locked { CAEmitterLayerRenderMode(rawValue: emitter.renderMode) } }
        set { locked { emitter.renderMode = newValue.rawValue; didChange("renderMode") } }
    }
    /// Whether particles keep their depth (placed through the layer's 3D chain) instead of being
    /// drawn in its plane. Default false.
    open var preservesDepth: Bool {
        get { locked { emitter.preservesDepth } }
        set { locked { emitter.preservesDepth = newValue; didChange("preservesDepth") } }
    }
    /// The seed of every random choice (default 0).
    open var seed: UInt32 {
        get { locked { emitter.seed } }
        set { locked { emitter.seed = newValue; didChange("seed") } }
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

    nonisolated(unsafe) static let emitterKeys: [String: LayerKey] = builtInKeys.merging([   // immutable after init; `Any` values keep it from being Sendable
        "emitterCells": .typed(\CAEmitterLayer.emitterCells, Coerce.object),
        "birthRate": .typed(\CAEmitterLayer.birthRate, Coerce.float),
        "lifetime": .typed(\CAEmitterLayer.lifetime, Coerce.float),
        "velocity": .typed(\CAEmitterLayer.velocity, Coerce.float),
        "scale": .typed(\CAEmitterLayer.scale, Coerce.float),
        "spin": .typed(\CAEmitterLayer.spin, Coerce.float),
        "emitterPosition": .typed(\CAEmitterLayer.emitterPosition, Coerce.point),
        "emitterZPosition": .typed(\CAEmitterLayer.emitterZPosition, Coerce.cgFloat),
        "emitterSize": .typed(\CAEmitterLayer.emitterSize, Coerce.size),
        "emitterDepth": .typed(\CAEmitterLayer.emitterDepth, Coerce.cgFloat),
        "emitterShape": .typed(\CAEmitterLayer.emitterShape, Coerce.raw),
        "emitterMode": .typed(\CAEmitterLayer.emitterMode, Coerce.raw),
        "renderMode": .typed(\CAEmitterLayer.renderMode, Coerce.raw),
        "preservesDepth": .typed(\CAEmitterLayer.preservesDepth, Coerce.bool),
        "seed": .typed(\CAEmitterLayer.seed, { Coerce.double($0).map { UInt32(clamping: CGClampToInt($0, in: 0...Int(UInt32.max))) } }),
    ]) { $1 }
}
