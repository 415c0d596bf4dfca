import CoreGraphics
import CoreText
import Foundation
import QuartzCore

/// Lays out the input as UTF-8 text (invalid sequences replaced) through Core Text — a line, a
/// frame in a rectangle taken from the input — and through a text layer.
enum TextFuzz {
    // One attributed string for the whole run, refilled for each input: corelibs Foundation
    // leaks the attributes of every attributed string it creates (swift-corelibs-foundation#5256),
    // which over a million inputs fragments the heap past the fuzzer's memory limit.
    nonisolated(unsafe) static let reused = NSMutableAttributedString(string: "")   // the fuzzer runs one input at a time
    static let black = CGColor(gray: 0, alpha: 1), red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let size = input.number()
        let names = ["DejaVu Sans", "DejaVuSans-Bold", "WenQuanYi Micro Hei", "No Such Font", "", "Noto Color Emoji"]
        let font = CTFontCreateWithName(names[input.int(names.count)] as CFString, size, nil)
        let box = input.rect()
        let truncation = [CATextLayerTruncationMode.none, .start, .middle, .end][input.int(4)]
        let text = String(decoding: input.rest(), as: UTF8.self)
        let attributed = TextFuzz.reused
        attributed.replaceCharacters(in: NSRange(location: 0, length: attributed.length), with: text)
        attributed.setAttributes([.font: font, .foregroundColor: TextFuzz.black], range: NSRange(location: 0, length: attributed.length))
        if attributed.length > 2 {
            attributed.addAttribute(.foregroundColor, value: TextFuzz.red, range: NSRange(location: 1, length: 1))
        }
        guard let ctx = fuzzContext() else { return }
        let line = CTLineCreateWithAttributedString(attributed)
        _ = CTLineGetTypographicBounds(line, nil, nil, nil)
        _ = CTLineGetImageBounds(line, ctx)
        ctx.textPosition = CGPoint(x: 2, y: 20)
        CTLineDraw(line, ctx)
        let setter = CTFramesetterCreateWithAttributedString(attributed)
        let frame = CTFramesetterCreateFrame(setter, CFRange(), CGPath(rect: box, transform: nil), nil)
        CTFrameDraw(frame, ctx)
        _ = CTFramesetterSuggestFrameSizeWithConstraints(setter, CFRange(), nil, box.size, nil)
        let layer = CATextLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        layer.string = attributed
        layer.isWrapped = size > 10
        layer.truncationMode = truncation
        layer.render(in: ctx)
    }
}
