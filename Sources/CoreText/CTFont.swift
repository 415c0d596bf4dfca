import CCairo
import CoreGraphics
import Foundation

/// A font at a size: Core Text's CTFont, resolved by fontconfig through Pango.
///
/// A name that names no installed family falls back the way fontconfig does (to the closest
/// installed family, "DejaVu Sans" on a machine set up by `make deps`); `familyName` says which.
public final class CTFont: @unchecked Sendable {   // immutable after init
    /// The name asked for.
    public let name: String
    /// The point size (em height, user-space units).
    public let size: CGFloat
    /// The font matrix (identity unless given).
    public let matrix: CGAffineTransform
    /// The resolved metrics: ascent, descent (positive, below the baseline), leading, family.
    let metrics: (ascent: CGFloat, descent: CGFloat, leading: CGFloat, family: String)

    init(name: String, size: CGFloat, matrix: CGAffineTransform) {
        self.name = name
        // Apple: a size of 0 (or less) means 12 points.
        self.size = size.isFinite && size > 0 ? min(size, 100_000) : 12
        self.matrix = matrix.isFinite ? matrix : .identity
        metrics = CTFont.resolve(name, self.size)
    }

    /// The family fontconfig chose for `name`, and its metrics at `size`.
    private static func resolve(_ name: String, _ size: CGFloat) -> (CGFloat, CGFloat, CGFloat, String) {
        let probe = CGTextLayout(string: "Hg", style: .init(fontFamily: name, fontSize: size))
        let family = probe.firstFontFamily ?? name
        let context = pango_layout_get_context(probe.layout)
        let desc = pango_font_description_new()!
        defer { pango_font_description_free(desc) }
        pango_font_description_set_family(desc, family)
        pango_font_description_set_absolute_size(desc, Double(CGTextLayout.pangoSize(size)))
        guard let m = pango_context_get_metrics(context, desc, nil) else { return (size * 0.8, size * 0.2, 0, family) }
        defer { pango_font_metrics_unref(m) }
        let s = CGFloat(PANGO_SCALE)
        let ascent = CGFloat(pango_font_metrics_get_ascent(m)) / s
        let descent = CGFloat(pango_font_metrics_get_descent(m)) / s
        let height = CGFloat(pango_font_metrics_get_height(m)) / s
        return (ascent, descent, max(0, height - ascent - descent), family)
    }

    /// The family the layout engine uses for this font.
    public var familyName: String { metrics.family }
}

/// A font named `name` (a family or PostScript-style name) at `size` points (0: 12), with an
/// optional font matrix.
public func CTFontCreateWithName(_ name: CFString, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?) -> CTFont {
    CTFont(name: name as String, size: size, matrix: matrix?.pointee ?? .identity)
}

/// A copy of `font` at `size` (0: the same size), with `matrix` when given; attributes are not read.
public func CTFontCreateCopyWithAttributes(_ font: CTFont, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?,
                                           _ attributes: AnyObject?) -> CTFont {
    CTFont(name: font.name, size: size > 0 ? size : font.size, matrix: matrix?.pointee ?? font.matrix)
}

/// The font's point size.
public func CTFontGetSize(_ font: CTFont) -> CGFloat { font.size }
/// The distance from the baseline to the top of the tallest glyphs (user-space units).
public func CTFontGetAscent(_ font: CTFont) -> CGFloat { font.metrics.ascent }
/// The distance from the baseline to the bottom of the lowest glyphs, positive (user-space units).
public func CTFontGetDescent(_ font: CTFont) -> CGFloat { font.metrics.descent }
/// The extra space between lines the font asks for (user-space units).
public func CTFontGetLeading(_ font: CTFont) -> CGFloat { font.metrics.leading }
/// The family name of the font in use (after fontconfig's fallback).
public func CTFontCopyFamilyName(_ font: CTFont) -> CFString { font.metrics.family as NSString }
/// The name the font was created with.
public func CTFontCopyPostScriptName(_ font: CTFont) -> CFString { font.name as NSString }
/// The font's matrix.
public func CTFontGetMatrix(_ font: CTFont) -> CGAffineTransform { font.matrix }
