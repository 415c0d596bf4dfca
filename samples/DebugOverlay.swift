import Foundation
import QuartzCore

/// Instruments-style overlays drawn with shape layers above the scene, from the presentation
/// tree (so they follow animations): blended layers tinted red and opaque ones green, every
/// layer's bounds outlined, and the layer a click hit with its path from the root.
@MainActor final class DebugOverlay {
    let layer = CALayer()
    var tintsBlended = false { didSet { refreshed = nil } }
    var outlinesBounds = false { didSet { refreshed = nil } }
    var showsHitTest = false { didSet { hit = nil; refreshed = nil } }
    private let blended = CAShapeLayer(), opaque = CAShapeLayer(), outlines = CAShapeLayer(), hitShape = CAShapeLayer()
    private let hitLabel = CATextLayer()
    private var hit: CALayer?
    /// The quads drawn last time (nothing is committed while they stay the same).
    private var refreshed: [[CGPoint]]?
    /// Something is drawn that turning every overlay off must take away.
    private var drawn = false

    init(scale: CGFloat) {
        layer.zPosition = 50
        layer.name = "debug overlay"
        blended.fillColor = CGColor(red: 1, green: 0.1, blue: 0.1, alpha: 0.35)
        opaque.fillColor = CGColor(red: 0.1, green: 1, blue: 0.2, alpha: 0.35)
        outlines.fillColor = nil
        outlines.strokeColor = CGColor(red: 1, green: 0.85, blue: 0.1, alpha: 0.9)
        outlines.lineWidth = 1
        hitShape.fillColor = CGColor(red: 0.2, green: 0.8, blue: 1, alpha: 0.25)
        hitShape.strokeColor = CGColor(red: 0.2, green: 0.8, blue: 1, alpha: 1)
        hitShape.lineWidth = 2
        hitLabel.fontSize = 12
        hitLabel.contentsScale = scale
        hitLabel.foregroundColor = CGColor(gray: 1, alpha: 1)
        hitLabel.backgroundColor = CGColor(red: 0, green: 0.2, blue: 0.3, alpha: 0.85)
        hitLabel.cornerRadius = 4
        hitLabel.isWrapped = true
        for l in [blended, opaque, outlines, hitShape, hitLabel] { layer.addSublayer(l) }
    }

    var isActive: Bool { tintsBlended || outlinesBounds || showsHitTest }

    /// Records the layer a click hit (with `showsHitTest`).
    func clicked(_ layer: CALayer?, root: CALayer) {
        guard showsHitTest else { return }
        hit = layer
        var path: [String] = []
        var l = layer
        while let c = l {
            path.append(c === root ? "root" : "\(type(of: c))\(c.name.map { " \"\($0)\"" } ?? "")")
            l = c.superlayer
        }
        withoutAnimation {
            hitLabel.string = layer == nil ? "nothing hit" : "hit: " + path.reversed().joined(separator: " › ")
            refreshed = nil
        }
    }

    /// Redraws the overlays for `stage` as it is on screen now (cheap when nothing moved).
    func update(stage: CALayer, root: CALayer) {
        guard isActive, let rootP = root.presentation(), let stageP = findCopy(of: stage, in: rootP) else {
            if drawn { clear() }
            return
        }
        var quads: [[CGPoint]] = []
        let red = CGMutablePath(), green = CGMutablePath(), lines = CGMutablePath()
        // Each layer with the box (root space) that its ancestors' masksToBounds clip it to.
        var stack: [(CALayer, CGRect?)] = [(stageP, nil)]
        while let (l, clip) = stack.popLast() {
            let b = l.bounds
            let q = [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY), CGPoint(x: b.maxX, y: b.maxY),
                     CGPoint(x: b.minX, y: b.maxY)].map { l.convert($0, to: rootP) }
            let inner = l.masksToBounds ? boundingBox(q).intersection(clip ?? .infinite) : clip
            stack.append(contentsOf: (l.sublayers ?? []).reversed().map { ($0, inner) })
            guard !l.isHidden, l.opacity > 0, l !== stageP else { continue }
            quads.append(q)
            if outlinesBounds { lines.addLines(between: q + [q[0]]) }
            if tintsBlended, drawsSomething(l) {
                // Only the pixels the layer paints: its quad cut to the clip of its ancestors.
                let shown = clip.map { clipped(q, to: $0) } ?? q
                if shown.count >= 3 { (isBlended(l) ? red : green).addLines(between: shown + [shown[0]]) }
            }
        }
        var hitQuad: [CGPoint] = []
        if showsHitTest, let hit, let h = findCopy(of: hit, in: rootP) {
            let b = h.bounds
            hitQuad = [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY), CGPoint(x: b.maxX, y: b.maxY),
                       CGPoint(x: b.minX, y: b.maxY)].map { h.convert($0, to: rootP) }
            quads.append(hitQuad)
        }
        quads.append([CGPoint(x: tintsBlended ? 1 : 0, y: outlinesBounds ? 1 : 0)])
        guard quads != refreshed else { return }
        refreshed = quads
        drawn = true
        withoutAnimation {
            blended.path = red; opaque.path = green; outlines.path = lines
            let hp = CGMutablePath()
            if !hitQuad.isEmpty { hp.addLines(between: hitQuad + [hitQuad[0]]) }
            hitShape.path = hp
            hitLabel.isHidden = !showsHitTest || hitLabel.string == nil
            hitLabel.frame = CGRect(x: 8, y: 8, width: root.bounds.width - 16, height: 38)
        }
    }

    private func clear() {
        refreshed = nil
        drawn = false
        withoutAnimation {
            for s in [blended, opaque, outlines, hitShape] { s.path = nil }
            hitLabel.isHidden = true
        }
    }

    private func boundingBox(_ q: [CGPoint]) -> CGRect {
        let xs = q.map(\.x), ys = q.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// The part of the convex polygon `q` inside `r` (Sutherland–Hodgman, one side of `r` at a time).
    private func clipped(_ q: [CGPoint], to r: CGRect) -> [CGPoint] {
        guard !r.isNull else { return [] }
        var poly = q
        let sides: [(CGPoint) -> CGFloat] = [{ $0.x - r.minX }, { r.maxX - $0.x }, { $0.y - r.minY }, { r.maxY - $0.y }]
        for inside in sides where !poly.isEmpty {
            var out: [CGPoint] = []
            for (i, a) in poly.enumerated() {
                let b = poly[(i + 1) % poly.count], da = inside(a), db = inside(b)
                if da >= 0 { out.append(a) }
                if (da >= 0) != (db >= 0) {
                    let t = da / (da - db)
                    out.append(CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
                }
            }
            poly = out
        }
        return poly
    }

    /// Whether the layer paints pixels of its own (background, border, contents or content).
    private func drawsSomething(_ l: CALayer) -> Bool {
        (l.backgroundColor?.alpha ?? 0) > 0 || l.borderWidth > 0 || l.contents != nil
            || l is CAShapeLayer || l is CATextLayer || l is CAGradientLayer || l is CATiledLayer || l is CAEmitterLayer
    }

    /// Whether its pixels are blended with what is below (Instruments' "Color Blended Layers").
    private func isBlended(_ l: CALayer) -> Bool {
        if l.isOpaque { return false }
        if l.opacity < 1 || l.cornerRadius > 0 || l.contents != nil { return true }
        if l is CAShapeLayer || l is CATextLayer || l is CAGradientLayer || l is CAEmitterLayer { return true }
        return (l.backgroundColor?.alpha ?? 0) < 1
    }

    /// The presentation copy of model layer `model` inside the presentation tree `tree`.
    private func findCopy(of model: CALayer, in tree: CALayer) -> CALayer? {
        var stack = [tree]
        while let l = stack.popLast() {
            if l.model() === model { return l }
            stack.append(contentsOf: l.sublayers ?? [])
        }
        return nil
    }
}
