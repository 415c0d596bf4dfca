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

    /// Lays out every flagged layer of the subtree (masks included), parents before children. Subtrees with
    /// nothing flagged are not entered (`cyclePending`; a layout that flags a sublayer marks it).
    func layoutSubtree() {
        guard cyclePending else { return }
        var stack: [CALayer] = [self]
        while let layer = stack.popLast() {
            if layer.needsLayoutFlag {
                layer.needsLayoutFlag = false
                layer.layoutSublayers()
            }
            // A mask is laid out too (its flag would otherwise stay set, and with it its chain's mark).
            if let m = layer._mask, m.cyclePending { stack.append(m) }
            for c in layer.children.reversed() where c.cyclePending { stack.append(c) }
        }
    }

    /// Marks the layer's subtree for the next commit's layout and display walks, and opens an
    /// implicit transaction when it is on screen: Apple updates a marked layer "during the next
    /// cycle" even when nothing else changed.
    func cycleDidChange() {
        markCyclePending()
        if let root = liveRoot { TransactionState.current.touch(root) }
    }

    /// Marks this layer and its ancestors as having a layer flagged for layout or display at or
    /// below them (stopping at an ancestor already marked).
    func markCyclePending() {
        var l: CALayer? = self
        while let c = l, !c.cyclePending || c === self {
            c.cyclePending = true
            l = c._superlayer
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
