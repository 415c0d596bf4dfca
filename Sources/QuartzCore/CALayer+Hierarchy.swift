import CoreGraphics
import Foundation

// Tree maintenance. Every change keeps three facts true: a layer has at most one parent
// (as a sublayer or as a mask), the tree has no cycle, and the parent is marked as
// needing layout (Apple). Cycles are rejected and counted, never created.
extension CALayer {
    /// True when `self` is `layer` or one of its ancestors.
    func isAncestorOrSelf(of layer: CALayer) -> Bool {
        var l: CALayer? = layer
        while let c = l {
            if c === self { return true }
            l = c._superlayer
        }
        return false
    }

    /// Whether adding `layer` under `self` would create a cycle. A layer with no sublayers and
    /// no mask can only form a cycle with itself, which keeps building deep chains linear.
    func wouldCreateCycle(adding layer: CALayer) -> Bool {
        if layer === self { return true }
        if layer.children.isEmpty && layer._mask == nil { return false }
        return layer.isAncestorOrSelf(of: self)
    }

    /// The index of `child` among the sublayers, using its hint first.
    func indexOfChild(_ child: CALayer) -> Int? {
        guard child._superlayer === self, !child.isMaskLayer else { return nil }
        let hint = child.indexHint
        if hint < children.count, children[hint] === child { return hint }
        guard let i = children.firstIndex(where: { $0 === child }) else { return nil }
        child.indexHint = i
        return i
    }

    func insertChild(_ layer: CALayer, at requested: Int) {
        if wouldCreateCycle(adding: layer) { CGDiagnostics.record(.layerCycle); return }
        var index = requested
        if layer._superlayer === self, !layer.isMaskLayer, let old = indexOfChild(layer), old < index { index -= 1 }
        layer.detachFromParent()
        index = min(max(index, 0), children.count)
        children.insert(layer, at: index)
        layer.indexHint = index
        layer._superlayer = self
        layer.isMaskLayer = false
        layer.setHostRoot(hostRootRef)
        // (Marked directly: an app's setNeedsLayout() override need not call super.)
        if layer.cyclePending { markCyclePending() }
        setNeedsLayout()
        treeDidChange(adding: layer)
    }

    /// Marks the snapshot dirty, touches a live tree and runs `onOrderIn` for an added layer.
    func treeDidChange(adding layer: CALayer?) {
        guard modelLayer == nil else { return }
        markSubtreeDirty()
        guard let root = liveRoot else { return }
        TransactionState.current.touch(root)
        layer?.runOrderAction(kCAOnOrderIn)
    }

    func replaceChild(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard oldLayer !== newLayer, indexOfChild(oldLayer) != nil else { return }
        if wouldCreateCycle(adding: newLayer) { CGDiagnostics.record(.layerCycle); return }
        newLayer.detachFromParent()
        guard let index = indexOfChild(oldLayer) else { return }
        children[index] = newLayer
        newLayer.indexHint = index
        newLayer._superlayer = self
        newLayer.isMaskLayer = false
        newLayer.setHostRoot(hostRootRef)
        if newLayer.cyclePending { markCyclePending() }
        oldLayer._superlayer = nil
        oldLayer.setHostRoot(nil)
        setNeedsLayout()
        treeDidChange(adding: newLayer)
    }

    func replaceAllSublayers(with layers: [CALayer]) {
        let live = liveRoot != nil
        for child in children {
            if live { child.runOrderAction(kCAOnOrderOut) }
            child._superlayer = nil
            child.setHostRoot(nil)
        }
        children = []
        var seen = Set<ObjectIdentifier>()
        for layer in layers where seen.insert(ObjectIdentifier(layer)).inserted {
            insertChild(layer, at: children.count)
        }
        setNeedsLayout()
        treeDidChange(adding: nil)
    }

    func detachFromParent() {
        guard let parent = _superlayer else { return }
        if parent.modelLayer == nil, parent.liveRoot != nil { runOrderAction(kCAOnOrderOut) }
        if isMaskLayer {
            if parent._mask === self { parent._mask = nil }
            isMaskLayer = false
        } else if let i = parent.indexOfChild(self) {
            parent.children.remove(at: i)
        }
        _superlayer = nil
        setHostRoot(nil)
        parent.setNeedsLayout()
        parent.treeDidChange(adding: nil)
    }

    func setMaskLayer(_ newMask: CALayer?) {
        if let m = newMask {
            if m === _mask { return }
            if m.isAncestorOrSelf(of: self) { CGDiagnostics.record(.layerCycle); return }
        }
        if let old = _mask {
            old._superlayer = nil
            old.isMaskLayer = false
            old.setHostRoot(nil)
            _mask = nil
        }
        defer { treeDidChange(adding: nil) }
        guard let m = newMask else { return }
        // A mask that already has a superlayer (or masks another layer) is moved, not shared.
        m.detachFromParent()
        _mask = m
        m._superlayer = self
        m.isMaskLayer = true
        m.setHostRoot(hostRootRef)
        if m.cyclePending { markCyclePending() }
    }
}
