import CoreGraphics
import Foundation
import LayerRender

/// A layer that fills its bounds with a colour gradient: Core Animation's CAGradientLayer.
///
/// The gradient runs from `startPoint` to `endPoint` (unit coordinates of the bounds) over the
/// background, follows the rounded corners, and extends its end colours beyond the end points.
/// `axial` varies along the start → end line; `radial` is an ellipse centred on `startPoint`
/// whose radii are the x and y distances to `endPoint`; `conic` sweeps a full turn around
/// `startPoint`, starting in the direction of `endPoint` and turning from +x towards +y.
/// Colours interpolate with straight alpha, as on Apple systems. Nothing is drawn with fewer than
/// two colours, fewer locations than colours, coincident points or a zero radial radius.
/// `colors`, `locations`, `startPoint` and `endPoint` animate.
open class CAGradientLayer: CALayer {
    /// The committed gradient values, in the engine's form.
    var gradient = GradientContent()
    var colorValues: [Any]?
    var locationValues: [NSNumber]?

    /// Creates a gradient layer with Apple's defaults (no colours, top to bottom, axial).
    public override init() { super.init() }

    /// Creates a shadow copy of `layer`, gradient properties included.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAGradientLayer {
            gradient = other.gradient; colorValues = other.colorValues; locationValues = other.locationValues
        }
    }

    /// Apple's archiving initialiser (archives are not supported on Linux: a default layer).
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// The colours of the stops (CGColors; other elements are ignored and counted). Animatable.
    open var colors: [Any]? {
        get { self[GradientProperties.colors] }
        set { self[GradientProperties.colors] = newValue }
    }

    /// Stop positions in [0, 1], ascending; nil (default) spreads the colours evenly. Animatable.
    open var locations: [NSNumber]? {
        get { self[GradientProperties.locations] }
        set { self[GradientProperties.locations] = newValue }
    }

    /// Where the first stop lies, in unit coordinates of the bounds (default (0.5, 0)). Animatable.
    open var startPoint: CGPoint {
        get { self[GradientProperties.startPoint] }
        set { self[GradientProperties.startPoint] = newValue }
    }

    /// Where the last stop lies, in unit coordinates of the bounds (default (0.5, 1)). Animatable.
    open var endPoint: CGPoint {
        get { self[GradientProperties.endPoint] }
        set { self[GradientProperties.endPoint] = newValue }
    }

    /// The kind of gradient (default axial; unknown values draw axial).
    open var type: CAGradientLayerType {
        get { self[GradientProperties.type] }
        set { self[GradientProperties.type] = newValue }
    }

    // MARK: Engine hooks

    override class var keyTable: [String: LayerKey] { gradientKeys }
    override class var frameworkDefaults: [String: Any] { gradientDefaults }

    override func makeState() -> LayerState {
        var s = baseState()
        s.content = .gradient(gradient)
        return s
    }

    override func applyPresentationState(_ state: LayerState) {
        applyBaseState(state)
        guard case .gradient(let c)? = state.content else { return }
        gradient = c
        colorValues = c.colors
        locationValues = c.locations.map { $0.map { NSNumber(value: Double($0)) } }
    }

    override func presentationInstance() -> CALayer { CAGradientLayer(layer: self) }

    nonisolated(unsafe) static let gradientDefaults: [String: Any] = builtInDefaults.merging([   // immutable after init; `Any` values keep it from being Sendable
        "startPoint": CGPoint(x: 0.5, y: 0), "endPoint": CGPoint(x: 0.5, y: 1), "type": CAGradientLayerType.axial,
    ]) { $1 }

    nonisolated(unsafe) static let gradientKeys = LayerKey.table(GradientProperties.all, over: builtInKeys)   // immutable after init; closures keep it from being Sendable
}
