import CoreGraphics
import Foundation
import LayerRender

/// A layer that lays out and draws text: Core Animation's CATextLayer.
///
/// Text is shaped with Pango (characters the font lacks — CJK, emoji — fall back to an installed
/// font) and drawn like a backing store of bounds × `contentsScale` pixels, first line at the top
/// of the bounds, clipped to them. `fontSize` and `foregroundColor` animate.
///
/// `string` is a String (or NSString) or an NSAttributedString whose runs may set `.font` (a
/// family name or CGFont), `.foregroundColor` (a CGColor) and, on Linux, `.fontSize` (points);
/// other values draw nothing (counted as `.invalidKeyValue`). `font` is a family name or a
/// CGFont; as on Apple systems its own size is ignored in favour of `fontSize`.
open class CATextLayer: CALayer {
    /// The committed text values, in the engine's form.
    var text = TextContent()
    var stringValue: Any?
    var fontValue: CFTypeRef? = "Helvetica" as NSString

    /// Creates a text layer with Apple's defaults (36-point Helvetica, opaque white, no wrapping).
    public override init() { super.init() }

    /// Creates a shadow copy of `layer`, text properties included.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CATextLayer { text = other.text; stringValue = other.stringValue; fontValue = other.fontValue }
    }

    /// Apple's archiving initialiser (archives are not supported on Linux: a default layer).
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// The text: a String, NSString or NSAttributedString (nil draws nothing).
    open var string: Any? {
        get { self[TextProperties.string] }
        set { self[TextProperties.string] = newValue }
    }

    /// The font: a family name (String/NSString) or a CGFont; default Helvetica.
    open var font: CFTypeRef? {
        get { self[TextProperties.font] }
        set { self[TextProperties.font] = newValue }
    }

    /// The font size in points (default 36). Animatable.
    open var fontSize: CGFloat {
        get { self[TextProperties.fontSize] }
        set { self[TextProperties.fontSize] = newValue }
    }

    /// The text colour (default opaque white); nil draws only runs that have their own colour. Animatable.
    open var foregroundColor: CGColor? {
        get { self[TextProperties.foregroundColor] }
        set { self[TextProperties.foregroundColor] = newValue }
    }

    /// Whether lines wrap at the bounds' width (default false: one line per paragraph, clipped).
    open var isWrapped: Bool {
        get { self[TextProperties.isWrapped] }
        set { self[TextProperties.isWrapped] = newValue }
    }

    /// Where an ellipsis replaces text that does not fit (default none).
    open var truncationMode: CATextLayerTruncationMode {
        get { self[TextProperties.truncationMode] }
        set { self[TextProperties.truncationMode] = newValue }
    }

    /// How lines are aligned in the bounds (default natural: left for left-to-right text).
    open var alignmentMode: CATextLayerAlignmentMode {
        get { self[TextProperties.alignmentMode] }
        set { self[TextProperties.alignmentMode] = newValue }
    }

    /// Whether glyph positions snap to whole pixels (default false). Linux: glyphs are always
    /// placed unhinted at their exact positions; the value is stored for compatibility.
    open var allowsFontSubpixelQuantization = false

    // MARK: Engine hooks

    override class var keyTable: [String: LayerKey] { textKeys }
    override class var frameworkDefaults: [String: Any] { textDefaults }

    override func makeState() -> LayerState {
        var s = baseState()
        s.content = .text(text)
        return s
    }

    override func applyPresentationState(_ state: LayerState) {
        applyBaseState(state)
        if case .text(let c)? = state.content { text = c }
    }

    override func presentationInstance() -> CALayer { CATextLayer(layer: self) }

    /// The plain text and styled runs of a `string` value.
    static func resolve(_ value: Any?) -> (String, [TextContent.Run]) {
        switch value {
        case nil: return ("", [])
        case let s as String: return (s, [])
        case let a as NSAttributedString:
            var runs: [TextContent.Run] = []
            a.enumerateAttributes(in: NSRange(location: 0, length: a.length), options: []) { attrs, range, _ in
                guard !attrs.isEmpty else { return }
                let color = (attrs[.foregroundColor] ?? attrs[NSAttributedString.Key("CTForegroundColor")]).flatMap { $0 as? CGColor }
                runs.append(TextContent.Run(start: range.location, end: range.location + range.length,
                                            fontFamily: family(attrs[.font] as AnyObject?),
                                            fontSize: Coerce.cgFloat(attrs[.fontSize]), color: color))
            }
            return (a.string, runs)
        default:
            CGDiagnostics.record(.invalidKeyValue)
            return ("", [])
        }
    }

    /// The font name a `font` value hands the layout engine (nil: not a font).
    static func family(_ value: AnyObject?) -> String? {
        switch value {
        case let f as CGFont: return f.familyName
        case let f as CTFont: return f.name   // as asked: a full or PostScript name keeps its style
        case let s as NSString: return s.length > 0 ? s as String : nil
        default: return nil
        }
    }

    nonisolated(unsafe) static let textDefaults: [String: Any] = builtInDefaults.merging([   // immutable after init; `Any` values keep it from being Sendable
        "fontSize": CGFloat(36), "foregroundColor": CGColor.white, "wrapped": false,
        "truncationMode": CATextLayerTruncationMode.none, "alignmentMode": CATextLayerAlignmentMode.natural,
    ]) { $1 }

    nonisolated(unsafe) static let textKeys: [String: LayerKey] = {   // immutable after init; `Any` values keep it from being Sendable
        var k = LayerKey.table(TextProperties.all, over: builtInKeys)
        k["isWrapped"] = k["wrapped"]
        k["allowsFontSubpixelQuantization"] = .typed(\CATextLayer.allowsFontSubpixelQuantization, Coerce.bool)
        return k
    }()
}

// `.font` and `.foregroundColor` come from CoreText (re-exported).
extension NSAttributedString.Key {
    /// Linux extension: the font size of a run in points (a number); Apple carries it in the font object.
    public static let fontSize = NSAttributedString.Key("CAFontSize")
}
