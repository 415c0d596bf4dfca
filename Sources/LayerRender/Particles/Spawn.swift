import CoreGraphics
import Foundation

/// Where particles start relative to emitterPosition, by emitterShape and emitterMode (the
/// strings decoded once per frame, not per particle).
struct Spawn {
    enum Kind { case point, line, rectangle, rectangleOutline, rectangleCorners, circle, circleOutline }
    let kind: Kind
    let w: Double, h: Double
    /// Cuboid and sphere spread particles over emitterDepth too.
    let hasDepth: Bool

    init(_ e: EmitterContent) {
        w = Double(e.size.width); h = Double(e.size.height)
        hasDepth = e.shape == "cuboid" || e.shape == "sphere"
        switch e.shape {
        case "line": kind = .line
        case "rectangle", "cuboid":
            kind = e.mode == "outline" ? .rectangleOutline : e.mode == "points" ? .rectangleCorners : .rectangle
        case "circle", "sphere": kind = e.mode == "outline" ? .circleOutline : e.mode == "points" ? .point : .circle
        default: kind = .point
        }
    }

    func point(_ r: Compositor.Draws) -> CGPoint {
        let u = r.unit(9), v = r.unit(10)
        switch kind {
        case .point: return .zero
        case .line: return CGPoint(x: (u - 0.5) * w, y: 0)
        case .rectangle: return CGPoint(x: (u - 0.5) * w, y: (v - 0.5) * h)
        case .rectangleCorners: return CGPoint(x: (u < 0.5 ? -0.5 : 0.5) * w, y: (v < 0.5 ? -0.5 : 0.5) * h)
        case .rectangleOutline:
            let p = u * 2 * (w + h)
            if p < w { return CGPoint(x: p - w / 2, y: -h / 2) }
            if p < w + h { return CGPoint(x: w / 2, y: p - w - h / 2) }
            if p < 2 * w + h { return CGPoint(x: w / 2 - (p - w - h), y: h / 2) }
            return CGPoint(x: -w / 2, y: h / 2 - (p - 2 * w - h))
        case .circle:
            let d = w / 2 * u.squareRoot(), angle = v * 2 * .pi
            return CGPoint(x: d * cos(angle), y: d * sin(angle))
        case .circleOutline:
            let angle = v * 2 * .pi
            return CGPoint(x: w / 2 * cos(angle), y: w / 2 * sin(angle))
        }
    }
}
