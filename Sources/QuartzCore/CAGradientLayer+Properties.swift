import CoreGraphics
import Foundation

// CAGradientLayer's properties, each declared once (LayerProperty.swift). The values as given
// are kept for reading back; the engine's colours and positions are worked out from them by the
// computed properties below.
extension CAGradientLayer {
    /// The colours as given, and the CGColors among them (other elements are ignored, counted).
    var storedColors: [Any]? {
        get { colorValues }
        set {
            colorValues = newValue
            let cgColors = newValue?.compactMap { $0 as? CGColor } ?? []
            if cgColors.count != newValue?.count ?? 0 { CGDiagnostics.record(.invalidKeyValue) }
            gradient.colors = cgColors
        }
    }

    var storedLocations: [NSNumber]? {
        get { locationValues }
        set { locationValues = newValue; gradient.locations = newValue.map { $0.map { CGFloat($0.doubleValue) } } }
    }

    enum GradientProperties {
        typealias P<V> = LayerProperty<CAGradientLayer, V>
        static let colors = P<[Any]?>("colors", \.storedColors, \.colors, Coerce.object, animatable: true)
        static let locations = P<[NSNumber]?>("locations", \.storedLocations, \.locations, Coerce.numbers, animatable: true)
        static let startPoint = P<CGPoint>("startPoint", \.gradient.startPoint, \.startPoint, Coerce.point, animatable: true,
                                           accepts: Accepts.finite)
        static let endPoint = P<CGPoint>("endPoint", \.gradient.endPoint, \.endPoint, Coerce.point, animatable: true,
                                         accepts: Accepts.finite)
        static let type = P<CAGradientLayerType>("type", raw: \.gradient.type, \.type)

        nonisolated(unsafe) static let all: [LayerKey] = [   // immutable after init; closures keep it from being Sendable
            colors.erased, locations.erased, startPoint.erased, endPoint.erased, type.erased,
        ]
    }
}
