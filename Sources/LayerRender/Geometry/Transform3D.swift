import CoreGraphics
import Foundation

/// The render engine's 4×4 transform: the same layout and conventions as CATransform3D
/// (row vectors `[x y z 1] · M`, translation in m41…m43, perspective in the fourth column),
/// so QuartzCore converts between the two by copying sixteen numbers.
package struct Transform3D: Equatable, Hashable, Sendable {
    package var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    package var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    package var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    package var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

    package init(m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
                 m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
                 m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
                 m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    package static let identity = Transform3D(m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                                              m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

    package init(entries e: [CGFloat]) {
        self.init(m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6], m24: e[7],
                  m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13], m43: e[14], m44: e[15])
    }

    package var entries: [CGFloat] { [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44] }

    package var isIdentity: Bool { self == .identity }

    /// `self` then `b`.
    package func concatenating(_ b: Transform3D) -> Transform3D {
        let a = self
        return Transform3D(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
            m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
            m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
            m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
            m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
            m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
            m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
            m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
    }

    package static func translation(_ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> Transform3D {
        var t = identity; t.m41 = x; t.m42 = y; t.m43 = z
        return t
    }

    package static func scale(_ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> Transform3D {
        var t = identity; t.m11 = x; t.m22 = y; t.m33 = z
        return t
    }

    /// A rotation by `angle` radians about (x, y, z) (row-vector form of Rodrigues' formula);
    /// a zero or non-finite axis gives the identity.
    package static func rotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> Transform3D {
        let len = (x * x + y * y + z * z).squareRoot()
        guard len > 0, len.isFinite, angle.isFinite else { return identity }
        let ux = x / len, uy = y / len, uz = z / len
        let c = cos(angle), s = sin(angle), k = 1 - c
        return Transform3D(
            m11: c + ux * ux * k, m12: ux * uy * k + uz * s, m13: ux * uz * k - uy * s, m14: 0,
            m21: uy * ux * k - uz * s, m22: c + uy * uy * k, m23: uy * uz * k + ux * s, m24: 0,
            m31: uz * ux * k + uy * s, m32: uz * uy * k - ux * s, m33: c + uz * uz * k, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }
}

extension Transform3D {
    /// The depth (z / w) a point of the z = 0 plane reaches under this map: larger is nearer the
    /// viewer; −∞ behind it. Orders the planes of a 3D (transform-layer) hierarchy back to front.
    package func depth(of p: CGPoint) -> Double {
        let z = p.x * m13 + p.y * m23 + m43, w = p.x * m14 + p.y * m24 + m44
        return w > 0 ? Double(z / w) : -.infinity
    }
}
