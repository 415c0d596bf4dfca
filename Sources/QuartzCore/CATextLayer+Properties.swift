import CoreGraphics
import Foundation

// CATextLayer's properties, each declared once (LayerProperty.swift). Values the engine keeps
// in another form (the text and its runs, the font's family) are stored through the computed
// properties below, which convert on the way in and out.
extension CATextLayer {
    /// `string` as stored: the value, and the engine's text and runs worked out from it.
    var storedString: Any? {
        get { stringValue }
        set { stringValue = newValue; (text.string, text.runs) = CATextLayer.resolve(newValue) }
    }

    /// `font` as stored: the value, and the family the layout engine is given.
    var storedFont: CFTypeRef? {
        get { fontValue }
        set { fontValue = newValue; text.fontFamily = CATextLayer.family(newValue) ?? "Helvetica" }
    }

    enum TextProperties {
        typealias P<V> = LayerProperty<CATextLayer, V>
        static let string = P<Any?>("string", \.storedString, \.string, { .some($0 is NSNull ? nil : $0) })
        static let font = P<CFTypeRef?>("font", \.storedFont, \.font, Coerce.object)
        static let fontSize = P<CGFloat>("fontSize", \.text.fontSize, \.fontSize, Coerce.cgFloat, animatable: true, accepts: Accepts.finite)
        static let foregroundColor = P<CGColor?>("foregroundColor", \.text.foregroundColor, \.foregroundColor, Coerce.color, animatable: true)
        static let isWrapped = P<Bool>("wrapped", \.text.isWrapped, \.isWrapped, Coerce.bool)
        static let truncationMode = P<CATextLayerTruncationMode>("truncationMode", raw: \.text.truncationMode, \.truncationMode)
        static let alignmentMode = P<CATextLayerAlignmentMode>("alignmentMode", raw: \.text.alignmentMode, \.alignmentMode)

        nonisolated(unsafe) static let all: [LayerKey] = [   // immutable after init; closures keep it from being Sendable
            string.erased, font.erased, fontSize.erased, foregroundColor.erased, isWrapped.erased, truncationMode.erased,
            alignmentMode.erased,
        ]
    }
}
