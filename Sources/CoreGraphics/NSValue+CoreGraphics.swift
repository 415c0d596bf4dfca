import Foundation

// Apple's overlays box Core Graphics structures in NSValue (`NSValue(cgPoint:)`, `.cgPointValue`…).
// Linux's Foundation has only `NSValue(point:)` and its kin, and its NSValue cannot hold arbitrary
// structures, so affine transforms travel as six doubles (objCType "[6d]").
extension NSValue {
    /// A value holding a point (Apple's UIKit/CoreGraphics overlay).
    public convenience init(cgPoint point: CGPoint) { self.init(point: point) }
    /// A value holding a size.
    public convenience init(cgSize size: CGSize) { self.init(size: size) }
    /// A value holding a rectangle.
    public convenience init(cgRect rect: CGRect) { self.init(rect: rect) }
    /// A value holding an affine transform.
    public convenience init(cgAffineTransform t: CGAffineTransform) {
        var d = [Double(t.a), Double(t.b), Double(t.c), Double(t.d), Double(t.tx), Double(t.ty)]
        self.init(bytes: &d, objCType: NSValue.affineType)
    }

    /// The point held (zero when it holds no point).
    public var cgPointValue: CGPoint { holds("CGPoint") ? pointValue : .zero }
    /// The size held (zero when it holds no size).
    public var cgSizeValue: CGSize { holds("CGSize") ? sizeValue : .zero }
    /// The rectangle held (zero when it holds no rectangle).
    public var cgRectValue: CGRect { holds("CGRect") ? rectValue : .zero }
    /// The affine transform held (identity when it holds none).
    public var cgAffineTransformValue: CGAffineTransform {
        guard let d = doubles(NSValue.affineType, count: 6) else { return .identity }
        return CGAffineTransform(a: d[0], b: d[1], c: d[2], d: d[3], tx: d[4], ty: d[5])
    }

    static let affineType = "[6d]"

    /// Whether the value's type encoding names the structure `name` (`{CGPoint=dd}`…).
    package func holds(_ name: String) -> Bool { String(cString: objCType).hasPrefix("{\(name)=") }

    /// The `count` doubles of a value encoded as `type`, or nil when it is encoded otherwise.
    package func doubles(_ type: String, count: Int) -> [Double]? {
        guard String(cString: objCType) == type else { return nil }
        var d = [Double](repeating: 0, count: count)
        d.withUnsafeMutableBytes { getValue($0.baseAddress!) }
        return d
    }

    /// The Core Graphics structure held (CGPoint, CGSize, CGRect, CGAffineTransform), or nil.
    package var coreGraphicsValue: Any? {
        if holds("CGPoint") || holds("NSPoint") { return pointValue }
        if holds("CGSize") || holds("NSSize") { return sizeValue }
        if holds("CGRect") || holds("NSRect") { return rectValue }
        if String(cString: objCType) == NSValue.affineType { return cgAffineTransformValue }
        return nil
    }
}
