import CGSupport
import CoreGraphics
import Foundation

// Stage: paint, a layer's shadow. Reads: the layer's state, its offscreen (what it draws), the
// painter's context, and the blurred planes kept from earlier frames. Produces: the shadow under
// the layer in the context's target; keeps a layer's blurred plane for the next frames when its
// alpha did not change from one frame to the next (in real use most shadows belong to layers
// that did not change; the canonical scenes turn this off, as their rules ask).
extension Compositor {
    /// A layer's shadow plane as last seen: its source alpha (`input`), how many times since the
    /// same alpha came again (`matches`) and, from the second time, that alpha blurred over the
    /// whole plane (`output`; a shadow whose alpha changes every other frame never pays for it).
    final class ShadowEntry {
        let input: [UInt8]
        var output: [UInt8]?
        var matches = 0
        let sigma: CGFloat
        let width: Int, height: Int, reach: Int
        var frame: Int
        init(_ plane: Raster.ShadowPlane, sigma: CGFloat, frame: Int) {
            input = plane.bytes; self.sigma = sigma; width = plane.width; height = plane.height; reach = plane.reach
            self.frame = frame
        }
        var bytes: Int { input.count + (output?.count ?? 0) }
        /// Whether `plane`, blurred with `sigma`, gives this entry's bytes.
        func holds(_ plane: Raster.ShadowPlane, sigma: CGFloat) -> Bool {
            guard self.sigma == sigma, width == plane.width, height == plane.height, reach == plane.reach,
                  input.count == plane.bytes.count else { return false }
            return input.withUnsafeBytes { a in plane.bytes.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
        }
    }

    /// Whether the blurred planes of shadows whose alpha did not change are reused across frames
    /// (benchmarks turn it off for the canonical scenes, whose rules ask for every shadow again).
    package nonisolated(unsafe) static var reusesShadows = true   // a benchmark switch, set before any frame is drawn

    /// Whether `s`'s shadow may be kept across frames: the layer is drawn once a frame (no
    /// replicator copies, not one side of a transition) from its own pixels (no `shadowPath`).
    static func keepsShadow(_ s: LayerState, _ ctx: Context) -> Bool {
        reusesShadows && s.shadowPath == nil && !ctx.inTransition && ctx.copies == 1
    }

    /// Most bytes of kept shadow planes per compositor (each worker has its own): 32 MiB, about
    /// eight hundred planes of a 120 × 90 layer; a plane past it is not kept.
    static let maxShadowCacheBytes = 32 << 20

    /// Casts `s`'s shadow from `source` onto `ctx`'s target (`pixel`: one device pixel in layer
    /// units; `opacity`: the layer's, clamped; `opaqueAbove`: what will be composited over it
    /// exactly; `keep`: the layer whose blurred plane may be kept, nil when it may not). False
    /// when the band's pixel budget cannot pay for the blur's plane (the layer is then left out).
    func paintShadow(_ s: LayerState, _ ctx: Context, from source: RenderTarget, pixel: CGFloat, opacity: Double,
                     opaqueAbove: RenderTarget?, keep id: UInt64?) -> Bool {
        guard let color = s.shadowColor else { return true }
        let radius = max(s.shadowRadius, 0) / pixel
        let offset = CGSize(width: s.shadowOffset.width / pixel, height: s.shadowOffset.height / pixel)
        let sigma = radius * 2 / 3
        // The blur's plane is charged to the band's budget: a wide blur of a small layer reads
        // far more pixels than the layer's box (and replicators repeat it).
        guard let p = Raster.shadowPlane(source: source.box, box: ctx.limit, sigma: sigma, offset: offset) else { return true }
        guard spend(PixelBox(x0: p.x0 - p.reach, y0: p.y0 - p.reach, x1: p.x1 + p.reach, y1: p.y1 + p.reach)) else { return false }
        let alpha = Float(min(max(s.shadowOpacity, 0), 1) * ctx.alpha * opacity)
        guard alpha > 0 else { return true }
        // The pixels that can reach the limit, or, for a plane that may be kept, the whole
        // offscreen's (what is kept must serve any band and limit).
        var plane = Raster.ShadowPlane(source: source, region: id != nil ? source.box : PixelBox(x0: p.x0, y0: p.y0, x1: p.x1, y1: p.y1),
                                       reach: p.reach)
        guard plane.inked else { return true }
        let blurSigma = Raster.blurSigma(sigma)
        let needs = Raster.shadowNeeds(plane, offset: (p.dx, p.dy), box: ctx.limit, clips: ctx.clips, opaqueAbove: opaqueAbove,
                                       hidden: ctx.hidden, dst: ctx.target,
                                       zeroMargin: blurScratch.zeroMargin(sigma: blurSigma))
        if let id, let kept = keptPlane(id, plane, sigma: blurSigma) {
            plane.bytes = kept
        } else {
            ShadowBlur.blur(&plane.bytes, width: plane.width, height: plane.height, sigma: blurSigma, needs: needs,
                            scratch: blurScratch)
        }
        Raster.blendShadow(plane, offset: (p.dx, p.dy), onto: ctx.target, box: ctx.limit, clips: ctx.clips, color: color,
                           alpha: alpha, needs: needs, tables: blendTables)
        return true
    }

    /// Layer `id`'s kept plane for the source alpha `plane` blurred with `sigma`, when the same
    /// alpha came before: blurred whole the third time it is seen, then reused while it stays.
    /// Nil otherwise (the alpha is kept to be met again, within `maxShadowCacheBytes`).
    private func keptPlane(_ id: UInt64, _ plane: Raster.ShadowPlane, sigma: CGFloat) -> [UInt8]? {
        if let entry = shadowCache[id], entry.holds(plane, sigma: sigma) {
            entry.frame = frameNumber
            entry.matches += 1
            if let output = entry.output {
                shadowHits += 1
                return output
            }
            guard entry.matches >= 2, shadowCacheBytes + plane.bytes.count <= Compositor.maxShadowCacheBytes else { return nil }
            var whole = plane.bytes
            ShadowBlur.blur(&whole, width: plane.width, height: plane.height, sigma: sigma, scratch: blurScratch)
            entry.output = whole
            shadowCacheBytes += whole.count
            return whole
        }
        if let old = shadowCache.removeValue(forKey: id) { shadowCacheBytes -= old.bytes }
        if shadowCacheBytes + plane.bytes.count <= Compositor.maxShadowCacheBytes {
            shadowCache[id] = ShadowEntry(plane, sigma: sigma, frame: frameNumber)
            shadowCacheBytes += plane.bytes.count
        }
        return nil
    }

    /// Drops the kept shadow planes the last `cacheFrames` frames did not use.
    func trimShadowCache() {
        let oldest = frameNumber - Compositor.cacheFrames
        guard shadowCache.values.contains(where: { $0.frame < oldest }) else { return }
        shadowCache = shadowCache.filter { $0.value.frame >= oldest }
        shadowCacheBytes = shadowCache.values.reduce(0) { $0 + $1.bytes }
    }
}
