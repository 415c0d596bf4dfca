import CCairo
import Foundation

// Shadows and the blend mode cairo lacks, both computed from a device-aligned layer bitmap.
extension CGContext {
    /// Paints `color` through the blurred alpha of `layer`, shifted by `offset` (base space, y up).
    /// Expects an identity cairo matrix (device pixels).
    func drawShadow(of layer: NativeBitmap, offset: CGSize, sigma: CGFloat, color: CGColor, alpha: CGFloat) {
        guard let box = alphaBounds(layer) else { return }
        let reach = ShadowBlur.reach(sigma: sigma)
        let x0 = box.x0 - reach, y0 = box.y0 - reach
        let w = box.x1 - box.x0 + 2 * reach, h = box.y1 - box.y0 + 2 * reach
        var plane = [UInt8](repeating: 0, count: w * h)
        for y in box.y0..<box.y1 {
            let row = (layer.pixels + y * layer.stride).assumingMemoryBound(to: UInt32.self)
            let base = (y - y0) * w - x0
            for x in box.x0..<box.x1 { plane[base + x] = UInt8(row[x] >> 24) }
        }
        ShadowBlur.blur(&plane, width: w, height: h, sigma: sigma)
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(w)))
        guard let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(w), Int32(h)),
              cairo_surface_status(mask) == CAIRO_STATUS_SUCCESS else { return }
        defer { cairo_surface_destroy(mask) }
        let dst = cairo_image_surface_get_data(mask)!
        plane.withUnsafeBufferPointer { src in
            for y in 0..<h { (dst + y * stride).update(from: src.baseAddress! + y * w, count: w) }
        }
        cairo_surface_mark_dirty(mask)
        let v = color.rgba
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        cairo_set_source_rgba(cr, Double(v.r), Double(v.g), Double(v.b), Double(v.a * alpha))
        // Base space is y up, device rows run down: a positive height offset moves the shadow up.
        cairo_mask_surface(cr, mask, Double(x0) + Double(offset.width), Double(y0) - Double(offset.height))
    }

    /// Core Graphics' plusDarker, R = max(0, S + D − 1) on premultiplied values with alpha
    /// R.a = min(1, Sa + Da), applied through the clip. Expects an identity cairo matrix.
    func plusDarker(_ layer: NativeBitmap, alpha: CGFloat) {
        guard let box = alphaBounds(layer) else { return }
        // Restrict to the clip by painting the result through it: compute into a copy of the destination.
        guard let result = NativeBitmap(width: width, height: height) else { return }
        cairo_surface_flush(surface)
        let dstBase = shadow?.pixels ?? userData
        let dstStride = shadow?.stride ?? bytesPerRow
        let a255 = UInt32((alpha * 255).rounded())
        for y in box.y0..<box.y1 {
            let s = (layer.pixels + y * layer.stride).assumingMemoryBound(to: UInt32.self)
            let d = (dstBase + y * dstStride).assumingMemoryBound(to: UInt32.self)
            let r = (result.pixels + y * result.stride).assumingMemoryBound(to: UInt32.self)
            for x in box.x0..<box.x1 {
                let sv = s[x], dv = d[x]
                var out: UInt32 = 0
                for shift in stride(from: 0, through: 24, by: 8) {
                    let sc = PixelLayout.mul255((sv >> UInt32(shift)) & 255, a255)
                    let dc = (dv >> UInt32(shift)) & 255
                    let sa = PixelLayout.mul255(sv >> 24, a255), da = dv >> 24
                    let c: UInt32
                    if shift == 24 {
                        c = min(255, sa + da)
                    } else {
                        // max(0, (Sa − S) + (Da − D)) subtracted from the combined alpha.
                        let aa = min(255, sa + da)
                        let inv = (sa - min(sc, sa)) + (da - min(dc, da))
                        c = inv >= aa ? 0 : aa - inv
                    }
                    out |= c << UInt32(shift)
                }
                r[x] = out
            }
        }
        cairo_surface_mark_dirty(result.surface)
        // Only pixels the layer touched change; elsewhere the destination is kept.
        cairo_save(cr)
        cairo_rectangle(cr, Double(box.x0), Double(box.y0), Double(box.x1 - box.x0), Double(box.y1 - box.y0))
        cairo_clip(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cr, result.surface, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// The pixel box holding every non-transparent pixel of `layer`, or nil when it is empty.
    func alphaBounds(_ layer: NativeBitmap) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<layer.height {
            let row = (layer.pixels + y * layer.stride).assumingMemoryBound(to: UInt32.self)
            var first = -1, last = -1
            for x in 0..<layer.width where row[x] >> 24 != 0 {
                if first < 0 { first = x }
                last = x
            }
            if first >= 0 {
                x0 = min(x0, first); x1 = max(x1, last + 1)
                if y0 == Int.max { y0 = y }
                y1 = y + 1
            }
        }
        return x1 < 0 ? nil : (x0, y0, x1, y1)
    }
}
