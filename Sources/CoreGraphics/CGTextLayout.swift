import CCairo
import Foundation

/// Paragraph text laid out with Pango (Linux extension; Apple does this with Core Text).
///
/// Fonts are found by family name through fontconfig; characters the family lacks (CJK,
/// emoji…) fall back to any installed font that has them. Sizes are in user-space units.
/// Layout is bounded: strings beyond `maxBytes` UTF-8 bytes are cut (counted as `.invalidParameter`).
public final class CGTextLayout {
    /// The largest font size laid out (points); larger sizes are clamped.
    public static let maxFontSize = 4096
    /// The largest glyph drawn, in device pixels (font size × the context's scale): text larger
    /// is not drawn (counted as `.budgetExceeded`). FreeType refuses glyphs of some tens of
    /// thousands of pixels, and cairo then marks the font face failed for the whole process.
    public static let maxDeviceFontSize: CGFloat = 8192

    /// The largest font size of the layout's text (points, after clamping).
    package private(set) var largestFontSize: CGFloat = 0

    /// `points` in Pango units, clamped to 1 unit…`maxFontSize`.
    package static func pangoSize(_ points: CGFloat) -> Int {
        CGClampToInt(Double(max(0, points) * CGFloat(PANGO_SCALE)), in: 1...(maxFontSize * Int(PANGO_SCALE)))
    }
    /// How lines are aligned inside the layout width.
    public enum Alignment: Sendable { case natural, left, right, center, justified }
    /// Where an ellipsis replaces text that does not fit.
    public enum Truncation: Sendable { case none, start, middle, end }

    /// The look of a run of text.
    public struct Style: Sendable {
        /// Font family name (fontconfig resolves it, falling back per character).
        public var fontFamily: String
        /// Font size in user-space units (the em height).
        public var fontSize: CGFloat
        /// Text colour.
        public var color: CGColor
        /// Creates a style.
        public init(fontFamily: String = "DejaVu Sans", fontSize: CGFloat = 17, color: CGColor = .black) {
            self.fontFamily = fontFamily; self.fontSize = fontSize; self.color = color
        }
    }

    /// Largest text laid out, in UTF-8 bytes.
    public static let maxBytes = 200_000

    package let layout: OpaquePointer
    /// Where unwrapped text (laid out without a width) sits in a wider rect: 0 left, ½ centre, 1 right.
    var unwrappedAlignment: CGFloat = 0

    /// Lays out `string` in `style`, with `runs` overriding the style on sub-ranges.
    /// `width` nil means one line per paragraph (no wrapping); `isWrapped` false keeps lines unwrapped.
    /// `height` limits wrapped, truncated text: the last line that fits ends with the ellipsis.
    public init(string: String, style: Style, runs: [(range: Range<String.Index>, style: Style)] = [],
                width: CGFloat? = nil, isWrapped: Bool = true, alignment: Alignment = .natural,
                truncation: Truncation = .none, height: CGFloat? = nil) {
        var text = string
        if text.utf8.count > CGTextLayout.maxBytes {
            CGDiagnostics.record(.invalidParameter)
            text = String(decoding: text.utf8.prefix(CGTextLayout.maxBytes), as: UTF8.self)
        }
        let fontMap = pango_cairo_font_map_get_default()
        let context = pango_font_map_create_context(fontMap)!
        let options = cairo_font_options_create()!
        // Unhinted, grayscale: glyph shapes independent of position and pixel-exact across runs.
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        layout = pango_layout_new(context)
        g_object_unref(UnsafeMutableRawPointer(context))

        pango_layout_set_text(layout, text, -1)
        largestFontSize = CGFloat(CGTextLayout.pangoSize(style.fontSize)) / CGFloat(PANGO_SCALE)
        let desc = CGTextLayout.fontDescription(style)
        pango_layout_set_font_description(layout, desc)
        pango_font_description_free(desc)

        let attrs = pango_attr_list_new()!
        CGTextLayout.addColor(style.color, start: 0, end: UInt32(text.utf8.count), to: attrs)
        for run in runs {
            guard let lo = run.range.lowerBound.samePosition(in: text.utf8),
                  let hi = run.range.upperBound.samePosition(in: text.utf8) else { continue }
            let start = UInt32(text.utf8.distance(from: text.utf8.startIndex, to: lo))
            let end = UInt32(text.utf8.distance(from: text.utf8.startIndex, to: hi))
            let family = pango_attr_family_new(run.style.fontFamily)!
            family.pointee.start_index = start; family.pointee.end_index = end
            pango_attr_list_insert(attrs, family)
            let size = pango_attr_size_new_absolute(Int32(CGTextLayout.pangoSize(run.style.fontSize)))!
            largestFontSize = max(largestFontSize, CGFloat(CGTextLayout.pangoSize(run.style.fontSize)) / CGFloat(PANGO_SCALE))
            size.pointee.start_index = start; size.pointee.end_index = end
            pango_attr_list_insert(attrs, size)
            CGTextLayout.addColor(run.style.color, start: start, end: end, to: attrs)
        }
        pango_layout_set_attributes(layout, attrs)
        pango_attr_list_unref(attrs)

        if let width, width.isFinite, width > 0 {
            pango_layout_set_width(layout, Int32(clamping: CGClampToInt(Double(width * CGFloat(PANGO_SCALE)), in: 0...Int(Int32.max))))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            if !isWrapped && truncation == .none {
                // Unwrapped text is clipped by its owner, not ellipsised: no width, so no wrapping.
                // Pango then aligns lines against the widest one; `draw` places that block in the rect.
                pango_layout_set_width(layout, -1)
                switch alignment {
                case .right: unwrappedAlignment = 1
                case .center: unwrappedAlignment = 0.5
                default: unwrappedAlignment = 0
                }
            }
        }
        switch truncation {
        case .none: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
        case .start: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_START)
        case .middle: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_MIDDLE)
        case .end: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
        if truncation != .none && !isWrapped { pango_layout_set_height(layout, -1) }
        if truncation != .none, isWrapped, let height, height.isFinite, height > 0 {
            pango_layout_set_height(layout, Int32(clamping: CGClampToInt(Double(height * CGFloat(PANGO_SCALE)), in: 0...Int(Int32.max))))
        }
        switch alignment {
        case .natural, .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .justified: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT); pango_layout_set_justify(layout, 1)
        }
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// The laid-out size (logical extents) in user-space units.
    public var size: CGSize {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        return CGSize(width: CGFloat(logical.width), height: CGFloat(logical.height))
    }

    /// The distance from the layout's top to its first line's baseline, in user-space units.
    package var firstBaseline: CGFloat { CGFloat(pango_layout_get_baseline(layout)) / CGFloat(PANGO_SCALE) }

    /// Each line's baseline, from the layout's top, in user-space units.
    package var baselines: [CGFloat] {
        guard let iter = pango_layout_get_iter(layout) else { return [] }
        defer { pango_layout_iter_free(iter) }
        var out: [CGFloat] = []
        repeat { out.append(CGFloat(pango_layout_iter_get_baseline(iter)) / CGFloat(PANGO_SCALE)) }
        while pango_layout_iter_next_line(iter) != 0
        return out
    }

    /// The inked extent (what glyphs cover) relative to the layout's top-left, in user-space units.
    package var inkRect: CGRect {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let s = CGFloat(PANGO_SCALE)
        return CGRect(x: CGFloat(ink.x) / s, y: CGFloat(ink.y) / s, width: CGFloat(ink.width) / s, height: CGFloat(ink.height) / s)
    }

    /// The logical width of the layout (advance of its widest line), in user-space units.
    package var logicalWidth: CGFloat {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        return CGFloat(logical.width) / CGFloat(PANGO_SCALE)
    }

    /// The number of laid-out lines.
    public var lineCount: Int { Int(pango_layout_get_line_count(layout)) }

    /// True when an ellipsis replaced text.
    public var isTruncated: Bool { pango_layout_is_ellipsized(layout) != 0 }

    /// The font family Pango actually used for the first character (after fallback).
    public var firstFontFamily: String? {
        guard let iter = pango_layout_get_iter(layout) else { return nil }
        defer { pango_layout_iter_free(iter) }
        guard let run = pango_layout_iter_get_run_readonly(iter), let item = run.pointee.item,
              let font = item.pointee.analysis.font else { return nil }
        let desc = pango_font_describe(font)
        defer { pango_font_description_free(desc) }
        return pango_font_description_get_family(desc).map { String(cString: $0) }
    }

    private static func fontDescription(_ style: Style) -> OpaquePointer {
        let desc = pango_font_description_from_string(pangoName(style.fontFamily)) ?? pango_font_description_new()!
        let size = pangoSize(style.fontSize)
        pango_font_description_set_absolute_size(desc, Double(size))
        return desc
    }

    /// Apple's font names as Pango reads them: a family ("DejaVu Sans"), a full name ending in
    /// style words ("DejaVu Sans Bold Oblique"), or a PostScript name ("DejaVuSans-BoldOblique",
    /// "Helvetica-Bold"), whose style part is spelt out in words. fontconfig compares family names
    /// ignoring case and blanks, so "DejaVuSans" finds "DejaVu Sans".
    package static func pangoName(_ name: String) -> String {
        guard !name.contains(" "), let dash = name.lastIndex(of: "-"), dash != name.startIndex else { return name }
        var style = ""
        for c in name[name.index(after: dash)...] {
            if c.isUppercase, !style.isEmpty { style.append(" ") }
            style.append(c)
        }
        return name[..<dash] + " " + style
    }

    private static func addColor(_ color: CGColor, start: UInt32, end: UInt32, to attrs: OpaquePointer) {
        let c = color.rgba
        func u16(_ v: CGFloat) -> UInt16 { UInt16(CGClampToInt(Double(v * 65535).rounded(), in: 0...65535)) }
        let fg = pango_attr_foreground_new(u16(c.r), u16(c.g), u16(c.b))!
        fg.pointee.start_index = start; fg.pointee.end_index = end
        pango_attr_list_insert(attrs, fg)
        let alpha = pango_attr_foreground_alpha_new(max(1, u16(c.a)))!
        alpha.pointee.start_index = start; alpha.pointee.end_index = end
        pango_attr_list_insert(attrs, alpha)
    }
}

extension CGContext {
    /// Draws `layout` in text space as Core Text does: the layout's top-left at `origin` of a
    /// y-up text space mapped into user space by `text` (the text matrix, then the position);
    /// glyphs are upright when user space is y up, mirrored when it is y down (as on Apple systems).
    package func drawText(_ layout: CGTextLayout, topLeft origin: CGPoint, text: CGAffineTransform) {
        guard origin.isFinite, text.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return }
        guard glyphsFit(layout, text: text) else { return }
        composite(.custom { t in
            var m = cairo_matrix_t(xx: text.a, yx: text.b, xy: text.c, yy: text.d, x0: text.tx, y0: text.ty)
            cairo_transform(t, &m)
            cairo_translate(t, origin.x, origin.y)
            cairo_scale(t, 1, -1)   // Pango lays out y down; text space is y up
            cairo_move_to(t, 0, 0)
            pango_cairo_update_layout(t, layout.layout)
            pango_cairo_show_layout(t, layout.layout)
        }, .color(.black))
    }

    /// Whether the layout's largest glyphs, through the CTM and `text`, stay within
    /// `CGTextLayout.maxDeviceFontSize` pixels (counts a refusal).
    private func glyphsFit(_ layout: CGTextLayout, text: CGAffineTransform) -> Bool {
        let m = text.concatenating(state.ctm)
        let scale = max(hypot(m.a, m.b), hypot(m.c, m.d))
        guard layout.largestFontSize * scale <= CGTextLayout.maxDeviceFontSize else {
            CGDiagnostics.record(.budgetExceeded)
            return false
        }
        return true
    }

    /// Draws `layout` with its first line at the visual top of `rect` and glyphs upright,
    /// whether user space is y-up (a plain bitmap context) or y-down (a layer's pre-flipped
    /// context). Text outside `rect` is not clipped; the caller clips when it wants to.
    public func draw(_ layout: CGTextLayout, in rect: CGRect) {
        guard rect.isFiniteRect else { CGDiagnostics.record(.nonFiniteGeometry); return }
        guard glyphsFit(layout, text: .identity) else { return }
        let flippedUserSpace = state.ctm.a * state.ctm.d - state.ctm.b * state.ctm.c < 0
        let x = rect.minX + (layout.unwrappedAlignment == 0 ? 0 : (rect.width - layout.size.width) * layout.unwrappedAlignment)
        composite(.custom { t in
            if flippedUserSpace {
                cairo_move_to(t, x, rect.minY)
            } else {
                // y-up user space: flip about the rect's top edge so Pango's y-down layout reads upright.
                cairo_translate(t, 0, rect.maxY)
                cairo_scale(t, 1, -1)
                cairo_move_to(t, x, 0)
            }
            pango_cairo_update_layout(t, layout.layout)
            pango_cairo_show_layout(t, layout.layout)
        }, .color(.black))
    }
}
