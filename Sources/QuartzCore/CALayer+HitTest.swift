import CoreGraphics
import Foundation
import LayerRender

// Hit testing, iterative so that 100,000-deep trees cannot overflow the stack.
//
// Order (Apple's measured behaviour, which the seed text contradicts): siblings are tried
// front to back — higher zPosition first, then later in `sublayers` first — so the layer
// that is drawn on top is the one that is hit.
extension CALayer {
    /// Sublayers in front-to-back order: descending zPosition, later siblings first among equals.
    var childrenFrontToBack: [CALayer] {
        let reversed = Array(children.reversed())
        guard reversed.contains(where: { $0.storage.zPosition != 0 }) else { return reversed }
        // Stable: enumerate to keep the reversed order among equal zPositions.
        return reversed.enumerated().sorted { l, r in
            l.element.storage.zPosition != r.element.storage.zPosition ? l.element.storage.zPosition > r.element.storage.zPosition : l.offset < r.offset
        }.map(\.element)
    }

    func hitTestImpl(_ p: CGPoint) -> CALayer? {
        struct Frame {
            let layer: CALayer
            let local: CGPoint
            let order: [CALayer]
            var next = 0
            /// For a transform layer: the point in the plane its 3D subtree is flattened into, and
            /// the 4×4 map from its space to that plane.
            var plane: CGPoint? = nil
            var chain: CATransform3D? = nil
        }
        func enter(_ layer: CALayer, from point: CGPoint, parent: Frame?) -> Frame? {
            guard !layer.isHidden else { return nil }
            if let parent, let chain = parent.chain, let plane = parent.plane {
                // Below a transform layer: through the unflattened 3D chain.
                let m = layer.transformToSuperlayer.concatenating(chain)
                if layer is CATransformLayer {
                    return Frame(layer: layer, local: .zero, order: layer.childrenByDepth(m), plane: plane, chain: m)
                }
                guard let local = Homography(m.engine).unproject(plane) else { return nil }
                if layer.masksToBounds && !layer.contains(local) { return nil }
                return Frame(layer: layer, local: local, order: layer.children.isEmpty ? [] : layer.childrenFrontToBack)
            }
            if layer is CATransformLayer {
                let m = layer.transformToSuperlayer
                return Frame(layer: layer, local: .zero, order: layer.childrenByDepth(m), plane: point, chain: m)
            }
            let local = parent.map { layer.pointFromParent(point, parentSublayerIdentity: $0.layer.storage.sublayerTransformIsIdentity) }
                ?? layer.pointFromSuperlayer(point)
            guard let local else { return nil }
            if layer.masksToBounds && !layer.contains(local) { return nil }
            return Frame(layer: layer, local: local, order: layer.children.isEmpty ? [] : layer.childrenFrontToBack)
        }
        guard let root = enter(self, from: p, parent: nil) else { return nil }
        var stack = [root]
        while let top = stack.last {
            if top.next < top.order.count {
                stack[stack.count - 1].next += 1
                if let frame = enter(top.order[top.next], from: top.local, parent: top) { stack.append(frame) }
            } else {
                stack.removeLast()
                // A transform layer has no plane of its own to be hit in.
                if top.chain == nil, top.layer.contains(top.local) { return top.layer }
            }
        }
        return nil
    }

    /// A transform layer's sublayers front to back: descending depth of their centres once `chain`
    /// (this layer → the flattening plane) is applied, as the compositor sorts them.
    func childrenByDepth(_ chain: CATransform3D) -> [CALayer] {
        let depths = children.map { c in
            c.transformToSuperlayer.concatenating(chain).engine.depth(of: CGPoint(x: c.storage.bounds.midX, y: c.storage.bounds.midY))
        }
        return children.indices.sorted { depths[$0] != depths[$1] ? depths[$0] > depths[$1] : $0 > $1 }.map { children[$0] }
    }
}
