import CoreGraphics
import Foundation

/// The committed properties of a CAReplicatorLayer: how many times its sublayers are drawn and
/// how each copy differs from the previous one (Apple's defaults: one instance, identity, white).
package struct ReplicatorContent: Equatable, Sendable {
    package var instanceCount = 1
    package var instanceDelay: Double = 0
    package var instanceTransform = Transform3D.identity
    /// Straight RGBA in [0, 1] multiplying the first instance's colours.
    package var instanceColor: (r: Double, g: Double, b: Double, a: Double) = (1, 1, 1, 1)
    /// Added to the colour for each following instance.
    package var offsets: (r: Double, g: Double, b: Double, a: Double) = (0, 0, 0, 0)
    package var preservesDepth = false

    /// Most instances drawn; larger counts draw this many (counted in CGDiagnostics by the model).
    package static let maxInstances = 10_000

    package init() {}

    package static func == (a: ReplicatorContent, b: ReplicatorContent) -> Bool {
        a.instanceCount == b.instanceCount && a.instanceDelay == b.instanceDelay && a.instanceTransform == b.instanceTransform
            && a.instanceColor == b.instanceColor && a.offsets == b.offsets && a.preservesDepth == b.preservesDepth
    }

    func value(forKey key: String) -> AnimatableValue? {
        switch key {
        case "instanceDelay": return .number(instanceDelay)
        case "instanceTransform": return .transform(instanceTransform)
        case "instanceColor": return .color(r: instanceColor.r, g: instanceColor.g, b: instanceColor.b, a: instanceColor.a)
        case "instanceRedOffset": return .number(offsets.r)
        case "instanceGreenOffset": return .number(offsets.g)
        case "instanceBlueOffset": return .number(offsets.b)
        case "instanceAlphaOffset": return .number(offsets.a)
        default: return nil
        }
    }

    mutating func set(_ key: String, _ v: AnimatableValue) -> Bool {
        func number() -> Double? { if case .number(let d) = v, d.isFinite { return d } else { return nil } }
        switch key {
        case "instanceDelay": if let d = number() { instanceDelay = d }
        case "instanceTransform": if case .transform(let t) = v { instanceTransform = t }
        case "instanceColor":
            if case let .color(r, g, b, a) = v { instanceColor = (r, g, b, a) } else if v == .none { instanceColor = (1, 1, 1, 1) }
        case "instanceRedOffset": if let d = number() { offsets.r = d }
        case "instanceGreenOffset": if let d = number() { offsets.g = d }
        case "instanceBlueOffset": if let d = number() { offsets.b = d }
        case "instanceAlphaOffset": if let d = number() { offsets.a = d }
        default: return false
        }
        return true
    }

    /// Instances drawn: the count clamped to [0, maxInstances].
    package var drawnCount: Int { min(max(instanceCount, 0), ReplicatorContent.maxInstances) }

    /// The colour multiplying instance `i` (each channel clamped to [0, 1]).
    func color(_ i: Int) -> (r: Float, g: Float, b: Float, a: Float) {
        func c(_ base: Double, _ step: Double) -> Float { Float(min(max(base + Double(i) * step, 0), 1)) }
        return (c(instanceColor.r, offsets.r), c(instanceColor.g, offsets.g), c(instanceColor.b, offsets.b), c(instanceColor.a, offsets.a))
    }

    /// The transforms of instances 0..<count (at most `drawnCount`) in the replicator's space: the instance transform
    /// applied i times about the centre of `bounds` (nil for instance 0, which is not moved).
    func transforms(bounds b: CGRect, count: Int? = nil) -> [Transform3D?] {
        let n = min(count ?? drawnCount, drawnCount)
        var result: [Transform3D?] = [nil]
        result.reserveCapacity(n)
        var t = Transform3D.identity
        let toCentre = Transform3D.translation(-b.midX, -b.midY, 0), back = Transform3D.translation(b.midX, b.midY, 0)
        for _ in 1..<max(n, 1) {
            t = t.concatenating(instanceTransform)
            result.append(toCentre.concatenating(t).concatenating(back))
        }
        return result
    }
}
