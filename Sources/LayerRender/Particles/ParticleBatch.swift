import CoreGraphics
import Foundation

/// A particle as drawn: the map from pixels back into its sprite (centred on the origin, `size`
/// in points), the pixels it may touch, its colour and cell, and what orders it (birth, depth).
/// Kept small: a frame writes, sorts and reads tens of thousands of them.
struct PlacedParticle: ParticleOrder {
    var inverse: Homography
    var size: CGSize
    var birth: Double, z: Double
    /// Straight RGBA in [0, 1].
    var color: (r: Float, g: Float, b: Float, a: Float)
    private var x0: Int32, y0: Int32, x1: Int32, y1: Int32
    /// Index into the plan's cells.
    var cell: Int32

    init(_ p: Compositor.Particle, inverse: Homography, box: PixelBox, size: CGSize) {
        self.inverse = inverse
        self.size = size
        birth = p.birth; z = p.z
        color = (Float(p.color.r), Float(p.color.g), Float(p.color.b), Float(p.color.a))
        // Boxes are clamped to ParticleBatch.everywhere (±2³⁰), which Int32 holds.
        x0 = Int32(box.x0); y0 = Int32(box.y0); x1 = Int32(box.x1); y1 = Int32(box.y1)
        cell = Int32(p.cell)
    }

    /// The pixels the sprite may touch.
    var box: PixelBox { PixelBox(x0: Int(x0), y0: Int(y0), x1: Int(x1), y1: Int(y1)) }
}

/// The particles of one emitter at one time through one map, simulated in chunks.
final class ParticleBatch {
    /// What each cell's particles share: the picture, its sampled part, its size in points at scale 1.
    struct Sprite {
        let window: SampleWindow; let source: CGRect; let size: CGSize
        /// The picture's one texel when it is solid (`SampleWindow.uniformTexel`).
        let uniform: UInt32?
    }

    let plan: ParticlePlan
    let world: Homography
    let space3D: Space3D?
    let sprites: [Sprite?]
    let chunks: [Range<Int>]
    /// Seeds of the last frame to reuse and of this frame to keep (set before any chunk is computed).
    var memo: (old: ParticleMemo?, new: ParticleMemo?) = (nil, nil)
    // Guarded by the share's lock.
    var next = 0, done = 0
    var results: [[PlacedParticle]]
    /// Which chunks are computed (their results final).
    var finished: [Bool]
    /// Per chunk, where each strip's particles begin (binned batches; `stripCount` + 1 entries).
    var strips: [[Int32]]
    /// Per chunk of a binned batch, the simulation index of the particle at each position (the
    /// cap keeps the first particles simulated, whatever strip they were filed under).
    var simulated: [[Int32]]
    /// The most rows one particle's box spans.
    var tallest = 0
    var isAssembled = false
    /// Whether the render mode leaves the order open (unordered, additive): particles are then
    /// drawn strip by strip of rows, so that the target's rows being blended stay in cache.
    let binned: Bool
    /// The particles in one list when the render mode orders them or the cap cut them (else the chunks are the order).
    private var ordered: [PlacedParticle]?
    /// Rows per strip and strips (rows beyond the last strip's start fall into it).
    static let stripRows = 16, stripCount = 1024
    /// Births simulated per chunk: enough to pay for handing a chunk over, small enough to share
    /// evenly; one budget block, so that a chunk's births are examined as in one sequential run.
    static let chunkSize = ParticlePlan.blockSize
    /// Where boxes are clamped before a painter narrows them to its band (any target fits inside).
    static let everywhere = PixelBox(x0: -(1 << 30), y0: -(1 << 30), x1: 1 << 30, y1: 1 << 30)

    init(_ e: EmitterContent, at t: Double, world: Homography, space3D: Space3D?) {
        plan = ParticlePlan(e, at: t)
        self.world = world
        self.space3D = space3D
        sprites = plan.models.map { cell in
            guard let image = cell.contents else { return nil }
            let native = image.native
            let cr = cell.contentsRect
            let source = CGRect(x: cr.minX * CGFloat(image.width), y: cr.minY * CGFloat(image.height),
                                width: cr.width * CGFloat(image.width), height: cr.height * CGFloat(image.height))
            let level = ImageLevel(pixels: UnsafePointer(native.pixels.assumingMemoryBound(to: UInt32.self)),
                                   width: image.width, height: image.height, stride: native.stride / 4)
            let window = level.window(source)
            guard !window.isEmpty else { return nil }
            let k = 1 / (cell.contentsScale > 0 ? cell.contentsScale : 1)
            return Sprite(window: window, source: source, size: CGSize(width: abs(source.width) * k, height: abs(source.height) * k),
                          uniform: window.uniformTexel())
        }
        let size = ParticleBatch.chunkSize, births = plan.births
        chunks = stride(from: 0, to: births, by: size).map { $0..<min($0 + size, births) }
        results = Array(repeating: [], count: chunks.count)
        finished = Array(repeating: false, count: chunks.count)
        strips = Array(repeating: [], count: chunks.count)
        simulated = Array(repeating: [], count: chunks.count)
        binned = plan.ordering == .open
        if chunks.isEmpty { isAssembled = true }
    }

    func matches(_ e: EmitterContent, _ t: Double, _ world: Homography, _ space3D: Space3D?) -> Bool {
        guard plan.t == t, self.world == world, plan.emitter == e else { return false }
        switch (self.space3D, space3D) {
        case (nil, nil): return true
        case let (a?, b?): return a.full4 == b.full4 && a.plane == b.plane
        default: return false
        }
    }

    /// Simulates chunk `i` and places its particles (those with a picture and some size and alpha).
    /// Chunk `i` keeps at most `cap` particles (see `cap(before:)`).
    func compute(_ i: Int, cap: Int, into out: inout [PlacedParticle], scratch: inout [PlacedParticle])
        -> (starts: [Int32], order: [Int32], tallest: Int) {
        sprites.withUnsafeBufferPointer { sprites in
            var placer = Placer(out: scratch, sprites: sprites, world: world, space3D: space3D, cap: cap)
            scratch = []
            plan.simulate(chunks[i], memo: memo, into: &placer)
            scratch = placer.out
        }
        let tallest = scratch.reduce(0) { max($0, $1.box.y1 - $1.box.y0) }
        guard binned else { swap(&out, &scratch); scratch.removeAll(keepingCapacity: true); return ([], [], tallest) }
        // Counting sort by strip, stable within a strip: where each particle goes, then the
        // particles appended in that order (each copied once).
        var starts = [Int32](repeating: 0, count: ParticleBatch.stripCount + 1)
        for p in scratch { starts[ParticleBatch.strip(p.box.y0) + 1] += 1 }
        for s in 0..<ParticleBatch.stripCount { starts[s + 1] += starts[s] }
        var fill = starts
        var order = [Int32](repeating: 0, count: scratch.count)
        for (i, p) in scratch.enumerated() {
            let s = ParticleBatch.strip(p.box.y0)
            order[Int(fill[s])] = Int32(i)
            fill[s] += 1
        }
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(scratch.count)
        scratch.withUnsafeBufferPointer { all in for i in order { out.append(all[Int(i)]) } }
        scratch.removeAll(keepingCapacity: true)
        return (starts, order, tallest)
    }

    /// The strip a box starting at row `y` is filed under.
    static func strip(_ y: Int) -> Int { min(max(y, 0) / stripRows, stripCount - 1) }

    /// Places each simulated particle: its map from sprite space to pixels, inverted, and its pixel box.
    private struct Placer: ParticleSink {
        var out: [PlacedParticle]
        let sprites: UnsafeBufferPointer<Sprite?>
        let world: Homography
        let space3D: Space3D?
        /// The emitter's map to pixels has no perspective.
        let affineWorld: Bool

        /// Particles this chunk may keep.
        let cap: Int

        init(out: [PlacedParticle], sprites: UnsafeBufferPointer<Sprite?>, world: Homography, space3D: Space3D?, cap: Int) {
            self.out = out; self.sprites = sprites; self.world = world; self.space3D = space3D; self.cap = cap
            affineWorld = world.m.2 == 0 && world.m.5 == 0 && world.m.8 == 1
        }

        mutating func take(_ p: Compositor.Particle) -> Bool {
            guard out.count < cap else { return false }
            guard let sprite = sprites[p.cell], p.scale > 0, p.color.a > 0 else { return true }
            let k = CGFloat(p.scale)
            let w = sprite.size.width * k, h = sprite.size.height * k
            // Particle space → layer space: a turn by the particle's angle, then its position.
            let turn = p.angle == 0 ? (sin: 0, cos: 1) : SineCosine.of(p.angle)
            let c = CGFloat(turn.cos), sn = CGFloat(turn.sin)
            if space3D == nil && affineWorld {
                place(p, c, sn, w, h)
                return true
            }
            let map: Homography
            if let space3D {
                var t = Transform3D.identity
                t.m11 = c; t.m12 = sn; t.m21 = -sn; t.m22 = c
                t.m41 = p.position.x; t.m42 = p.position.y; t.m43 = CGFloat(p.z)
                map = Homography(t.concatenating(space3D.full4)).concatenating(space3D.plane)
            } else {
                map = Homography(m: (c, sn, 0, -sn, c, 0, p.position.x, p.position.y, 1)).concatenating(world)
            }
            guard let inverse = map.inverse else { return true }
            let box = Compositor.box(of: CGRect(x: -w / 2, y: -h / 2, width: w, height: h), world: map, limit: ParticleBatch.everywhere)
            guard !box.isEmpty else { return true }
            out.append(PlacedParticle(p, inverse: inverse, box: box, size: CGSize(width: w, height: h)))
            return true
        }

        /// `take` under an affine world: the map, its inverse and the box written out (no divisions
        /// by w, and an inverse that is exactly affine).
        private mutating func place(_ p: Compositor.Particle, _ c: CGFloat, _ sn: CGFloat, _ w: CGFloat, _ h: CGFloat) {
            let W = world.m, px = p.position.x, py = p.position.y
            let m0 = c * W.0 + sn * W.3, m1 = c * W.1 + sn * W.4
            let m3 = -sn * W.0 + c * W.3, m4 = -sn * W.1 + c * W.4
            let m6 = px * W.0 + py * W.3 + W.6, m7 = px * W.1 + py * W.4 + W.7
            let det = m0 * m4 - m1 * m3
            guard det != 0, det.isFinite else { return }
            let k = 1 / det
            let inverse = Homography(m: (m4 * k, -m1 * k, 0, -m3 * k, m0 * k, 0, (m3 * m7 - m4 * m6) * k, -(m0 * m7 - m1 * m6) * k, 1))
            // The sprite's corners (±w/2, ±h/2) in pixels.
            let ax = w / 2 * m0, ay = w / 2 * m1, bx = h / 2 * m3, by = h / 2 * m4
            let x0 = m6 - abs(ax) - abs(bx), x1 = m6 + abs(ax) + abs(bx)
            let y0 = m7 - abs(ay) - abs(by), y1 = m7 + abs(ay) + abs(by)
            let box = PixelBox(covering: x0, y0, x1, y1, limit: ParticleBatch.everywhere)
            guard !box.isEmpty else { return }
            out.append(PlacedParticle(p, inverse: inverse, box: box, size: CGSize(width: w, height: h)))
        }
    }

    /// Settles the draw order once every chunk is in: the chunks in order, unless the render mode
    /// sorts or the cap applies (as `ParticlePlan.finish`).
    func assemble() {
        let total = results.reduce(0) { $0 + $1.count }
        if total >= Compositor.maxParticles || plan.ordering == .sorted {
            ordered = plan.finish(binned && total >= Compositor.maxParticles ? firstSimulated() : results)
        } else if plan.truncated {
            CGDiagnostics.record(.invalidParameter)
        }
        capCoverage()
        isAssembled = true
    }

    /// The chunks cut to the first `maxParticles` particles simulated, each in its strip order:
    /// which particles a binned chunk keeps does not depend on how far its cap let it simulate.
    private func firstSimulated() -> [[PlacedParticle]] {
        var left = Compositor.maxParticles
        return results.indices.map { j in
            let chunk = results[j]
            defer { left -= min(left, chunk.count) }
            if chunk.count <= left { return chunk }
            let order = simulated[j]
            return chunk.indices.compactMap { k in Int(order[k]) < left ? chunk[k] : nil }
        }
    }

    /// The most particles chunk `i` needs to keep: `maxParticles` less those of the finished
    /// chunks before it (they come first in draw order, and only the first `maxParticles` are
    /// drawn). Unfinished chunks count as empty, so the cap is never below what the chunk
    /// contributes to the drawn particles: the same particles are drawn whatever order the
    /// chunks finish in, and a batch holds about `maxParticles` (one chunk per painter more)
    /// rather than that many per chunk. Called under the share's lock.
    func cap(before i: Int) -> Int {
        var known = 0
        for j in 0..<i where finished[j] { known += results[j].count }
        return max(Compositor.maxParticles - known, 0)
    }

    /// Where particles can be drawn, for their coverage: frames and their offscreens lie inside.
    static let drawable = PixelBox(x0: 0, y0: 0, x1: 1 << 14, y1: 1 << 14)

    /// Keeps the particles, in draw order, while their boxes (cut to `drawable`) cover at most
    /// `Compositor.maxParticlePixels`: one that would pass it is skipped, later smaller ones still
    /// drawn. Decided once per batch from whole boxes, so every band draws the same particles.
    private func capCoverage() {
        func pixels(_ p: PlacedParticle) -> Double {
            let b = p.box.intersection(ParticleBatch.drawable)
            return b.isEmpty ? 0 : Double(b.x1 - b.x0) * Double(b.y1 - b.y0)
        }
        // Summed without copying the particles: the copy is made only when the cap cuts.
        let covered = ordered.map { $0.reduce(0.0) { $0 + pixels($1) } }
            ?? results.reduce(0.0) { sum, chunk in chunk.reduce(sum) { $0 + pixels($1) } }
        guard covered > Compositor.maxParticlePixels else { return }
        var kept: [PlacedParticle] = [], sum = 0.0
        for p in ordered ?? results.flatMap({ $0 }) {
            let area = pixels(p)
            if sum + area > Compositor.maxParticlePixels { continue }
            sum += area
            kept.append(p)
        }
        ordered = kept
        CGDiagnostics.record(.budgetExceeded)
    }

    /// Calls `body` with the particles that may touch `rows`, in draw order (valid once the share
    /// returned the batch). Binned batches are drawn strip by strip, chunk by chunk within a strip,
    /// in the same order whichever rows are asked for (so bands agree where particles overlap).
    func forEach(rows: Range<Int>, _ body: (PlacedParticle) -> Void) {
        if let ordered {
            for p in ordered { body(p) }
        } else if binned {
            let first = ParticleBatch.strip(rows.lowerBound > tallest ? rows.lowerBound - tallest : 0)
            let last = ParticleBatch.strip(max(rows.upperBound - 1, 0))
            guard first <= last else { return }
            for s in first...last {
                for (chunk, starts) in zip(results, strips) where starts[s] < starts[s + 1] {
                    for i in Int(starts[s])..<Int(starts[s + 1]) { body(chunk[i]) }
                }
            }
        } else {
            for chunk in results { for p in chunk { body(p) } }
        }
    }
}
