import CoreGraphics
import Foundation

/// The committed properties of a CATextLayer (points; Apple's defaults: 36-point Helvetica, white).
package struct TextContent: Equatable, Sendable {
    /// A sub-range of the string with its own look (from an attributed string); nil fields
    /// take the layer's values.
    package struct Run: Equatable, Sendable {
        /// UTF-16 offsets, as NSAttributedString ranges count.
        package var start: Int, end: Int
        package var fontFamily: String?
        package var fontSize: CGFloat?
        package var color: CGColor?
        package init(start: Int, end: Int, fontFamily: String? = nil, fontSize: CGFloat? = nil, color: CGColor? = nil) {
            self.start = start; self.end = end; self.fontFamily = fontFamily; self.fontSize = fontSize; self.color = color
        }
    }

    package var string = ""
    package var runs: [Run] = []
    package var fontFamily = "Helvetica"
    package var fontSize: CGFloat = 36
    package var foregroundColor: CGColor? = CGColor.white
    package var isWrapped = false
    /// "none", "start", "middle" or "end".
    package var truncationMode = "none"
    /// "natural", "left", "right", "center" or "justified".
    package var alignmentMode = "natural"

    package init() {}

    func value(forKey key: String) -> AnimatableValue? {
        switch key {
        case "fontSize": return .number(Double(fontSize))
        case "foregroundColor": return LayerState.color(foregroundColor)
        default: return nil
        }
    }

    mutating func set(_ key: String, _ v: AnimatableValue) -> Bool {
        switch key {
        case "fontSize": if let x = ContentValue.number(v) { fontSize = x }
        case "foregroundColor": return ContentValue.setColor(&foregroundColor, v)
        default: return false
        }
        return true
    }

    /// The laid-out text for a layer `width` points wide and `height` high (height limits wrapped
    /// text only when it is truncated).
    package func layout(width: CGFloat, height: CGFloat) -> CGTextLayout? {
        guard !string.isEmpty, width > 0, width.isFinite else { return nil }
        let size = fontSize.isFinite ? min(max(fontSize, 0), TextContent.maxFontSize) : 36
        let clear = CGColor(red: 0, green: 0, blue: 0, alpha: 0)
        let base = CGTextLayout.Style(fontFamily: fontFamily, fontSize: size, color: foregroundColor ?? clear)
        let utf16 = string.utf16
        let styled: [(range: Range<String.Index>, style: CGTextLayout.Style)] = runs.compactMap { run in
            let lo = min(max(run.start, 0), utf16.count), hi = min(max(run.end, lo), utf16.count)
            let range = String.Index(utf16Offset: lo, in: string)..<String.Index(utf16Offset: hi, in: string)
            var style = base
            if let f = run.fontFamily { style.fontFamily = f }
            if let s = run.fontSize, s.isFinite { style.fontSize = min(max(s, 0), TextContent.maxFontSize) }
            if let c = run.color { style.color = c }
            return (range, style)
        }
        return CGTextLayout(string: string, style: base, runs: styled, width: width, isWrapped: isWrapped,
                            alignment: alignment, truncation: truncation,
                            height: isWrapped && truncationMode != "none" ? height : nil)
    }

    /// Font sizes above this many points are drawn at this size (layout time stays bounded).
    static let maxFontSize: CGFloat = 2048

    private var alignment: CGTextLayout.Alignment {
        switch alignmentMode {
        case "left": return .left
        case "right": return .right
        case "center": return .center
        case "justified": return .justified
        default: return .natural
        }
    }

    private var truncation: CGTextLayout.Truncation {
        switch truncationMode {
        case "start": return .start
        case "middle": return .middle
        case "end": return .end
        default: return .none
        }
    }
}
