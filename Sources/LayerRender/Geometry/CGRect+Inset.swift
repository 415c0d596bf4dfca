import CoreGraphics
import Foundation

extension CGRect {
    /// `insetBy(dx:dy:)`, the same arithmetic inlined: Foundation's is an out-of-line call, and the
    /// span maths calls it for every row of every shape. Null stays null; a negative size becomes null.
    @inline(__always)
    func inset(dx: CGFloat, dy: CGFloat) -> CGRect {
        if isNull { return self }
        var r = self
        if r.size.width < 0 { r.origin.x += r.size.width; r.size.width = -r.size.width }
        if r.size.height < 0 { r.origin.y += r.size.height; r.size.height = -r.size.height }
        r.origin.x += dx; r.origin.y += dy
        r.size.width -= 2 * dx; r.size.height -= 2 * dy
        return r.size.width < 0 || r.size.height < 0 ? .null : r
    }
}
