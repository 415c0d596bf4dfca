import CCairo
import Foundation

/// An immutable bitmap image.
///
/// Supported layouts: 8 bits per component; 32-bit RGB with any alpha info and byte
/// order, 24-bit RGB, 8-bit gray and 8-bit alpha-only (masks). Other layouts make the
/// initialiser return nil (counted as `.unsupportedBitmapFormat`). The first data row
/// is the image's top row.
public final class CGImage: Equatable, Hashable, @unchecked Sendable, CustomStringConvertible {   // immutable after init
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bits per colour component (8).
    public let bitsPerComponent: Int
    /// Bits per pixel (8, 24 or 32).
    public let bitsPerPixel: Int
    /// Bytes from one row to the next.
    public let bytesPerRow: Int
    /// Alpha info and byte order of the pixels.
    public let bitmapInfo: CGBitmapInfo
    /// The colour space (nil for alpha-only).
    public let colorSpace: CGColorSpace?
    /// Whether drawing may smooth the image when scaling it.
    public let shouldInterpolate: Bool
    /// The rendering intent given at creation.
    public let renderingIntent: CGColorRenderingIntent
    /// The provider holding the pixel bytes.
    public let dataProvider: CGDataProvider?
    let layout: PixelLayout
    private let lock = NSLock()
    private var nativeCache: NativeBitmap?
    /// Whether every pixel of the native bitmap is opaque (set with it).
    private var nativeOpaque = false

    /// Creates an image over `provider`'s bytes; nil for an unsupported layout or too few bytes.
    public init?(width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int,
                 space: CGColorSpace, bitmapInfo: CGBitmapInfo, provider: CGDataProvider,
                 decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool, intent: CGColorRenderingIntent) {
        guard let layout = PixelLayout(bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel,
                                       bitmapInfo: bitmapInfo.rawValue, model: space.model) else {
            CGDiagnostics.record(.unsupportedBitmapFormat)
            return nil
        }
        guard BitmapLimits.allows(width: width, height: height, bytesPerRow: bytesPerRow),
              bytesPerRow >= width * layout.bytesPerPixel,
              provider.bytes.count >= bytesPerRow * (height - 1) + width * layout.bytesPerPixel else {
            CGDiagnostics.record(.invalidBitmapSize)
            return nil
        }
        self.width = width; self.height = height
        self.bitsPerComponent = bitsPerComponent; self.bitsPerPixel = bitsPerPixel
        self.bytesPerRow = bytesPerRow; self.bitmapInfo = bitmapInfo
        self.colorSpace = layout.kind == .alpha8 ? nil : space
        self.dataProvider = provider; self.layout = layout
        self.shouldInterpolate = shouldInterpolate; self.renderingIntent = intent
    }

    /// Creates an image mask (8-bit, 255 = paint); Apple's `CGImage(maskWidth:…)`, 8-bit only here.
    public convenience init?(maskWidth width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int,
                             bytesPerRow: Int, provider: CGDataProvider, decode: UnsafePointer<CGFloat>?,
                             shouldInterpolate: Bool) {
        self.init(width: width, height: height, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel,
                  bytesPerRow: bytesPerRow, space: CGColorSpaceCreateDeviceGray(),
                  bitmapInfo: CGBitmapInfo(alphaInfo: .alphaOnly), provider: provider, decode: decode,
                  shouldInterpolate: shouldInterpolate, intent: .defaultIntent)
    }

    /// An image over a native bitmap (premultiplied BGRA, as a bitmap context of that layout produces).
    package convenience init?(native: NativeBitmap) {
        let data = Data(bytes: native.pixels, count: native.stride * native.height)
        self.init(width: native.width, height: native.height, bitsPerComponent: 8, bitsPerPixel: 32,
                  bytesPerRow: native.stride, space: .srgbSpace,
                  bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue
                                           | CGBitmapInfo.byteOrder32Little.rawValue),
                  provider: CGDataProvider(bytes: data), decode: nil, shouldInterpolate: true,
                  intent: .defaultIntent)
    }

    /// The alpha info of the pixel layout.
    public var alphaInfo: CGImageAlphaInfo { bitmapInfo.alphaInfo ?? .none }
    /// The byte order of the pixel layout.
    public var byteOrderInfo: CGImageByteOrderInfo {
        CGImageByteOrderInfo(rawValue: bitmapInfo.rawValue & 0x7000) ?? .orderDefault
    }
    /// True for an alpha-only mask image.
    public var isMask: Bool { layout.kind == .alpha8 }

    /// The image's pixels inside `rect` (pixel coordinates, origin top-left), or nil when the
    /// intersection with the image is empty. Fractional rects are expanded to whole pixels.
    public func cropping(to rect: CGRect) -> CGImage? {
        guard rect.isFiniteRect || rect.isInfinite else { CGDiagnostics.record(.nonFiniteGeometry); return nil }
        let r = rect.standardized.intersection(CGRect(x: 0, y: 0, width: width, height: height)).integral
        guard !r.isNull, r.width > 0, r.height > 0 else { return nil }
        let x0 = CGClampToInt(Double(r.minX), in: 0...width), y0 = CGClampToInt(Double(r.minY), in: 0...height)
        let w = CGClampToInt(Double(r.width), in: 0...(width - x0)), h = CGClampToInt(Double(r.height), in: 0...(height - y0))
        guard w > 0, h > 0 else { return nil }
        let bpp = layout.bytesPerPixel
        var out = Data(count: w * bpp * h)
        dataProvider!.bytes.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                for row in 0..<h {
                    let s = src.baseAddress! + (y0 + row) * bytesPerRow + x0 * bpp
                    (dst.baseAddress! + row * w * bpp).copyMemory(from: s, byteCount: w * bpp)
                }
            }
        }
        return CGImage(width: w, height: h, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel,
                       bytesPerRow: w * bpp, space: colorSpace ?? CGColorSpaceCreateDeviceGray(),
                       bitmapInfo: bitmapInfo, provider: CGDataProvider(bytes: out), decode: nil,
                       shouldInterpolate: shouldInterpolate, intent: renderingIntent)
    }

    /// The same image.
    public func copy() -> CGImage? { self }

    /// The image as a native premultiplied BGRA bitmap, converted once and cached.
    package var native: NativeBitmap {
        lock.lock(); defer { lock.unlock() }
        if let cached = nativeCache { return cached }
        // Sizes were validated at creation, so allocation only fails on memory exhaustion.
        let bitmap = NativeBitmap(width: width, height: height)!
        dataProvider!.bytes.withUnsafeBytes { src in
            layout.convertToNative(src: src.baseAddress!, srcStride: bytesPerRow, dst: bitmap.pixels,
                                   dstStride: bitmap.stride, width: width, height: height)
        }
        cairo_surface_mark_dirty(bitmap.surface)
        nativeCache = bitmap
        nativeOpaque = bitmap.isOpaque
        return bitmap
    }

    /// Whether every pixel is opaque (alpha 255), found once when the native bitmap is made: a
    /// compositor may then let the image hide what lies under it.
    package var hasOnlyOpaquePixels: Bool {
        _ = native
        lock.lock(); defer { lock.unlock() }
        return nativeOpaque
    }

    /// Premultiplied 0xAARRGGBB of the pixel at (x, y), origin top-left.
    public func premultipliedPixel(x: Int, y: Int) -> UInt32 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return native.pixel(x: x, y: y)
    }

    /// Equality as Apple defines it for this type.
    public static func == (lhs: CGImage, rhs: CGImage) -> Bool { lhs === rhs }
    /// Hashes the values that equality compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    /// A readable description for logs and debugging.
    public var description: String { "CGImage(\(width)×\(height), \(bitsPerPixel) bpp)" }
}
