import CoreGraphics
import Foundation

/// A keyframe animation's values and pacing, validated at commit.
///
/// Modes (Apple's): `linear` interpolates between neighbours at `keyTimes`; `discrete` holds
/// each value until the next key time; `paced` ignores keyTimes and timing functions and moves
/// at constant speed; `cubic` runs a Kochanek–Bartels spline (tension, continuity, bias per
/// keyframe; all 0 = Catmull–Rom) through the values at `keyTimes`; `cubicPaced` is cubic with
/// paced key times. A path replaces `values` for points: each path segment is a keyframe
/// segment, evaluated along the curve, with the tangent angle available for `rotationMode`.
package struct Keyframes: Sendable {
    package enum Mode: String, Sendable { case linear, discrete, paced, cubic, cubicPaced }
    package enum Rotation: Sendable { case none, auto, autoReverse }

    package var values: [AnimatableValue]
    package var keyTimes: [Double]?
    package var timingFunctions: [TimingFunction]
    package var mode: Mode
    package var tension: [Double]
    package var continuity: [Double]
    package var bias: [Double]
    package var path: [PathOp]?
    package var rotation: Rotation

    package init(values: [AnimatableValue], keyTimes: [Double]?, timingFunctions: [TimingFunction], mode: Mode,
                 tension: [Double] = [], continuity: [Double] = [], bias: [Double] = [], path: [PathOp]? = nil,
                 rotation: Rotation = .none) {
        self.values = values; self.keyTimes = keyTimes; self.timingFunctions = timingFunctions; self.mode = mode
        self.tension = tension; self.continuity = continuity; self.bias = bias; self.path = path; self.rotation = rotation
    }

    /// Whether `keyTimes` is usable for `count` values: right count, in [0, 1], non-decreasing.
    package static func validKeyTimes(_ times: [Double], count: Int, mode: Mode) -> Bool {
        let expected = mode == .discrete ? [count, count + 1] : [count]
        guard expected.contains(times.count) else { return false }
        var last = -Double.infinity
        for t in times {
            guard t.isFinite, t >= 0, t <= 1, t >= last else { return false }
            last = t
        }
        return true
    }

    /// The value at linear progress `p` in [0, 1] (the animation's timing function already applied),
    /// and for path animations the tangent angle in radians.
    package func value(at p: Double) -> (AnimatableValue, angle: Double?)? { value(at: p, times: times()) }

    /// `value(at:)` with the key times already resolved (`times()`, worked out once per animation).
    package func value(at p: Double, times: [Double]) -> (AnimatableValue, angle: Double?)? {
        if let path, let sampled = PathSampler(path)?.sample(at: p, keyTimes: keyTimes, paced: mode == .paced || mode == .cubicPaced,
                                                             timingFunctions: timingFunctions) {
            return (.point(sampled.point), sampled.angle)
        }
        guard !values.isEmpty else { return nil }
        if values.count == 1 { return (values[0], nil) }
        switch mode {
        case .discrete:
            return (values[discreteIndex(p, times)], nil)
        case .linear, .paced:
            let (i, eased) = easedSegment(p, times)
            return (values[i].interpolated(to: values[i + 1], eased), nil)
        case .cubic, .cubicPaced:
            let (i, eased) = easedSegment(p, times)
            return (cubic(i, eased), nil)
        }
    }

    /// `value(at:times:)` for keyframes whose values are the numbers `numbers` (no path): the
    /// same operations on unboxed doubles.
    func number(at p: Double, numbers: [Double], times: [Double]) -> Double {
        if numbers.count == 1 { return numbers[0] }
        switch mode {
        case .discrete:
            return numbers[discreteIndex(p, times)]
        case .linear, .paced:
            let (i, eased) = easedSegment(p, times)
            let a = numbers[i], b = numbers[i + 1]
            return a + (b - a) * eased
        case .cubic, .cubicPaced:
            let (i, s) = easedSegment(p, times)
            let p0 = numbers[max(i - 1, 0)], p1 = numbers[i], p2 = numbers[i + 1], p3 = numbers[min(i + 2, numbers.count - 1)]
            return hermite(i, s, p0, p1, p2, p3)
        }
    }

    /// The key times for the mode: the values' own times, or paced ones (with fewer than two
    /// values, `keyTimes` as given: no segment reads them).
    package func times() -> [Double] {
        guard values.count >= 2 else { return keyTimes ?? [] }
        switch mode {
        case .discrete: return keyTimes ?? (0..<values.count).map { Double($0) / Double(values.count) }
        case .linear, .cubic: return keyTimes ?? evenTimes()
        case .paced, .cubicPaced: return pacedTimes()
        }
    }

    /// The value a discrete animation holds at `p`.
    private func discreteIndex(_ p: Double, _ times: [Double]) -> Int {
        var i = 0
        while i + 1 < min(times.count, values.count) && p >= times[i + 1] { i += 1 }
        return min(i, values.count - 1)
    }

    /// The segment holding `p` and the progress within it through the segment's timing function
    /// (linear and cubic modes; paced ones ignore them).
    private func easedSegment(_ p: Double, _ times: [Double]) -> (Int, Double) {
        let (i, local) = segment(p, times)
        let timed = mode == .linear || mode == .cubic
        return (i, timed && i < timingFunctions.count ? timingFunctions[i].value(at: local) : local)
    }

    func evenTimes() -> [Double] { (0..<values.count).map { Double($0) / Double(values.count - 1) } }

    /// Key times proportional to the cumulative distance between values.
    func pacedTimes() -> [Double] {
        var acc = [0.0]
        for i in 1..<values.count { acc.append(acc[i - 1] + values[i - 1].distance(to: values[i])) }
        guard let total = acc.last, total > 0 else { return evenTimes() }
        return acc.map { $0 / total }
    }

    /// The segment holding p and the progress within it.
    func segment(_ p: Double, _ times: [Double]) -> (Int, Double) {
        let n = min(times.count, values.count)
        guard n >= 2 else { return (0, 0) }
        if p <= times[0] { return (0, 0) }
        if p >= times[n - 1] { return (n - 2, 1) }
        var i = 0
        while i + 2 < n && p >= times[i + 1] { i += 1 }
        let span = times[i + 1] - times[i]
        return (i, span > 0 ? (p - times[i]) / span : 1)
    }

    /// Kochanek–Bartels Hermite interpolation between values i and i+1 on numeric components.
    func cubic(_ i: Int, _ s: Double) -> AnimatableValue {
        // Values of different kinds (a number beside a point) have no common tangent: those ends
        // fall back to the straight segment or to the segment's own ends.
        guard let p1 = values[i].components, let p2 = values[i + 1].components, p1.count == p2.count else {
            return values[i].interpolated(to: values[i + 1], s)
        }
        func same(_ c: [Double]?) -> [Double]? { c?.count == p1.count ? c : nil }
        let p0 = same(values[max(i - 1, 0)].components) ?? p1
        let p3 = same(values[min(i + 2, values.count - 1)].components) ?? p2
        var out: [Double] = []
        for k in 0..<p1.count { out.append(hermite(i, s, p0[k], p1[k], p2[k], p3[k])) }
        return values[i].with(components: out)
    }

    /// One component of the Kochanek–Bartels segment i at s, from the values around it.
    private func hermite(_ i: Int, _ s: Double, _ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double) -> Double {
        func param(_ a: [Double], _ k: Int) -> Double { k < a.count ? a[k] : 0 }
        let t1 = param(tension, i), c1 = param(continuity, i), b1 = param(bias, i)
        let t2 = param(tension, i + 1), c2 = param(continuity, i + 1), b2 = param(bias, i + 1)
        let h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s
        let h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s
        let d0 = p1 - p0, d1 = p2 - p1, d2 = p3 - p2
        // Outgoing tangent at i and incoming tangent at i+1.
        let m1 = (1 - t1) * (1 + b1) * (1 + c1) / 2 * d0 + (1 - t1) * (1 - b1) * (1 - c1) / 2 * d1
        let m2 = (1 - t2) * (1 + b2) * (1 - c2) / 2 * d1 + (1 - t2) * (1 - b2) * (1 + c2) / 2 * d2
        return h00 * p1 + h10 * m1 + h01 * p2 + h11 * m2
    }
}

/// Positions along a path for keyframe animations: one keyframe segment per drawing element.
struct PathSampler {
    struct Segment {
        var p0: CGPoint, c1: CGPoint, c2: CGPoint, p1: CGPoint
        var length: Double
        func point(_ t: Double) -> CGPoint {
            let u = 1 - t, a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            return CGPoint(x: a * p0.x + b * c1.x + c * c2.x + d * p1.x, y: a * p0.y + b * c1.y + c * c2.y + d * p1.y)
        }
        func tangent(_ t: Double) -> CGPoint {
            let u = 1 - t
            let dx = 3 * u * u * (c1.x - p0.x) + 6 * u * t * (c2.x - c1.x) + 3 * t * t * (p1.x - c2.x)
            let dy = 3 * u * u * (c1.y - p0.y) + 6 * u * t * (c2.y - c1.y) + 3 * t * t * (p1.y - c2.y)
            return CGPoint(x: dx, y: dy)
        }
    }
    let segments: [Segment]

    init?(_ ops: [PathOp]) {
        var segs: [Segment] = []
        var last = CGPoint.zero, start = CGPoint.zero
        func add(_ a: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ b: CGPoint) {
            var len = 0.0
            var prev = a
            let seg = Segment(p0: a, c1: c1, c2: c2, p1: b, length: 0)
            for k in 1...16 {
                let q = seg.point(Double(k) / 16)
                len += Double(hypot(q.x - prev.x, q.y - prev.y))
                prev = q
            }
            segs.append(Segment(p0: a, c1: c1, c2: c2, p1: b, length: len))
        }
        func third(_ a: CGPoint, _ b: CGPoint, _ f: CGFloat) -> CGPoint { CGPoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f) }
        for op in ops {
            switch op {
            case .move(let p): last = p; start = p
            case .line(let p): add(last, third(last, p, 1.0 / 3), third(last, p, 2.0 / 3), p); last = p
            case .quad(let c, let p): add(last, third(last, c, 2.0 / 3), third(p, c, 2.0 / 3), p); last = p
            case .cubic(let a, let b, let p): add(last, a, b, p); last = p
            case .close:
                if last != start { add(last, third(last, start, 1.0 / 3), third(last, start, 2.0 / 3), start) }
                last = start
            }
        }
        guard !segs.isEmpty else { return nil }
        segments = segs
    }

    func sample(at p: Double, keyTimes: [Double]?, paced: Bool, timingFunctions: [TimingFunction]) -> (point: CGPoint, angle: Double)? {
        let n = segments.count
        var times: [Double]
        if paced {
            let total = segments.reduce(0) { $0 + $1.length }
            var acc = 0.0
            times = [0] + segments.map { acc += $0.length; return total > 0 ? acc / total : 0 }
        } else if let kt = keyTimes, kt.count == n + 1 {
            times = kt
        } else {
            times = (0...n).map { Double($0) / Double(n) }
        }
        var i = 0
        while i + 1 < n && p >= times[i + 1] { i += 1 }
        let span = times[i + 1] - times[i]
        var local = span > 0 ? min(max((p - times[i]) / span, 0), 1) : 1
        if !paced && i < timingFunctions.count { local = timingFunctions[i].value(at: local) }
        let seg = segments[i]
        let tan = seg.tangent(local)
        return (seg.point(local), Double(atan2(tan.y, tan.x)))
    }
}
