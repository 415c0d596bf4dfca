import CCairo
import Foundation

/// What a drawing call covers, in device space.
enum Coverage {
    /// The fill of a path under a rule.
    case fill(CGPath, CGPathFillRule)
    /// The stroke of a path with the current line attributes.
    case stroke(CGPath)
    /// Anything cairo draws itself (text, transparency layers) with the source already chosen.
    case custom((OpaquePointer) -> Void)
}

/// What a drawing call paints with.
enum Paint {
    case color(CGColor)
    /// A cairo pattern in user space (the context's current cairo matrix).
    case pattern(OpaquePointer)
}

// Filling, stroking and the one compositing pipeline every drawing call goes through:
//   1. shadow (from the drawn shape's alpha, blurred, offset in base space),
//   2. the shape itself with the blend mode and global alpha, confined to the shape.
extension CGContext {
    /// Fills the current path and clears it.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        let p = currentPath
        currentPath = CGMutablePath()
        composite(.fill(p, rule), .color(state.fillColor))
    }

    /// Strokes the current path and clears it.
    public func strokePath() {
        let p = currentPath
        currentPath = CGMutablePath()
        composite(.stroke(p), .color(state.strokeColor))
    }

    /// Paints the current path as `mode` says, then clears it.
    public func drawPath(using mode: CGPathDrawingMode) {
        let p = currentPath
        currentPath = CGMutablePath()
        switch mode {
        case .fill: composite(.fill(p, .winding), .color(state.fillColor))
        case .eoFill: composite(.fill(p, .evenOdd), .color(state.fillColor))
        case .stroke: composite(.stroke(p), .color(state.strokeColor))
        case .fillStroke:
            composite(.fill(p, .winding), .color(state.fillColor)); composite(.stroke(p), .color(state.strokeColor))
        case .eoFillStroke:
            composite(.fill(p, .evenOdd), .color(state.fillColor)); composite(.stroke(p), .color(state.strokeColor))
        }
    }

    /// Fills `rect` (user space) without touching the current path.
    public func fill(_ rect: CGRect) { fill([rect]) }

    /// Fills every rect in `rects`.
    public func fill(_ rects: [CGRect]) {
        let p = CGMutablePath()
        for r in rects { p.appendRect(r, state.ctm) }
        composite(.fill(p, .winding), .color(state.fillColor))
    }

    /// Strokes the outline of `rect`.
    public func stroke(_ rect: CGRect) {
        let p = CGMutablePath()
        p.appendRect(rect, state.ctm)
        composite(.stroke(p), .color(state.strokeColor))
    }

    /// Strokes the outline of `rect` with line width `width`.
    public func stroke(_ rect: CGRect, width: CGFloat) {
        saveGState(); setLineWidth(width); stroke(rect); restoreGState()
    }

    /// Fills the ellipse inscribed in `rect`.
    public func fillEllipse(in rect: CGRect) {
        let p = CGMutablePath()
        p.appendEllipse(rect, state.ctm)
        composite(.fill(p, .winding), .color(state.fillColor))
    }

    /// Strokes the ellipse inscribed in `rect`.
    public func strokeEllipse(in rect: CGRect) {
        let p = CGMutablePath()
        p.appendEllipse(rect, state.ctm)
        composite(.stroke(p), .color(state.strokeColor))
    }

    /// Strokes independent segments: points 0–1, 2–3, …
    public func strokeLineSegments(between points: [CGPoint]) {
        let p = CGMutablePath()
        var i = 0
        while i + 1 < points.count {
            p.appendMove(points[i], state.ctm); p.appendLine(points[i + 1], state.ctm)
            i += 2
        }
        composite(.stroke(p), .color(state.strokeColor))
    }

    /// Makes `rect` fully transparent, whatever the blend mode, alpha or shadow.
    public func clear(_ rect: CGRect) {
        guard rect.isFiniteRect, ctmIsUsable else { CGDiagnostics.record(.nonFiniteGeometry); return }
        beginDrawing()
        let p = CGMutablePath()
        p.appendRect(rect, state.ctm)
        replay(p)
        cairo_save(cr)
        cairo_clip(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_restore(cr)
        endDrawing()
    }

    // MARK: The pipeline

    func composite(_ coverage: Coverage, _ paint: Paint) {
        guard ctmIsUsable else { CGDiagnostics.record(.invalidDrawingState); return }
        let g = state
        if case .color(let c) = paint, c.alpha == 0, g.blendMode == .normal || g.blendMode == .plusLighter { return }
        beginDrawing()
        defer { endDrawing() }
        cairo_set_antialias(cr, g.shouldAntialias && g.allowsAntialiasing ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
        let needsLayer: Bool = {
            if g.hasShadow || g.blendMode == .plusDarker { return true }
            if case .custom = coverage { return g.alpha < 1 || g.blendMode.isUnboundedInCairo }
            return false
        }()
        guard needsLayer else {
            draw(coverage, paint, on: cr, blend: g.blendMode, alpha: g.alpha)
            return
        }
        // Draw the shape alone into a transparent bitmap, then shadow and composite it.
        guard let layer = NativeBitmap(width: width, height: height) else { return }
        let lcr = cairo_create(layer.surface)!
        defer { cairo_destroy(lcr) }
        var m = cairoMatrix
        cairo_set_matrix(lcr, &m)
        cairo_set_antialias(lcr, cairo_get_antialias(cr))
        draw(coverage, paint, on: lcr, blend: .normal, alpha: 1)
        cairo_surface_flush(layer.surface)
        compositeLayer(layer, state: g)
    }

    /// Composites a finished layer bitmap (device-aligned) with `g`'s shadow, blend mode and alpha.
    func compositeLayer(_ layer: NativeBitmap, state g: GState) {
        cairo_save(cr)
        cairo_identity_matrix(cr)
        if g.hasShadow, let color = g.shadowColor {
            drawShadow(of: layer, offset: g.shadowOffset, sigma: g.shadowBlur / 2, color: color, alpha: g.alpha)
        }
        if g.blendMode == .plusDarker {
            plusDarker(layer, alpha: g.alpha)
        } else {
            cairo_set_operator(cr, g.blendMode.cairoOperator!)
            cairo_set_source_surface(cr, layer.surface, 0, 0)
            cairo_paint_with_alpha(cr, Double(g.alpha))
        }
        cairo_restore(cr)
    }

    /// Draws coverage × paint onto the active target with a blend mode and alpha, confined to the shape.
    private func draw(_ coverage: Coverage, _ paint: Paint, on t: OpaquePointer, blend: CGBlendMode, alpha: CGFloat) {
        switch coverage {
        case .fill(let p, _), .stroke(let p): guard fitsDrawBudget(p) else { return }
        case .custom: break
        }
        cairo_save(t)
        cairo_set_operator(t, blend.cairoOperator ?? CAIRO_OPERATOR_OVER)
        var paintAlpha = alpha
        switch paint {
        case .color(let c):
            let v = c.rgba
            cairo_set_source_rgba(t, Double(v.r), Double(v.g), Double(v.b), Double(v.a * alpha))
            paintAlpha = 1
        case .pattern(let p):
            cairo_set_source(t, p)
        }
        let direct = !blend.isUnboundedInCairo && paintAlpha == 1
        switch coverage {
        case .fill(let p, let rule):
            replay(p, into: t)
            cairo_set_fill_rule(t, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
            if direct { cairo_fill(t) } else { cairo_clip(t); cairo_paint_with_alpha(t, Double(paintAlpha)) }
        case .stroke(let p):
            if direct {
                replay(p, into: t)
                applyStrokeAttributes(t, dashes: dashesWithinBudget(devicePath: p))
                cairo_stroke(t)
            } else {
                replay(strokeOutline(of: p), into: t)
                cairo_set_fill_rule(t, CAIRO_FILL_RULE_WINDING)
                cairo_clip(t)
                cairo_paint_with_alpha(t, Double(paintAlpha))
            }
        case .custom(let body):
            body(t)
        }
        cairo_restore(t)
    }

    /// Whether the dash pattern cuts the device path into at most `CGPath.maxDashes` dashes
    /// (lengths are in user space: the path's length is brought back through the CTM's scale).
    /// The length is bounded by the control polygon's, so nothing is flattened here: cairo
    /// flattens the path once, when it strokes it.
    private func dashesWithinBudget(devicePath p: CGPath) -> Bool {
        guard !state.dashLengths.isEmpty else { return true }
        let m = state.ctm
        let scale = abs(m.a * m.d - m.b * m.c).squareRoot()
        let userLength = p.controlPolygonLength / max(scale, 1e-9)
        return !CGPath.exceedsDashBudget(length: userLength, lengths: state.dashLengths)
    }

    /// The widest line stroked, in device pixels; wider ones are drawn at this width (the same
    /// pixels on any bitmap this project can allocate).
    public static let maxDeviceLineWidth: CGFloat = 1_048_576

    /// Sets cairo's stroke state from the graphics state; `dashes` false strokes undashed (a
    /// pattern over its budget, `CGPath.maxDashes`).
    private func applyStrokeAttributes(_ t: OpaquePointer, dashes: Bool) {
        // Past `maxDeviceLineWidth` device pixels a wider line covers nothing more of any bitmap,
        // and cairo's stroker cuts round joins of a 1e308-wide line into pieces without end.
        let m = state.ctm
        let scale = abs(m.a * m.d - m.b * m.c).squareRoot()
        cairo_set_line_width(t, Double(min(state.lineWidth, CGContext.maxDeviceLineWidth / max(scale, 1e-300))))
        cairo_set_line_cap(t, [CAIRO_LINE_CAP_BUTT, CAIRO_LINE_CAP_ROUND, CAIRO_LINE_CAP_SQUARE][Int(state.lineCap.rawValue)])
        cairo_set_line_join(t, [CAIRO_LINE_JOIN_MITER, CAIRO_LINE_JOIN_ROUND, CAIRO_LINE_JOIN_BEVEL][Int(state.lineJoin.rawValue)])
        cairo_set_miter_limit(t, Double(state.miterLimit))
        if state.dashLengths.isEmpty || !dashes {
            cairo_set_dash(t, nil, 0, 0)
        } else {
            let d = state.dashLengths.map(Double.init)
            cairo_set_dash(t, d, Int32(d.count), Double(state.dashPhase))
        }
    }
}
