import CoreGraphics
import Foundation

/// A transform split into scale, rotation (Euler angles) and translation, for Apple's
/// `transform.rotation.z`-style key paths.
///
/// The transform is read as `S · Rx · Ry · Rz · T` in row-vector order (scale first, then
/// rotations about x, y, z, then translation); shear is not represented, and the perspective
/// column (m14, m24, m34, m44) is carried through unchanged.
package struct TransformComponents {
    package var scale: (x: CGFloat, y: CGFloat, z: CGFloat)
    package var rotation: (x: CGFloat, y: CGFloat, z: CGFloat)
    package var translation: (x: CGFloat, y: CGFloat, z: CGFloat)
    package var perspective: (CGFloat, CGFloat, CGFloat, CGFloat)

    package init(_ t: Transform3D) {
        // The identity (most layers' transform, under most animations of a component): the
        // values the general route below works out for it, exactly, without its square roots
        // and arc tangents (atan2(−0, 1) is −0). Compared bit for bit: an identity with −0
        // entries decomposes with other signs.
        if withUnsafeBytes(of: t, { a in withUnsafeBytes(of: Transform3D.identity) { memcmp(a.baseAddress!, $0.baseAddress!, a.count) == 0 } }) {
            scale = (1, 1, 1); rotation = (0, -0.0, 0); translation = (0, 0, 0); perspective = (0, 0, 0, 1)
            return
        }
        let sx = (t.m11 * t.m11 + t.m12 * t.m12 + t.m13 * t.m13).squareRoot()
        let sy = (t.m21 * t.m21 + t.m22 * t.m22 + t.m23 * t.m23).squareRoot()
        let sz = (t.m31 * t.m31 + t.m32 * t.m32 + t.m33 * t.m33).squareRoot()
        scale = (sx, sy, sz)
        // Rows of the rotation: each scaled row divided by its length.
        let r11 = sx == 0 ? 1 : t.m11 / sx, r12 = sx == 0 ? 0 : t.m12 / sx, r13 = sx == 0 ? 0 : t.m13 / sx
        let r23 = sy == 0 ? 0 : t.m23 / sy, r33 = sz == 0 ? 1 : t.m33 / sz
        rotation = (atan2(r23, r33), atan2(-r13, (r11 * r11 + r12 * r12).squareRoot()), atan2(r12, r11))
        translation = (t.m41, t.m42, t.m43)
        perspective = (t.m14, t.m24, t.m34, t.m44)
    }

    /// The transform these components describe.
    package var transform: Transform3D {
        // A rotation by ±0 is the identity with +0 off the diagonal, and the identity times a
        // finite rotation about z is that rotation bit for bit: a turn about z alone (the usual
        // case) needs neither product.
        var t = rotation.x == 0 && rotation.y == 0 ? Transform3D.rotation(rotation.z, 0, 0, 1)
            : Transform3D.rotation(rotation.x, 1, 0, 0)
                .concatenating(.rotation(rotation.y, 0, 1, 0))
                .concatenating(.rotation(rotation.z, 0, 0, 1))
        t.m11 *= scale.x; t.m12 *= scale.x; t.m13 *= scale.x
        t.m21 *= scale.y; t.m22 *= scale.y; t.m23 *= scale.y
        t.m31 *= scale.z; t.m32 *= scale.z; t.m33 *= scale.z
        t.m41 = translation.x; t.m42 = translation.y; t.m43 = translation.z
        t.m14 = perspective.0; t.m24 = perspective.1; t.m34 = perspective.2; t.m44 = perspective.3
        return t
    }
}
