import CCairo
import Foundation

// Graphics state: save/restore, the current transformation matrix and the drawing attributes.
extension CGContext {
    /// Pushes a copy of the graphics state (CTM, clip, colours, line and shadow attributes…).
    public func saveGState() {
        stateStack.append(state)
        cairo_save(cr)
    }

    /// Pops the graphics state; an unbalanced call is ignored (counted as `.invalidDrawingState`).
    public func restoreGState() {
        guard let saved = stateStack.popLast() else { CGDiagnostics.record(.invalidDrawingState); return }
        state = saved
        cairo_restore(cr)
        applyMatrix()
    }

    /// The current transformation matrix (user space → base space; identity for a fresh bitmap context).
    public var ctm: CGAffineTransform { state.ctm }

    /// Translates user space by (tx, ty).
    public func translateBy(x tx: CGFloat, y ty: CGFloat) { concatenate(CGAffineTransform(translationX: tx, y: ty)) }
    /// Scales user space by (sx, sy).
    public func scaleBy(x sx: CGFloat, y sy: CGFloat) { concatenate(CGAffineTransform(scaleX: sx, y: sy)) }
    /// Rotates user space by `angle` radians (counter-clockwise in y-up space).
    public func rotate(by angle: CGFloat) { concatenate(CGAffineTransform(rotationAngle: angle)) }

    /// Applies `transform` to user space: new CTM = transform × CTM. Non-finite transforms are ignored.
    public func concatenate(_ transform: CGAffineTransform) {
        guard [transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty].allSatisfy(\.isFinite) else {
            CGDiagnostics.record(.nonFiniteGeometry); return
        }
        state.ctm = transform.concatenating(state.ctm)
        applyMatrix()
    }

    /// Maps a point from user space to base (device) space.
    public func convertToDeviceSpace(_ point: CGPoint) -> CGPoint { point.applying(state.ctm) }
    /// Maps a point from base (device) space to user space.
    public func convertToUserSpace(_ point: CGPoint) -> CGPoint { point.applying(state.ctm.inverted()) }
    /// Maps a rect from user space to device space (bounding box).
    public func convertToDeviceSpace(_ rect: CGRect) -> CGRect { rect.applying(state.ctm) }
    /// Maps a rect from device space to user space (bounding box).
    public func convertToUserSpace(_ rect: CGRect) -> CGRect { rect.applying(state.ctm.inverted()) }
    /// The affine transform mapping user space to device space (the CTM).
    public var userSpaceToDeviceSpaceTransform: CGAffineTransform { state.ctm }

    /// Sets the fill colour.
    public func setFillColor(_ color: CGColor) { state.fillColor = color }

    /// The current fill colour (Core Text draws runs without a colour in it).
    package var currentFillColor: CGColor { state.fillColor }
    /// Sets the stroke colour.
    public func setStrokeColor(_ color: CGColor) { state.strokeColor = color }
    /// Sets the fill colour from RGBA components in [0, 1].
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.fillColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    /// Sets the stroke colour from RGBA components in [0, 1].
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.strokeColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    /// Sets the fill colour to a gray level.
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { state.fillColor = CGColor(gray: gray, alpha: alpha) }
    /// Sets the stroke colour to a gray level.
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { state.strokeColor = CGColor(gray: gray, alpha: alpha) }

    /// Sets the global alpha multiplied into everything drawn; clamped to [0, 1], NaN ignored.
    public func setAlpha(_ alpha: CGFloat) {
        guard !alpha.isNaN else { CGDiagnostics.record(.nonFiniteGeometry); return }
        state.alpha = min(max(alpha, 0), 1)
    }

    /// Sets the line width in user-space units; negative or non-finite widths are ignored.
    public func setLineWidth(_ width: CGFloat) {
        guard width.isFinite, width >= 0 else { CGDiagnostics.record(.invalidParameter); return }
        state.lineWidth = width
    }
    /// Sets the line cap style.
    public func setLineCap(_ cap: CGLineCap) { state.lineCap = cap }
    /// Sets the line join style.
    public func setLineJoin(_ join: CGLineJoin) { state.lineJoin = join }
    /// Sets the miter limit (miter length / line width beyond which joins are bevelled).
    public func setMiterLimit(_ limit: CGFloat) {
        guard limit.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return }
        state.miterLimit = limit
    }
    /// Sets the dash pattern; an empty array draws solid lines. Patterns with negative, non-finite
    /// or all-zero lengths are ignored (lines stay solid; counted as `.invalidParameter`).
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        if lengths.isEmpty { state.dashLengths = []; state.dashPhase = 0; return }
        guard phase.isFinite, lengths.allSatisfy({ $0.isFinite && $0 >= 0 }), lengths.contains(where: { $0 > 0 }) else {
            CGDiagnostics.record(.invalidParameter)
            state.dashLengths = []
            return
        }
        state.dashLengths = CGPath.boundedDashLengths(lengths)
        state.dashPhase = phase
    }
    /// Accepted for compatibility; curve flattening accuracy is fixed by cairo's tolerance.
    public func setFlatness(_ flatness: CGFloat) {}

    /// Sets the blend mode for subsequent drawing.
    public func setBlendMode(_ mode: CGBlendMode) { state.blendMode = mode }

    /// Turns anti-aliasing on or off for subsequent drawing.
    public func setShouldAntialias(_ shouldAntialias: Bool) { state.shouldAntialias = shouldAntialias }
    /// Allows or forbids anti-aliasing (both this and `setShouldAntialias` must be true).
    public func setAllowsAntialiasing(_ allows: Bool) { state.allowsAntialiasing = allows }

    /// The resampling quality for drawn images.
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolationQuality }
        set { state.interpolationQuality = newValue }
    }

    /// The text matrix: maps text space (y up, baseline at the origin) into user space before the
    /// text position is added. Core Text's `CTLineDraw` and `CTFrameDraw` apply it.
    public var textMatrix: CGAffineTransform {
        get { state.textMatrix }
        set { state.textMatrix = newValue }
    }

    /// Where the next line of text is drawn (user space): `CTLineDraw` puts its baseline's start
    /// here and moves it to the line's end. Not part of the graphics state, as on Apple systems.
    public var textPosition: CGPoint {
        get { textPositionValue }
        set { if newValue.isFinite { textPositionValue = newValue } else { CGDiagnostics.record(.nonFiniteGeometry) } }
    }

    /// Enables a shadow: `offset` in base space (y up), `blur` ≈ twice the Gaussian σ in pixels, `color`
    /// (nil disables the shadow). Blur is clamped to 2 × `ShadowBlur.maxSigma`.
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
        guard offset.isFinite, blur.isFinite else { CGDiagnostics.record(.nonFiniteGeometry); return }
        if blur > 2 * ShadowBlur.maxSigma { CGDiagnostics.record(.invalidParameter) }
        state.shadowOffset = offset
        state.shadowBlur = min(max(blur, 0), 2 * ShadowBlur.maxSigma)
        state.shadowColor = color
    }

    /// Enables a shadow in black at one-third alpha (Apple's default shadow colour).
    public func setShadow(offset: CGSize, blur: CGFloat) {
        setShadow(offset: offset, blur: blur, color: CGColor(gray: 0, alpha: 1.0 / 3.0))
    }
}
