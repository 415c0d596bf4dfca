import CoreGraphics
import Foundation

// The contents stage: a layer's CGImage placed by contentsGravity and contentsRect, nine-sliced by
// contentsCenter, sampled nearest, bilinear or trilinear (mip chains), times the layer's alpha.
extension Compositor {
    /// The pixels a layer's contents cover (they may overflow its bounds).
    func contentsBox(_ image: CGImage, _ s: UnsafePointer<LayerState>, world: Homography, limit: PixelBox) -> PixelBox {
        let cr = s.pointee.contentsRect
        let scale = s.pointee.contentsScale > 0 ? s.pointee.contentsScale : 1
        let natural = CGSize(width: abs(cr.width * CGFloat(image.width)) / scale, height: abs(cr.height * CGFloat(image.height)) / scale)
        let dest = ContentsLayout.rect(gravity: s.pointee.contentsGravity, bounds: s.pointee.bounds.standardized, natural: natural)
        return Compositor.box(of: dest, world: world, limit: limit)
    }

    /// Draws `image` as the layer's contents into `target` (within `limit`, through `clips`). The
    /// state comes by address, as in `paintBody` (a value was copied for each item and band).
    func paintContents(_ image: CGImage, _ s: UnsafePointer<LayerState>, world: Homography, limit: PixelBox, inverse: Homography, pixel: CGFloat,
                       flipped: Bool, clips: [ClipShape], alpha: Double, antialias: Bool, target: RenderTarget) {
        let native = image.native
        let cr = s.pointee.contentsRect
        let source = CGRect(x: cr.minX * CGFloat(image.width), y: cr.minY * CGFloat(image.height),
                            width: cr.width * CGFloat(image.width), height: cr.height * CGFloat(image.height))
        let scale = s.pointee.contentsScale > 0 ? s.pointee.contentsScale : 1
        let natural = CGSize(width: abs(source.width) / scale, height: abs(source.height) / scale)
        let dest = ContentsLayout.rect(gravity: s.pointee.contentsGravity, bounds: s.pointee.bounds.standardized, natural: natural)
        // Contents may overflow the bounds (only masksToBounds clips them): box the drawn rect itself.
        let corners = Quad(dest, through: world)
        guard corners.isComplete else { return }
        let box = PixelBox(covering: corners.bounds, limit: limit)
        // Nearest when the filter for this direction of scaling asks for it; trilinear reads the two
        // mip levels around the layer's texels-per-pixel ratio (taken at its centre) and mixes them.
        let magnifying = dest.width / max(pixel, 1e-9) >= abs(source.width)
        let filter = magnifying ? s.pointee.magnificationFilter : s.pointee.minificationFilter
        var level = ImageLevel(pixels: UnsafePointer(native.pixels.assumingMemoryBound(to: UInt32.self)),
                               width: image.width, height: image.height, stride: native.stride / 4)
        var second: (ImageLevel, Float)? = nil
        if !magnifying && filter == "trilinear" {
            let texelsPerPixel = max(abs(source.width) / dest.width, abs(source.height) / dest.height) * pixel
            let lod = log2(max(texelsPerPixel, 1e-9)) + CGFloat(s.pointee.minificationFilterBias)
            if lod > 0, lod.isFinite {
                let chain = mipChain(for: image)
                let l0 = min(Int(lod), chain.count - 1), l1 = min(l0 + 1, chain.count - 1)
                let t = Float(lod - lod.rounded(.down))
                level = chain.level(l0)
                if l1 != l0 && t > 0 { second = (chain.level(l1), t) }
            }
        }
        let pieces = ContentsLayout.nineSlice(dest: dest, source: source, center: s.pointee.contentsCenter, scale: scale)
        // Hard edges between nine-slice pieces so that they tile without seams.
        let edgeAA = antialias && pieces.count == 1
        for (d, src) in pieces {
            Raster.image(target, box: box, inverse: inverse, pixel: pixel, dest: d, source: src, flipped: flipped,
                         level: level, blend: second, nearest: filter == "nearest", alpha: Float(alpha), antialias: edgeAA,
                         clips: clips, hardEdges: s.pointee.allowsEdgeAntialiasing ? UInt8(~s.pointee.edgeAntialiasingMask & 15) : 0)
        }
    }

    /// The mip chain of `image`, built once and kept while frames use it.
    func mipChain(for image: CGImage) -> MipChain {
        let id = ObjectIdentifier(image)
        if let chain = mipCache[id], chain.image === image {
            chain.frame = frameNumber
            return chain
        }
        let chain = MipChain(image)
        chain.frame = frameNumber
        mipCache[id] = chain
        return chain
    }
}
