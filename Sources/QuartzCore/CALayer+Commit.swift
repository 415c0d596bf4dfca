import CoreGraphics
import Foundation
import LayerRender

// Turning the model tree into the immutable snapshot a commit publishes.
extension CALayer {
    /// True when layout or display may be pending anywhere in the tree (commit repeats until quiet).
    var needsLayoutOrDisplayInTree: Bool { cyclePending }

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
        s.bounds = storage.bounds; s.position = storage.position; s.zPosition = storage.zPosition
        s.anchorPoint = storage.anchorPoint; s.anchorPointZ = storage.anchorPointZ
        s.transform = storage.transform.engine; s.sublayerTransform = storage.sublayerTransform.engine
        s.isGeometryFlipped = storage.isGeometryFlipped
        s.contents = storage.contents.map { .discrete(.init($0)) } ?? AnimatableValue.none
        s.contentsRect = storage.contentsRect; s.contentsCenter = storage.contentsCenter
        s.contentsGravity = storage.contentsGravity.rawValue; s.contentsScale = storage.contentsScale
        s.minificationFilter = storage.minificationFilter.rawValue; s.magnificationFilter = storage.magnificationFilter.rawValue
        s.minificationFilterBias = Double(storage.minificationFilterBias)
        s.isOpaque = storage.isOpaque; s.opacity = Double(storage.opacity); s.isHidden = storage.isHidden
        s.masksToBounds = storage.masksToBounds; s.isDoubleSided = storage.isDoubleSided
        s.cornerRadius = storage.cornerRadius; s.maskedCorners = storage.maskedCorners.rawValue; s.cornerCurve = storage.cornerCurve.rawValue
        s.borderWidth = storage.borderWidth; s.borderColor = storage.borderColor; s.backgroundColor = storage.backgroundColor
        s.shadowOpacity = Double(storage.shadowOpacity); s.shadowRadius = storage.shadowRadius; s.shadowOffset = storage.shadowOffset
        s.shadowColor = storage.shadowColor; s.shadowPath = storage.shadowPath
        s.allowsGroupOpacity = storage.allowsGroupOpacity; s.allowsEdgeAntialiasing = storage.allowsEdgeAntialiasing
        s.edgeAntialiasingMask = storage.edgeAntialiasingMask.rawValue
        s.shouldRasterize = storage.shouldRasterize; s.rasterizationScale = storage.rasterizationScale
        var t = MediaTiming()
        t.beginTime = storage.beginTime; t.duration = storage.duration; t.speed = Double(storage.speed); t.timeOffset = storage.timeOffset
        t.repeatCount = Double(storage.repeatCount); t.repeatDuration = storage.repeatDuration; t.autoreverses = storage.autoreverses
        s.timing = t
        for (key, value) in customValues {
            if let v = ValueBridge.animatable(value) { s.custom[key] = v }
        }
        addCustomProperties(to: &s)
        return s
    }
}
