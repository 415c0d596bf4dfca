import CoreGraphics
import Foundation
import LayerRender

// Turning the model tree into the immutable snapshot a commit publishes.
extension CALayer {
    /// True when layout or display is pending anywhere in the tree (commit repeats until quiet).
    var needsLayoutOrDisplayInTree: Bool {
        var stack: [CALayer] = [self]
        while let l = stack.popLast() {
            if l.needsLayoutFlag || l.needsDisplayFlag { return true }
            stack.append(contentsOf: l.children)
        }
        return false
    }

    /// The snapshot of this subtree; unchanged subtrees reuse their previous snapshot.
    /// Iterative (post-order), so 100,000-deep trees do not overflow the stack.
    func makeSnapshot() -> LayerSnapshot {
        if !subtreeDirty && !snapshotDirty, let c = committed { return c }
        var stack: [(CALayer, Bool)] = [(self, false)]
        while let (layer, expanded) = stack.popLast() {
            if !layer.subtreeDirty && !layer.snapshotDirty && layer.committed != nil { continue }
            if !expanded {
                stack.append((layer, true))
                if let m = layer._mask { stack.append((m, false)) }
                for c in layer.children { stack.append((c, false)) }
                continue
            }
            layer.committed = LayerSnapshot(id: layer.layerID, state: layer.makeState(),
                                            sublayers: layer.children.map { $0.committed! },
                                            mask: layer._mask?.committed, animations: layer.animationModels())
            layer.snapshotDirty = false
            layer.subtreeDirty = false
        }
        return committed!
    }

    /// The layer's own committed values in the engine's form (subclasses add theirs in `makeState()`).
    func baseState() -> LayerState {
        var s = LayerState()
        s.bounds = _bounds; s.position = _position; s.zPosition = _zPosition
        s.anchorPoint = _anchorPoint; s.anchorPointZ = _anchorPointZ
        s.transform = _transform.engine; s.sublayerTransform = _sublayerTransform.engine
        s.isGeometryFlipped = _isGeometryFlipped
        s.contents = _contents.map { .discrete(.init($0)) } ?? AnimatableValue.none
        s.contentsRect = _contentsRect; s.contentsCenter = _contentsCenter
        s.contentsGravity = _contentsGravity.rawValue; s.contentsScale = _contentsScale
        s.minificationFilter = _minificationFilter.rawValue; s.magnificationFilter = _magnificationFilter.rawValue
        s.minificationFilterBias = Double(_minificationFilterBias)
        s.isOpaque = _isOpaque; s.opacity = Double(_opacity); s.isHidden = _isHidden
        s.masksToBounds = _masksToBounds; s.isDoubleSided = _isDoubleSided
        s.cornerRadius = _cornerRadius; s.maskedCorners = _maskedCorners.rawValue; s.cornerCurve = _cornerCurve.rawValue
        s.borderWidth = _borderWidth; s.borderColor = _borderColor; s.backgroundColor = _backgroundColor
        s.shadowOpacity = Double(_shadowOpacity); s.shadowRadius = _shadowRadius; s.shadowOffset = _shadowOffset
        s.shadowColor = _shadowColor; s.shadowPath = _shadowPath
        s.allowsGroupOpacity = _allowsGroupOpacity; s.allowsEdgeAntialiasing = _allowsEdgeAntialiasing
        s.edgeAntialiasingMask = _edgeAntialiasingMask.rawValue
        s.shouldRasterize = _shouldRasterize; s.rasterizationScale = _rasterizationScale
        var t = MediaTiming()
        t.beginTime = _beginTime; t.duration = _duration; t.speed = Double(_speed); t.timeOffset = _timeOffset
        t.repeatCount = Double(_repeatCount); t.repeatDuration = _repeatDuration; t.autoreverses = _autoreverses
        s.timing = t
        for (key, value) in customValues {
            if let v = ValueBridge.animatable(value) { s.custom[key] = v }
        }
        return s
    }
}
