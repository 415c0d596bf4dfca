import CCairo
import Foundation

/// A Core Graphics drawing destination: bitmap contexts over 8-bit pixel memory, drawn by cairo.
///
/// Coordinates are Core Graphics': user space starts with its origin at the bottom-left
/// corner of the bitmap, y up, one unit per pixel; the first row of `data` is the top row of
/// the image. Contexts that layers draw into are pre-flipped by their owner (iOS convention).
///
/// Supported layouts: 32-bit RGB premultiplied (alpha first or last, either byte order) or
/// alpha-skipping, 8-bit alpha-only and 8-bit gray. Premultiplied BGRA
/// (`premultipliedFirst | byteOrder32Little`) is drawn in place; every other layout is drawn
/// through a native copy synchronised before and after each drawing call.
public final class CGContext {
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
    /// The pixel memory, as given at creation or allocated by the context.
    public var data: UnsafeMutableRawPointer? { userData }

    let layout: PixelLayout
    let userData: UnsafeMutableRawPointer
    private let ownsData: Bool
    /// Native working copy for non-native layouts; nil when drawing happens in place.
    let shadow: NativeBitmap?
    let surface: OpaquePointer
    let cr: OpaquePointer

    var state = GState()
    /// `textPosition`'s storage (outside the graphics state: save/restore leave it alone).
    var textPositionValue = CGPoint.zero
    var stateStack: [GState] = []
    /// Each open transparency layer remembers the state to composite it with.
    var layerStack: [GState] = []
    /// The current path in device space (CTM applied when points were added), y up.
    var currentPath = CGMutablePath()

    /// Creates a bitmap context; nil for unsupported layouts, zero or oversized dimensions
    /// (over 32767 on a side or 1 GiB), or a `bytesPerRow` too small for `width`.
    /// `data` nil makes the context allocate (zeroed) memory; `bytesPerRow` 0 computes it.
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int,
                 bytesPerRow: Int, space: CGColorSpace, bitmapInfo: UInt32) {
        let bpp: Int
        switch (bitmapInfo & 0x1F, space.model) {
        case (CGImageAlphaInfo.alphaOnly.rawValue, _): bpp = 8
        case (_, .monochrome): bpp = 8
        default: bpp = 32
        }
        guard let layout = PixelLayout(bitsPerComponent: bitsPerComponent, bitsPerPixel: bpp,
                                       bitmapInfo: bitmapInfo, model: space.model),
              layout.alpha != .straight else {
            CGDiagnostics.record(.unsupportedBitmapFormat)
            return nil
        }
        let minRow = width.multipliedReportingOverflow(by: layout.bytesPerPixel).partialValue
        let rowBytes = bytesPerRow == 0 ? (minRow + 3) & ~3 : bytesPerRow
        guard BitmapLimits.allows(width: width, height: height, bytesPerRow: rowBytes), rowBytes >= minRow else {
            if rowBytes < minRow { CGDiagnostics.record(.invalidBitmapSize) }
            return nil
        }
        self.width = width; self.height = height
        self.bitsPerComponent = bitsPerComponent; self.bitsPerPixel = bpp
        self.bytesPerRow = rowBytes; self.bitmapInfo = CGBitmapInfo(rawValue: bitmapInfo)
        self.colorSpace = layout.kind == .alpha8 ? nil : space
        self.layout = layout
        if let data {
            userData = data; ownsData = false
        } else {
            userData = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * height, alignment: 64)
            userData.initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes * height)
            ownsData = true
        }
        if layout.isNative && rowBytes % 4 == 0 {
            shadow = nil
            surface = cairo_image_surface_create_for_data(userData.assumingMemoryBound(to: UInt8.self),
                                                          CAIRO_FORMAT_ARGB32, Int32(width), Int32(height),
                                                          Int32(rowBytes))
        } else {
            guard let s = NativeBitmap(width: width, height: height) else {
                if ownsData { userData.deallocate() }
                return nil
            }
            shadow = s
            surface = cairo_surface_reference(s.surface)
        }
        cr = cairo_create(surface)
        applyMatrix()
    }

    /// Creates a bitmap context taking `CGBitmapInfo` (the newer SDK overload).
    public convenience init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int,
                             bytesPerRow: Int, space: CGColorSpace, bitmapInfo: CGBitmapInfo) {
        self.init(data: data, width: width, height: height, bitsPerComponent: bitsPerComponent,
                  bytesPerRow: bytesPerRow, space: space, bitmapInfo: bitmapInfo.rawValue)
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        if ownsData { userData.deallocate() }
    }

    /// The alpha info of the pixel layout.
    public var alphaInfo: CGImageAlphaInfo { bitmapInfo.alphaInfo ?? .none }

    /// A snapshot of the pixels as an image in the context's layout.
    public func makeImage() -> CGImage? {
        flushDrawing()
        let data = Data(bytes: userData, count: bytesPerRow * height)
        return CGImage(width: width, height: height, bitsPerComponent: bitsPerComponent,
                       bitsPerPixel: bitsPerPixel, bytesPerRow: bytesPerRow,
                       space: colorSpace ?? CGColorSpaceCreateDeviceGray(), bitmapInfo: bitmapInfo,
                       provider: CGDataProvider(bytes: data), decode: nil, shouldInterpolate: true,
                       intent: .defaultIntent)
    }

    /// Completes pending drawing (drawing is synchronous here; kept for Apple compatibility).
    public func flush() { flushDrawing() }
    /// Completes pending drawing.
    public func synchronize() { flushDrawing() }

    // MARK: Pixel synchronisation

    /// Makes cairo see the latest user pixels before a drawing call.
    func beginDrawing() {
        if let shadow {
            layout.convertToNative(src: userData, srcStride: bytesPerRow, dst: shadow.pixels,
                                   dstStride: shadow.stride, width: width, height: height)
        }
        cairo_surface_mark_dirty(surface)
    }

    /// Publishes cairo's pixels to the user memory after a drawing call.
    func endDrawing() {
        cairo_surface_flush(surface)
        if let shadow {
            layout.convertFromNative(src: shadow.pixels, srcStride: shadow.stride, dst: userData,
                                     dstStride: bytesPerRow, width: width, height: height)
        }
    }

    func flushDrawing() { cairo_surface_flush(surface) }

    /// The cairo matrix for the current CTM: CG user space → cairo device space (y down).
    var cairoMatrix: cairo_matrix_t {
        let m = state.ctm.concatenating(baseTransform)
        return cairo_matrix_t(xx: Double(m.a), yx: Double(m.b), xy: Double(m.c), yy: Double(m.d),
                              x0: Double(m.tx), y0: Double(m.ty))
    }

    /// CG device space (y up) → cairo device space (y down).
    var baseTransform: CGAffineTransform { CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height)) }

    func applyMatrix() {
        var m = cairoMatrix
        if m.xx * m.yy - m.xy * m.yx == 0 || !m.xx.isFinite || !m.yy.isFinite || !m.x0.isFinite || !m.y0.isFinite {
            // cairo rejects singular matrices (and would enter an error state); drawing under a
            // singular CTM paints nothing, so the matrix is left as it was and drawing is skipped.
            return
        }
        cairo_set_matrix(cr, &m)
    }

    /// True when the CTM can be used for drawing (finite and invertible).
    var ctmIsUsable: Bool {
        let t = state.ctm
        let det = t.a * t.d - t.b * t.c
        return det != 0 && det.isFinite && t.tx.isFinite && t.ty.isFinite
    }
}

/// The graphics state saved and restored by `saveGState`/`restoreGState`.
struct GState {
    var ctm = CGAffineTransform.identity
    var fillColor = CGColor.black
    var strokeColor = CGColor.black
    var alpha: CGFloat = 1
    var lineWidth: CGFloat = 1
    var lineCap = CGLineCap.butt
    var lineJoin = CGLineJoin.miter
    var miterLimit: CGFloat = 10
    var dashPhase: CGFloat = 0
    var dashLengths: [CGFloat] = []
    var blendMode = CGBlendMode.normal
    var shadowOffset = CGSize.zero
    var shadowBlur: CGFloat = 0
    var shadowColor: CGColor? = nil
    var shouldAntialias = true
    var allowsAntialiasing = true
    var interpolationQuality = CGInterpolationQuality.default
    var textMatrix = CGAffineTransform.identity

    /// True when drawing casts a visible shadow.
    var hasShadow: Bool {
        guard let c = shadowColor, c.alpha > 0 else { return false }
        return shadowBlur > 0 || shadowOffset != .zero
    }
}
