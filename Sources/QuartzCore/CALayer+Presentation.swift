import CoreGraphics
import Foundation
import LayerRender

// Presentation: committed values with animations applied at the current media time.
extension CALayer {
    /// The on-screen value at `keyPath` now, typed like the model value; nil when the layer is
    /// not on screen (never committed in a hosted tree).
    func presentationValue(forKeyPath keyPath: String) -> Any? {
        guard let v = renderTreeValue(forKeyPath: keyPath) else { return nil }
        return ValueBridge.swiftValue(v, like: value(forKeyPath: keyPath))
    }

    /// The engine value at `keyPath` in the render tree now (the last commit, animated to the
    /// current media time); nil when the layer is not on screen.
    func renderTreeValue(forKeyPath keyPath: String) -> AnimatableValue? {
        guard let snap = committed, liveRoot != nil else { return nil }
        let local = convertTime(MediaClock.now(), from: nil)
        let state = snap.presentationState(atLocalTime: local)
        return state.animatableValue(at: keyPath.split(separator: ".").map(String.init))
    }

    /// Builds the presentation tree of this layer's hosted tree and returns this layer's copy.
    /// The copies hold their sublayers strongly and their superlayer weakly (as model layers do):
    /// keep the root's presentation layer to keep the whole presentation tree.
    func makePresentation() -> CALayer? { locked { makePresentationLocked() } }

    private func makePresentationLocked() -> CALayer? {
        if modelLayer != nil { return self }
        guard committed != nil, let root = liveRoot, let rootSnapshot = root.committed else { return nil }
        var models: [UInt64: CALayer] = [:]
        var walk: [CALayer] = [root]
        while let l = walk.popLast() {
            models[l.layerID] = l
            walk.append(contentsOf: l.children)
            if let m = l._mask { walk.append(m) }
        }
        struct Item { let snapshot: LayerSnapshot; let parentTime: Double; let parent: CALayer?; let isMask: Bool }
        var stack = [Item(snapshot: rootSnapshot, parentTime: MediaClock.now(), parent: nil, isMask: false)]
        var mine: CALayer?
        while let item = stack.popLast() {
            let model = models[item.snapshot.id]
            let copy = model.map { $0.appPresentationCopy() ?? $0.presentationInstance() } ?? CALayer()
            copy.modelLayer = model ?? copy
            let local = item.snapshot.localTime(fromParent: item.parentTime)
            let state = item.snapshot.presentationState(atLocalTime: local)
            copy.applyPresentationState(state)
            copy.applyCustomProperties(state)
            if let parent = item.parent {
                copy._superlayer = parent
                if item.isMask {
                    parent._mask = copy
                    copy.isMaskLayer = true
                } else {
                    copy.indexHint = parent.children.count
                    parent.children.append(copy)
                }
            }
            if model === self { mine = copy }
            if let m = item.snapshot.mask { stack.append(Item(snapshot: m, parentTime: local, parent: copy, isMask: true)) }
            for s in item.snapshot.sublayers.reversed() {
                stack.append(Item(snapshot: s, parentTime: local, parent: copy, isMask: false))
            }
        }
        return mine
    }

    /// Copies engine values into this (presentation) layer's storage, bypassing actions.
    func applyBaseState(_ s: LayerState) {
        storage.bounds = s.bounds; storage.position = s.position; storage.zPosition = s.zPosition
        storage.anchorPoint = s.anchorPoint; storage.anchorPointZ = s.anchorPointZ
        storage.transform = CATransform3D(s.transform); storage.transformIsIdentity = s.transform.isIdentity
        storage.sublayerTransform = CATransform3D(s.sublayerTransform); storage.sublayerTransformIsIdentity = s.sublayerTransform.isIdentity
        storage.isGeometryFlipped = s.isGeometryFlipped
        if case .discrete(let d) = s.contents { storage.contents = d.value } else { storage.contents = nil }
        storage.contentsRect = s.contentsRect; storage.contentsCenter = s.contentsCenter
        storage.contentsScale = s.contentsScale; storage.minificationFilterBias = Float(s.minificationFilterBias)
        storage.opacity = Float(s.opacity); storage.isHidden = s.isHidden; storage.masksToBounds = s.masksToBounds
        storage.isDoubleSided = s.isDoubleSided; storage.cornerRadius = s.cornerRadius
        storage.borderWidth = s.borderWidth; storage.borderColor = s.borderColor; storage.backgroundColor = s.backgroundColor
        storage.shadowOpacity = Float(s.shadowOpacity); storage.shadowRadius = s.shadowRadius; storage.shadowOffset = s.shadowOffset
        storage.shadowColor = s.shadowColor; storage.shadowPath = s.shadowPath; storage.rasterizationScale = s.rasterizationScale
        for (key, v) in s.custom where customProperty(forKey: key) == nil {
            customValues[key] = ValueBridge.swiftValue(v, like: customValues[key])
        }
    }
}
