// Transform animation interpolates by decomposition (translation, scale, skew, perspective,
// quaternion), so a rotation turns through intermediate angles instead of shrinking.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct Transform3DInterpolationTests {
    func rotation(_ a: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> Transform3D {
        let len = (x * x + y * y + z * z).squareRoot()
        let ux = x / len, uy = y / len, uz = z / len
        let c = cos(a), s = sin(a), k = 1 - c
        return Transform3D(m11: c + ux * ux * k, m12: ux * uy * k + uz * s, m13: ux * uz * k - uy * s, m14: 0,
                           m21: uy * ux * k - uz * s, m22: c + uy * uy * k, m23: uy * uz * k + ux * s, m24: 0,
                           m31: uz * ux * k + uy * s, m32: uz * uy * k - ux * s, m33: c + uz * uz * k, m34: 0,
                           m41: 0, m42: 0, m43: 0, m44: 1)
    }
    func near(_ a: Transform3D, _ b: Transform3D, _ eps: CGFloat = 1e-9) -> Bool {
        zip(a.entries, b.entries).allSatisfy { abs($0 - $1) <= eps }
    }

    @Test func decomposeThenRecomposeIsIdentityOnTheMatrix() {
        var t = Transform3D.scale(2, 0.5, 1.5)
        t = t.concatenating(rotation(0.9, 1, 2, 3))
        t = t.concatenating(.translation(10, -4, 7))
        #expect(near(Transform3D(t.decomposed!), t))
        var p = rotation(0.4, 0, 1, 0)
        p.m34 = -1.0 / 500
        #expect(near(Transform3D(p.decomposed!), p))
        let flip = Transform3D.scale(-1, 1, 1).concatenating(rotation(0.3, 0, 0, 1))
        #expect(near(Transform3D(flip.decomposed!), flip))
    }

    @Test func halfwayBetweenRotationsIsTheHalfAngle() {
        let mid = Transform3D.identity.interpolated(to: rotation(.pi / 2, 0, 0, 1), 0.5)
        #expect(near(mid, rotation(.pi / 4, 0, 0, 1)))
        let mid3 = rotation(0.2, 1, 0, 0).interpolated(to: rotation(1.2, 1, 0, 0), 0.5)
        #expect(near(mid3, rotation(0.7, 1, 0, 0)))
    }

    @Test func translationAndScaleInterpolateLinearly() {
        let a = Transform3D.translation(0, 0, 0), b = Transform3D.scale(3, 3, 1).concatenating(.translation(10, 20, 0))
        let mid = a.interpolated(to: b, 0.5)
        #expect(near(mid, Transform3D.scale(2, 2, 1).concatenating(.translation(5, 10, 0))))
    }

    @Test func singularEndpointsFallBackToEntryWise() {
        let s = Transform3D.scale(0, 1, 1)
        let mid = Transform3D.identity.interpolated(to: s, 0.5)
        #expect(mid.m11 == 0.5 && mid.m22 == 1)
    }
}
