import CoreGraphics
import Foundation
import LayerRender

/// A layer that draws a path, filled and stroked: Core Animation's CAShapeLayer.
///
/// The path is in layer coordinates (points) and is drawn above the background and below the
/// sublayers, re-rasterised at the size it appears on screen (crisp under any scale), and not
/// clipped to the bounds unless `masksToBounds`. `path`, `fillColor`, `strokeColor`, `lineWidth`,
/// `miterLimit`, `lineDashPhase`, `strokeStart` and `strokeEnd` animate (paths blend when their
/// elements match one for one). Hit testing uses the bounds, as Apple's does.
open class CAShapeLayer: CALayer {
    /// The committed shape values, in the engine's form.
    var shape = ShapeContent()
    private var dashNumbers: [NSNumber]?

    /// Creates a shape layer with Apple's defaults (opaque black fill, no stroke, 1-point lines).
    public override init() { super.init() }

    /// Creates a shadow copy of `layer`, shape properties included.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAShapeLayer { shape = other.shape; dashNumbers = other.dashNumbers }
    }

    /// Apple's archiving initialiser (archives are not supported on Linux: a default layer).
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// The path to draw, in layer coordinates; nil draws nothing. Animatable. A mutable path is
    /// copied when set, as Core Animation does: changing it afterwards changes nothing until it is
    /// set again (and the shape's box, worked out when it is set, stays the path's).
    open var path: CGPath? {
        get { locked { shape.path } }
        set { locked { shape.path = newValue is CGMutablePath ? newValue?.copy() : newValue; didChange("path") } }
    }

    /// The fill colour; nil fills nothing. Default opaque black. Animatable.
    open var fillColor: CGColor? {
        get { locked { shape.fillColor } }
        set { locked { shape.fillColor = newValue; didChange("fillColor") } }
    }

    /// Which regions the fill covers: non-zero winding (default) or even-odd.
    open var fillRule: CAShapeLayerFillRule {
        get { locked { CAShapeLayerFillRule(rawValue: shape.fillRule) } }
        set { locked { shape.fillRule = newValue.rawValue; didChange("fillRule") } }
    }

    /// The stroke colour; nil (default) strokes nothing. Animatable.
    open var strokeColor: CGColor? {
        get { locked { shape.strokeColor } }
        set { locked { shape.strokeColor = newValue; didChange("strokeColor") } }
    }

    /// Where the stroke starts, as a fraction of the path's length (0…1; default 0). Animatable.
    open var strokeStart: CGFloat {
        get { locked { shape.strokeStart } }
        set { setChecked(newValue.isFinite, "strokeStart") { shape.strokeStart = newValue } }
    }

    /// Where the stroke ends, as a fraction of the path's length (0…1; default 1). Animatable.
    open var strokeEnd: CGFloat {
        get { locked { shape.strokeEnd } }
        set { setChecked(newValue.isFinite, "strokeEnd") { shape.strokeEnd = newValue } }
    }

    /// The stroke width in points (default 1); zero or negative widths stroke nothing. Animatable.
    open var lineWidth: CGFloat {
        get { locked { shape.lineWidth } }
        set { setChecked(newValue.isFinite, "lineWidth") { shape.lineWidth = newValue } }
    }

    /// The miter limit (miter length over line width beyond which joins are bevelled; default 10). Animatable.
    open var miterLimit: CGFloat {
        get { locked { shape.miterLimit } }
        set { setChecked(newValue.isFinite, "miterLimit") { shape.miterLimit = newValue } }
    }

    /// How open ends are drawn (default butt).
    open var lineCap: CAShapeLayerLineCap {
        get { locked { CAShapeLayerLineCap(rawValue: shape.lineCap) } }
        set { locked { shape.lineCap = newValue.rawValue; didChange("lineCap") } }
    }

    /// How corners are drawn (default miter).
    open var lineJoin: CAShapeLayerLineJoin {
        get { locked { CAShapeLayerLineJoin(rawValue: shape.lineJoin) } }
        set { locked { shape.lineJoin = newValue.rawValue; didChange("lineJoin") } }
    }

    /// How far into the dash pattern the stroke starts, in points (default 0). Animatable.
    open var lineDashPhase: CGFloat {
        get { locked { shape.lineDashPhase } }
        set { setChecked(newValue.isFinite, "lineDashPhase") { shape.lineDashPhase = newValue } }
    }

    /// Alternating painted and unpainted lengths in points; nil (default) strokes solid lines.
    /// Patterns with negative, non-finite or only zero lengths stroke solid lines (counted).
    open var lineDashPattern: [NSNumber]? {
        get { locked { dashNumbers } }
        set {
            locked {
                dashNumbers = newValue
                shape.lineDashPattern = newValue.map { $0.map { CGFloat($0.doubleValue) } }
                didChange("lineDashPattern")
            }
        }
    }

    // MARK: Engine hooks

    override class var keyTable: [String: LayerKey] { shapeKeys }
    override class var frameworkDefaults: [String: Any] { shapeDefaults }
    override class func isImplicitlyAnimatable(_ key: String) -> Bool {
        animatableShapeKeys.contains(key) || super.isImplicitlyAnimatable(key)
    }

    override func makeState() -> LayerState {
        var s = baseState()
        s.content = .shape(shape)
        return s
    }

    override func applyPresentationState(_ state: LayerState) {
        applyBaseState(state)
        if case .shape(let c)? = state.content { shape = c }
    }

    override func presentationInstance() -> CALayer { CAShapeLayer(layer: self) }

    static let animatableShapeKeys: Set<String> = [
        "path", "fillColor", "strokeColor", "lineWidth", "miterLimit", "lineDashPhase", "strokeStart", "strokeEnd",
    ]

    nonisolated(unsafe) static let shapeDefaults: [String: Any] = builtInDefaults.merging([   // immutable after init; `Any` values keep it from being Sendable
        "fillColor": CGColor.black, "fillRule": CAShapeLayerFillRule.nonZero, "strokeStart": CGFloat(0),
        "strokeEnd": CGFloat(1), "lineWidth": CGFloat(1), "miterLimit": CGFloat(10), "lineCap": CAShapeLayerLineCap.butt,
        "lineJoin": CAShapeLayerLineJoin.miter, "lineDashPhase": CGFloat(0),
    ]) { $1 }

    nonisolated(unsafe) static let shapeKeys: [String: LayerKey] = builtInKeys.merging([   // immutable after init; `Any` values keep it from being Sendable
        "path": .typed(\CAShapeLayer.path, Coerce.object),
        "fillColor": .typed(\CAShapeLayer.fillColor, Coerce.color),
        "fillRule": .typed(\CAShapeLayer.fillRule, Coerce.raw),
        "strokeColor": .typed(\CAShapeLayer.strokeColor, Coerce.color),
        "strokeStart": .typed(\CAShapeLayer.strokeStart, Coerce.cgFloat),
        "strokeEnd": .typed(\CAShapeLayer.strokeEnd, Coerce.cgFloat),
        "lineWidth": .typed(\CAShapeLayer.lineWidth, Coerce.cgFloat),
        "miterLimit": .typed(\CAShapeLayer.miterLimit, Coerce.cgFloat),
        "lineCap": .typed(\CAShapeLayer.lineCap, Coerce.raw),
        "lineJoin": .typed(\CAShapeLayer.lineJoin, Coerce.raw),
        "lineDashPhase": .typed(\CAShapeLayer.lineDashPhase, Coerce.cgFloat),
        "lineDashPattern": .typed(\CAShapeLayer.lineDashPattern, Coerce.numbers),
    ]) { $1 }
}
