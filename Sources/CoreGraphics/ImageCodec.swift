import CCairo
import CGSupport
import Foundation

/// PNG and JPEG decoding and PNG encoding, shared by the ImageIO module and the golden tests.
///
/// Every decode checks the stream's declared dimensions against the decode budget before any
/// pixel memory is allocated, so a huge-dimension header costs nothing. Corrupt or
/// truncated streams return nil (counted as `.corruptImageData`); images over the budget return
/// nil too (counted as `.invalidBitmapSize`).
package enum ImageCodec {
    /// Most pixels a decoded image may have: 64 Mi (256 MiB of native pixels; a PNG holds a
    /// second copy while cairo hands it over, so its peak is twice that).
    package static let maxDecodedPixels = 1 << 26
    /// Most working memory libjpeg may take beyond the pixels (a progressive JPEG keeps every
    /// coefficient: about 6 bytes a pixel, so progressive images past ~40 Mpx are refused).
    package static let maxJPEGWorkingBytes = 256 << 20

    /// Whether a decoded width × height image fits the budget; counts the refusal.
    package static func withinBudget(_ w: Int, _ h: Int) -> Bool {
        guard w > 0, h > 0, w.multipliedReportingOverflow(by: h).partialValue <= maxDecodedPixels,
              !w.multipliedReportingOverflow(by: h).overflow else {
            CGDiagnostics.record(.invalidBitmapSize)
            return false
        }
        return true
    }

    /// The file types this codec knows, as uniform type identifiers.
    package enum Kind: String { case png = "public.png", jpeg = "public.jpeg" }

    /// The type of an encoded image from its signature.
    package static func sniff(_ data: Data) -> Kind? {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }

    /// Decodes a PNG or JPEG; nil when the data is corrupt, unknown or too large.
    package static func decode(_ data: Data) -> CGImage? {
        switch sniff(data) {
        case .png: return decodePNG(data)
        case .jpeg: return decodeJPEG(data)
        case nil: CGDiagnostics.record(.corruptImageData); return nil
        }
    }

    private final class ReadCursor {
        let data: Data
        var offset = 0
        init(_ data: Data) { self.data = data }
    }

    static func decodePNG(_ data: Data) -> CGImage? {
        // IHDR is the first chunk: width and height are big-endian at bytes 16 and 20.
        guard data.count >= 33 else { CGDiagnostics.record(.corruptImageData); return nil }
        let base = data.startIndex
        func be32(_ at: Int) -> Int { (0..<4).reduce(0) { acc, i in acc << 8 | Int(data[base + at + i]) } }
        let w = be32(16), h = be32(20)
        guard withinBudget(w, h), BitmapLimits.allows(width: w, height: h, bytesPerRow: w * 4) else { return nil }
        let cursor = ReadCursor(data)
        let surface = cairo_image_surface_create_from_png_stream({ closure, buffer, length in
            let c = Unmanaged<ReadCursor>.fromOpaque(closure!).takeUnretainedValue()
            let n = Int(length)
            guard c.offset + n <= c.data.count, let buffer else { return CAIRO_STATUS_READ_ERROR }
            c.data.withUnsafeBytes { src in
                buffer.update(from: src.baseAddress!.assumingMemoryBound(to: UInt8.self) + c.offset, count: n)
            }
            c.offset += n
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(cursor).toOpaque())
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              let native = NativeBitmap(width: Int(cairo_image_surface_get_width(surface)),
                                        height: Int(cairo_image_surface_get_height(surface))) else {
            CGDiagnostics.record(.corruptImageData)
            return nil
        }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let format = cairo_image_surface_get_format(surface)
        let src = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        for y in 0..<native.height {
            let s = (src + y * stride).assumingMemoryBound(to: UInt32.self)
            let d = (native.pixels + y * native.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<native.width {
                d[x] = format == CAIRO_FORMAT_RGB24 ? s[x] | 0xFF00_0000 : s[x]
            }
        }
        return CGImage(native: native)
    }

    static func decodeJPEG(_ data: Data) -> CGImage? {
        var w: Int32 = 0, h: Int32 = 0
        let ok = data.withUnsafeBytes { raw in
            cgs_jpeg_info(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count, &w, &h) == 0
        }
        guard ok else { CGDiagnostics.record(.corruptImageData); return nil }
        guard withinBudget(Int(w), Int(h)), let native = NativeBitmap(width: Int(w), height: Int(h)) else { return nil }
        let decoded = data.withUnsafeBytes { raw in
            cgs_jpeg_decode(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count,
                            native.pixels.assumingMemoryBound(to: UInt8.self), native.stride, w, h,
                            maxJPEGWorkingBytes) == 0
        }
        guard decoded else { CGDiagnostics.record(.corruptImageData); return nil }
        return CGImage(native: native)
    }

    /// Encodes `image` as an 8-bit RGBA PNG (colour un-premultiplied, as PNG stores it).
    package static func encodePNG(_ image: CGImage) -> Data? {
        let native = image.native
        cairo_surface_flush(native.surface)
        final class Sink { var data = Data() }
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(native.surface, { closure, bytes, length in
            let s = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
            if let bytes { s.data.append(bytes, count: Int(length)) }
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        return status == CAIRO_STATUS_SUCCESS ? sink.data : nil
    }
}
