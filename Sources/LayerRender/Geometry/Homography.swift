import CoreGraphics
import Foundation

// Geometry (shared by the stages, not one of them). Reads: numbers. Produces: maps between
// spaces (`Homography`, `Transform3D`), pixel boxes, quads and contents rects. Holds no state
// and knows no layer, snapshot or pixel.

/// A projective map of the plane, in Core Animation's row-vector convention:
/// `[x y 1] · H = [X Y W]`, and the mapped point is (X/W, Y/W).
///
/// A layer's plane is flattened into its superlayer's plane at each level (as Core Animation
/// does outside CATransformLayer), so chaining layers multiplies homographies.
package struct Homography: Equatable, Sendable {
    package var m: (CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat)

    package static let identity = Homography(m: (1, 0, 0, 0, 1, 0, 0, 0, 1))

    /// Whether every term is finite.
    var isFinite: Bool {
        m.0.isFinite && m.1.isFinite && m.2.isFinite && m.3.isFinite && m.4.isFinite && m.5.isFinite
            && m.6.isFinite && m.7.isFinite && m.8.isFinite
    }

    package static func == (a: Homography, b: Homography) -> Bool {
        a.m.0 == b.m.0 && a.m.1 == b.m.1 && a.m.2 == b.m.2 && a.m.3 == b.m.3 && a.m.4 == b.m.4
            && a.m.5 == b.m.5 && a.m.6 == b.m.6 && a.m.7 == b.m.7 && a.m.8 == b.m.8
    }

    /// The map of the z = 0 plane under a 4×4 row-vector transform, dropping the output z.
    package init(_ t: Transform3D) {
        m = (t.m11, t.m12, t.m14, t.m21, t.m22, t.m24, t.m41, t.m42, t.m44)
    }

    package init(m: (CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat)) { self.m = m }

    /// `self` then `b`.
    package func concatenating(_ b: Homography) -> Homography {
        let a = m, c = b.m
        return Homography(m: (
            a.0 * c.0 + a.1 * c.3 + a.2 * c.6, a.0 * c.1 + a.1 * c.4 + a.2 * c.7, a.0 * c.2 + a.1 * c.5 + a.2 * c.8,
            a.3 * c.0 + a.4 * c.3 + a.5 * c.6, a.3 * c.1 + a.4 * c.4 + a.5 * c.7, a.3 * c.2 + a.4 * c.5 + a.5 * c.8,
            a.6 * c.0 + a.7 * c.3 + a.8 * c.6, a.6 * c.1 + a.7 * c.4 + a.8 * c.7, a.6 * c.2 + a.7 * c.5 + a.8 * c.8))
    }

    /// Whether `inverse` exists (a finite, non-zero determinant), without working it out.
    package var isInvertible: Bool {
        let (a, b, c, d, e, f, g, h, i) = m
        let det = a * (e * i - f * h) + b * (-(d * i - f * g)) + c * (d * h - e * g)
        return det != 0 && det.isFinite
    }

    /// The inverse, or nil when singular.
    package var inverse: Homography? {
        let (a, b, c, d, e, f, g, h, i) = m
        let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
        let det = a * A + b * B + c * C
        guard det != 0, det.isFinite else { return nil }
        let inv = 1 / det
        return Homography(m: (A * inv, -(b * i - c * h) * inv, (b * f - c * e) * inv,
                              B * inv, (a * i - c * g) * inv, -(a * f - c * d) * inv,
                              C * inv, -(a * h - b * g) * inv, (a * e - b * d) * inv))
    }

    /// The homogeneous image of `p`: (X, Y, W).
    package func applyHomogeneous(_ p: CGPoint) -> (x: CGFloat, y: CGFloat, w: CGFloat) {
        (p.x * m.0 + p.y * m.3 + m.6, p.x * m.1 + p.y * m.4 + m.7, p.x * m.2 + p.y * m.5 + m.8)
    }

    /// The image of `p`, or nil when it maps to infinity or behind the viewer (w ≤ 0).
    package func apply(_ p: CGPoint) -> CGPoint? {
        let r = applyHomogeneous(p)
        guard r.w > 0 else { return nil }
        return CGPoint(x: r.x / r.w, y: r.y / r.w)
    }
}

extension Homography {
    /// The point that `self` maps to `p`, or nil when there is none in front of the viewer.
    /// (The inverse's homogeneous w may be negative for a valid point; validity is checked forward.)
    package func unproject(_ p: CGPoint) -> CGPoint? {
        guard let inv = inverse else { return nil }
        let r = inv.applyHomogeneous(p)
        guard r.w != 0 else { return nil }
        let u = CGPoint(x: r.x / r.w, y: r.y / r.w)
        guard u.isFinite, applyHomogeneous(u).w > 0 else { return nil }
        return u
    }
}
