import CoreGraphics
import Foundation

/// A cubic Bézier easing curve from (0, 0) to (1, 1) with control points c1 and c2.
///
/// `value(at:)` solves x(s) = input for the curve parameter s (Newton's method, falling back to
/// bisection, to 1e-9 in x) and returns y(s). Inputs are clamped to [0, 1].
package struct TimingFunction: Equatable, Hashable, Sendable {
    package let c1x: Double, c1y: Double, c2x: Double, c2y: Double

    package init(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
        // x control points outside [0, 1] would make x(s) non-monotonic; clamp them.
        self.c1x = min(max(c1x.isFinite ? c1x : 0, 0), 1)
        self.c1y = c1y.isFinite ? c1y : 0
        self.c2x = min(max(c2x.isFinite ? c2x : 1, 0), 1)
        self.c2y = c2y.isFinite ? c2y : 1
    }

    package static let linear = TimingFunction(0, 0, 1, 1)
    package static let easeIn = TimingFunction(0.42, 0, 1, 1)
    package static let easeOut = TimingFunction(0, 0, 0.58, 1)
    package static let easeInEaseOut = TimingFunction(0.42, 0, 0.58, 1)
    /// Core Animation's default curve (used by implicit animations on Apple systems).
    package static let `default` = TimingFunction(0.25, 0.1, 0.25, 1)

    private func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        // B(s) = 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }

    private func derivative(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }

    /// The eased value for a linear input in [0, 1].
    package func value(at input: Double) -> Double {
        let x = input.isNaN ? 0 : min(max(input, 0), 1)
        if x == 0 || x == 1 { return x }
        if c1x == c1y && c2x == c2y { return x }   // a straight line
        var s = x
        for _ in 0..<8 {
            let err = bezier(s, c1x, c2x) - x
            if abs(err) < 1e-9 { return bezier(s, c1y, c2y) }
            let d = derivative(s, c1x, c2x)
            if abs(d) < 1e-7 { break }
            s -= err / d
            if s < 0 || s > 1 { break }
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<60 {
            let v = bezier(s, c1x, c2x)
            if abs(v - x) < 1e-9 { break }
            if v < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return bezier(s, c1y, c2y)
    }
}
