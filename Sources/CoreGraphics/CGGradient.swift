import CCairo
import Foundation

/// Which ends of a gradient extend beyond its start and end.
public struct CGGradientDrawingOptions: OptionSet, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: UInt32
    /// Creates options from raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Fill before the start point (or start circle) with the first colour.
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1)
    /// Fill beyond the end point (or end circle) with the last colour.
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 2)
}

/// A colour ramp: colours at locations in [0, 1], interpolated in straight (unpremultiplied) RGBA.
public final class CGGradient: @unchecked Sendable {   // immutable after init
    /// One colour stop: location and straight RGBA, all clamped to [0, 1].
    struct Stop {
        var location, r, g, b, a: CGFloat
    }
    /// Colour stops, sorted by location (stable).
    let stops: [Stop]

    /// Creates a gradient from CGColors; `locations` nil spreads them evenly. Nil when there are no colours.
    public init?(colorsSpace space: CGColorSpace?, colors: CFArray, locations: UnsafePointer<CGFloat>?) {
        let cgColors = colors.compactMap { $0 as? CGColor }
        guard !cgColors.isEmpty, cgColors.count == colors.count else {
            CGDiagnostics.record(.invalidParameter); return nil
        }
        let n = cgColors.count
        stops = CGGradient.sorted((0..<n).map { i in
            let loc = locations.map { $0[i] } ?? (n == 1 ? 0 : CGFloat(i) / CGFloat(n - 1))
            let v = cgColors[i].rgba
            return Stop(location: loc, r: v.r, g: v.g, b: v.b, a: v.a)
        })
    }

    /// Creates a gradient from packed components (`count` colours of the space's components plus alpha).
    public init?(colorSpace space: CGColorSpace, colorComponents components: UnsafePointer<CGFloat>,
                 locations: UnsafePointer<CGFloat>?, count: Int) {
        guard count > 0, count < 1 << 20 else { CGDiagnostics.record(.invalidParameter); return nil }
        let k = space.numberOfComponents + 1
        stops = CGGradient.sorted((0..<count).map { i in
            let loc = locations.map { $0[i] } ?? (count == 1 ? 0 : CGFloat(i) / CGFloat(count - 1))
            let c = components + i * k
            if k == 2 { return Stop(location: loc, r: c[0], g: c[0], b: c[0], a: c[1]) }
            return Stop(location: loc, r: c[0], g: c[1], b: c[2], a: c[3])
        })
    }

    private static func sorted(_ raw: [Stop]) -> [Stop] {
        func unit(_ v: CGFloat) -> CGFloat { v.isFinite ? min(max(v, 0), 1) : 0 }
        let clamped = raw.map { Stop(location: unit($0.location), r: unit($0.r), g: unit($0.g), b: unit($0.b), a: unit($0.a)) }
        return clamped.enumerated().sorted { l, r in
            l.element.location != r.element.location ? l.element.location < r.element.location : l.offset < r.offset
        }.map(\.element)
    }

    /// Adds the stops to a cairo gradient pattern.
    func addStops(to pattern: OpaquePointer) {
        for s in stops {
            cairo_pattern_add_color_stop_rgba(pattern, Double(s.location), Double(s.r), Double(s.g), Double(s.b), Double(s.a))
        }
    }
}
