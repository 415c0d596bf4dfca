import CGSupport
import Foundation

/// Where alpha sits in a pixel and whether colour is premultiplied by it.
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none = 0, premultipliedLast = 1, premultipliedFirst = 2, last = 3, first = 4
    case noneSkipLast = 5, noneSkipFirst = 6, alphaOnly = 7
}

/// The byte order of 16- and 32-bit pixels.
public enum CGImageByteOrderInfo: UInt32, Sendable {
    case orderMask = 0x7000, orderDefault = 0, order16Little = 0x1000, order32Little = 0x2000
    case order16Big = 0x3000, order32Big = 0x4000
}

/// A bitmap's layout: alpha info in the low bits, byte order in bits 12–14.
public struct CGBitmapInfo: OptionSet, Sendable, Hashable {
    /// The raw value, as Apple defines it.
    public let rawValue: UInt32
    /// Creates bitmap info from its raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Creates bitmap info holding `alphaInfo` and default byte order.
    public init(alphaInfo: CGImageAlphaInfo) { self.rawValue = alphaInfo.rawValue }

    /// Apple's `alphaInfoMask` (raw value 0x1F).
    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    /// Apple's `floatInfoMask` (raw value 0xF00).
    public static let floatInfoMask = CGBitmapInfo(rawValue: 0xF00)
    /// Apple's `floatComponents` (raw value 1 << 8).
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    /// Apple's `byteOrderMask` (raw value 0x7000).
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    /// No bits set.
    public static let byteOrderDefault = CGBitmapInfo([])
    /// Apple's `byteOrder16Little` (raw value 0x1000).
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 0x1000)
    /// Apple's `byteOrder32Little` (raw value 0x2000).
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 0x2000)
    /// Apple's `byteOrder16Big` (raw value 0x3000).
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 0x3000)
    /// Apple's `byteOrder32Big` (raw value 0x4000).
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 0x4000)
    /// The host's 32-bit order (little-endian on Linux x86-64 and arm64).
    public static let byteOrder32Host = byteOrder32Little

    /// The alpha info held in the low bits (nil for values Apple does not define).
    public var alphaInfo: CGImageAlphaInfo? { CGImageAlphaInfo(rawValue: rawValue & 0x1F) }
}

/// An 8-bit-per-component pixel layout the stack can read and write.
///
/// Bytes in memory: `offsets` gives the byte index of R, G, B and A (alpha or padding)
/// within a 4-byte pixel. The native layout is cairo's ARGB32 on little-endian:
/// B, G, R, A in memory, premultiplied — the same as Apple's
/// `premultipliedFirst | byteOrder32Little` and the X11 window's BGRX/BGRA.
struct PixelLayout: Equatable, Sendable {
    enum Alpha: Equatable, Sendable { case premultiplied, straight, opaque }
    enum Kind: Equatable, Sendable { case rgba32, rgb24, gray8, alpha8 }
    var kind: Kind
    var alpha: Alpha
    /// Byte offsets of R, G, B, A inside a 32-bit pixel (A is padding when `alpha == .opaque`).
    var r = 0, g = 1, b = 2, a = 3

    var bytesPerPixel: Int {
        switch kind {
        case .rgba32: return 4
        case .rgb24: return 3
        case .gray8, .alpha8: return 1
        }
    }

    /// True when this is cairo's ARGB32 (B, G, R, A premultiplied in memory on little-endian).
    var isNative: Bool { kind == .rgba32 && alpha == .premultiplied && r == 2 && g == 1 && b == 0 && a == 3 }

    static let native = PixelLayout(kind: .rgba32, alpha: .premultiplied, r: 2, g: 1, b: 0, a: 3)
    static let alphaOnly = PixelLayout(kind: .alpha8, alpha: .premultiplied)

    /// The layout for 8-bit components described the Core Graphics way; nil when unsupported.
    init?(bitsPerComponent: Int, bitsPerPixel: Int, bitmapInfo: UInt32, model: CGColorSpaceModel?) {
        guard bitsPerComponent == 8, bitmapInfo & CGBitmapInfo.floatComponents.rawValue == 0,
              let info = CGImageAlphaInfo(rawValue: bitmapInfo & 0x1F) else { return nil }
        let order = bitmapInfo & 0x7000
        switch bitsPerPixel {
        case 8:
            if info == .alphaOnly { self.init(kind: .alpha8, alpha: .premultiplied); return }
            guard info == .none, model == .monochrome else { return nil }
            self.init(kind: .gray8, alpha: .opaque)
        case 24:
            guard info == .none, model != .monochrome else { return nil }
            self.init(kind: .rgb24, alpha: .opaque, r: 0, g: 1, b: 2, a: 0)
        case 32:
            guard model != .monochrome else { return nil }
            let alpha: Alpha
            let alphaFirst: Bool
            switch info {
            case .premultipliedFirst: alpha = .premultiplied; alphaFirst = true
            case .premultipliedLast: alpha = .premultiplied; alphaFirst = false
            case .first: alpha = .straight; alphaFirst = true
            case .last: alpha = .straight; alphaFirst = false
            case .noneSkipFirst: alpha = .opaque; alphaFirst = true
            case .noneSkipLast: alpha = .opaque; alphaFirst = false
            case .none, .alphaOnly: return nil
            }
            // Big-endian word order: A R G B (first) or R G B A (last); little-endian reverses bytes.
            var o = alphaFirst ? (r: 1, g: 2, b: 3, a: 0) : (r: 0, g: 1, b: 2, a: 3)
            if order == CGImageByteOrderInfo.order32Little.rawValue {
                o = (r: 3 - o.r, g: 3 - o.g, b: 3 - o.b, a: 3 - o.a)
            } else if order != 0 && order != CGImageByteOrderInfo.order32Big.rawValue {
                return nil
            }
            self.init(kind: .rgba32, alpha: alpha, r: o.r, g: o.g, b: o.b, a: o.a)
        default:
            return nil
        }
    }

    init(kind: Kind, alpha: Alpha, r: Int = 0, g: Int = 1, b: Int = 2, a: Int = 3) {
        self.kind = kind; self.alpha = alpha; self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// For the common layouts (32-bit, premultiplied or no alpha, any byte order), what the C
    /// shuffles take: the byte offsets of red, green, blue and alpha, and 1 for no alpha; nil
    /// for the others, converted pixel by pixel here.
    private var shuffle: (order: [Int32], opaque: Int32)? {
        guard kind == .rgba32, alpha != .straight else { return nil }
        return ([Int32(r), Int32(g), Int32(b), Int32(a)], alpha == .opaque ? 1 : 0)
    }

    /// Converts rows of this layout into native ARGB32 rows.
    func convertToNative(src: UnsafeRawPointer, srcStride: Int, dst: UnsafeMutableRawPointer, dstStride: Int,
                         width: Int, height: Int) {
        if let (order, opaque) = shuffle {
            for y in 0..<height {
                cgs_layout_to_native((dst + y * dstStride).assumingMemoryBound(to: UInt32.self),
                                     (src + y * srcStride).assumingMemoryBound(to: UInt8.self), width, order, opaque)
            }
            return
        }
        for y in 0..<height {
            let s = (src + y * srcStride).assumingMemoryBound(to: UInt8.self)
            let d = (dst + y * dstStride).assumingMemoryBound(to: UInt32.self)
            switch kind {
            case .alpha8:
                for x in 0..<width { d[x] = UInt32(s[x]) << 24 }
            case .gray8:
                for x in 0..<width { let v = UInt32(s[x]); d[x] = 0xFF00_0000 | v << 16 | v << 8 | v }
            case .rgb24:
                for x in 0..<width {
                    let p = s + 3 * x
                    d[x] = 0xFF00_0000 | UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                }
            case .rgba32:
                for x in 0..<width {
                    let p = s + 4 * x
                    var rr = UInt32(p[r]), gg = UInt32(p[g]), bb = UInt32(p[b])
                    var aa = UInt32(p[a])
                    switch alpha {
                    case .opaque: aa = 255
                    case .straight:
                        rr = PixelLayout.mul255(rr, aa); gg = PixelLayout.mul255(gg, aa); bb = PixelLayout.mul255(bb, aa)
                    case .premultiplied:
                        // Clamp invalid premultiplied data (colour above alpha) instead of trusting it.
                        rr = min(rr, aa); gg = min(gg, aa); bb = min(bb, aa)
                    }
                    d[x] = aa << 24 | rr << 16 | gg << 8 | bb
                }
            }
        }
    }

    /// Converts native ARGB32 rows into this layout.
    func convertFromNative(src: UnsafeRawPointer, srcStride: Int, dst: UnsafeMutableRawPointer, dstStride: Int,
                           width: Int, height: Int) {
        if let (order, opaque) = shuffle {
            for y in 0..<height {
                cgs_layout_from_native((dst + y * dstStride).assumingMemoryBound(to: UInt8.self),
                                       (src + y * srcStride).assumingMemoryBound(to: UInt32.self), width, order, opaque)
            }
            return
        }
        for y in 0..<height {
            let s = (src + y * srcStride).assumingMemoryBound(to: UInt32.self)
            let d = (dst + y * dstStride).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                let v = s[x]
                let aa = v >> 24, rr = (v >> 16) & 255, gg = (v >> 8) & 255, bb = v & 255
                switch kind {
                case .alpha8: d[x] = UInt8(aa)
                case .gray8: d[x] = UInt8((rr * 54 + gg * 183 + bb * 19 + 128) >> 8)
                case .rgb24:
                    let p = d + 3 * x
                    p[0] = UInt8(rr); p[1] = UInt8(gg); p[2] = UInt8(bb)
                case .rgba32:
                    let p = d + 4 * x
                    switch alpha {
                    case .premultiplied:
                        p[r] = UInt8(rr); p[g] = UInt8(gg); p[b] = UInt8(bb); p[a] = UInt8(aa)
                    case .opaque:
                        p[r] = UInt8(rr); p[g] = UInt8(gg); p[b] = UInt8(bb); p[a] = 255
                    case .straight:
                        p[r] = PixelLayout.unpremultiply(rr, aa); p[g] = PixelLayout.unpremultiply(gg, aa)
                        p[b] = PixelLayout.unpremultiply(bb, aa); p[a] = UInt8(aa)
                    }
                }
            }
        }
    }

    /// x·a/255 rounded, exact for 8-bit inputs.
    @inline(__always) static func mul255(_ x: UInt32, _ a: UInt32) -> UInt32 {
        let t = x * a + 128
        return (t + (t >> 8)) >> 8
    }

    @inline(__always) static func unpremultiply(_ c: UInt32, _ a: UInt32) -> UInt8 {
        a == 0 ? 0 : UInt8(min(255, (c * 255 + a / 2) / a))
    }
}
