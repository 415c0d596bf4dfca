import CoreGraphics
import Foundation

// The layout half of the layout-and-display cycle. Walks are iterative (deep trees).
extension CALayer {
    /// Bounds changes mark this layer and its superlayer for layout, and for display when asked to.
    func boundsDidChange(from old: CGRect) {
        let resized = old.size != storage.bounds.size
        if resized {
            setNeedsLayout()
            if storage.needsDisplayOnBoundsChange { setNeedsDisplay() }
        }
        _superlayer?.setNeedsLayout()
    }

    func layoutIfNeededImpl() {
        // From the topmost ancestor that still needs layout (Apple), down through its subtree.
        var top: CALayer = self
        var up = _superlayer
        while let p = up, p.needsLayoutFlag {
            top = p
            up = p._superlayer
        }
        top.layoutSubtree()
    }

    /// Lays out every flagged layer of the subtree, parents before children.
    func layoutSubtree() {
        var stack: [CALayer] = [self]
        while let layer = stack.popLast() {
            if layer.needsLayoutFlag {
                layer.needsLayoutFlag = false
                layer.layoutSublayers()
            }
            stack.append(contentsOf: layer.children.reversed())
        }
    }

    func layoutSublayersImpl() {
        if let d = delegate {
            delegateProbe.remove(.layoutNotImplemented)
            d.layoutSublayers(of: self)
            if !delegateProbe.contains(.layoutNotImplemented) { return }
        }
        layoutManager?.layoutSublayers(of: self)
    }
}
