import Foundation

// The typed string constants of CAShapeLayer, CAGradientLayer and CATextLayer (Apple's raw values).

/// The rule that decides which regions of a shape layer's path are inside (filled).
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `nonZero` (raw value "non-zero").
    public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
    /// Apple's `evenOdd` (raw value "even-odd").
    public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")
}

/// How the open ends of a shape layer's stroked subpaths are drawn.
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `butt` (raw value "butt").
    public static let butt = CAShapeLayerLineCap(rawValue: "butt")
    /// Apple's `round` (raw value "round").
    public static let round = CAShapeLayerLineCap(rawValue: "round")
    /// Apple's `square` (raw value "square").
    public static let square = CAShapeLayerLineCap(rawValue: "square")
}

/// How the corners between stroked segments of a shape layer are drawn.
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `miter` (raw value "miter").
    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    /// Apple's `round` (raw value "round").
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    /// Apple's `bevel` (raw value "bevel").
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")
}

/// The shape of a gradient layer's colour ramp.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `axial` (raw value "axial").
    public static let axial = CAGradientLayerType(rawValue: "axial")
    /// Apple's `radial` (raw value "radial").
    public static let radial = CAGradientLayerType(rawValue: "radial")
    /// Apple's `conic` (raw value "conic").
    public static let conic = CAGradientLayerType(rawValue: "conic")
}

/// Where a text layer puts the ellipsis when its text does not fit.
public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `none` (raw value "none").
    public static let none = CATextLayerTruncationMode(rawValue: "none")
    /// Apple's `start` (raw value "start").
    public static let start = CATextLayerTruncationMode(rawValue: "start")
    /// Apple's `middle` (raw value "middle").
    public static let middle = CATextLayerTruncationMode(rawValue: "middle")
    /// Apple's `end` (raw value "end").
    public static let end = CATextLayerTruncationMode(rawValue: "end")
}

/// How a text layer aligns its lines horizontally.
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `natural` (raw value "natural").
    public static let natural = CATextLayerAlignmentMode(rawValue: "natural")
    /// Apple's `left` (raw value "left").
    public static let left = CATextLayerAlignmentMode(rawValue: "left")
    /// Apple's `right` (raw value "right").
    public static let right = CATextLayerAlignmentMode(rawValue: "right")
    /// Apple's `center` (raw value "center").
    public static let center = CATextLayerAlignmentMode(rawValue: "center")
    /// Apple's `justified` (raw value "justified").
    public static let justified = CATextLayerAlignmentMode(rawValue: "justified")
}

/// Apple's `kCAFillRuleNonZero` ("non-zero").
public let kCAFillRuleNonZero = "non-zero"
/// Apple's `kCAFillRuleEvenOdd` ("even-odd").
public let kCAFillRuleEvenOdd = "even-odd"
/// Apple's `kCALineCapButt` ("butt").
public let kCALineCapButt = "butt"
/// Apple's `kCALineCapRound` ("round").
public let kCALineCapRound = "round"
/// Apple's `kCALineCapSquare` ("square").
public let kCALineCapSquare = "square"
/// Apple's `kCALineJoinMiter` ("miter").
public let kCALineJoinMiter = "miter"
/// Apple's `kCALineJoinRound` ("round").
public let kCALineJoinRound = "round"
/// Apple's `kCALineJoinBevel` ("bevel").
public let kCALineJoinBevel = "bevel"
/// Apple's `kCAGradientLayerAxial` ("axial").
public let kCAGradientLayerAxial = "axial"
/// Apple's `kCAGradientLayerRadial` ("radial").
public let kCAGradientLayerRadial = "radial"
/// Apple's `kCAGradientLayerConic` ("conic").
public let kCAGradientLayerConic = "conic"
/// Apple's `kCATruncationNone` ("none").
public let kCATruncationNone = "none"
/// Apple's `kCATruncationStart` ("start").
public let kCATruncationStart = "start"
/// Apple's `kCATruncationMiddle` ("middle").
public let kCATruncationMiddle = "middle"
/// Apple's `kCATruncationEnd` ("end").
public let kCATruncationEnd = "end"
/// Apple's `kCAAlignmentNatural` ("natural").
public let kCAAlignmentNatural = "natural"
/// Apple's `kCAAlignmentLeft` ("left").
public let kCAAlignmentLeft = "left"
/// Apple's `kCAAlignmentRight` ("right").
public let kCAAlignmentRight = "right"
/// Apple's `kCAAlignmentCenter` ("center").
public let kCAAlignmentCenter = "center"
/// Apple's `kCAAlignmentJustified` ("justified").
public let kCAAlignmentJustified = "justified"
