import CoreGraphics
import Foundation

// The display half of the cycle: backing stores drawn through CoreGraphics.
extension CALayer {
    /// Largest backing store side in pixels; larger layers are drawn at a reduced scale.
    static let maxBackingStoreSide = 8192

    func displayImpl() {
        needsDisplayFlag = false
        if let d = delegate {
            delegateProbe.remove(.displayNotImplemented)
            d.display(self)
            if !delegateProbe.contains(.displayNotImplemented) { return }
        }
        let size = storage.bounds.size
        var scale = storage.contentsScale
        // Cap the store (huge layers or scales): keep the aspect, shrink the scale.
        let longest = max(size.width, size.height) * scale
        if longest > CGFloat(CALayer.maxBackingStoreSide) { scale *= CGFloat(CALayer.maxBackingStoreSide) / longest }
        let w = CGClampToInt(Double((size.width * scale).rounded(.up)), in: 0...CALayer.maxBackingStoreSide)
        let h = CGClampToInt(Double((size.height * scale).rounded(.up)), in: 0...CALayer.maxBackingStoreSide)
        guard w > 0, h > 0,
              let ctx = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                                  space: CGColorSpaceCreateDeviceRGB(),
                                  bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)
        else {
            setDrawnContents(nil)
            return
        }
        delegate?.layerWillDraw(self)
        // Pre-flip so layer coordinates work as on iOS: origin at bounds' top-left, y down, points.
        ctx.translateBy(x: 0, y: CGFloat(h))
        ctx.scaleBy(x: scale, y: -scale)
        ctx.translateBy(x: -storage.bounds.minX, y: -storage.bounds.minY)
        delegateProbe.remove([.baseDrawRan, .drawNotImplemented])
        probing = true
        draw(in: ctx)
        probing = false
        // Nothing drew (no draw(in:) override, no delegate drawing): keep the current contents.
        let nothingDrew = delegateProbe.contains(.baseDrawRan) && (delegate == nil || delegateProbe.contains(.drawNotImplemented))
        if !nothingDrew { setDrawnContents(ctx.makeImage()) }
    }

    /// Stores what `display()` drew: no implicit fade (Apple redraws in place), but a change all the same.
    private func setDrawnContents(_ image: CGImage?) {
        storage.contents = image
        didChange("contents", runsAction: false)
    }

    /// Runs layout then display for every flagged layer of the subtree (what a commit does).
    /// Only subtrees marked `cyclePending` are entered; afterwards each layer visited is marked
    /// again from what is still flagged at or below it (a display may flag other layers).
    func layoutAndDisplayIfNeeded() {
        layoutIfNeeded()
        guard cyclePending else { return }
        var visited: [CALayer] = []
        var stack: [CALayer] = [self]
        while let layer = stack.popLast() {
            visited.append(layer)
            layer.displayIfNeeded()
            if let m = layer._mask, m.cyclePending { stack.append(m) }
            for c in layer.children.reversed() where c.cyclePending { stack.append(c) }
        }
        // Children before their parents (the reverse of the walk's order).
        for layer in visited.reversed() {
            layer.cyclePending = layer.needsLayoutFlag || layer.needsDisplayFlag || layer._mask?.cyclePending == true
                || layer.children.contains { $0.cyclePending }
        }
    }
}
