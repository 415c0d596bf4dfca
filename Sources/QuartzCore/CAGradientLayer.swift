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
    private var colorValues: [Any]?
    private var locationValues: [NSNumber]?

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
        get { locked { colorValues } }
        set {
            locked {
                colorValues = newValue
                let cgColors = newValue?.compactMap { $0 as? CGColor } ?? []
                if cgColors.count != newValue?.count ?? 0 { CGDiagnostics.record(.invalidKeyValue) }
                gradient.colors = cgColors
                didChange("colors")
            }
        }
    }

    /// Stop positions in [0, 1], ascending; nil (default) spreads the colours evenly. Animatable.
    open var locations: [NSNumber]? {
        get { locked { locationValues } }
        set {
            locked {
                locationValues = newValue
                gradient.locations = newValue.map { $0.map { CGFloat($0.doubleValue) } }
                didChange("locations")
            }
        }
    }

    /// Where the first stop lies, in unit coordinates of the bounds (default (0.5, 0)). Animatable.
    open var startPoint: CGPoint {
        get { locked { gradient.startPoint } }
        set { setChecked(newValue.isFinite, "startPoint") { gradient.startPoint = newValue } }
    }

    /// Where the last stop lies, in unit coordinates of the bounds (default (0.5, 1)). Animatable.
    open var endPoint: CGPoint {
        get { locked { gradient.endPoint } }
        set { setChecked(newValue.isFinite, "endPoint") { gradient.endPoint = newValue } }
    }

    /// The kind of gradient (default axial; unknown values draw axial).
    open var type: CAGradientLayerType {
        get { locked { CAGradientLayerType(rawValue: gradient.type) } }
        set { locked { gradient.type = newValue.rawValue; didChange("type") } }
    }

    // MARK: Engine hooks

    override class var keyTable: [String: LayerKey] { gradientKeys }
    override class var frameworkDefaults: [String: Any] { gradientDefaults }
    override class func isImplicitlyAnimatable(_ key: String) -> Bool {
        ["colors", "locations", "startPoint", "endPoint"].contains(key) || super.isImplicitlyAnimatable(key)
    }

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

    nonisolated(unsafe) static let gradientKeys: [String: LayerKey] = builtInKeys.merging([   // immutable after init; `Any` values keep it from being Sendable
        "colors": .typed(\CAGradientLayer.colors, Coerce.object),
        "locations": .typed(\CAGradientLayer.locations, Coerce.numbers),
        "startPoint": .typed(\CAGradientLayer.startPoint, Coerce.point),
        "endPoint": .typed(\CAGradientLayer.endPoint, Coerce.point),
        "type": .typed(\CAGradientLayer.type, Coerce.raw),
    ]) { $1 }
}
