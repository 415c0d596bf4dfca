import CoreGraphics
import CoreText
import Foundation
import QuartzCore

/// Lays out the input as UTF-8 text (invalid sequences replaced) through Core Text — a line, a
/// frame in a rectangle taken from the input — and through a text layer.
enum TextFuzz {
    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let size = input.number()
        let names = ["DejaVu Sans", "DejaVuSans-Bold", "WenQuanYi Micro Hei", "No Such Font", "", "Noto Color Emoji"]
        let font = CTFontCreateWithName(names[input.int(names.count)] as CFString, size, nil)
        let box = input.rect()
        let truncation = [CATextLayerTruncationMode.none, .start, .middle, .end][input.int(4)]
        let text = String(decoding: input.rest(), as: UTF8.self)
        let attributed = NSMutableAttributedString(string: text, attributes: [.font: font, .foregroundColor: CGColor(gray: 0, alpha: 1)])
        if attributed.length > 2 {
            attributed.addAttribute(.foregroundColor, value: CGColor(red: 1, green: 0, blue: 0, alpha: 1), range: NSRange(location: 1, length: 1))
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
