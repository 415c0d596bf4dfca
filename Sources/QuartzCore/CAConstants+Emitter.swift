import Foundation

// The typed string constants of CAEmitterLayer (Apple's raw values).

/// The shape particles are emitted from.
public struct CAEmitterLayerEmitterShape: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `point` (raw value "point").
    public static let point = CAEmitterLayerEmitterShape(rawValue: "point")
    /// Apple's `line` (raw value "line").
    public static let line = CAEmitterLayerEmitterShape(rawValue: "line")
    /// Apple's `rectangle` (raw value "rectangle").
    public static let rectangle = CAEmitterLayerEmitterShape(rawValue: "rectangle")
    /// Apple's `cuboid` (raw value "cuboid").
    public static let cuboid = CAEmitterLayerEmitterShape(rawValue: "cuboid")
    /// Apple's `circle` (raw value "circle").
    public static let circle = CAEmitterLayerEmitterShape(rawValue: "circle")
    /// Apple's `sphere` (raw value "sphere").
    public static let sphere = CAEmitterLayerEmitterShape(rawValue: "sphere")
}

/// Which part of the emitter shape particles start from.
public struct CAEmitterLayerEmitterMode: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `points` (raw value "points").
    public static let points = CAEmitterLayerEmitterMode(rawValue: "points")
    /// Apple's `outline` (raw value "outline").
    public static let outline = CAEmitterLayerEmitterMode(rawValue: "outline")
    /// Apple's `surface` (raw value "surface").
    public static let surface = CAEmitterLayerEmitterMode(rawValue: "surface")
    /// Apple's `volume` (raw value "volume").
    public static let volume = CAEmitterLayerEmitterMode(rawValue: "volume")
}

/// The order and blending of particles.
public struct CAEmitterLayerRenderMode: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `unordered` (raw value "unordered").
    public static let unordered = CAEmitterLayerRenderMode(rawValue: "unordered")
    /// Apple's `oldestFirst` (raw value "oldestFirst").
    public static let oldestFirst = CAEmitterLayerRenderMode(rawValue: "oldestFirst")
    /// Apple's `oldestLast` (raw value "oldestLast").
    public static let oldestLast = CAEmitterLayerRenderMode(rawValue: "oldestLast")
    /// Apple's `backToFront` (raw value "backToFront").
    public static let backToFront = CAEmitterLayerRenderMode(rawValue: "backToFront")
    /// Apple's `additive` (raw value "additive").
    public static let additive = CAEmitterLayerRenderMode(rawValue: "additive")
}

/// Apple's `kCAEmitterLayerPoint` ("point").
public let kCAEmitterLayerPoint = "point"
/// Apple's `kCAEmitterLayerLine` ("line").
public let kCAEmitterLayerLine = "line"
/// Apple's `kCAEmitterLayerRectangle` ("rectangle").
public let kCAEmitterLayerRectangle = "rectangle"
/// Apple's `kCAEmitterLayerCuboid` ("cuboid").
public let kCAEmitterLayerCuboid = "cuboid"
/// Apple's `kCAEmitterLayerCircle` ("circle").
public let kCAEmitterLayerCircle = "circle"
/// Apple's `kCAEmitterLayerSphere` ("sphere").
public let kCAEmitterLayerSphere = "sphere"
/// Apple's `kCAEmitterLayerPoints` ("points").
public let kCAEmitterLayerPoints = "points"
/// Apple's `kCAEmitterLayerOutline` ("outline").
public let kCAEmitterLayerOutline = "outline"
/// Apple's `kCAEmitterLayerSurface` ("surface").
public let kCAEmitterLayerSurface = "surface"
/// Apple's `kCAEmitterLayerVolume` ("volume").
public let kCAEmitterLayerVolume = "volume"
/// Apple's `kCAEmitterLayerUnordered` ("unordered").
public let kCAEmitterLayerUnordered = "unordered"
/// Apple's `kCAEmitterLayerOldestFirst` ("oldestFirst").
public let kCAEmitterLayerOldestFirst = "oldestFirst"
/// Apple's `kCAEmitterLayerOldestLast` ("oldestLast").
public let kCAEmitterLayerOldestLast = "oldestLast"
/// Apple's `kCAEmitterLayerBackToFront` ("backToFront").
public let kCAEmitterLayerBackToFront = "backToFront"
/// Apple's `kCAEmitterLayerAdditive` ("additive").
public let kCAEmitterLayerAdditive = "additive"
