// `transform.rotation.z` and its kin split the layer's transform into components and put it
// together again every frame. The shortcuts for the identity and for a turn about z alone must
// give the general route's values bit for bit (the goldens and the number slots' tests rely on
// both routes agreeing), so they are checked here against that route written out.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct TransformComponentsTests {
    /// The bits of a transform's sixteen entries.
    func bits(_ t: Transform3D) -> [UInt64] { t.entries.map { Double($0).bitPattern } }

    /// The general decomposition's rotation angles (as `TransformComponents.init` works them out).
    func angles(_ t: Transform3D) -> [UInt64] {
        let sx = (t.m11 * t.m11 + t.m12 * t.m12 + t.m13 * t.m13).squareRoot()
        let sy = (t.m21 * t.m21 + t.m22 * t.m22 + t.m23 * t.m23).squareRoot()
        let sz = (t.m31 * t.m31 + t.m32 * t.m32 + t.m33 * t.m33).squareRoot()
        let r11 = t.m11 / sx, r12 = t.m12 / sx, r13 = t.m13 / sx, r23 = t.m23 / sy, r33 = t.m33 / sz
        return [atan2(r23, r33), atan2(-r13, (r11 * r11 + r12 * r12).squareRoot()), atan2(r12, r11)].map { Double($0).bitPattern }
    }

    @Test func theIdentitySplitsAsTheGeneralRouteSplitsIt() {
        let d = TransformComponents(.identity)
        #expect([d.rotation.x, d.rotation.y, d.rotation.z].map { Double($0).bitPattern } == angles(.identity))
        #expect([d.scale.x, d.scale.y, d.scale.z] == [1, 1, 1])
        #expect([d.translation.x, d.translation.y, d.translation.z].map { Double($0).bitPattern } == [0, 0, 0])
        #expect(bits(d.transform) == bits(.identity))
    }

    @Test func anIdentityWithNegativeZerosTakesTheGeneralRoute() {
        var t = Transform3D.identity
        t.m12 = -0.0; t.m41 = -0.0
        let d = TransformComponents(t)
        #expect([d.rotation.x, d.rotation.y, d.rotation.z].map { Double($0).bitPattern } == angles(t))
        #expect(Double(d.translation.x).bitPattern == (-0.0).bitPattern)
    }

    @Test func aTurnAboutZAloneIsTheThreeRotationsProduct() {
        var rng = SystemRandomNumberGenerator()
        let zeros: [CGFloat] = [0, -0.0]
        for i in 0..<2_000 {
            var d = TransformComponents(.identity)
            let angle: CGFloat = i < 4 ? [0, -0.0, .pi, -.pi / 2][i] : CGFloat.random(in: -20...20, using: &rng)
            d.rotation = (zeros[i % 2], zeros[(i / 2) % 2], angle)
            d.scale = (CGFloat.random(in: -3...3, using: &rng), 1, CGFloat.random(in: 0...2, using: &rng))
            d.translation = (CGFloat.random(in: -500...500, using: &rng), 7, -0.0)
            var general = Transform3D.rotation(d.rotation.x, 1, 0, 0)
                .concatenating(.rotation(d.rotation.y, 0, 1, 0))
                .concatenating(.rotation(d.rotation.z, 0, 0, 1))
            general.m11 *= d.scale.x; general.m12 *= d.scale.x; general.m13 *= d.scale.x
            general.m21 *= d.scale.y; general.m22 *= d.scale.y; general.m23 *= d.scale.y
            general.m31 *= d.scale.z; general.m32 *= d.scale.z; general.m33 *= d.scale.z
            general.m41 = d.translation.x; general.m42 = d.translation.y; general.m43 = d.translation.z
            general.m14 = d.perspective.0; general.m24 = d.perspective.1; general.m34 = d.perspective.2; general.m44 = d.perspective.3
            #expect(bits(d.transform) == bits(general), "angle \(angle)")
        }
    }
}
