import CoreGraphics
import Foundation

/// A fuzzer's bytes read as a stream of choices: small integers, booleans and numbers drawn
/// mostly from the values that break geometry code (zero, negative zero, tiny, huge, NaN,
/// infinities), the rest from the raw bits. Reading past the end yields zeros, so every input
/// is a complete program.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var at = 0

    /// Reads `data` from its start.
    public init(_ data: [UInt8]) { bytes = data }

    /// True while unread bytes remain.
    public var hasMore: Bool { at < bytes.count }

    /// The next byte (0 past the end).
    public mutating func byte() -> UInt8 {
        guard at < bytes.count else { return 0 }
        defer { at += 1 }
        return bytes[at]
    }

    /// A number in `0..<n` (n ≥ 1).
    public mutating func int(_ n: Int) -> Int { Int(byte()) % max(1, n) }

    /// A coin toss.
    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// Values that have broken geometry, timing and raster code somewhere.
    static let interesting: [Double] = [
        0, -0.0, 1, -1, 0.5, 2, 10, 100, 1000, 1e-9, -1e-9, 1e-300, 1e6, 1e9, 1e38, 1e308, -1e308,
        .nan, .infinity, -.infinity, .pi, 2 * .pi, 1e-5, 0.999999, 64, 32, 16,
    ]

    /// A number: one of `interesting` or a value in −128…128 with a fraction.
    public mutating func number() -> CGFloat {
        let b = byte()
        if b < 96 { return CGFloat(FuzzInput.interesting[Int(b) % FuzzInput.interesting.count]) }
        return (CGFloat(Int(byte()) - 128) + CGFloat(byte()) / 256) * (b & 1 == 0 ? 1 : 0.25)
    }

    /// A number that is usually a sensible coordinate of a 64-point canvas.
    public mutating func coordinate() -> CGFloat {
        byte() < 32 ? number() : CGFloat(byte()) / 4 - 8
    }

    public mutating func point() -> CGPoint { CGPoint(x: coordinate(), y: coordinate()) }
    public mutating func size() -> CGSize { CGSize(width: coordinate(), height: coordinate()) }
    public mutating func rect() -> CGRect { CGRect(origin: point(), size: size()) }

    /// A colour with components in 0…1 (or, rarely, outside it).
    public mutating func color() -> CGColor {
        byte() < 16 ? CGColor(red: number(), green: number(), blue: number(), alpha: number())
                    : CGColor(red: CGFloat(byte()) / 255, green: CGFloat(byte()) / 255, blue: CGFloat(byte()) / 255, alpha: CGFloat(byte()) / 255)
    }

    /// The rest of the input.
    public mutating func rest() -> [UInt8] {
        defer { at = bytes.count }
        return at < bytes.count ? Array(bytes[at...]) : []
    }
}

/// A premultiplied BGRA context of `w` × `h` pixels to draw fuzz cases into.
func fuzzContext(_ w: Int = 64, _ h: Int = 64) -> CGContext? {
    CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
              bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)
}
