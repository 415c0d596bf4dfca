// Particles simulated in chunks and shared by the band painters: chunks put back together give
// exactly the sequential simulation; binned batches hand each band the particles that touch its
// rows, strip by strip, in one order whatever the band; placement under an affine world equals
// the general map's; a second request in the same frame reuses the batch; two threads asking at
// once each get the whole, same list; a flood of births holds about `maxParticles` placed
// particles, not that many per chunk.
import CoreGraphics
import Dispatch
import Foundation
@testable import LayerRender
import Testing

@Suite struct ParticleShareTests {
    static let dot: CGImage = {
        let ctx = CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                            bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
        ctx.setFillColor(CGColor(gray: 1, alpha: 1)); ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        return ctx.makeImage()!
    }()

    /// 3,000 births a second living 2 s, spread over a 400 × 300 rectangle (6,000 alive: six chunks).
    func emitter(_ mode: String) -> EmitterContent {
        var e = EmitterContent()
        e.position = CGPoint(x: 200, y: 150)
        e.shape = "rectangle"
        e.size = CGSize(width: 400, height: 300)
        e.renderMode = mode
        e.seed = 11
        var cell = EmitterCellModel()
        cell.birthRate = 3000; cell.lifetime = 2; cell.velocity = 10; cell.emissionRange = .pi * 2
        cell.spin = 1; cell.spinRange = 1
        cell.contents = Self.dot
        e.cells = [cell]
        return e
    }

    func list(_ batch: ParticleBatch, rows: Range<Int>) -> [PlacedParticle] {
        var out: [PlacedParticle] = []
        batch.forEach(rows: rows) { out.append($0) }
        return out
    }

    @Test func chunksGiveTheSequentialSimulation() {
        for mode in ["oldestFirst", "oldestLast", "backToFront", "unordered", "additive"] {
            let e = emitter(mode)
            let sequential = Compositor.particles(e, at: 5).0
            #expect(sequential.count == 6000)
            let batch = ParticleShare().placed(layer: 1, emitter: e, at: 5, world: .identity, space3D: nil)
            let placed = list(batch, rows: -1000..<100_000)
            #expect(placed.count == sequential.count)
            if mode == "unordered" || mode == "additive" {
                // Binned: the same particles, in strip order, each strip in birth order.
                #expect(Set(placed.map(\.birth)) == Set(sequential.map(\.birth)))
                let strips = placed.map { ParticleBatch.strip($0.box.y0) }
                #expect(strips == strips.sorted())
            } else {
                #expect(placed.map(\.birth) == sequential.map(\.birth))
                #expect(placed.map(\.z) == sequential.map(\.z))
            }
        }
    }

    @Test func bandsSeeTheirParticlesInOneOrder() {
        let batch = ParticleShare().placed(layer: 1, emitter: emitter("unordered"), at: 5, world: .identity, space3D: nil)
        let all = list(batch, rows: 0..<300)
        for rows in [0..<150, 150..<300, 37..<41] {
            let band = list(batch, rows: rows)
            // Every particle touching the rows is there, and in the order of the whole list.
            let touching = all.filter { $0.box.y0 < rows.upperBound && $0.box.y1 > rows.lowerBound }
            let births = band.map(\.birth)
            #expect(touching.allSatisfy { p in births.contains(p.birth) })
            let order = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.birth, $0) })
            let positions = births.map { order[$0]! }
            #expect(positions == positions.sorted())
        }
    }

    @Test func affinePlacementMatchesTheGeneralMap() {
        // The same turning particles placed through an affine world directly, and through the
        // general 3D chain with an identity depth map: same boxes, same inverse maps (to rounding).
        let world = Homography(m: (1.5, 0.25, 0, -0.25, 1.5, 0, 30, -12, 1))
        let e = emitter("oldestFirst")
        let direct = list(ParticleShare().placed(layer: 1, emitter: e, at: 5, world: world, space3D: nil), rows: -1000..<100_000)
        let general = list(ParticleShare().placed(layer: 1, emitter: e, at: 5, world: world, space3D: (.identity, world)),
                           rows: -1000..<100_000)
        #expect(direct.count == 6000 && general.count == 6000)
        var worst: CGFloat = 0, boxes = 0
        for (a, b) in zip(direct, general) {
            let p = a.inverse.m, q = b.inverse.m
            worst = max(worst, abs(p.0 - q.0), abs(p.1 - q.1), abs(p.3 - q.3), abs(p.4 - q.4), abs(p.6 - q.6), abs(p.7 - q.7))
            if a.box != b.box { boxes += 1 }
            #expect(p.2 == 0 && p.5 == 0 && p.8 == 1)
        }
        #expect(worst < 1e-9 && boxes == 0)
    }

    @Test func oneBatchPerFrameSharedByThreads() {
        let share = ParticleShare()
        let e = emitter("additive")
        let first = share.placed(layer: 3, emitter: e, at: 5, world: .identity, space3D: nil)
        #expect(share.placed(layer: 3, emitter: e, at: 5, world: .identity, space3D: nil) === first)
        #expect(share.placed(layer: 3, emitter: e, at: 5.5, world: .identity, space3D: nil) !== first)
        share.reset()
        // Two threads asking at once split the chunks and both get the whole list.
        final class Results: @unchecked Sendable { var first = 0, second = 0 }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let b = share.placed(layer: 4, emitter: e, at: 5, world: .identity, space3D: nil)
            var n = 0
            b.forEach(rows: -1000..<100_000) { _ in n += 1 }
            if i == 0 { results.first = n } else { results.second = n }
        }
        #expect(results.first == 6000 && results.second == 6000)
    }

    @Test func aFloodHoldsAboutMaxParticlesNotThatManyPerChunk() {
        // 100,000 births a second for 10 s: a million alive, about a thousand chunks of 1,024
        // births. Only the first maxParticles (in chunk order) are drawn; found by fuzzing, each
        // chunk used to keep up to maxParticles of its own (2.3 GB for one emitter).
        var e = emitter("unordered")
        e.cells[0].birthRate = 100_000; e.cells[0].lifetime = 10
        let batch = ParticleShare().placed(layer: 7, emitter: e, at: 10, world: .identity, space3D: nil)
        // One painter: the chunks finish in order, and together hold exactly the cap.
        #expect(batch.results.reduce(0) { $0 + $1.count } == Compositor.maxParticles)
        #expect(list(batch, rows: -1000..<100_000).count == Compositor.maxParticles)
        // The cap only drops what is never drawn: the first chunks are those of the full simulation.
        let first = batch.plan.simulate(0..<ParticleBatch.chunkSize)
        #expect(batch.results[0].count == first.count)
    }

    @Test func twoPaintersGetTheSameFloodAsOne() {
        // Chunks finishing out of order across two threads keep the same first maxParticles.
        var flood = emitter("unordered")
        flood.cells[0].birthRate = 60_000; flood.cells[0].lifetime = 2
        let e = flood
        let alone = list(ParticleShare().placed(layer: 3, emitter: e, at: 2, world: .identity, space3D: nil), rows: -1000..<100_000)
        let share = ParticleShare()
        let lists = Lists()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let batch = share.placed(layer: 3, emitter: e, at: 2, world: .identity, space3D: nil)
            lists.set(i, list(batch, rows: -1000..<100_000).map(\.birth))
        }
        #expect(alone.count == Compositor.maxParticles)
        let a = alone.map(\.birth), l0 = lists.get(0), l1 = lists.get(1)
        #expect(l0 == a && l1 == a, "counts \(a.count) \(l0.count) \(l1.count); first difference \(String(describing: zip(a, l0).enumerated().first { $0.element.0 != $0.element.1 }))")
    }

    @Test func twoPaintersPastTheBatchLimitEachGetWholeBatches() {
        // More emitters than the share keeps batches for, asked by two painters at once: past the
        // limit the share forgets its batches mid-frame while the other painter may be computing
        // a chunk of one (emptying them there trapped).
        let e = emitter("unordered")
        let expected = list(ParticleShare().placed(layer: 0, emitter: e, at: 5, world: .identity, space3D: nil), rows: -1000..<100_000).count
        let share = ParticleShare()
        let counts = Lists()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            var seen: [Double] = []
            for layer in 0..<(ParticleShare.limit + 10) {
                let batch = share.placed(layer: UInt64(layer), emitter: e, at: 5, world: .identity, space3D: nil)
                seen.append(Double(list(batch, rows: -1000..<100_000).count))
            }
            counts.set(i, seen)
        }
        #expect(counts.get(0).allSatisfy { Int($0) == expected } && counts.get(1).allSatisfy { Int($0) == expected })
    }
}

/// Results written by concurrent painters, read after they finished.
final class Lists: @unchecked Sendable {   // every access takes the lock
    private let lock = NSLock()
    private var values: [Int: [Double]] = [:]
    func set(_ i: Int, _ v: [Double]) { lock.lock(); values[i] = v; lock.unlock() }
    func get(_ i: Int) -> [Double] { lock.lock(); defer { lock.unlock() }; return values[i] ?? [] }
}
