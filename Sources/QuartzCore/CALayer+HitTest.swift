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
        }
        func enter(_ layer: CALayer, from point: CGPoint, parent: CALayer?) -> Frame? {
            guard !layer.isHidden else { return nil }
            let local = parent.map { layer.pointFromParent(point, parentSublayerIdentity: $0.storage.sublayerTransformIsIdentity) }
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
                if let frame = enter(top.order[top.next], from: top.local, parent: top.layer) { stack.append(frame) }
            } else {
                stack.removeLast()
                if top.layer.contains(top.local) { return top.layer }
            }
        }
        return nil
    }
}
