// Core Text as Apple code uses it, from Apple's documentation:
// - CTFontCreateWithName: "name: the font name for which you wish to create a new font
//   reference"; "size: the point size for the font reference. If 0.0 is specified, the default
//   font size of 12.0 is used." A name that is not installed falls back as fontconfig does.
// - CTLineDraw: "draws a complete line … the line is drawn at the current text position" with
//   "the text matrix of the context".
// - CTFrameDraw: the frame's first line sits at the top of its path, in Core Graphics' y-up
//   space; Apple code drawing in a layer's (y-down) context flips it first
//   (`translateBy(x: 0, y: height); scaleBy(x: 1, y: -1)`, text matrix identity).
// - CTFramesetterSuggestFrameSizeWithConstraints: "the frame size needed for a string range".
// - CTFontCreateWithName takes "the PostScript name or the full name" of a font: "Helvetica-Bold"
//   and "Helvetica Bold" both name the bold face.
// - Emoji are drawn in colour (Apple Color Emoji on Apple systems; Noto Color Emoji here, which
//   `make deps` installs).
import CoreGraphics
import CoreText
import Foundation
@testable import QuartzCore
import Testing
import TestSupport

@Suite struct CoreTextTests {
    func attributed(_ text: String, size: CGFloat = 20, color: CGColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)) -> NSAttributedString {
        NSAttributedString(string: text, attributes: [
            NSAttributedString.Key(kCTFontAttributeName as String): CTFontCreateWithName("DejaVu Sans" as CFString, size, nil),
            NSAttributedString.Key(kCTForegroundColorAttributeName as String): color,
        ])
    }

    /// The rows (from the top) and columns holding ink in `ctx`.
    func ink(_ ctx: CGContext) -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>)? {
        var rows: [Int] = [], cols: [Int] = []
        for y in 0..<ctx.height { for x in 0..<ctx.width where pixel(ctx, x, y) >> 24 != 0 { rows.append(y); cols.append(x) } }
        guard let r0 = rows.min(), let r1 = rows.max(), let c0 = cols.min(), let c1 = cols.max() else { return nil }
        return (r0...r1, c0...c1)
    }

    @Test func fontsResolveWithMetricsAndFallBackLikeFontconfig() {
        let font = CTFontCreateWithName("DejaVu Sans" as CFString, 20, nil)
        #expect(CTFontGetSize(font) == 20)
        #expect(CTFontCopyFamilyName(font) as String == "DejaVu Sans")
        let a = CTFontGetAscent(font), d = CTFontGetDescent(font)
        #expect(a > 14 && a < 22 && d > 3 && d < 8)
        #expect(CTFontGetSize(CTFontCreateWithName("DejaVu Sans" as CFString, 0, nil)) == 12)
        let missing = CTFontCreateWithName("No Such Font Family 123" as CFString, 14, nil)
        #expect(!(CTFontCopyFamilyName(missing) as String).isEmpty)
        #expect(CTFontGetSize(CTFontCreateCopyWithAttributes(font, 30, nil, nil)) == 30)
    }

    @Test func aLineIsDrawnAtTheTextPositionOnItsBaseline() throws {
        let ctx = makeContext(200, 60)
        let line = CTLineCreateWithAttributedString(attributed("Hello"))
        var ascent: CGFloat = 0, descent: CGFloat = 0, leading: CGFloat = 0
        let width = CTLineGetTypographicBounds(line, &ascent, &descent, &leading)
        #expect(width > 40 && width < 80 && ascent > 14 && descent > 3)
        ctx.textPosition = CGPoint(x: 10, y: 20)   // y up: 20 above the bottom edge
        CTLineDraw(line, ctx)
        let box = try #require(ink(ctx))
        // Baseline at y = 20 from the bottom: row 40 from the top. "Hello" has no descender.
        #expect(box.rows.upperBound <= 40 && box.rows.upperBound >= 38 && box.rows.lowerBound >= 40 - Int(ascent) - 1)
        #expect(box.columns.lowerBound >= 10 && box.columns.lowerBound <= 13)
        #expect(abs(ctx.textPosition.x - (10 + CGFloat(width))) < 0.01 && ctx.textPosition.y == 20)
        let image = CTLineGetImageBounds(line, ctx)
        #expect(image.minY >= -1 && image.maxY <= ascent && image.width > 30)
    }

    @Test func aFrameFillsItsBoxFromTheTopAndSuggestsItsSize() throws {
        let text = attributed("Core Animation on Linux draws text with Core Text on Pango.", size: 14)
        let setter = CTFramesetterCreateWithAttributedString(text)
        let size = CTFramesetterSuggestFrameSizeWithConstraints(setter, CFRange(location: 0, length: 0), nil,
                                                                CGSize(width: 150, height: CGFloat.greatestFiniteMagnitude), nil)
        #expect(size.width <= 150 && size.height > 30)   // wraps onto several lines
        let ctx = makeContext(160, 120)
        let frame = CTFramesetterCreateFrame(setter, CFRange(location: 0, length: 0),
                                             CGPath(rect: CGRect(x: 5, y: 5, width: 150, height: 110), transform: nil), nil)
        #expect(CTFrameGetLineCount(frame) >= 3)
        CTFrameDraw(frame, ctx)
        let box = try #require(ink(ctx))
        // y up: the box's top is 5 points below the context's top edge; the first line starts there.
        #expect(box.rows.lowerBound >= 5 && box.rows.lowerBound <= 10 && box.columns.lowerBound >= 5)
        var origins = [CGPoint](repeating: .zero, count: CTFrameGetLineCount(frame))
        CTFrameGetLineOrigins(frame, CFRange(location: 0, length: 0), &origins)
        #expect(origins[0].y > origins[1].y && origins[0].y < 110)
    }

    /// A layer that draws a Core Text frame the way Apple sample code does.
    final class CaptionLayer: CALayer {
        var caption = "Caption"
        override func draw(in ctx: CGContext) {
            ctx.textMatrix = .identity
            ctx.translateBy(x: 0, y: bounds.height)
            ctx.scaleBy(x: 1, y: -1)
            let font = CTFontCreateWithName("DejaVu Sans" as CFString, 16, nil)
            let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            let attributes: [NSAttributedString.Key: Any] = [.font: font, .foregroundColor: white]
            let string = NSAttributedString(string: caption, attributes: attributes)
            let setter = CTFramesetterCreateWithAttributedString(string)
            let frame = CTFramesetterCreateFrame(setter, CFRange(location: 0, length: 0), CGPath(rect: bounds, transform: nil), nil)
            CTFrameDraw(frame, ctx)
        }
    }

    @Test func aLayerDrawsCoreTextInDrawIn() throws {
        let layer = CaptionLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 120, height: 60)
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        let ctx = makeContext(120, 60)
        // render(in:) draws in the layer's space through a y-up context: flip it as a view would.
        ctx.translateBy(x: 0, y: 60)
        ctx.scaleBy(x: 1, y: -1)
        layer.render(in: ctx)
        let box = try #require(ink(ctx))
        // The caption's first line is at the top of the layer, not the bottom.
        #expect(box.rows.lowerBound < 10 && box.rows.upperBound < 30)
    }

    @Test func aTextLayerTakesACTFont() {
        let text = CATextLayer()
        text.font = CTFontCreateWithName("DejaVu Sans Mono" as CFString, 30, nil)
        #expect(CATextLayer.family(text.font) == "DejaVu Sans Mono")
    }

    @Test func hostileTextInput() {
        // A frame of zero size draws nothing; a megabyte string lays out (cut to the layout budget).
        let ctx = makeContext(20, 20)
        let setter = CTFramesetterCreateWithAttributedString(attributed(String(repeating: "a", count: 1 << 20)))
        CTFrameDraw(CTFramesetterCreateFrame(setter, CFRange(), CGPath(rect: .zero, transform: nil), nil), ctx)
        #expect(ink(ctx) == nil)
        let size = CTFramesetterSuggestFrameSizeWithConstraints(setter, CFRange(), nil, CGSize(width: 100, height: 50), nil)
        #expect(size.height <= 50)
    }

    /// The pixels of `text` in a 120 × 40 text layer, black on clear.
    func textLayerPixels(_ text: String, font: CTFont? = nil) -> [UInt32] {
        let ctx = makeContext(120, 40)
        let layer = CATextLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 120, height: 40)
        layer.string = text
        if let font { layer.font = font }
        layer.fontSize = 24
        layer.foregroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        layer.render(in: ctx)
        return (0..<40).flatMap { y in (0..<120).map { pixel(ctx, $0, y) } }
    }

    @Test func emojiAreDrawnInColour() {
        let yellow = { (p: UInt32) in (p >> 16) & 0xFF > 0xC0 && (p >> 8) & 0xFF > 0x90 && p & 0xFF < 0x60 }
        #expect(textLayerPixels("A😀").filter(yellow).count > 50)
        #expect(textLayerPixels("AB").filter(yellow).isEmpty)
    }

    @Test func postScriptAndFullNamesNameTheirFace() {
        let inked = { (pixels: [UInt32]) in pixels.filter { $0 >> 24 > 0x80 }.count }
        let regular = inked(textLayerPixels("Hamburg", font: CTFontCreateWithName("DejaVu Sans" as CFString, 24, nil)))
        let postScript = inked(textLayerPixels("Hamburg", font: CTFontCreateWithName("DejaVuSans-Bold" as CFString, 24, nil)))
        let full = inked(textLayerPixels("Hamburg", font: CTFontCreateWithName("DejaVu Sans Bold" as CFString, 24, nil)))
        #expect(postScript > regular * 5 / 4 && full == postScript)
        #expect(CGTextLayout.pangoName("Helvetica-BoldOblique") == "Helvetica Bold Oblique")
        #expect(CGTextLayout.pangoName("DejaVu Sans") == "DejaVu Sans")
    }

    /// `make test` pins fontconfig to the fonts `make deps` installs (Tests/Fonts/fonts.conf), so
    /// that goldens do not depend on what else a machine has; outside `make test` this checks nothing.
    @Test func theTestsSeeOnlyTheFontsMakeDepsInstalls() throws {
        guard let config = ProcessInfo.processInfo.environment["FONTCONFIG_FILE"], config.hasSuffix("Tests/Fonts/fonts.conf") else { return }
        let list = Process()
        list.executableURL = URL(fileURLWithPath: "/usr/bin/fc-list")
        list.arguments = [":", "file"]
        let pipe = Pipe()
        list.standardOutput = pipe
        try list.run()
        let files = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ": ")) }
        list.waitUntilExit()
        let names = Set(files.map { ($0 as NSString).lastPathComponent })
        #expect(names == ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf",
                          "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "wqy-microhei.ttc", "NotoColorEmoji.ttf"])
    }

    /// A glyph of hundreds of thousands of pixels is not drawn (counted): FreeType would refuse
    /// it, and cairo would then mark the face failed for every later drawing in the process.
    @Test func hugeTextIsRefusedAndLaterTextStillDraws() {
        let before = CGDiagnostics.count(.budgetExceeded)
        let big = makeContext(20, 20)
        big.scaleBy(x: 1e5, y: 1e5)
        CTLineDraw(CTLineCreateWithAttributedString(attributed("W", size: 200)), big)
        #expect(CGDiagnostics.count(.budgetExceeded) > before)
        let ctx = makeContext(60, 30)
        ctx.textPosition = CGPoint(x: 2, y: 8)
        CTLineDraw(CTLineCreateWithAttributedString(attributed("Hi", size: 20)), ctx)
        #expect(ink(ctx) != nil)
    }
}
