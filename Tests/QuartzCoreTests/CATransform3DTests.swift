// Apple: row vectors; CATransform3DConcat(a, b) applies a then b; CATransform3DInvert returns
// a singular matrix unchanged; a rotation about z matches CGAffineTransform(rotationAngle:).
import QuartzCore
import Testing

@Suite struct CATransform3DTests {
    func near(_ a: CATransform3D, _ b: CATransform3D, _ eps: CGFloat = 1e-9) -> Bool {
        zip(entries(a), entries(b)).allSatisfy { abs($0 - $1) <= eps }
    }
    func entries(_ t: CATransform3D) -> [CGFloat] {
        [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
    }

    @Test func identityIsIdentityAndAffine() {
        #expect(CATransform3DIsIdentity(CATransform3DIdentity))
        #expect(CATransform3DIsAffine(CATransform3DIdentity))
        #expect(!CATransform3DIsIdentity(CATransform3DMakeTranslation(0, 0, 1)))
    }

    @Test func translationLivesInTheFourthRow() {
        let t = CATransform3DMakeTranslation(1, 2, 3)
        #expect(t.m41 == 1 && t.m42 == 2 && t.m43 == 3 && t.m44 == 1)
        #expect(!CATransform3DIsAffine(t))   // z translation leaves the plane
        #expect(CATransform3DIsAffine(CATransform3DMakeTranslation(1, 2, 0)))
    }

    @Test func zRotationMatchesTheAffineRotation() {
        let r = CATransform3DMakeRotation(0.7, 0, 0, 1)
        let a = CGAffineTransform(rotationAngle: 0.7)
        let g = CATransform3DGetAffineTransform(r)
        #expect(abs(g.a - a.a) < 1e-12 && abs(g.b - a.b) < 1e-12 && abs(g.c - a.c) < 1e-12 && abs(g.d - a.d) < 1e-12)
        #expect(CATransform3DIsAffine(r))
    }

    @Test func concatAppliesTheFirstThenTheSecond() {
        let t = CATransform3DConcat(CATransform3DMakeScale(2, 2, 1), CATransform3DMakeTranslation(10, 0, 0))
        #expect(t.m11 == 2 && t.m41 == 10)
        let u = CATransform3DConcat(CATransform3DMakeTranslation(10, 0, 0), CATransform3DMakeScale(2, 2, 1))
        #expect(u.m41 == 20)
    }

    @Test func translateScaleRotatePrependToTheTransform() {
        let base = CATransform3DMakeScale(2, 2, 2)
        #expect(CATransform3DTranslate(base, 5, 0, 0).m41 == 10)
        #expect(CATransform3DScale(CATransform3DMakeTranslation(5, 0, 0), 3, 1, 1).m41 == 5)
        let r = CATransform3DRotate(CATransform3DIdentity, .pi / 2, 0, 0, 1)
        #expect(near(r, CATransform3DMakeRotation(.pi / 2, 0, 0, 1)))
    }

    @Test func invertUndoesAndSingularIsUnchanged() {
        var m = CATransform3DMakeRotation(0.3, 1, 2, 3)
        m = CATransform3DTranslate(m, 4, 5, 6)
        m.m34 = -1 / 500
        #expect(near(CATransform3DConcat(m, CATransform3DInvert(m)), CATransform3DIdentity, 1e-9))
        let singular = CATransform3DMakeScale(0, 1, 1)
        #expect(CATransform3DInvert(singular) == singular)
    }

    @Test func zeroAxisRotationIsIdentity() {
        #expect(CATransform3DIsIdentity(CATransform3DMakeRotation(1, 0, 0, 0)))
    }

    @Test func affineRoundTrip() {
        let a = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        #expect(CATransform3DGetAffineTransform(CATransform3DMakeAffineTransform(a)) == a)
        #expect(CATransform3DEqualToTransform(CATransform3DMakeAffineTransform(.identity), CATransform3DIdentity))
    }
}
