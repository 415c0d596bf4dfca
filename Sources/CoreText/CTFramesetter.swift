import CoreGraphics
import Foundation

/// Lays out attributed text in frames: Core Text's CTFramesetter.
public final class CTFramesetter: @unchecked Sendable {   // immutable after init
    let string: NSAttributedString
    init(_ string: NSAttributedString) { self.string = string }
}

/// Text laid out in a frame: Core Text's CTFrame (wrapped by words in the bounding box of its
/// path; lines that do not fit below the box are left out).
public final class CTFrame: @unchecked Sendable {   // immutable after init
    let string: NSAttributedString
    let box: CGRect
    let range: CFRange

    init(_ string: NSAttributedString, box: CGRect, range: CFRange) {
        self.string = string; self.box = box; self.range = range
    }

    /// The layout of the frame's text, runs without a colour in `fill`.
    func layout(fill: CGColor) -> CGTextLayout {
        AttributedLayout.make(substring, width: box.width, fill: fill)
    }

    var substring: NSAttributedString {
        let all = NSRange(location: 0, length: string.length)
        let loc = min(max(range.location, 0), all.length)
        let len = range.length <= 0 ? all.length - loc : min(range.length, all.length - loc)
        // The whole string is used as it is: corelibs Foundation leaks the attributes of every
        // attributed string it makes (swift-corelibs-foundation#5256), so a copy per draw would
        // leak a little at every frame.
        if loc == 0, len == all.length { return string }
        return string.attributedSubstring(from: NSRange(location: loc, length: len))
    }
}

/// A framesetter for `string`.
public func CTFramesetterCreateWithAttributedString(_ string: CFAttributedString) -> CTFramesetter { CTFramesetter(string) }

/// A frame holding `stringRange` of the text (length 0: to the end) laid out in `path`'s bounding
/// box. Only the box is used: non-rectangular paths are laid out in their bounds.
public func CTFramesetterCreateFrame(_ framesetter: CTFramesetter, _ stringRange: CFRange, _ path: CGPath,
                                     _ frameAttributes: CFDictionary?) -> CTFrame {
    var box = path.boundingBoxOfPath
    if !box.isFiniteRect || box.isNull { CGDiagnostics.record(.nonFiniteGeometry); box = .zero }
    return CTFrame(framesetter.string, box: box, range: stringRange)
}

/// The size `stringRange` of the text needs when laid out no wider than `constraints.width`
/// (0 or less: unlimited); also its range through `fitRange`.
public func CTFramesetterSuggestFrameSizeWithConstraints(_ framesetter: CTFramesetter, _ stringRange: CFRange,
                                                         _ frameAttributes: CFDictionary?, _ constraints: CGSize,
                                                         _ fitRange: UnsafeMutablePointer<CFRange>?) -> CGSize {
    let frame = CTFrame(framesetter.string, box: CGRect(x: 0, y: 0, width: constraints.width, height: 0), range: stringRange)
    let width: CGFloat? = constraints.width.isFinite && constraints.width > 0 ? constraints.width : nil
    let layout = AttributedLayout.make(frame.substring, width: width, fill: .black)
    fitRange?.pointee = CFRange(location: max(0, stringRange.location), length: frame.substring.length)
    let size = layout.size
    let height = constraints.height.isFinite && constraints.height > 0 ? min(size.height, constraints.height) : size.height
    return CGSize(width: ceil(layout.logicalWidth), height: ceil(height))
}

/// The range of text the frame holds.
public func CTFrameGetStringRange(_ frame: CTFrame) -> CFRange { CFRange(location: max(0, frame.range.location), length: frame.substring.length) }

/// The number of lines the frame's text takes.
public func CTFrameGetLineCount(_ frame: CTFrame) -> CFIndex { frame.layout(fill: .black).lineCount }

/// The baseline origins of lines `range` (length 0: all), relative to the frame box's
/// bottom-left corner, y up (Core Text's convention).
public func CTFrameGetLineOrigins(_ frame: CTFrame, _ range: CFRange, _ origins: UnsafeMutablePointer<CGPoint>) {
    let baselines = frame.layout(fill: .black).baselines
    let start = min(max(range.location, 0), baselines.count)
    let count = range.length <= 0 ? baselines.count - start : min(range.length, baselines.count - start)
    for i in 0..<count { origins[i] = CGPoint(x: 0, y: frame.box.height - baselines[start + i]) }
}

/// Draws the frame: its first line at the top of the box, in text space mapped by the text
/// matrix (y up: flip a layer's y-down context first, as Apple code does); runs without a
/// colour take the context's fill colour.
public func CTFrameDraw(_ frame: CTFrame, _ context: CGContext) {
    guard frame.box.width > 0, frame.box.height > 0 else { return }
    let layout = frame.layout(fill: context.currentFillColor)
    context.saveGState()
    context.clip(to: frame.box.applying(context.textMatrix))
    context.drawText(layout, topLeft: CGPoint(x: frame.box.minX, y: frame.box.maxY), text: context.textMatrix)
    context.restoreGState()
}
