import CoreGraphics
import Foundation

/// The committed properties of a CAShapeLayer (layer space, points; Apple's defaults).
package struct ShapeContent: Equatable, Sendable {
    package var path: CGPath? { didSet { pathBox = path?.boundingBoxOfPath ?? .null } }
    /// The path's box (`boundingBoxOfPath`), worked out when the path is set rather than each
    /// time a frame asks for the shape's extent (two or three times a shape layer a frame).
    private(set) var pathBox = CGRect.null
    package var fillColor: CGColor? = CGColor.black
    /// "non-zero" or "even-odd".
    package var fillRule = "non-zero"
    package var strokeColor: CGColor?
    package var lineWidth: CGFloat = 1
    package var miterLimit: CGFloat = 10
    /// "butt", "round" or "square".
    package var lineCap = "butt"
    /// "miter", "round" or "bevel".
    package var lineJoin = "miter"
    package var lineDashPattern: [CGFloat]?
    package var lineDashPhase: CGFloat = 0
    package var strokeStart: CGFloat = 0
    package var strokeEnd: CGFloat = 1

    package init() {}

    func value(forKey key: String) -> AnimatableValue? {
        switch key {
        case "path": return path.map { .path($0.ops) } ?? AnimatableValue.none
        case "fillColor": return LayerState.color(fillColor)
        case "strokeColor": return LayerState.color(strokeColor)
        case "lineWidth": return .number(Double(lineWidth))
        case "miterLimit": return .number(Double(miterLimit))
        case "lineDashPhase": return .number(Double(lineDashPhase))
        case "strokeStart": return .number(Double(strokeStart))
        case "strokeEnd": return .number(Double(strokeEnd))
        default: return nil
        }
    }

    mutating func set(_ key: String, _ v: AnimatableValue) -> Bool {
        switch key {
        case "path":
            if case .path(let ops) = v { path = CGPath.make(ops) } else if v == .none { path = nil }
        case "fillColor": return ContentValue.setColor(&fillColor, v)
        case "strokeColor": return ContentValue.setColor(&strokeColor, v)
        case "lineWidth": if let x = ContentValue.number(v) { lineWidth = x }
        case "miterLimit": if let x = ContentValue.number(v) { miterLimit = x }
        case "lineDashPhase": if let x = ContentValue.number(v) { lineDashPhase = x }
        case "strokeStart": if let x = ContentValue.number(v) { strokeStart = x }
        case "strokeEnd": if let x = ContentValue.number(v) { strokeEnd = x }
        default: return false
        }
        return true
    }

    /// Whether a stroke is drawn at all (a colour that shows, a usable width).
    var hasStroke: Bool { (strokeColor?.alpha ?? 0) > 0 && lineWidth > 0 && lineWidth.isFinite }

    /// What the shape can paint, in layer space: the path's box grown by the stroke's reach
    /// (miter joins reach miterLimit × half the width, square caps √2 × half the width).
    /// Inlined: the compositor asks for it two or three times a shape layer a frame.
    @inline(__always) func extent() -> CGRect? {
        guard let path, !path.isEmpty else { return nil }
        var box = pathBox
        guard box.isFiniteRect, !box.isNull else { return nil }
        if hasStroke {
            let reach = lineWidth / 2 * (lineJoin == "miter" ? max(miterLimit, 1.5) : 1.5)
            box = box.inset(dx: -reach, dy: -reach)
        }
        return box
    }

    /// Whether the compositor's own rasteriser draws this shape (non-zero fills; even-odd fills
    /// are drawn by CoreGraphics).
    var isRasterizable: Bool { fillRule != "even-odd" || fillColor == nil }

    /// Whether the compositor draws this shape again each frame rather than caching a picture
    /// of it: one its rasteriser draws, whose outline is cheap to make (at most
    /// `ShapeContent.cachedOutlineElements` path elements, no dashes). A picture is composited
    /// over the shape's whole box; redrawing touches only the outline's pixels and, with the
    /// span kernel, costs less (S5's strokes: 5.13 against 5.65 ms a frame).
    var drawsEachFrame: Bool {
        guard isRasterizable, let path, path.ops.count <= ShapeContent.cachedOutlineElements else { return false }
        return !hasStroke || (lineDashPattern ?? []).isEmpty
    }

    /// Path elements above which a rasterised shape's picture is cached: outlines this long are
    /// taken to cost more to make and flatten each frame than their picture costs to composite
    /// (not measured: a bound on the safe side of S5's 11 elements a star).
    static let cachedOutlineElements = 256

    /// Hands the pieces of the stroke's outline (trimmed, dashed, then widened; layer space) to
    /// `sink` without building the outline, curves followed within `tolerance` (layer units);
    /// false when nothing is stroked.
    func stroke<Sink: PathSink>(into sink: inout Sink, tolerance: CGFloat = 0.05) -> Bool {
        guard let p = strokedPath(tolerance: tolerance) else { return false }
        p.stroke(width: lineWidth, cap: cgLineCap, join: cgLineJoin, miterLimit: cgMiterLimit, tolerance: tolerance, into: &sink)
        return true
    }

    /// The path the stroke follows: trimmed to strokeStart…strokeEnd, then dashed.
    private func strokedPath(tolerance: CGFloat) -> CGPath? {
        guard hasStroke, let path else { return nil }
        var p = path.trimmed(from: strokeStart, to: strokeEnd)
        guard !p.isEmpty else { return nil }
        if let dashes = lineDashPattern, !dashes.isEmpty {
            p = p.dashed(phase: lineDashPhase.isFinite ? lineDashPhase : 0, lengths: dashes, tolerance: tolerance)
        }
        return p
    }

    private var cgLineCap: CGLineCap { lineCap == "round" ? .round : lineCap == "square" ? .square : .butt }
    private var cgLineJoin: CGLineJoin { lineJoin == "round" ? .round : lineJoin == "bevel" ? .bevel : .miter }
    private var cgMiterLimit: CGFloat { miterLimit.isFinite ? miterLimit : 10 }

    /// Fills then strokes the path into `ctx` (its CTM maps layer space to the device).
    func draw(in ctx: CGContext) {
        guard let path, !path.isEmpty else { return }
        if let fill = fillColor, fill.alpha > 0 {
            ctx.addPath(path)
            ctx.setFillColor(fill)
            ctx.fillPath(using: fillRule == "even-odd" ? .evenOdd : .winding)
        }
        guard hasStroke, let stroke = strokeColor else { return }
        let trimmed = path.trimmed(from: strokeStart, to: strokeEnd)
        guard !trimmed.isEmpty else { return }
        ctx.setLineWidth(lineWidth)
        ctx.setMiterLimit(cgMiterLimit)
        ctx.setLineCap(cgLineCap)
        ctx.setLineJoin(cgLineJoin)
        // A pattern of zeros or negatives draws a solid line (CGContext ignores it and counts it).
        ctx.setLineDash(phase: lineDashPhase.isFinite ? lineDashPhase : 0, lengths: lineDashPattern ?? [])
        ctx.addPath(trimmed)
        ctx.setStrokeColor(stroke)
        ctx.strokePath()
    }
}
