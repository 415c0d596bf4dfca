import CoreGraphics
import Foundation

/// Core Text's attribute key for the font of a run (a `CTFont`); the same key as
/// `NSAttributedString.Key.font`.
public var kCTFontAttributeName: CFString { "NSFont" }
/// Core Text's attribute key for the colour of a run (a `CGColor`).
public var kCTForegroundColorAttributeName: CFString { "CTForegroundColor" }
/// Core Text's attribute key that draws a run in the context's fill colour (a Bool).
public var kCTForegroundColorFromContextAttributeName: CFString { "CTForegroundColorFromContext" }

extension NSAttributedString.Key {
    /// The font of a run (Apple's "NSFont", the same key as `kCTFontAttributeName`): a `CTFont`,
    /// a `CGFont` or a family name.
    public static let font = NSAttributedString.Key("NSFont")
    /// The text colour of a run (Apple's "NSColor"): a `CGColor` (UIKit's colours do not exist
    /// here); Core Text also reads `kCTForegroundColorAttributeName`.
    public static let foregroundColor = NSAttributedString.Key("NSColor")
}

/// Turns an attributed string into a Pango layout: each run's font and colour.
enum AttributedLayout {
    /// The default font of runs without one (Apple's: Helvetica 12).
    static let defaultFont = CTFont(name: "Helvetica", size: 12, matrix: .identity)

    /// A layout of `string`, `width` wide when given (wrapped by words), with `fill` as the
    /// colour of runs without one (and of runs asking for the context's colour).
    static func make(_ string: NSAttributedString, width: CGFloat?, fill: CGColor) -> CGTextLayout {
        let text = string.string
        var runs: [(range: Range<String.Index>, style: CGTextLayout.Style)] = []
        let whole = NSRange(location: 0, length: string.length)
        string.enumerateAttributes(in: whole) { attributes, range, _ in
            guard let r = Range(range, in: text) else { return }
            var font = defaultFont
            var color = fill
            for (key, value) in attributes {
                switch key.rawValue {
                case "NSFont":
                    if let f = value as? CTFont { font = f }
                    else if let name = value as? String { font = CTFont(name: name, size: font.size, matrix: .identity) }
                    else if let f = value as? CGFont { font = CTFont(name: f.familyName, size: font.size, matrix: .identity) }
                case "CTForegroundColor", "NSColor":
                    if CFGetTypeIsColor(value) { color = value as! CGColor }
                case "CTForegroundColorFromContext": if (value as? Bool) == true { color = fill }
                default: break
                }
            }
            runs.append((r, .init(fontFamily: font.familyName, fontSize: font.size, color: color)))
        }
        let base = runs.first?.style ?? .init(fontFamily: defaultFont.familyName, fontSize: defaultFont.size, color: fill)
        return CGTextLayout(string: text, style: base, runs: runs, width: width)
    }

    private static func CFGetTypeIsColor(_ v: Any) -> Bool { v is CGColor }
}
