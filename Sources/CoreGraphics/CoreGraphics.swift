// The CoreGraphics module: Apple's Core Graphics names over cairo and Pango.
//
// `import CoreGraphics` re-exports Foundation, whose Linux build already defines
// CGFloat, CGPoint, CGSize and CGRect; this module never redefines them and adds
// only what Linux Foundation lacks.
@_exported import Foundation

/// A time interval in seconds (CoreFoundation's name; Linux Foundation lacks it).
public typealias CFTimeInterval = Double
/// Linux stand-in for CoreFoundation's CFArray (toll-free bridged to NSArray on Apple systems).
public typealias CFArray = NSArray
/// Linux stand-in for CoreFoundation's CFDictionary.
public typealias CFDictionary = NSDictionary
/// Linux stand-in for CoreFoundation's CFString.
public typealias CFString = NSString
/// Linux stand-in for CoreFoundation's CFData.
public typealias CFData = NSData
/// Linux stand-in for CoreFoundation's CFMutableData.
public typealias CFMutableData = NSMutableData
/// Linux stand-in for CoreFoundation's CFURL.
public typealias CFURL = NSURL
/// Linux stand-in for CoreFoundation's CFTypeRef (any object).
public typealias CFTypeRef = AnyObject
/// Linux stand-in for CoreFoundation's CFIndex.
public typealias CFIndex = Int
/// Linux stand-in for CoreFoundation's CFAttributedString (toll-free bridged to NSAttributedString on Apple systems).
public typealias CFAttributedString = NSAttributedString
/// Linux stand-in for CoreFoundation's CFMutableAttributedString.
public typealias CFMutableAttributedString = NSMutableAttributedString

/// A range of a string or array: `location` and `length` in its units (UTF-16 code units for text).
public struct CFRange: Equatable, Hashable, Sendable {
    /// The first index.
    public var location: CFIndex
    /// How many units.
    public var length: CFIndex
    /// A range of `length` units from `location`.
    public init(location: CFIndex, length: CFIndex) { self.location = location; self.length = length }
    /// The empty range at 0.
    public init() { self.init(location: 0, length: 0) }
}

/// A range of `length` units from `location` (CoreFoundation's constructor).
public func CFRangeMake(_ location: CFIndex, _ length: CFIndex) -> CFRange { CFRange(location: location, length: length) }

/// A vector (dx, dy) in the same units as the points it offsets.
public struct CGVector: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Horizontal component.
    public var dx: CGFloat
    /// Vertical component.
    public var dy: CGFloat
    /// The zero vector.
    public static let zero = CGVector(dx: 0, dy: 0)
    /// Creates a vector with components `dx` and `dy`.
    public init(dx: CGFloat, dy: CGFloat) { self.dx = dx; self.dy = dy }
    /// Creates a vector with Double components.
    public init(dx: Double, dy: Double) { self.dx = CGFloat(dx); self.dy = CGFloat(dy) }
    /// Creates a vector with Int components.
    public init(dx: Int, dy: Int) { self.dx = CGFloat(dx); self.dy = CGFloat(dy) }
    /// A readable description for logs and debugging.
    public var description: String { "(\(dx), \(dy))" }
}
