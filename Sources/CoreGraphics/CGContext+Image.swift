import CCairo
import Foundation

// Images, gradients and transparency layers.
extension CGContext {
    /// Draws `image` scaled into `rect` (user space), upright in y-up space (its top row at `rect.maxY`);
    /// `byTiling` repeats it across the clip with `rect` as one tile. Mask images paint the fill colour.
    public func draw(_ image: CGImage, in rect: CGRect, byTiling: Bool = false) {
        guard rect.isFiniteRect else { CGDiagnostics.record(.nonFiniteGeometry); return }
        let r = rect.standardized
        guard r.width > 0, r.height > 0 else { return }
        let bitmap = image.native
        guard let pattern = cairo_pattern_create_for_surface(bitmap.surface) else { return }
        defer { cairo_pattern_destroy(pattern) }
        // Pattern space is the image's pixel grid, y down from its top row.
        let sx = CGFloat(image.width) / r.width, sy = CGFloat(image.height) / r.height
        var m = cairo_matrix_t(xx: Double(sx), yx: 0, xy: 0, yy: Double(-sy),
                               x0: Double(-r.minX * sx), y0: Double(r.maxY * sy))
        cairo_pattern_set_matrix(pattern, &m)
        let quality = image.shouldInterpolate ? state.interpolationQuality : .none
        cairo_pattern_set_filter(pattern, quality.cairoFilter)
        cairo_pattern_set_extend(pattern, byTiling ? CAIRO_EXTEND_REPEAT : CAIRO_EXTEND_PAD)
        let area = CGMutablePath()
        if byTiling {
            area.appendRect(boundingBoxOfClipPath, state.ctm)
        } else {
            area.appendRect(r, state.ctm)
        }
        if image.isMask {
            composite(.custom { t in
                let c = self.state.fillColor.rgba
                cairo_set_source_rgba(t, Double(c.r), Double(c.g), Double(c.b), Double(c.a))
                self.replay(area, into: t)
                cairo_clip(t)
                cairo_mask(t, pattern)
            }, .color(state.fillColor))
        } else {
            composite(.fill(area, .winding), .pattern(pattern))
        }
    }

    /// Fills the clip with an axial gradient from `startPoint` to `endPoint` (user space).
    public func drawLinearGradient(_ gradient: CGGradient, start startPoint: CGPoint, end endPoint: CGPoint,
                                   options: CGGradientDrawingOptions) {
        guard startPoint.isFinite, endPoint.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return }
        guard let pattern = cairo_pattern_create_linear(startPoint.x, startPoint.y, endPoint.x, endPoint.y) else { return }
        defer { cairo_pattern_destroy(pattern) }
        gradient.addStops(to: pattern)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        // The painted area: the clip, cut by the half-planes the options exclude.
        let area = CGMutablePath()
        let clip = boundingBoxOfClipPath
        let dx = endPoint.x - startPoint.x, dy = endPoint.y - startPoint.y
        let len = hypot(dx, dy)
        guard len > 0 else { return }
        let ux = dx / len, uy = dy / len
        let far = hypot(clip.width, clip.height) + hypot(clip.midX - startPoint.x, clip.midY - startPoint.y) + len
        let before: CGFloat = options.contains(.drawsBeforeStartLocation) ? -far : 0
        let after: CGFloat = options.contains(.drawsAfterEndLocation) ? len + far : len
        // A band along the axis from `before` to `after`, `far` wide on both sides.
        let corners = [(before, -far), (after, -far), (after, far), (before, far)].map { (a, b) in
            CGPoint(x: startPoint.x + ux * a - uy * b, y: startPoint.y + uy * a + ux * b)
        }
        area.appendMove(corners[0], state.ctm)
        for c in corners.dropFirst() { area.appendLine(c, state.ctm) }
        area.appendClose()
        composite(.fill(area, .winding), .pattern(pattern))
    }

    /// Fills with a radial gradient between two circles (user space). Without
    /// `drawsBeforeStartLocation` nothing is drawn inside the start circle's cone; without
    /// `drawsAfterEndLocation` nothing beyond the end circle.
    public func drawRadialGradient(_ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat,
                                   endCenter: CGPoint, endRadius: CGFloat, options: CGGradientDrawingOptions) {
        guard startCenter.isFinite, endCenter.isFinite, startRadius.isFinite, endRadius.isFinite else {
            CGDiagnostics.record(.nonFiniteGeometry); return
        }
        let r0 = max(startRadius, 0), r1 = max(endRadius, 0)
        guard let pattern = cairo_pattern_create_radial(startCenter.x, startCenter.y, r0, endCenter.x, endCenter.y, r1)
        else { return }
        defer { cairo_pattern_destroy(pattern) }
        gradient.addStops(to: pattern)
        let both: CGGradientDrawingOptions = [.drawsBeforeStartLocation, .drawsAfterEndLocation]
        cairo_pattern_set_extend(pattern, options == both ? CAIRO_EXTEND_PAD : CAIRO_EXTEND_NONE)
        let area = CGMutablePath()
        area.appendRect(boundingBoxOfClipPath, state.ctm)
        if options.contains(.drawsAfterEndLocation) && !options.contains(.drawsBeforeStartLocation) && r0 > 0 {
            // Pad outward but keep the inside of the start circle empty (even-odd with the start circle).
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            area.appendEllipse(CGRect(x: startCenter.x - r0, y: startCenter.y - r0, width: 2 * r0, height: 2 * r0), state.ctm)
            composite(.fill(area, .evenOdd), .pattern(pattern))
            return
        }
        if options.contains(.drawsBeforeStartLocation) && !options.contains(.drawsAfterEndLocation) {
            // Pad inward but stop at the end circle.
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            let disc = CGMutablePath()
            disc.appendEllipse(CGRect(x: endCenter.x - r1, y: endCenter.y - r1, width: 2 * r1, height: 2 * r1), state.ctm)
            composite(.fill(disc, .winding), .pattern(pattern))
            return
        }
        composite(.fill(area, .winding), .pattern(pattern))
    }

    /// Starts a transparency layer: drawing until `endTransparencyLayer` is composited as one image,
    /// with the alpha, blend mode and shadow in force now. Inside, those are reset (alpha 1, normal, no shadow).
    public func beginTransparencyLayer(auxiliaryInfo: CFDictionary?) {
        layerStack.append(state)
        saveGState()
        cairo_push_group(cr)
        state.alpha = 1
        state.blendMode = .normal
        state.shadowColor = nil
    }

    /// Starts a transparency layer bounded by `rect` (the bound only limits work; drawing is identical).
    public func beginTransparencyLayer(in rect: CGRect, auxiliaryInfo: CFDictionary?) {
        beginTransparencyLayer(auxiliaryInfo: auxiliaryInfo)
    }

    /// Ends the innermost transparency layer and composites it; unbalanced calls are ignored (counted).
    public func endTransparencyLayer() {
        guard let outer = layerStack.popLast() else { CGDiagnostics.record(.invalidDrawingState); return }
        cairo_surface_flush(surface)
        // Pop under the identity matrix so the group pattern is in device pixels, whatever the
        // CTM inside the layer was.
        cairo_identity_matrix(cr)
        let group = cairo_pop_group(cr)!
        defer { cairo_pattern_destroy(group) }
        restoreGState()
        state = outer
        applyMatrix()
        composite(.custom { t in
            cairo_identity_matrix(t)
            cairo_set_source(t, group)
            cairo_paint(t)
        }, .pattern(group))
    }
}
