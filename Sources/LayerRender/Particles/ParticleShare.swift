import CoreGraphics
import Foundation

// Stage: particles. Reads: emitter states and their maps at the frame time. Produces: placed
// particles, simulated once per frame and read by every band. Paints nothing.

/// One frame's particles, simulated once and shared by the band painters.
///
/// Both bands of a frame need every particle (any may cross their rows), so the first band to
/// reach an emitter makes a `ParticleBatch`, and both take its chunks of births to simulate and
/// place until none is left; then each waits for the chunks the other is still working on. A
/// painter only waits for a chunk another painter is computing, never for one nobody claimed,
/// so a band that never reaches the emitter (it misses its rows) holds nothing up.
final class ParticleShare: @unchecked Sendable {   // every field is read and written under its condition lock
    private let condition = NSCondition()
    private var batches: [UInt64: [ParticleBatch]] = [:]
    /// Each emitter's particle seeds from the last frame it was drawn in, and the emitters drawn
    /// this frame (the others' seeds are dropped at the next frame).
    private var memos: [UInt64: ParticleMemo] = [:]
    private var drawn: Set<UInt64> = []
    /// Chunk buffers of earlier frames, reused so that steady frames allocate no particle memory.
    private var spare: [[PlacedParticle]] = []
    /// Batches kept at most (several emitters, or one drawn by many replicator instances); beyond
    /// it the batches made so far are forgotten (a later request for one computes it again).
    static let limit = 64
    /// Spare buffers kept at most, and the largest kept (in particles).
    static let spareCount = 32, spareCapacity = 4 * ParticleBatch.chunkSize

    /// Forgets the last frame's particles (keeping their memory for this frame's).
    func reset() {
        condition.lock()
        recycle()
        condition.unlock()
    }

    private func recycle() {
        memos = memos.filter { drawn.contains($0.key) }
        drawn = []
        for list in batches.values {
            for batch in list {
                for var buffer in batch.results where spare.count < ParticleShare.spareCount
                    && buffer.capacity <= ParticleShare.spareCapacity {
                    buffer.removeAll(keepingCapacity: true)
                    spare.append(buffer)
                }
                batch.results = []
            }
        }
        batches = [:]
    }

    /// The placed particles of `layer` at emitter time `t` through `world` (and `space3D`), in draw order.
    func placed(layer: UInt64, emitter: EmitterContent, at t: Double, world: Homography, space3D: Space3D?) -> ParticleBatch {
        condition.lock()
        defer { condition.unlock() }
        let batch: ParticleBatch
        if let found = batches[layer]?.first(where: { $0.matches(emitter, t, world, space3D) }) {
            batch = found
        } else {
            // Past the limit mid-frame the batches are forgotten, not emptied: a painter may still
            // be computing a chunk of one or drawing from it (their memory goes when they let go).
            if batches.values.reduce(0, { $0 + $1.count }) >= ParticleShare.limit { batches = [:] }
            batch = ParticleBatch(emitter, at: t, world: world, space3D: space3D)
            // The first batch of an emitter in a frame reads the seeds it left last frame and
            // leaves this frame's (later batches of the same layer, at other times, compute in full).
            if !drawn.contains(layer), batch.plan.births <= ParticleMemo.limit {
                let old = memos[layer]
                batch.memo = (old?.key == ParticleMemo.key(emitter) ? old : nil, ParticleMemo(batch.plan))
                memos[layer] = batch.memo.new
            }
            drawn.insert(layer)
            batches[layer, default: []].append(batch)
        }
        while batch.next < batch.chunks.count {
            let i = batch.next
            batch.next += 1
            var buffer = spare.popLast() ?? [], scratch = spare.popLast() ?? []
            let cap = batch.cap(before: i)
            condition.unlock()
            let strips = batch.compute(i, cap: cap, into: &buffer, scratch: &scratch)
            condition.lock()
            spare.append(scratch)
            batch.results[i] = buffer
            batch.finished[i] = true
            batch.strips[i] = strips.starts
            batch.simulated[i] = strips.order
            batch.tallest = max(batch.tallest, strips.tallest)
            batch.done += 1
            if batch.done == batch.chunks.count {
                batch.assemble()
                condition.broadcast()
            }
        }
        while !batch.isAssembled { condition.wait() }
        return batch
    }
}

/// A layer's 3D chain when particles keep their depth (preservesDepth): the 4×4 map into the
/// plane that `plane` then maps to pixels.
typealias Space3D = (full4: Transform3D, plane: Homography)
