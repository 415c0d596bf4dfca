import Foundation

/// Counts input that the graphics stack rejected, clamped or ignored, by kind.
///
/// Bad input never crashes: it gets a documented outcome (the operation is skipped,
/// `nil` is returned, or the value is clamped) and is counted here so that tests and
/// tools can see it. Counters are process-wide and thread-safe.
public enum CGDiagnostics {
    /// A kind of rejected input; modules above CoreGraphics declare their own kinds.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's stable name, e.g. `"nonFiniteGeometry"`.
        public let rawValue: String
        /// Creates a kind named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A readable description for logs and debugging.
        public var description: String { rawValue }

        /// A NaN or infinite coordinate, size or length reached an API and was ignored.
        public static let nonFiniteGeometry = Kind(rawValue: "nonFiniteGeometry")
        /// A Double→Int conversion was out of range and was clamped.
        public static let clampedInteger = Kind(rawValue: "clampedInteger")
        /// A bitmap context or image size was zero, too large, or inconsistent.
        public static let invalidBitmapSize = Kind(rawValue: "invalidBitmapSize")
        /// A bitmap layout (bits per component, alpha info, colour space) is not supported.
        public static let unsupportedBitmapFormat = Kind(rawValue: "unsupportedBitmapFormat")
        /// An image stream was corrupt, truncated or of an unknown type.
        public static let corruptImageData = Kind(rawValue: "corruptImageData")
        /// A colour had the wrong number of components for its colour space.
        public static let invalidColor = Kind(rawValue: "invalidColor")
        /// A drawing call needed state that was missing (no current point, unbalanced restore…).
        public static let invalidDrawingState = Kind(rawValue: "invalidDrawingState")
        /// A dash pattern, gradient or other parameter list was unusable.
        public static let invalidParameter = Kind(rawValue: "invalidParameter")
        /// An input asked for more work or memory than its documented budget (docs/ARCHITECTURE.md,
        /// "Limits and budgets"); the operation was simplified as documented there.
        public static let budgetExceeded = Kind(rawValue: "budgetExceeded")
    }

    private static let counts = Locked<[Kind: Int]>([:])

    /// Records one occurrence of `kind`.
    public static func record(_ kind: Kind) { counts.withLock { $0[kind, default: 0] += 1 } }

    /// How many times `kind` has been recorded since launch (or the last `reset()`).
    public static func count(_ kind: Kind) -> Int { counts.withLock { $0[kind, default: 0] } }

    /// A copy of every counter.
    public static func snapshot() -> [Kind: Int] { counts.withLock { $0 } }
}

/// The one Double→Int conversion of the project: NaN becomes 0, values beyond
/// `range` become its nearest bound (both counted as `.clampedInteger` unless `counted` is false —
/// for callers that clamp on purpose, such as a span cut at the edge of a box), others truncate
/// toward zero.
@inlinable @inline(__always)
public func CGClampToInt(_ value: Double, in range: ClosedRange<Int> = -(1 << 52)...(1 << 52), counted: Bool = true) -> Int {
    // Inside the range (the usual case) the conversion is one truncation, inlined where it is
    // called (row span solvers call it per row); NaN and the bounds take the counted path.
    if value > Double(range.lowerBound) && value < Double(range.upperBound) { return Int(value) }
    return CGClampToIntOutside(value, in: range, counted: counted)
}

/// `CGClampToInt` of a value that is NaN or outside `range` (not inside it).
@usableFromInline
func CGClampToIntOutside(_ value: Double, in range: ClosedRange<Int>, counted: Bool) -> Int {
    if value.isNaN {
        if counted { CGDiagnostics.record(.clampedInteger) }
        return 0
    }
    if value <= Double(range.lowerBound) {
        if counted && value < Double(range.lowerBound) { CGDiagnostics.record(.clampedInteger) }
        return range.lowerBound
    }
    if counted && value > Double(range.upperBound) { CGDiagnostics.record(.clampedInteger) }
    return range.upperBound
}

extension CGPoint {
    /// True when both coordinates are finite.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
}

extension CGSize {
    /// True when both dimensions are finite.
    @inlinable public var isFinite: Bool { width.isFinite && height.isFinite }
}

extension CGRect {
    /// True when origin and size are all finite (the null and infinite rects are not).
    @inlinable public var isFiniteRect: Bool { origin.isFinite && size.isFinite }
}
