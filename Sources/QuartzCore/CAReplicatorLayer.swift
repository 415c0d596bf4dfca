import CoreGraphics
import Foundation
import LayerRender

/// A layer that draws its sublayers several times, each copy transformed, delayed and tinted
/// from the previous one: Core Animation's CAReplicatorLayer.
///
/// Copies are not layers: they are drawn by the compositor from the same sublayers. Instance i
/// is placed by `instanceTransform` applied i times about the replicator's centre, runs its
/// animations i × `instanceDelay` later, and has its colours multiplied by `instanceColor` plus
/// i times the offsets (each clamped to [0, 1]). Hit testing sees the sublayers only, not their
/// copies. `instanceCount` is clamped to [0, 10,000] when drawn (larger counts are counted as
/// `.invalidParameter`). `instanceTransform`, `instanceColor`, `instanceDelay` and the offsets animate.
open class CAReplicatorLayer: CALayer {
    /// The committed replicator values, in the engine's form.
    var replicator = ReplicatorContent()
    var colorValue: CGColor? = CGColor.white

    /// Creates a replicator with Apple's defaults (one instance, identity transform, white).
    public override init() { super.init() }

    /// Creates a shadow copy of `layer`, replicator properties included.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAReplicatorLayer { replicator = other.replicator; colorValue = other.colorValue }
    }

    /// Apple's archiving initialiser (archives are not supported on Linux: a default layer).
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// How many copies of the sublayers are drawn (default 1; 0 or less draws none).
    open var instanceCount: Int {
        get { self[ReplicatorProperties.instanceCount] }
        set { self[ReplicatorProperties.instanceCount] = newValue }
    }

    /// Seconds by which each copy's animations lag the previous copy's (default 0). Animatable.
    open var instanceDelay: CFTimeInterval {
        get { self[ReplicatorProperties.instanceDelay] }
        set { self[ReplicatorProperties.instanceDelay] = newValue }
    }

    /// The transform from one copy to the next, about the replicator's centre (default identity). Animatable.
    open var instanceTransform: CATransform3D {
        get { self[ReplicatorProperties.instanceTransform] }
        set { self[ReplicatorProperties.instanceTransform] = newValue }
    }

    /// Whether copies keep their 3D places (drawn back to front, as under a CATransformLayer)
    /// instead of being flattened in order into this layer. Default false.
    open var preservesDepth: Bool {
        get { self[ReplicatorProperties.preservesDepth] }
        set { self[ReplicatorProperties.preservesDepth] = newValue }
    }

    /// The colour multiplying the first copy (default opaque white; nil means white). Animatable.
    open var instanceColor: CGColor? {
        get { self[ReplicatorProperties.instanceColor] }
        set { self[ReplicatorProperties.instanceColor] = newValue }
    }

    /// Added to the red factor for each following copy (default 0). Animatable.
    open var instanceRedOffset: Float {
        get { self[ReplicatorProperties.instanceRedOffset] }
        set { self[ReplicatorProperties.instanceRedOffset] = newValue }
    }

    /// Added to the green factor for each following copy (default 0). Animatable.
    open var instanceGreenOffset: Float {
        get { self[ReplicatorProperties.instanceGreenOffset] }
        set { self[ReplicatorProperties.instanceGreenOffset] = newValue }
    }

    /// Added to the blue factor for each following copy (default 0). Animatable.
    open var instanceBlueOffset: Float {
        get { self[ReplicatorProperties.instanceBlueOffset] }
        set { self[ReplicatorProperties.instanceBlueOffset] = newValue }
    }

    /// Added to the alpha factor for each following copy (default 0). Animatable.
    open var instanceAlphaOffset: Float {
        get { self[ReplicatorProperties.instanceAlphaOffset] }
        set { self[ReplicatorProperties.instanceAlphaOffset] = newValue }
    }

    // MARK: Engine hooks

    override class var keyTable: [String: LayerKey] { replicatorKeys }
    override class var frameworkDefaults: [String: Any] { replicatorDefaults }

    override func makeState() -> LayerState {
        var s = baseState()
        s.content = .replicator(replicator)
        return s
    }

    override func applyPresentationState(_ state: LayerState) {
        applyBaseState(state)
        guard case .replicator(let c)? = state.content else { return }
        replicator = c
        colorValue = CGColor(red: CGFloat(c.instanceColor.r), green: CGFloat(c.instanceColor.g),
                             blue: CGFloat(c.instanceColor.b), alpha: CGFloat(c.instanceColor.a))
    }

    override func presentationInstance() -> CALayer { CAReplicatorLayer(layer: self) }


    nonisolated(unsafe) static let replicatorDefaults: [String: Any] = builtInDefaults.merging([   // immutable after init; `Any` values keep it from being Sendable
        "instanceCount": 1, "instanceDelay": CFTimeInterval(0), "instanceTransform": CATransform3DIdentity,
        "preservesDepth": false, "instanceColor": CGColor.white, "instanceRedOffset": Float(0),
        "instanceGreenOffset": Float(0), "instanceBlueOffset": Float(0), "instanceAlphaOffset": Float(0),
    ]) { $1 }

    nonisolated(unsafe) static let replicatorKeys = LayerKey.table(ReplicatorProperties.all, over: builtInKeys)   // immutable after init; closures keep it from being Sendable
}
