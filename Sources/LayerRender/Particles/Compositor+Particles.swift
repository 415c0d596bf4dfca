import CoreGraphics
import Foundation

// CAEmitterLayer's simulation, in closed form. Each cell emits particle k at time k / birthRate
// (time since emission began); every random choice of a particle comes from a hash of (seed,
// cell, k, which draw), and its state at age a is a formula of a (position p₀ + v·a + ½·g·a²,
// scale, spin, colour + speed·a). So a frame depends only on its time — the same seed and
// times give the same pictures however frames are spaced — and the particles alive at t are
// exactly those born in (t − lifetime, t]: birthRate × t of them while t < lifetime.
// Nested cells emit from each particle of their parent. A cell's beginTime, duration, speed and
// repeat settings bound when it emits (its emission window, in emitter time). Depths: z values
// move particles in depth (emitterZPosition, emissionLatitude, zAcceleration) and order them in
// backToFront mode.
//
// Because each birth is independent, the births of the top-level cells form one numbered list
// (`ParticlePlan.births`) that can be cut into chunks simulated on different threads; chunks
// put back in order give exactly the sequential list (ParticleBatch, ParticleShare). The
// per-particle formulas are in ParticleSimulator; what they draw at random is remembered between
// frames in ParticleMemo; spawn points are in Spawn.
extension Compositor {
    // Fuzzing builds use smaller particle budgets so that inputs which reach them stay cheap
    // enough to explore (the limits' paths are the same).
    #if FUZZING
    package static let maxParticles = 2_000
    package static let maxParticlePixels: Double = 1024 * 1024
    #else
    /// Most particles drawn in one emitter per frame; births beyond it (the newest) are not drawn (counted).
    package static let maxParticles = 50_000
    /// Most pixels the particles of one emitter may cover in a frame, summed over their boxes in
    /// draw order; a particle that would pass it is not drawn (counted). Without it, 50,000
    /// particles each as large as the window would take minutes a frame.
    package static let maxParticlePixels: Double = 64 * 1024 * 1024
    #endif
    #if FUZZING
    static let maxBirthsExamined = 20_000
    #else
    /// Most births of one emitter examined per frame, its cells' and their sub-cells' together,
    /// in each of the copies drawn. Without it, a long-lived cell that emits only in a short
    /// window would make every frame walk its whole history, and sub-cells multiply the walk by
    /// their parents. Top-level cells share it evenly; their sub-cells share what they leave. The
    /// oldest births are skipped (counted: `invalidParameter` for top-level cells, `budgetExceeded`
    /// for sub-cells).
    static let maxBirthsExamined = 1_000_000
    #endif

    struct Particle: ParticleOrder {
        var position: CGPoint
        /// Depth (points; larger is nearer): orders particles in backToFront mode.
        var z: Double
        var angle: Double
        var scale: Double
        var color: (r: Double, g: Double, b: Double, a: Double)
        var birth: Double
        /// Index into the plan's `cells`.
        var cell: Int
    }

    /// The particles alive `t` seconds after emission began (in draw order), and the flattened
    /// cell list they refer to; computed on this thread.
    static func particles(_ e: EmitterContent, at t: Double) -> ([Particle], [EmitterCellModel]) {
        let plan = ParticlePlan(e, at: t)
        return (plan.finish([plan.simulate(0..<plan.births)]), plan.models)
    }

    /// A particle's random draws: SplitMix64 of its key and the draw's number.
    struct Draws {
        let key: UInt64
        func unit(_ i: Int) -> Double {
            // The top 53 bits fit a signed integer: one conversion instruction instead of the unsigned sequence.
            Double(Int64(bitPattern: mix(key &+ UInt64(i) &* 0x9E37_79B9_7F4A_7C15) >> 11)) / Double(1 << 53)
        }
        func signed(_ i: Int) -> Double { unit(i) * 2 - 1 }
    }

    /// SplitMix64's finaliser: a well-mixed 64-bit hash of `x`.
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
