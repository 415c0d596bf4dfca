import CoreGraphics
import Foundation

// Apple's QuartzCore overlay: CATransform3D boxed in NSValue. Linux's NSValue cannot hold
// structures, so the sixteen fields travel as doubles (objCType "[16d]").
extension NSValue {
    /// A value holding a 3D transform.
    public convenience init(caTransform3D t: CATransform3D) {
        var d = [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                 t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map(Double.init)
        self.init(bytes: &d, objCType: NSValue.transform3DType)
    }

    /// The 3D transform held (identity when it holds none; an affine transform is promoted).
    public var caTransform3DValue: CATransform3D {
        if let d = doubles(NSValue.transform3DType, count: 16) {
            let m = d.map { CGFloat($0) }
            return CATransform3D(m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
                                 m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
        }
        if let a = coreGraphicsValue as? CGAffineTransform { return CATransform3DMakeAffineTransform(a) }
        return CATransform3DIdentity
    }

    static let transform3DType = "[16d]"

    /// The structure held, as the Swift value layers use (CGPoint, CGSize, CGRect,
    /// CGAffineTransform, CATransform3D), or nil (NSNumber and other values).
    var structure: Any? {
        if self is NSNumber { return nil }
        if String(cString: objCType) == NSValue.transform3DType { return caTransform3DValue }
        return coreGraphicsValue
    }
}
