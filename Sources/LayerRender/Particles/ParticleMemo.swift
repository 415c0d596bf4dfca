import CoreGraphics
import Foundation

/// The part of a top-level particle that does not depend on time: everything drawn from its
/// random numbers (life, spawn offset, velocity, depth, scale, spin, colour before its speeds).
/// Kept from one frame to the next (`ParticleMemo`), so a steady emitter computes only the
/// particles born since the last frame; the formulas are the same, so are the pictures.
struct ParticleSeed {
    static let unknown: UInt8 = 0, notEmitted: UInt8 = 1, emitted: UInt8 = 2
    var state = ParticleSeed.unknown
    var life = 0.0
    var spawned = CGPoint.zero
    var vx = 0.0, vy = 0.0, vz = 0.0, z0 = 0.0
    /// Scale at birth (the emitter's multiplier applied) and spin (radians per second).
    var scale = 0.0, spin = 0.0
    /// Straight RGBA at birth, before clamping.
    var color = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
}

/// Where one birth's seed is read from (the last frame's memo) and written to (this frame's).
struct MemoSlot {
    var old: ParticleSeed? = nil
    var new: UnsafeMutablePointer<ParticleSeed>? = nil
}

/// One frame's seeds of an emitter's top-level births, laid out as its plan's births, with the
/// emitter properties they were drawn under (`key`: position aside, which is added per frame).
final class ParticleMemo: @unchecked Sendable {   // filled by one frame's first batch under ParticleShare's lock, read after
    let key: EmitterContent
    let runs: [ParticlePlan.Run]
    let seeds: UnsafeMutableBufferPointer<ParticleSeed>
    /// Largest plan remembered (births); larger ones are computed in full every frame.
    static let limit = 200_000

    init(_ plan: ParticlePlan) {
        key = ParticleMemo.key(plan.emitter)
        runs = plan.runs
        seeds = .allocate(capacity: plan.births)
        seeds.initialize(repeating: ParticleSeed())
    }

    deinit { seeds.deallocate() }

    /// What the seeds depend on: every emitter property but its position (and how particles are
    /// ordered or placed, which the seeds do not hold).
    static func key(_ e: EmitterContent) -> EmitterContent {
        var k = e
        k.position = .zero
        k.renderMode = ""
        k.preservesDepth = false
        return k
    }
}
