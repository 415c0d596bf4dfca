import CoreGraphics
import Foundation
import LayerRender

/// A 4×4 homogeneous transform, Core Animation's CATransform3D.
///
/// Conventions (as Core Animation): points are **row vectors** multiplied on the left,
/// `[x y z 1] · M`, so the translation lives in `m41, m42, m43` and perspective in the
/// fourth column (`m34 = −1/d` gives a viewer at distance `d` on +z). `CATransform3DConcat(a, b)`
/// applies `a` first, then `b`. Angles are radians; a positive rotation about +z turns from
/// +x toward +y (clockwise on a y-down screen).
public struct CATransform3D: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Row 1 (the image of the x axis; m14 is perspective).
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    /// Row 2 (the image of the y axis; m24 is perspective).
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    /// Row 3 (the image of the z axis; m34 = −1/d is the usual perspective).
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    /// Row 4 (translation, and the homogeneous scale m44).
    public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

    /// The identity transform.
    public init() {
        m11 = 1; m12 = 0; m13 = 0; m14 = 0
        m21 = 0; m22 = 1; m23 = 0; m24 = 0
        m31 = 0; m32 = 0; m33 = 1; m34 = 0
        m41 = 0; m42 = 0; m43 = 0; m44 = 1
    }

    /// A transform from its sixteen entries, row by row.
    public init(m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
                m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
                m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
                m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// The entries row by row.
    var entries: [CGFloat] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    /// True when every entry is finite.
    var isFinite: Bool { entries.allSatisfy(\.isFinite) }

    /// `self` then `b` (row-vector product self · b).
    func concatenating(_ b: CATransform3D) -> CATransform3D { CATransform3D(engine.concatenating(b.engine)) }

    /// The render engine's copy of this transform.
    var engine: Transform3D {
        Transform3D(m11: m11, m12: m12, m13: m13, m14: m14, m21: m21, m22: m22, m23: m23, m24: m24,
                    m31: m31, m32: m32, m33: m33, m34: m34, m41: m41, m42: m42, m43: m43, m44: m44)
    }

    /// A transform from the render engine's representation.
    init(_ t: Transform3D) {
        self.init(m11: t.m11, m12: t.m12, m13: t.m13, m14: t.m14, m21: t.m21, m22: t.m22, m23: t.m23, m24: t.m24,
                  m31: t.m31, m32: t.m32, m33: t.m33, m34: t.m34, m41: t.m41, m42: t.m42, m43: t.m43, m44: t.m44)
    }

    /// Maps (x, y, z, 1) and returns the homogeneous result (x', y', z', w').
    func apply(x: CGFloat, y: CGFloat, z: CGFloat) -> (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) {
        (x * m11 + y * m21 + z * m31 + m41, x * m12 + y * m22 + z * m32 + m42,
         x * m13 + y * m23 + z * m33 + m43, x * m14 + y * m24 + z * m34 + m44)
    }

    /// A readable description for logs and debugging.
    public var description: String {
        "CATransform3D(" + entries.map { String(format: "%g", Double($0)) }.joined(separator: ", ") + ")"
    }
}

/// The identity transform.
public let CATransform3DIdentity = CATransform3D()

/// True when `t` is exactly the identity.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool { t == CATransform3DIdentity }

/// True when `a` and `b` are equal entry by entry.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool { a == b }

/// A translation by (tx, ty, tz).
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    var t = CATransform3D(); t.m41 = tx; t.m42 = ty; t.m43 = tz
    return t
}

/// A scale by (sx, sy, sz).
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var t = CATransform3D(); t.m11 = sx; t.m22 = sy; t.m33 = sz
    return t
}

/// A rotation by `angle` radians about the axis (x, y, z); a zero axis gives the identity.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    CATransform3D(Transform3D.rotation(angle, x, y, z))
}

/// `t` preceded by a translation: translate first, then apply `t`.
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    CATransform3DMakeTranslation(tx, ty, tz).concatenating(t)
}

/// `t` preceded by a scale.
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    CATransform3DMakeScale(sx, sy, sz).concatenating(t)
}

/// `t` preceded by a rotation.
public func CATransform3DRotate(_ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    CATransform3DMakeRotation(angle, x, y, z).concatenating(t)
}

/// `a` then `b`.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D { a.concatenating(b) }

/// The inverse of `t`; a singular or non-finite matrix is returned unchanged, as Apple documents.
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D {
    t.engine.inverse.map(CATransform3D.init) ?? t
}

/// True when `t` maps the z = 0 plane affinely: only m11, m12, m21, m22, m41, m42 may differ from identity.
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool {
    t.m13 == 0 && t.m14 == 0 && t.m23 == 0 && t.m24 == 0 && t.m31 == 0 && t.m32 == 0
        && t.m33 == 1 && t.m34 == 0 && t.m43 == 0 && t.m44 == 1
}

/// A 3D transform equal to the affine transform `m` (in the z = 0 plane).
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D {
    var t = CATransform3D()
    t.m11 = m.a; t.m12 = m.b; t.m21 = m.c; t.m22 = m.d; t.m41 = m.tx; t.m42 = m.ty
    return t
}

/// The affine part of `t` (m11, m12, m21, m22, m41, m42).
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform {
    CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42)
}
