// Apple: "x' = a·x + c·y + tx, y' = b·x + d·y + ty"; t1.concatenating(t2) applies t1 first;
// inverted() returns a singular transform unchanged.
import CoreGraphics
import Foundation
import Testing
import TestSupport

@Suite struct CGAffineTransformTests {
    func close(_ a: CGFloat, _ b: CGFloat, _ eps: CGFloat = 1e-12) -> Bool { abs(a - b) <= eps }

    @Test func translationMovesPoints() {
        let p = CGPoint(x: 3, y: 4).applying(CGAffineTransform(translationX: 10, y: -2))
        #expect(p == CGPoint(x: 13, y: 2))
    }

    @Test func rotationByHalfPiTurnsXTowardY() {
        let p = CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(close(p.x, 0) && close(p.y, 1))
    }

    @Test func concatenatingAppliesReceiverFirst() {
        let t = CGAffineTransform(scaleX: 2, y: 3).concatenating(CGAffineTransform(translationX: 5, y: 7))
        #expect(CGPoint(x: 1, y: 1).applying(t) == CGPoint(x: 7, y: 10))
        #expect(t == CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 5, ty: 7))
    }

    @Test func translatedByTranslatesInInputSpace() {
        let t = CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 10, y: 0)
        #expect(CGPoint.zero.applying(t) == CGPoint(x: 20, y: 0))
        let r = CGAffineTransform.identity.rotated(by: .pi).scaledBy(x: 2, y: 1)
        let q = CGPoint(x: 1, y: 1).applying(r)
        #expect(close(q.x, -2) && close(q.y, -1))
    }

    @Test func invertedUndoesTheTransform() {
        let t = CGAffineTransform(a: 2, b: 1, c: -1, d: 3, tx: 4, ty: -5)
        let p = CGPoint(x: 7, y: -3)
        let back = p.applying(t).applying(t.inverted())
        #expect(close(back.x, p.x, 1e-9) && close(back.y, p.y, 1e-9))
        let i = t.concatenating(t.inverted())
        #expect(close(i.a, 1) && close(i.b, 0) && close(i.c, 0) && close(i.d, 1) && close(i.tx, 0) && close(i.ty, 0))
    }

    @Test func singularTransformInvertsToItself() {
        let s = CGAffineTransform(scaleX: 0, y: 2)
        #expect(s.inverted() == s)
    }

    @Test func identityIsIdentity() {
        #expect(CGAffineTransform.identity.isIdentity)
        #expect(CGAffineTransformIdentity == CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        #expect(!CGAffineTransform(translationX: 0, y: 1).isIdentity)
    }

    @Test func rectApplyingGivesBoundingBoxOfCorners() {
        let r = CGRect(x: 0, y: 0, width: 10, height: 20).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(close(r.minX, -20, 1e-9) && close(r.minY, 0, 1e-9) && close(r.width, 20, 1e-9) && close(r.height, 10, 1e-9))
        let flipped = CGRect(x: 1, y: 2, width: 3, height: 4).applying(CGAffineTransform(scaleX: -1, y: 1))
        #expect(flipped == CGRect(x: -4, y: 2, width: 3, height: 4))
        #expect(CGRect.null.applying(CGAffineTransform(translationX: 1, y: 1)).isNull)
    }

    @Test func sizeApplyingIgnoresTranslation() {
        let s = CGSize(width: 2, height: 3).applying(CGAffineTransform(a: 2, b: 0, c: 0, d: -1, tx: 100, ty: 100))
        #expect(s == CGSize(width: 4, height: -3))
    }

    @Test func clampingHelperCountsOutOfRangeValues() {
        let before = CGDiagnostics.count(.clampedInteger)
        #expect(CGClampToInt(.nan) == 0)
        #expect(CGClampToInt(1e300, in: 0...100) == 100)
        #expect(CGClampToInt(-5, in: 0...100) == 0)
        #expect(CGClampToInt(42.9, in: 0...100) == 42)
        #expect(CGDiagnostics.count(.clampedInteger) >= before + 3)
    }

    @Test func geometryHelpersLinuxLacks() {
        #expect(CGPoint(x: 1, y: 2).equalTo(CGPointMake(1, 2)))
        #expect(CGVector(dx: 1, dy: 2) == CGVectorMake(1, 2))
        #expect(CGRectMake(1, 2, 3, 4).equalTo(CGRect(x: 1, y: 2, width: 3, height: 4)))
    }
}
