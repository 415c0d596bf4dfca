import CoreGraphics
import Foundation

/// One line of attributed text: Core Text's CTLine (laid out by Pango, never wrapped).
public final class CTLine: @unchecked Sendable {   // immutable after init
    let string: NSAttributedString
    /// Laid out with black for runs without a colour (drawing lays out again with the context's fill).
    let layout: CGTextLayout

    init(_ string: NSAttributedString) {
        self.string = string
        layout = AttributedLayout.make(string, width: nil, fill: .black)
    }
}

/// A line of `string` (one line: line breaks in it are laid out as Core Text lays out a line).
public func CTLineCreateWithAttributedString(_ string: CFAttributedString) -> CTLine { CTLine(string) }

/// The line's width (advance, user-space units), and through the pointers its ascent, descent
/// (positive) and leading, from the largest font on the line.
public func CTLineGetTypographicBounds(_ line: CTLine, _ ascent: UnsafeMutablePointer<CGFloat>?,
                                       _ descent: UnsafeMutablePointer<CGFloat>?,
                                       _ leading: UnsafeMutablePointer<CGFloat>?) -> Double {
    let b = line.layout.firstBaseline
    ascent?.pointee = b
    descent?.pointee = max(0, line.layout.size.height - b)
    leading?.pointee = 0
    return Double(line.layout.logicalWidth)
}

/// What the line's glyphs cover, in text space (y up, the baseline's start at the origin).
/// Apple's takes the context for its text matrix; this one does too and applies nothing else.
public func CTLineGetImageBounds(_ line: CTLine, _ context: CGContext?) -> CGRect {
    let ink = line.layout.inkRect
    let b = line.layout.firstBaseline
    guard !ink.isEmpty else { return .null }
    return CGRect(x: ink.minX, y: b - ink.maxY, width: ink.width, height: ink.height)
}

/// The number of UTF-16 units the line holds.
public func CTLineGetStringRange(_ line: CTLine) -> CFRange { CFRange(location: 0, length: line.string.length) }

/// Draws `line` with its baseline's start at the context's text position, through the text
/// matrix; runs without a colour take the context's fill colour. Moves the text position to
/// the line's end.
public func CTLineDraw(_ line: CTLine, _ context: CGContext) {
    let layout = AttributedLayout.make(line.string, width: nil, fill: context.currentFillColor)
    let p = context.textPosition
    let text = context.textMatrix.concatenating(CGAffineTransform(translationX: p.x, y: p.y))
    context.drawText(layout, topLeft: CGPoint(x: 0, y: layout.firstBaseline), text: text)
    let end = CGPoint(x: layout.logicalWidth, y: 0).applying(context.textMatrix)
    context.textPosition = CGPoint(x: p.x + end.x - context.textMatrix.tx, y: p.y + end.y - context.textMatrix.ty)
}
