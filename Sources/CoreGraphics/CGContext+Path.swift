import CCairo
import Foundation

// The context's current path (kept in device space, as Core Graphics does) and clipping.
extension CGContext {
    /// Discards the current path.
    public func beginPath() { currentPath = CGMutablePath() }
    /// Starts a subpath at `point` (user space).
    public func move(to point: CGPoint) { currentPath.appendMove(point, state.ctm) }
    /// Adds a line to `point`.
    public func addLine(to point: CGPoint) { currentPath.appendLine(point, state.ctm) }
    /// Adds a cubic Bézier curve.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        currentPath.appendCubic(control1, control2, end, state.ctm)
    }
    /// Adds a quadratic Bézier curve.
    public func addQuadCurve(to end: CGPoint, control: CGPoint) { currentPath.appendQuad(control, end, state.ctm) }
    /// Closes the current subpath.
    public func closePath() { currentPath.appendClose() }
    /// Adds a rectangle subpath.
    public func addRect(_ rect: CGRect) { currentPath.appendRect(rect, state.ctm) }
    /// Adds one rectangle subpath per rect.
    public func addRects(_ rects: [CGRect]) { for r in rects { currentPath.appendRect(r, state.ctm) } }
    /// Adds a polyline.
    public func addLines(between points: [CGPoint]) {
        guard let first = points.first else { return }
        currentPath.appendMove(first, state.ctm)
        for p in points.dropFirst() { currentPath.appendLine(p, state.ctm) }
    }
    /// Adds an ellipse inscribed in `rect`.
    public func addEllipse(in rect: CGRect) { currentPath.appendEllipse(rect, state.ctm) }
    /// Adds an arc; `clockwise` refers to user space (y up): decreasing angle.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        guard startAngle.isFinite, endAngle.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return }
        currentPath.appendArc(center: center, radius: radius, start: startAngle,
                       delta: CGPath.arcSweep(start: startAngle, end: endAngle, clockwise: clockwise), state.ctm)
    }
    /// Adds an arc tangent to two lines (Apple's `addArc(tangent1End:tangent2End:radius:)`).
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        currentPath.appendArcTangents(tangent1End, tangent2End, radius: radius, state.ctm)
    }
    /// Appends `path`, mapped by the CTM.
    public func addPath(_ other: CGPath) { currentPath.addPath(other, transform: state.ctm) }

    /// True when there is no current path.
    public var isPathEmpty: Bool { currentPath.isEmpty }
    /// The current point in user space (`.zero` without a path).
    public var currentPointOfPath: CGPoint { currentPath.currentPoint.applying(state.ctm.inverted()) }
    /// The bounding box of the current path in user space.
    public var boundingBoxOfPath: CGRect {
        let b = currentPath.boundingBoxOfPath
        return b.isNull ? b : b.applying(state.ctm.inverted())
    }
    /// A copy of the current path in user space; nil when empty.
    public var path: CGPath? {
        guard !self.currentPath.isEmpty else { return nil }
        return currentPath.copy(using: withUnsafePointer(to: state.ctm.inverted()) { $0 })
    }
    /// True when `point` (user space) is inside what `mode` would paint for the current path.
    public func pathContains(_ point: CGPoint, mode: CGPathDrawingMode) -> Bool {
        let q = point.applying(state.ctm)
        switch mode {
        case .fill: return currentPath.contains(q, using: .winding)
        case .eoFill: return currentPath.contains(q, using: .evenOdd)
        case .stroke: return strokeOutline(of: currentPath).contains(q)
        case .fillStroke: return currentPath.contains(q) || strokeOutline(of: currentPath).contains(q)
        case .eoFillStroke: return currentPath.contains(q, using: .evenOdd) || strokeOutline(of: currentPath).contains(q)
        }
    }
    /// Replaces the current path by the outline its stroke would paint.
    public func replacePathWithStrokedPath() {
        let outline = strokeOutline(of: currentPath)
        currentPath = outline.mutableCopy()!
    }

    /// The area the current stroke attributes paint for `devicePath`, in device space.
    func strokeOutline(of devicePath: CGPath) -> CGPath {
        let toUser = state.ctm.inverted()
        var user: CGPath = devicePath.copy(using: withUnsafePointer(to: toUser) { $0 })!
        if !state.dashLengths.isEmpty { user = user.copy(dashingWithPhase: state.dashPhase, lengths: state.dashLengths) }
        return user.copy(strokingWithWidth: state.lineWidth, lineCap: state.lineCap, lineJoin: state.lineJoin,
                         miterLimit: state.miterLimit, transform: state.ctm)
    }

    // MARK: Clipping

    /// The most elements of a path handed to cairo for one fill, stroke or clip: cairo's
    /// tessellator takes minutes over millions of crossing edges. A fill or stroke past it is
    /// skipped and a clip goes to the path's bounding box, counted as `.budgetExceeded`.
    #if FUZZING
    public static let maxDrawnElements = 1 << 11   // fuzzing builds: inputs that reach it stay cheap to explore
    #else
    public static let maxDrawnElements = 1 << 18
    #endif

    /// Whether `path` is within `maxDrawnElements` (counts a refusal).
    func fitsDrawBudget(_ path: CGPath) -> Bool {
        if path.ops.count <= CGContext.maxDrawnElements { return true }
        CGDiagnostics.record(.budgetExceeded)
        return false
    }

    /// Intersects the clip with the current path's fill (then clears the path).
    public func clip(using rule: CGPathFillRule = .winding) {
        if fitsDrawBudget(currentPath) {
            replay(currentPath)
        } else {
            replay(CGPath(rect: currentPath.boundingBoxOfPath, transform: nil))
        }
        cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_clip(cr)
        currentPath = CGMutablePath()
    }

    /// Intersects the clip with `rect` (user space).
    public func clip(to rect: CGRect) { clip(to: [rect]) }

    /// Intersects the clip with the union of `rects` (user space).
    public func clip(to rects: [CGRect]) {
        let p = CGMutablePath()
        for r in rects { p.appendRect(r, state.ctm) }
        replay(p)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_clip(cr)
        cairo_new_path(cr)
    }

    /// Removes all clipping (Apple's `resetClip`).
    public func resetClip() { cairo_reset_clip(cr) }

    /// The bounding box of the clip in user space.
    public var boundingBoxOfClipPath: CGRect {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        var m = cairoMatrix
        cairo_save(cr)
        if ctmIsUsable { cairo_set_matrix(cr, &m) }
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        cairo_restore(cr)
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Loads `devicePath` (CG device space) into cairo's path, leaving the user matrix in place.
    func replay(_ devicePath: CGPath, into cr: OpaquePointer? = nil) {
        let cr = cr ?? self.cr
        cairo_new_path(cr)
        cairo_save(cr)
        var base = cairo_matrix_t(xx: 1, yx: 0, xy: 0, yy: -1, x0: 0, y0: Double(height))
        cairo_set_matrix(cr, &base)
        var last = CGPoint.zero
        for op in devicePath.ops {
            switch op {
            case .move(let p): cairo_move_to(cr, p.x, p.y); last = p
            case .line(let p): cairo_line_to(cr, p.x, p.y); last = p
            case .quad(let c, let p):
                cairo_curve_to(cr, last.x + 2 / 3 * (c.x - last.x), last.y + 2 / 3 * (c.y - last.y),
                               p.x + 2 / 3 * (c.x - p.x), p.y + 2 / 3 * (c.y - p.y), p.x, p.y)
                last = p
            case .cubic(let a, let b, let p): cairo_curve_to(cr, a.x, a.y, b.x, b.y, p.x, p.y); last = p
            case .close: cairo_close_path(cr)
            }
        }
        cairo_restore(cr)
    }
}
