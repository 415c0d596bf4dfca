import CoreGraphics
import Foundation

// Core Animation's typed string constants. Each raw value is Apple's, so values read from
// or written to key-value coding, archives or logs match Apple systems.

/// How a layer's contents are positioned or scaled in its bounds.
/// Names refer to layer coordinates, where "top" is the maximum y (as Apple documents).
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `center` (raw value "center").
    public static let center = CALayerContentsGravity(rawValue: "center")
    /// Apple's `top` (raw value "top").
    public static let top = CALayerContentsGravity(rawValue: "top")
    /// Apple's `bottom` (raw value "bottom").
    public static let bottom = CALayerContentsGravity(rawValue: "bottom")
    /// Apple's `left` (raw value "left").
    public static let left = CALayerContentsGravity(rawValue: "left")
    /// Apple's `right` (raw value "right").
    public static let right = CALayerContentsGravity(rawValue: "right")
    /// Apple's `topLeft` (raw value "topLeft").
    public static let topLeft = CALayerContentsGravity(rawValue: "topLeft")
    /// Apple's `topRight` (raw value "topRight").
    public static let topRight = CALayerContentsGravity(rawValue: "topRight")
    /// Apple's `bottomLeft` (raw value "bottomLeft").
    public static let bottomLeft = CALayerContentsGravity(rawValue: "bottomLeft")
    /// Apple's `bottomRight` (raw value "bottomRight").
    public static let bottomRight = CALayerContentsGravity(rawValue: "bottomRight")
    /// Apple's `resize` (raw value "resize").
    public static let resize = CALayerContentsGravity(rawValue: "resize")
    /// Apple's `resizeAspect` (raw value "resizeAspect").
    public static let resizeAspect = CALayerContentsGravity(rawValue: "resizeAspect")
    /// Apple's `resizeAspectFill` (raw value "resizeAspectFill").
    public static let resizeAspectFill = CALayerContentsGravity(rawValue: "resizeAspectFill")
    /// Every gravity Apple defines; any other value behaves (and reads back) as `center`.
    public static let all: Set<CALayerContentsGravity> = [.center, .top, .bottom, .left, .right, .topLeft, .topRight,
                                                          .bottomLeft, .bottomRight, .resize, .resizeAspect, .resizeAspectFill]
}

/// How contents are resampled when scaled.
public struct CALayerContentsFilter: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `nearest` (raw value "nearest").
    public static let nearest = CALayerContentsFilter(rawValue: "nearest")
    /// Apple's `linear` (raw value "linear").
    public static let linear = CALayerContentsFilter(rawValue: "linear")
    /// Apple's `trilinear` (raw value "trilinear").
    public static let trilinear = CALayerContentsFilter(rawValue: "trilinear")
}

/// The pixel format of backing stores made by `display()`.
public struct CALayerContentsFormat: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `RGBA8Uint` (raw value "RGBA8").
    public static let RGBA8Uint = CALayerContentsFormat(rawValue: "RGBA8")
    /// Apple's `RGBA16Float` (raw value "RGBAh").
    public static let RGBA16Float = CALayerContentsFormat(rawValue: "RGBAh")
    /// Apple's `gray8Uint` (raw value "Gray8").
    public static let gray8Uint = CALayerContentsFormat(rawValue: "Gray8")
}

/// The curve of rounded corners.
public struct CALayerCornerCurve: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `circular` (raw value "circular").
    public static let circular = CALayerCornerCurve(rawValue: "circular")
    /// Apple's `continuous` (raw value "continuous").
    public static let continuous = CALayerCornerCurve(rawValue: "continuous")
    /// The factor by which a continuous curve's radius extends along the edge (Apple's value).
    public static func expansionFactor(_ curve: CALayerCornerCurve) -> CGFloat { curve == .continuous ? 1.528665 : 1 }
}

/// Which corners `cornerRadius` rounds. "Min"/"max" are in layer coordinates.
public struct CACornerMask: OptionSet, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Apple's `layerMinXMinYCorner` (raw value 1).
    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
    /// Apple's `layerMaxXMinYCorner` (raw value 2).
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
    /// Apple's `layerMinXMaxYCorner` (raw value 4).
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
    /// Apple's `layerMaxXMaxYCorner` (raw value 8).
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)
}

/// Which edges are anti-aliased when `allowsEdgeAntialiasing` is on.
public struct CAEdgeAntialiasingMask: OptionSet, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Apple's `layerLeftEdge` (raw value 1).
    public static let layerLeftEdge = CAEdgeAntialiasingMask(rawValue: 1)
    /// Apple's `layerRightEdge` (raw value 2).
    public static let layerRightEdge = CAEdgeAntialiasingMask(rawValue: 2)
    /// Apple's `layerBottomEdge` (raw value 4).
    public static let layerBottomEdge = CAEdgeAntialiasingMask(rawValue: 4)
    /// Apple's `layerTopEdge` (raw value 8).
    public static let layerTopEdge = CAEdgeAntialiasingMask(rawValue: 8)
}

/// Apple's layer-time fill modes (used by CAMediaTiming).
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `forwards` (raw value "forwards").
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// Apple's `backwards` (raw value "backwards").
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    /// Apple's `both` (raw value "both").
    public static let both = CAMediaTimingFillMode(rawValue: "both")
    /// Apple's `removed` (raw value "removed").
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
}

/// Keys of standard layer actions.
public let kCAOnOrderIn = "onOrderIn"
/// The action run when a layer leaves a hosted tree.
public let kCAOnOrderOut = "onOrderOut"
/// The transition action key (`"transition"`).
public let kCATransition = "transition"

/// Names of Core Image-style filters accepted by `compositingFilter` and `filters`.
public let kCAFilterLinear = "linear"
/// Nearest-neighbour filter name.
public let kCAFilterNearest = "nearest"
/// Trilinear filter name.
public let kCAFilterTrilinear = "trilinear"

/// Darwin's `HUGE` (math.h's MAXFLOAT, a Float), which Glibc does not export: Apple code writes
/// `animation.repeatCount = HUGE` to repeat forever.
public let HUGE: Float = .greatestFiniteMagnitude
/// Darwin's `MAXFLOAT` (the largest finite Float), which Glibc does not export.
public let MAXFLOAT: Float = .greatestFiniteMagnitude
