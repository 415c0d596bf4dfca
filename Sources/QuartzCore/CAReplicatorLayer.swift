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
    private var colorValue: CGColor? = CGColor.white

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
        get { locked { replicator.instanceCount } }
        set {
            locked {
                if newValue > ReplicatorContent.maxInstances { CGDiagnostics.record(.invalidParameter) }
                replicator.instanceCount = newValue
                didChange("instanceCount")
            }
        }
    }

    /// Seconds by which each copy's animations lag the previous copy's (default 0). Animatable.
    open var instanceDelay: CFTimeInterval {
        get { locked { replicator.instanceDelay } }
        set { setChecked(newValue.isFinite, "instanceDelay") { replicator.instanceDelay = newValue } }
    }

    /// The transform from one copy to the next, about the replicator's centre (default identity). Animatable.
    open var instanceTransform: CATransform3D {
        get { locked { CATransform3D(replicator.instanceTransform) } }
        set { locked { replicator.instanceTransform = newValue.engine; didChange("instanceTransform") } }
    }

    /// Whether copies keep their 3D places (drawn back to front, as under a CATransformLayer)
    /// instead of being flattened in order into this layer. Default false.
    open var preservesDepth: Bool {
        get { locked { replicator.preservesDepth } }
        set { locked { replicator.preservesDepth = newValue; didChange("preservesDepth") } }
    }

    /// The colour multiplying the first copy (default opaque white; nil means white). Animatable.
    open var instanceColor: CGColor? {
        get { locked { colorValue } }
        set {
            locked {
                colorValue = newValue
                let c = (newValue ?? .white).rgba
                replicator.instanceColor = (Double(c.r), Double(c.g), Double(c.b), Double(c.a))
                didChange("instanceColor")
            }
        }
    }

    /// Added to the red factor for each following copy (default 0). Animatable.
    open var instanceRedOffset: Float {
        get { locked { Float(replicator.offsets.r) } }
        set { locked { guard newValue.isFinite else { rejectNonFinite(); return }; replicator.offsets.r = Double(newValue); didChange("instanceRedOffset") } }
    }

    /// Added to the green factor for each following copy (default 0). Animatable.
    open var instanceGreenOffset: Float {
        get { locked { Float(replicator.offsets.g) } }
        set { locked { guard newValue.isFinite else { rejectNonFinite(); return }; replicator.offsets.g = Double(newValue); didChange("instanceGreenOffset") } }
    }

    /// Added to the blue factor for each following copy (default 0). Animatable.
    open var instanceBlueOffset: Float {
        get { locked { Float(replicator.offsets.b) } }
        set { locked { guard newValue.isFinite else { rejectNonFinite(); return }; replicator.offsets.b = Double(newValue); didChange("instanceBlueOffset") } }
    }

    /// Added to the alpha factor for each following copy (default 0). Animatable.
    open var instanceAlphaOffset: Float {
        get { locked { Float(replicator.offsets.a) } }
        set { locked { guard newValue.isFinite else { rejectNonFinite(); return }; replicator.offsets.a = Double(newValue); didChange("instanceAlphaOffset") } }
    }

    // MARK: Engine hooks

    override class var keyTable: [String: LayerKey] { replicatorKeys }
    override class var frameworkDefaults: [String: Any] { replicatorDefaults }
    override class func isImplicitlyAnimatable(_ key: String) -> Bool {
        animatableReplicatorKeys.contains(key) || super.isImplicitlyAnimatable(key)
    }

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

    static let animatableReplicatorKeys: Set<String> = [
        "instanceDelay", "instanceTransform", "instanceColor", "instanceRedOffset", "instanceGreenOffset",
        "instanceBlueOffset", "instanceAlphaOffset",
    ]

    nonisolated(unsafe) static let replicatorDefaults: [String: Any] = builtInDefaults.merging([   // immutable after init; `Any` values keep it from being Sendable
        "instanceCount": 1, "instanceDelay": CFTimeInterval(0), "instanceTransform": CATransform3DIdentity,
        "preservesDepth": false, "instanceColor": CGColor.white, "instanceRedOffset": Float(0),
        "instanceGreenOffset": Float(0), "instanceBlueOffset": Float(0), "instanceAlphaOffset": Float(0),
    ]) { $1 }

    nonisolated(unsafe) static let replicatorKeys: [String: LayerKey] = builtInKeys.merging([   // immutable after init; `Any` values keep it from being Sendable
        "instanceCount": .typed(\CAReplicatorLayer.instanceCount, { Coerce.double($0).map { CGClampToInt($0, in: Int(Int32.min)...Int(Int32.max)) } }),
        "instanceDelay": .typed(\CAReplicatorLayer.instanceDelay, Coerce.double),
        "instanceTransform": .typed(\CAReplicatorLayer.instanceTransform, Coerce.transform),
        "preservesDepth": .typed(\CAReplicatorLayer.preservesDepth, Coerce.bool),
        "instanceColor": .typed(\CAReplicatorLayer.instanceColor, Coerce.color),
        "instanceRedOffset": .typed(\CAReplicatorLayer.instanceRedOffset, Coerce.float),
        "instanceGreenOffset": .typed(\CAReplicatorLayer.instanceGreenOffset, Coerce.float),
        "instanceBlueOffset": .typed(\CAReplicatorLayer.instanceBlueOffset, Coerce.float),
        "instanceAlphaOffset": .typed(\CAReplicatorLayer.instanceAlphaOffset, Coerce.float),
    ]) { $1 }
}
