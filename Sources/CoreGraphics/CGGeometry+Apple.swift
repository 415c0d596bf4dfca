import Foundation

// CGPoint/CGSize/CGRect helpers that Apple's CoreGraphics has and Linux Foundation lacks.

extension CGPoint {
    /// True when both coordinates equal `point`'s (Apple's `CGPointEqualToPoint`).
    @inlinable public func equalTo(_ point: CGPoint) -> Bool { self == point }
}

extension CGSize {
    /// True when both dimensions equal `size`'s.
    @inlinable public func equalTo(_ size: CGSize) -> Bool { self == size }
}

extension CGRect {
    /// True when both rects are equal (two null rects are equal).
    @inlinable public func equalTo(_ rect: CGRect) -> Bool { self == rect }
}

/// Creates a point (Apple's C-style constructor).
@inlinable public func CGPointMake(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }
/// Creates a size (Apple's C-style constructor).
@inlinable public func CGSizeMake(_ w: CGFloat, _ h: CGFloat) -> CGSize { CGSize(width: w, height: h) }
/// Creates a rect (Apple's C-style constructor).
@inlinable public func CGRectMake(_ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat) -> CGRect {
    CGRect(x: x, y: y, width: w, height: h)
}
/// Creates a vector (Apple's C-style constructor).
@inlinable public func CGVectorMake(_ dx: CGFloat, _ dy: CGFloat) -> CGVector { CGVector(dx: dx, dy: dy) }
