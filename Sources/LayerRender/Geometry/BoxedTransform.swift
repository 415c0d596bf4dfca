import CoreGraphics
import Foundation

/// An optional 4 × 4 transform kept by reference, for values that carry one only rarely (what a
/// layer inherits from a superlayer with a `sublayerTransform`, or from a transform layer): such
/// values stay small, so copying them and comparing them costs a pointer, not 129 bytes each.
/// Equal when both are absent, the same box, or equal transforms.
struct BoxedTransform: Equatable, Sendable {
    private final class Box: Sendable {
        let transform: Transform3D
        init(_ t: Transform3D) { transform = t }
    }
    private let box: Box?

    /// Keeps `t` (nil: none).
    init(_ t: Transform3D?) { box = t.map(Box.init) }

    /// No transform.
    static let none = BoxedTransform(nil)

    /// The transform, when there is one.
    var value: Transform3D? { box?.transform }

    static func == (a: BoxedTransform, b: BoxedTransform) -> Bool {
        if a.box === b.box { return true }
        guard let x = a.box, let y = b.box else { return false }
        return x.transform == y.transform
    }
}
