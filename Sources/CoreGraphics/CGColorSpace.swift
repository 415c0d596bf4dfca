import Foundation

/// The colour model of a colour space.
public enum CGColorSpaceModel: Int32, Sendable {
    case unknown = -1, monochrome = 0, rgb = 1, cmyk = 2, lab = 3, deviceN = 4, indexed = 5, pattern = 6, XYZ = 7
}

/// A colour space: how colour components are interpreted.
///
/// Supported: device/generic/sRGB RGB, device/generic gray and linear variants by name.
/// All RGB spaces render as sRGB (8-bit, gamma-space blending, as Core Animation does).
public final class CGColorSpace: Equatable, Hashable, @unchecked Sendable, CustomStringConvertible {   // immutable after init
    /// The space's colour model.
    public let model: CGColorSpaceModel
    /// The space's name, when it has one.
    public let name: CFString?

    init(model: CGColorSpaceModel, name: String?) {
        self.model = model
        self.name = name.map { NSString(string: $0) }
    }

    /// Creates a named colour space; `nil` for a name this implementation does not know.
    public convenience init?(name: CFString) {
        let n = String(describing: name)
        if CGColorSpace.rgbNames.contains(n) {
            self.init(model: .rgb, name: n)
        } else if CGColorSpace.grayNames.contains(n) {
            self.init(model: .monochrome, name: n)
        } else {
            return nil
        }
    }

    /// Components per colour, without alpha.
    public var numberOfComponents: Int {
        switch model {
        case .monochrome: return 1
        case .cmyk: return 4
        default: return 3
        }
    }

    /// sRGB.
    public static var sRGB: CFString { "kCGColorSpaceSRGB" }
    /// Extended-range sRGB.
    public static var extendedSRGB: CFString { "kCGColorSpaceExtendedSRGB" }
    /// Linear sRGB.
    public static var linearSRGB: CFString { "kCGColorSpaceLinearSRGB" }
    /// Display P3 (rendered as sRGB here).
    public static var displayP3: CFString { "kCGColorSpaceDisplayP3" }
    /// Generic RGB.
    public static var genericRGBLinear: CFString { "kCGColorSpaceGenericRGBLinear" }
    /// Gray with a gamma of 2.2.
    public static var genericGrayGamma2_2: CFString { "kCGColorSpaceGenericGrayGamma2_2" }
    /// Linear gray.
    public static var linearGray: CFString { "kCGColorSpaceLinearGray" }
    /// Extended-range gray.
    public static var extendedGray: CFString { "kCGColorSpaceExtendedGray" }

    static let rgbNames: Set<String> = ["kCGColorSpaceSRGB", "kCGColorSpaceExtendedSRGB", "kCGColorSpaceLinearSRGB",
                                        "kCGColorSpaceDisplayP3", "kCGColorSpaceGenericRGBLinear",
                                        "kCGColorSpaceGenericRGB", "kCGColorSpaceDeviceRGB"]
    static let grayNames: Set<String> = ["kCGColorSpaceGenericGrayGamma2_2", "kCGColorSpaceLinearGray",
                                         "kCGColorSpaceExtendedGray", "kCGColorSpaceGenericGray",
                                         "kCGColorSpaceDeviceGray"]

    static let deviceRGB = CGColorSpace(model: .rgb, name: "kCGColorSpaceDeviceRGB")
    static let deviceGray = CGColorSpace(model: .monochrome, name: "kCGColorSpaceDeviceGray")
    static let srgbSpace = CGColorSpace(model: .rgb, name: "kCGColorSpaceSRGB")
    static let grayGammaSpace = CGColorSpace(model: .monochrome, name: "kCGColorSpaceGenericGrayGamma2_2")

    /// Equality as Apple defines it for this type.
    public static func == (lhs: CGColorSpace, rhs: CGColorSpace) -> Bool {
        lhs.model == rhs.model && lhs.name == rhs.name
    }
    /// Hashes the values that equality compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(model); hasher.combine(name) }
    /// A readable description for logs and debugging.
    public var description: String { "CGColorSpace(\(name.map { String(describing: $0) } ?? "unnamed"))" }
}

/// The device-dependent RGB colour space (treated as sRGB).
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace.deviceRGB }
/// The device-dependent gray colour space.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace.deviceGray }
