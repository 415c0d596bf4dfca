import Foundation

/// An immutable colour: components in a colour space plus alpha, each in [0, 1].
///
/// Components are stored as given (Apple keeps out-of-range values for extended
/// spaces); rendering clamps them to [0, 1]. Non-finite components are rejected:
/// the failable initialisers return `nil`, the others store 0 (counted as `.invalidColor`).
public final class CGColor: Equatable, Hashable, @unchecked Sendable, CustomStringConvertible {   // immutable after init
    /// The colour space the components are in.
    public let colorSpace: CGColorSpace?
    /// The components, alpha last.
    public let components: [CGFloat]?

    /// The alpha component.
    public let alpha: CGFloat
    /// Straight (unpremultiplied) RGBA in [0, 1], for rendering; worked out once (renderers read it
    /// for every layer of every frame).
    public let rgba: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat)

    init(space: CGColorSpace, values: [CGFloat]) {
        self.colorSpace = space
        let v = values.map { v in
            if v.isFinite { return v }
            CGDiagnostics.record(.invalidColor)
            return 0
        }
        self.components = v
        alpha = v.last ?? 1
        func clamp(_ x: CGFloat) -> CGFloat { min(max(x, 0), 1) }
        if v.count == 2 {
            rgba = (clamp(v[0]), clamp(v[0]), clamp(v[0]), clamp(v[1]))
        } else if v.count >= 4 {
            rgba = (clamp(v[0]), clamp(v[1]), clamp(v[2]), clamp(v[v.count - 1]))
        } else {
            rgba = (0, 0, 0, 1)
        }
    }

    /// Creates an sRGB colour.
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(space: .srgbSpace, values: [red, green, blue, alpha])
    }

    /// Creates an sRGB colour (Apple's explicit-sRGB spelling).
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(space: .srgbSpace, values: [red, green, blue, alpha])
    }

    /// Creates a gray colour (gamma 2.2 gray).
    public convenience init(gray: CGFloat, alpha: CGFloat) {
        self.init(space: .grayGammaSpace, values: [gray, alpha])
    }

    /// Creates a gray colour (Apple's spelling).
    public convenience init(genericGrayGamma2_2Gray gray: CGFloat, alpha: CGFloat) {
        self.init(gray: gray, alpha: alpha)
    }

    /// Creates a colour from `components` (colour components then alpha) in `space`;
    /// `nil` when the count does not match the space or a component is not finite.
    public convenience init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        let n = space.numberOfComponents + 1
        let values = Array(UnsafeBufferPointer(start: components, count: n))
        guard space.model == .rgb || space.model == .monochrome, values.allSatisfy(\.isFinite) else {
            CGDiagnostics.record(.invalidColor)
            return nil
        }
        self.init(space: space, values: values)
    }

    /// Opaque black.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Opaque white.
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Fully transparent black.
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// The number of components including alpha.
    public var numberOfComponents: Int { components?.count ?? 0 }

    /// The same colour with `alpha` replaced.
    public func copy(alpha: CGFloat) -> CGColor? {
        guard let space = colorSpace, var values = components, alpha.isFinite else { return nil }
        values[values.count - 1] = alpha
        return CGColor(space: space, values: values)
    }

    /// The same colour as a fresh object.
    public func copy() -> CGColor? {
        guard let space = colorSpace, let values = components else { return nil }
        return CGColor(space: space, values: values)
    }

    /// The colour converted to `space` (RGB ↔ gray by Rec. 709 luma); `nil` for unsupported spaces.
    public func converted(to space: CGColorSpace, intent: CGColorRenderingIntent,
                          options: CFDictionary?) -> CGColor? {
        let c = rgba
        switch space.model {
        case .rgb: return CGColor(space: space, values: [c.r, c.g, c.b, c.a])
        case .monochrome:
            return CGColor(space: space, values: [0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b, c.a])
        default: return nil
        }
    }

    /// Equal when in the same colour space with the same components (Apple's CFEqual).
    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs === rhs || (lhs.colorSpace == rhs.colorSpace && lhs.components == rhs.components)
    }
    /// Hashes the values that equality compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(components) }
    /// A readable description for logs and debugging.
    public var description: String {
        "CGColor(\((components ?? []).map { String(format: "%.3f", Double($0)) }.joined(separator: ", ")))"
    }
}

/// How colours outside a destination's gamut are mapped (accepted; all intents render alike here).
public enum CGColorRenderingIntent: Int32, Sendable {
    case defaultIntent, absoluteColorimetric, relativeColorimetric, perceptual, saturation
}
