import CoreGraphics
import Foundation
import LayerRender

/// Names of Core Animation's predefined timing curves.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `linear` (raw value "linear").
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    /// Apple's `easeIn` (raw value "easeIn").
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    /// Apple's `easeOut` (raw value "easeOut").
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    /// Apple's `easeInEaseOut` (raw value "easeInEaseOut").
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// Core Animation's default curve (0.25, 0.1, 0.25, 1).
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

/// A pacing curve: a cubic Bézier from (0, 0) to (1, 1) with two control points.
///
/// Named curves use Apple's control points: default (0.25, 0.1, 0.25, 1), easeIn (0.42, 0, 1, 1),
/// easeOut (0, 0, 0.58, 1), easeInEaseOut (0.42, 0, 0.58, 1), linear (0, 0, 1, 1).
open class CAMediaTimingFunction: NSObject, @unchecked Sendable {   // immutable after init
    let curve: TimingFunction

    /// A named curve; unknown names give the default curve.
    public convenience init(name: CAMediaTimingFunctionName) {
        switch name {
        case .linear: self.init(curve: .linear)
        case .easeIn: self.init(curve: .easeIn)
        case .easeOut: self.init(curve: .easeOut)
        case .easeInEaseOut: self.init(curve: .easeInEaseOut)
        default: self.init(curve: .default)
        }
    }

    /// A curve through control points (c1x, c1y) and (c2x, c2y); x coordinates are clamped to [0, 1].
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        curve = TimingFunction(Double(c1x), Double(c1y), Double(c2x), Double(c2y))
        super.init()
    }

    init(curve: TimingFunction) {
        self.curve = curve
        super.init()
    }

    /// Writes control point `idx` (0…3: (0,0), c1, c2, (1,1)) into `ptr[0]`, `ptr[1]`.
    public func getControlPoint(at idx: Int, values ptr: UnsafeMutablePointer<Float>) {
        let points: [(Double, Double)] = [(0, 0), (curve.c1x, curve.c1y), (curve.c2x, curve.c2y), (1, 1)]
        let p = points[min(max(idx, 0), 3)]
        ptr[0] = Float(p.0)
        ptr[1] = Float(p.1)
    }

    /// The eased progress for a linear input (clamped to [0, 1]); a Linux extension for inspection.
    public func value(at input: Float) -> Float { Float(curve.value(at: Double(input))) }

    /// Equal when the control points are.
    open override func isEqual(_ object: Any?) -> Bool { (object as? CAMediaTimingFunction)?.curve == curve }
    /// Hashes the control points.
    open override var hash: Int { curve.hashValue }
}
