import CoreGraphics
import Foundation
import LayerRender

// CALayer.render(in:) and pixel helpers shared with CARenderer.
extension CALayer {
    /// Paints this layer's model tree (no animations, as Apple documents) into `ctx`: the layer's
    /// own position and transform are ignored and its coordinates are the context's user space
    /// (a layer whose bounds are (10, 10, 20, 20) paints at (10, 10)–(30, 30), as Apple's does);
    /// they go through the context's CTM (pre-flip the context for y-down images).
    func renderImpl(in ctx: CGContext) {
        let root = makeDetachedSnapshot()
        guard let scratch = NativeBitmap(width: ctx.width, height: ctx.height) else { return }
        let target = RenderTarget(pixels: scratch.pixels.assumingMemoryBound(to: UInt32.self), width: ctx.width,
                                  height: ctx.height, stride: scratch.stride / 4)
        // Layer space → CG user space (CTM) → CG device space (y up) → pixel rows (y down).
        let t = ctx.ctm
        let h = CGFloat(ctx.height)
        let base = Homography(m: (t.a, -t.b, 0, t.c, -t.d, 0, t.tx, h - t.ty, 1))
        Compositor().render(root, at: 0, into: target, base: base)
        guard let image = CGImage(native: scratch) else { return }
        ctx.saveGState()
        ctx.concatenate(ctx.ctm.inverted())
        ctx.draw(image, in: CGRect(x: 0, y: 0, width: ctx.width, height: ctx.height))
        ctx.restoreGState()
    }

    /// A snapshot of this subtree's model values with no animations, built without touching the
    /// commit caches; the root is placed so that its own coordinates are the parent's.
    func makeDetachedSnapshot() -> LayerSnapshot {
        var built: [ObjectIdentifier: LayerSnapshot] = [:]
        var stack: [(CALayer, Bool)] = [(self, false)]
        while let (layer, expanded) = stack.popLast() {
            if !expanded {
                stack.append((layer, true))
                if let m = layer._mask { stack.append((m, false)) }
                for c in layer.children { stack.append((c, false)) }
                continue
            }
            var state = layer.makeState()
            state.timing = MediaTiming()
            state.timing.duration = .infinity
            if layer === self {
                state.transform = .identity
                state.anchorPoint = .zero
                state.anchorPointZ = 0
                state.position = state.bounds.origin
                state.zPosition = 0
            }
            built[ObjectIdentifier(layer)] = LayerSnapshot(
                id: layer.layerID, state: state, sublayers: layer.children.map { built[ObjectIdentifier($0)]! },
                mask: layer._mask.map { built[ObjectIdentifier($0)]! }, animations: [])
        }
        return built[ObjectIdentifier(self)]!
    }
}

extension CGImage {
    /// An image copying a render target's pixels (premultiplied BGRA).
    static func fromNative(_ t: RenderTarget) -> CGImage? {
        let data = Data(bytes: t.pixels, count: t.stride * 4 * t.height)
        return CGImage(width: t.width, height: t.height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: t.stride * 4,
                       space: CGColorSpaceCreateDeviceRGB(),
                       bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue
                                                | CGBitmapInfo.byteOrder32Little.rawValue),
                       provider: CGDataProvider(bytes: data), decode: nil, shouldInterpolate: true,
                       intent: .defaultIntent)
    }
}
