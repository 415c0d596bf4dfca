import CoreGraphics
import Foundation

/// The committed properties of a CAGradientLayer (unit coordinates of the bounds; Apple's defaults).
package struct GradientContent: Equatable, Sendable {
    package var colors: [CGColor] = []
    /// Stop positions in [0, 1]; nil spreads the colours evenly.
    package var locations: [CGFloat]?
    package var startPoint = CGPoint(x: 0.5, y: 0)
    package var endPoint = CGPoint(x: 0.5, y: 1)
    /// "axial", "radial" or "conic".
    package var type = "axial"

    package init() {}

    func value(forKey key: String) -> AnimatableValue? {
        switch key {
        case "colors": return .array(colors.map { LayerState.color($0) })
        case "locations": return locations.map { .array($0.map { .number(Double($0)) }) } ?? AnimatableValue.none
        case "startPoint": return .point(startPoint)
        case "endPoint": return .point(endPoint)
        default: return nil
        }
    }

    mutating func set(_ key: String, _ v: AnimatableValue) -> Bool {
        switch key {
        case "colors":
            if v == .none { colors = []; return true }
            guard case .array(let items) = v else { return false }
            colors = items.compactMap { LayerState.cgColor($0) ?? nil }
        case "locations":
            if v == .none { locations = nil; return true }
            guard case .array(let items) = v else { return false }
            locations = items.compactMap { ContentValue.number($0) }
        case "startPoint": if let p = ContentValue.point(v) { startPoint = p }
        case "endPoint": if let p = ContentValue.point(v) { endPoint = p }
        default: return false
        }
        return true
    }

    /// Whether anything is drawn: at least two colours, and locations (when given) finite and at
    /// least as many as the colours. `stops()` is nil exactly when this is false; asked every
    /// frame, it builds nothing.
    var isDrawable: Bool {
        guard colors.count >= 2 else { return false }
        guard let locations else { return true }
        return locations.count >= colors.count && locations.allSatisfy(\.isFinite)
    }

    /// The colour stops to draw: straight-alpha (r, g, b, a) in [0, 1] at ascending positions; nil
    /// when nothing is drawn (`isDrawable` is false).
    func stops() -> [(position: Float, r: Float, g: Float, b: Float, a: Float)]? {
        guard isDrawable else { return nil }
        let positions: [CGFloat]
        if let locations {
            positions = Array(locations.prefix(colors.count))
        } else {
            positions = (0..<colors.count).map { CGFloat($0) / CGFloat(colors.count - 1) }
        }
        var last = -Float.infinity
        return zip(positions, colors).map { p, c in
            // Locations that go backwards are held at the previous one (a hard step), as Core Graphics does.
            last = max(last, Float(p))
            let v = c.rgba
            return (last, Float(v.r), Float(v.g), Float(v.b), Float(v.a))
        }
    }
}
