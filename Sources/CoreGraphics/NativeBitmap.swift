import CCairo
import Foundation

/// Size limits for every bitmap the stack allocates (contexts, images, decoded files).
enum BitmapLimits {
    /// Largest side in pixels (cairo's own limit).
    static let maxSide = 32767
    /// Largest buffer in bytes (1 GiB).
    static let maxBytes = 1 << 30

    /// True when a width × height bitmap of `bytesPerRow` rows is allowed; counts the rejection otherwise.
    static func allows(width: Int, height: Int, bytesPerRow: Int) -> Bool {
        let ok = width > 0 && height > 0 && width <= maxSide && height <= maxSide && bytesPerRow > 0
            && bytesPerRow.multipliedReportingOverflow(by: height).partialValue <= maxBytes
            && !bytesPerRow.multipliedReportingOverflow(by: height).overflow
        if !ok { CGDiagnostics.record(.invalidBitmapSize) }
        return ok
    }
}

/// An owned native (cairo ARGB32, premultiplied BGRA) pixel buffer with its cairo surface.
/// The surface is created over the buffer; both are released together.
package final class NativeBitmap: @unchecked Sendable {   // one owner writes; shared only as the immutable pixels of a CGImage
    package let width: Int
    package let height: Int
    /// Bytes from one row to the next.
    package let stride: Int
    package let pixels: UnsafeMutableRawPointer
    let surface: OpaquePointer

    /// A zeroed (transparent) bitmap; nil beyond `BitmapLimits`.
    package init?(width: Int, height: Int) {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(clamping: width)))
        guard stride > 0, BitmapLimits.allows(width: width, height: height, bytesPerRow: stride) else { return nil }
        self.width = width; self.height = height; self.stride = stride
        pixels = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        pixels.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
        surface = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                      Int32(width), Int32(height), Int32(stride))
    }

    /// Whether every pixel's alpha byte is 255 (one pass over the pixels).
    var isOpaque: Bool {
        var all: UInt32 = 0xFF00_0000
        for y in 0..<height {
            let row = (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { all &= row[x] }
            if all < 0xFF00_0000 { return false }
        }
        return true
    }

    deinit {
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        pixels.deallocate()
    }

    /// The 32-bit pixel at (x, y), y down from the top row: 0xAARRGGBB premultiplied.
    func pixel(x: Int, y: Int) -> UInt32 {
        (pixels + y * stride).assumingMemoryBound(to: UInt32.self)[x]
    }
}
