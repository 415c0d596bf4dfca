import CoreGraphics
import Foundation

// CAShapeLayer's properties, each declared once (LayerProperty.swift). The engine keeps the
// dash pattern as lengths: the computed property below converts.
extension CAShapeLayer {
    /// The pattern as given, and the lengths the engine draws.
    var storedDashPattern: [NSNumber]? {
        get { dashNumbers }
        set { dashNumbers = newValue; shape.lineDashPattern = newValue.map { $0.map { CGFloat($0.doubleValue) } } }
    }

    enum ShapeProperties {
        typealias P<V> = LayerProperty<CAShapeLayer, V>
        // A mutable path is copied when set, as Core Animation does: changing it afterwards
        // changes nothing until it is set again.
        static let path = P<CGPath?>("path", \.shape.path, \.path, Coerce.object, animatable: true,
                                     adjust: { $0 is CGMutablePath ? $0?.copy() : $0 })
        static let fillColor = P<CGColor?>("fillColor", \.shape.fillColor, \.fillColor, Coerce.color, animatable: true)
        static let fillRule = P<CAShapeLayerFillRule>("fillRule", raw: \.shape.fillRule, \.fillRule)
        static let strokeColor = P<CGColor?>("strokeColor", \.shape.strokeColor, \.strokeColor, Coerce.color, animatable: true)
        static let strokeStart = P<CGFloat>("strokeStart", \.shape.strokeStart, \.strokeStart, Coerce.cgFloat, animatable: true,
                                            accepts: Accepts.finite)
        static let strokeEnd = P<CGFloat>("strokeEnd", \.shape.strokeEnd, \.strokeEnd, Coerce.cgFloat, animatable: true,
                                          accepts: Accepts.finite)
        static let lineWidth = P<CGFloat>("lineWidth", \.shape.lineWidth, \.lineWidth, Coerce.cgFloat, animatable: true,
                                          accepts: Accepts.finite)
        static let miterLimit = P<CGFloat>("miterLimit", \.shape.miterLimit, \.miterLimit, Coerce.cgFloat, animatable: true,
                                           accepts: Accepts.finite)
        static let lineCap = P<CAShapeLayerLineCap>("lineCap", raw: \.shape.lineCap, \.lineCap)
        static let lineJoin = P<CAShapeLayerLineJoin>("lineJoin", raw: \.shape.lineJoin, \.lineJoin)
        static let lineDashPhase = P<CGFloat>("lineDashPhase", \.shape.lineDashPhase, \.lineDashPhase, Coerce.cgFloat, animatable: true,
                                              accepts: Accepts.finite)
        static let lineDashPattern = P<[NSNumber]?>("lineDashPattern", \.storedDashPattern, \.lineDashPattern, Coerce.numbers)

        nonisolated(unsafe) static let all: [LayerKey] = [   // immutable after init; closures keep it from being Sendable
            path.erased, fillColor.erased, fillRule.erased, strokeColor.erased, strokeStart.erased, strokeEnd.erased,
            lineWidth.erased, miterLimit.erased, lineCap.erased, lineJoin.erased, lineDashPhase.erased, lineDashPattern.erased,
        ]
    }
}
