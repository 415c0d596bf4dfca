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
    var dashNumbers: [NSNumber]?

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
        get { self[ShapeProperties.path] }
        set { self[ShapeProperties.path] = newValue }
    }

    /// The fill colour; nil fills nothing. Default opaque black. Animatable.
    open var fillColor: CGColor? {
        get { self[ShapeProperties.fillColor] }
        set { self[ShapeProperties.fillColor] = newValue }
    }

    /// Which regions the fill covers: non-zero winding (default) or even-odd.
    open var fillRule: CAShapeLayerFillRule {
        get { self[ShapeProperties.fillRule] }
        set { self[ShapeProperties.fillRule] = newValue }
    }

    /// The stroke colour; nil (default) strokes nothing. Animatable.
    open var strokeColor: CGColor? {
        get { self[ShapeProperties.strokeColor] }
        set { self[ShapeProperties.strokeColor] = newValue }
    }

    /// Where the stroke starts, as a fraction of the path's length (0…1; default 0). Animatable.
    open var strokeStart: CGFloat {
        get { self[ShapeProperties.strokeStart] }
        set { self[ShapeProperties.strokeStart] = newValue }
    }

    /// Where the stroke ends, as a fraction of the path's length (0…1; default 1). Animatable.
    open var strokeEnd: CGFloat {
        get { self[ShapeProperties.strokeEnd] }
        set { self[ShapeProperties.strokeEnd] = newValue }
    }

    /// The stroke width in points (default 1); zero or negative widths stroke nothing. Animatable.
    open var lineWidth: CGFloat {
        get { self[ShapeProperties.lineWidth] }
        set { self[ShapeProperties.lineWidth] = newValue }
    }

    /// The miter limit (miter length over line width beyond which joins are bevelled; default 10). Animatable.
    open var miterLimit: CGFloat {
        get { self[ShapeProperties.miterLimit] }
        set { self[ShapeProperties.miterLimit] = newValue }
    }

    /// How open ends are drawn (default butt).
    open var lineCap: CAShapeLayerLineCap {
        get { self[ShapeProperties.lineCap] }
        set { self[ShapeProperties.lineCap] = newValue }
    }

    /// How corners are drawn (default miter).
    open var lineJoin: CAShapeLayerLineJoin {
        get { self[ShapeProperties.lineJoin] }
        set { self[ShapeProperties.lineJoin] = newValue }
    }

    /// How far into the dash pattern the stroke starts, in points (default 0). Animatable.
    open var lineDashPhase: CGFloat {
        get { self[ShapeProperties.lineDashPhase] }
        set { self[ShapeProperties.lineDashPhase] = newValue }
    }

    /// Alternating painted and unpainted lengths in points; nil (default) strokes solid lines.
    /// Patterns with negative, non-finite or only zero lengths stroke solid lines (counted).
    open var lineDashPattern: [NSNumber]? {
        get { self[ShapeProperties.lineDashPattern] }
        set { self[ShapeProperties.lineDashPattern] = newValue }
    }

    // MARK: Engine hooks

    override class var keyTable: [String: LayerKey] { shapeKeys }
    override class var frameworkDefaults: [String: Any] { shapeDefaults }

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


    nonisolated(unsafe) static let shapeDefaults: [String: Any] = builtInDefaults.merging([   // immutable after init; `Any` values keep it from being Sendable
        "fillColor": CGColor.black, "fillRule": CAShapeLayerFillRule.nonZero, "strokeStart": CGFloat(0),
        "strokeEnd": CGFloat(1), "lineWidth": CGFloat(1), "miterLimit": CGFloat(10), "lineCap": CAShapeLayerLineCap.butt,
        "lineJoin": CAShapeLayerLineJoin.miter, "lineDashPhase": CGFloat(0),
    ]) { $1 }

    nonisolated(unsafe) static let shapeKeys = LayerKey.table(ShapeProperties.all, over: builtInKeys)   // immutable after init; closures keep it from being Sendable
}
