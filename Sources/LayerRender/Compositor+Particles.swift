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
// put back in order give exactly the sequential list.
extension Compositor {
    /// Most particles drawn in one emitter per frame; births beyond it (the newest) are not drawn (counted).
    package static let maxParticles = 50_000
    /// Most births of one cell examined per frame (a long-lived cell that emits only in a short
    /// window would otherwise make every frame walk its whole history); the oldest are skipped (counted).
    static let maxBirthsPerCell = 1_000_000

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
}

/// What a frame's simulation needs: the cell tree flattened, and the top-level births to simulate.
/// Everything the per-particle code reads is plain numbers (no reference counting per particle).
struct ParticlePlan {
    /// A cell's numbers, as the simulation reads them.
    struct Cell {
        var lifetime: Double, lifetimeRange: Double
        var latitude: Double, longitude: Double, range: Double
        var velocity: Double, velocityRange: Double
        var acceleration: (x: Double, y: Double, z: Double)
        var scale: Double, scaleRange: Double, scaleSpeed: Double
        var spin: Double, spinRange: Double
        var color: (r: Double, g: Double, b: Double, a: Double)
        var colorRange: (r: Double, g: Double, b: Double, a: Double)
        var colorSpeed: (r: Double, g: Double, b: Double, a: Double)
        var timing: MediaTiming
        /// Default timing: the cell emits whenever its emitter does.
        var emitsAlways: Bool
        /// Position among its siblings, disabled ones included (part of the random key).
        var sibling: Int
        /// Births per second (the emitter's birthRate applied, capped) and the longest life (seconds).
        var rate: Double, longest: Double
        /// Where this cell's enabled sub-cells are listed in the plan's `childList`.
        var children: Range<Int> = 0..<0
        /// The emitter's lifetime, velocity, scale and spin multipliers.
        var multipliers: (lifetime: Double, velocity: Double, scale: Double, spin: Double)

        init(_ m: EmitterCellModel, sibling: Int, _ e: EmitterContent) {
            lifetime = m.lifetime; lifetimeRange = m.lifetimeRange
            latitude = m.emissionLatitude; longitude = m.emissionLongitude; range = m.emissionRange
            velocity = m.velocity; velocityRange = m.velocityRange
            acceleration = m.acceleration
            scale = m.scale; scaleRange = m.scaleRange; scaleSpeed = m.scaleSpeed
            spin = m.spin; spinRange = m.spinRange
            color = m.color; colorRange = m.colorRange; colorSpeed = m.colorSpeed
            timing = m.timing
            emitsAlways = m.timing == MediaTiming()
            self.sibling = sibling
            multipliers = (e.lifetime, e.velocity, e.scale, e.spin)
            rate = min(max(m.birthRate * e.birthRate, 0), 100_000)
            longest = max(m.lifetime + abs(m.lifetimeRange), 0) * max(e.lifetime, 0)
        }

        /// Whether the cell emits `time` seconds after its emitter (or parent particle) began (duration 0: for ever).
        func emits(at time: Double) -> Bool {
            if emitsAlways { return time >= 0 }
            var t = timing
            if t.duration == 0 { t.duration = .infinity }
            if case .active = t.phase(at: time) { return true }
            return false
        }
    }

    /// One top-level cell's births: numbers `first…` in the cell's sequence, from `offset` in the plan's list.
    struct Run {
        let cell: Int
        let key: UInt64
        let first: Double
        let offset: Int, count: Int
    }

    let emitter: EmitterContent
    let t: Double
    let spawn: Spawn
    let position: CGPoint
    let zPosition: Double, emitterDepth: Double
    /// The enabled cells, depth first, and (same indices) their models.
    private(set) var cells: [Cell] = []
    private(set) var models: [EmitterCellModel] = []
    /// Sub-cell indices, each cell's in one stretch (`Cell.children`).
    private(set) var childList: [Int] = []
    private(set) var runs: [Run] = []
    /// Top-level births examined this frame (the chunked list's length).
    private(set) var births = 0
    /// True when a cell's history was longer than `maxBirthsPerCell`.
    private(set) var truncated = false

    init(_ e: EmitterContent, at t: Double) {
        emitter = e
        self.t = t
        spawn = Spawn(e)
        position = e.position
        zPosition = Double(e.zPosition); emitterDepth = Double(e.depth)
        guard t.isFinite, t >= 0 else { return }
        func flatten(_ list: [EmitterCellModel], depth: Int) -> [Int] {
            guard depth < 8 else { return [] }
            var indices: [Int] = []
            for (i, model) in list.enumerated() where model.isEnabled {
                let index = cells.count
                cells.append(Cell(model, sibling: i, e))
                models.append(model)
                let sub = flatten(model.cells, depth: depth + 1)
                cells[index].children = childList.count..<childList.count + sub.count
                childList += sub
                indices.append(index)
            }
            return indices
        }
        for index in flatten(e.cells, depth: 0) {
            let key = Compositor.mix(UInt64(e.seed) &* 31 &+ UInt64(cells[index].sibling) &+ 1)
            guard let (first, last) = ParticlePlan.window(cells[index], now: t, start: 0) else { continue }
            var from = first
            if last - first + 1 > Double(Compositor.maxBirthsPerCell) {
                from = last - Double(Compositor.maxBirthsPerCell) + 1
                truncated = true
            }
            let count = Int(last - from) + 1
            runs.append(Run(cell: index, key: key, first: from, offset: births, count: count))
            births += count
        }
    }

    /// The numbers of a cell's births (since `start`) that may be alive at `now` (nil: none).
    static func window(_ cell: Cell, now: Double, start: Double) -> (first: Double, last: Double)? {
        let rate = cell.rate
        guard rate > 0, rate.isFinite, cell.longest > 0 else { return nil }
        let first = max(0, ((now - start - cell.longest) * rate).rounded(.up))
        let last = ((now - start) * rate).rounded(.down)
        guard last >= first else { return nil }
        return (first, last)
    }

    /// The particles of top-level births `range` (and their descendants), in draw order, at most
    /// `maxParticles` of them.
    func simulate(_ range: Range<Int>) -> [Compositor.Particle] {
        struct Collect: ParticleSink {
            var out: [Compositor.Particle] = []
            mutating func take(_ p: Compositor.Particle) -> Bool { out.append(p); return out.count < Compositor.maxParticles }
        }
        var sink = Collect()
        simulate(range, into: &sink)
        return sink.out
    }

    /// Gives `sink` each particle of top-level births `range` (and their descendants), in draw
    /// order, until it asks to stop.
    /// `memo`: the last frame's seeds of this emitter (read) and this frame's (written, one entry per
    /// top-level birth of this plan).
    func simulate<Sink: ParticleSink>(_ range: Range<Int>, memo: (old: ParticleMemo?, new: ParticleMemo?) = (nil, nil),
                                      into sink: inout Sink) {
        cells.withUnsafeBufferPointer { cells in
            childList.withUnsafeBufferPointer { childList in
                let sim = Simulator(t: t, spawn: spawn, zPosition: zPosition, depth: emitterDepth, cells: cells, childList: childList)
                var r = runs.firstIndex { $0.offset + $0.count > range.lowerBound } ?? runs.count
                var i = range.lowerBound
                while i < range.upperBound, r < runs.count {
                    let run = runs[r]
                    let end = min(range.upperBound, run.offset + run.count)
                    let before = memo.old?.runs.first { $0.cell == run.cell }
                    for j in i..<end {
                        let k = run.first + Double(j - run.offset)
                        var slot = MemoSlot(old: nil, new: memo.new.map { $0.seeds.baseAddress! + j })
                        if let old = memo.old, let before {
                            let at = k - before.first
                            if at >= 0, at < Double(before.count) { slot.old = old.seeds[before.offset + Int(at)] }
                        }
                        guard sim.birth(run.cell, key: run.key, k: k, start: 0, origin: .point(position), depth: 0,
                                        memo: slot, into: &sink) else { return }
                    }
                    i = end
                    r += 1
                }
            }
        }
    }

    /// Chunks put back in order, capped at `maxParticles` (the excess counted) and ordered by the render mode.
    func finish<T: ParticleOrder>(_ chunks: [[T]]) -> [T] {
        var out = chunks.count == 1 ? chunks[0] : chunks.flatMap { $0 }
        if out.count > Compositor.maxParticles {
            out.removeLast(out.count - Compositor.maxParticles)
        }
        if out.count >= Compositor.maxParticles || truncated { CGDiagnostics.record(.invalidParameter) }
        switch emitter.renderMode {
        case "oldestFirst": out.sort { $0.birth < $1.birth }
        case "oldestLast": out.sort { $0.birth > $1.birth }
        case "backToFront": out.sort { $0.z < $1.z }
        default: break
        }
        return out
    }
}

/// What the render modes order particles by.
protocol ParticleOrder {
    /// Emitter time of birth (seconds).
    var birth: Double { get }
    /// Depth (points; larger is nearer).
    var z: Double { get }
}

/// Takes simulated particles in draw order; returns false to stop the simulation.
protocol ParticleSink {
    mutating func take(_ p: Compositor.Particle) -> Bool
}

/// The per-particle half of the simulation: plain values and unowned views of the plan's cells,
/// so that no particle pays for reference counting.
private struct Simulator {
    let t: Double
    let spawn: Spawn
    let zPosition: Double, depth: Double
    let cells: UnsafeBufferPointer<ParticlePlan.Cell>
    let childList: UnsafeBufferPointer<Int>

    /// The time-independent part of a particle of `cell` from its draws `r`.
    func seed(_ cell: ParticlePlan.Cell, _ r: Compositor.Draws) -> ParticleSeed {
        var seed = ParticleSeed()
        seed.state = ParticleSeed.emitted
        seed.life = max(cell.lifetime + cell.lifetimeRange * r.signed(0), 0) * max(cell.multipliers.lifetime, 0)
        seed.spawned = spawn.point(r)
        let direction = cell.longitude + cell.range * r.signed(1)
        let latitude = cell.latitude + cell.range * r.signed(11)
        let speed = (cell.velocity + cell.velocityRange * r.signed(2)) * cell.multipliers.velocity
        let lat = SineCosine.of(latitude), dir = SineCosine.of(direction)
        let planar = speed * lat.cos
        seed.vx = planar * dir.cos; seed.vy = planar * dir.sin; seed.vz = speed * lat.sin
        seed.z0 = zPosition + (spawn.hasDepth ? (r.unit(12) - 0.5) * depth : 0)
        seed.scale = (cell.scale + cell.scaleRange * r.signed(3)) * cell.multipliers.scale
        seed.spin = (cell.spin + cell.spinRange * r.signed(4)) * cell.multipliers.spin
        seed.color = (cell.color.r + cell.colorRange.r * r.signed(5), cell.color.g + cell.colorRange.g * r.signed(6),
                      cell.color.b + cell.colorRange.b * r.signed(7), cell.color.a + cell.colorRange.a * r.signed(8))
        return seed
    }

    /// Simulates birth `k` of cell `index` (emitting from `origin` since `start`), passing it and
    /// its descendants to `sink`; false when `sink` asked to stop. `memo`: where this birth's seed
    /// may be found from the last frame, and where to keep it for the next.
    func birth<Sink: ParticleSink>(_ index: Int, key cellKey: UInt64, k: Double, start: Double, origin: Origin,
                                   depth level: Int, memo: MemoSlot = MemoSlot(), into sink: inout Sink) -> Bool {
        let cell = cells[index]
        let birth = start + k / cell.rate
        let seed: ParticleSeed
        if let known = memo.old, known.state != ParticleSeed.unknown {
            seed = known
        } else if !cell.emits(at: birth - start) {
            // The cell's own timing bounds when it emits.
            var none = ParticleSeed()
            none.state = ParticleSeed.notEmitted
            seed = none
        } else {
            seed = self.seed(cell, Compositor.Draws(key: Compositor.mix(cellKey ^ UInt64(k))))
        }
        memo.new?.pointee = seed
        guard seed.state == ParticleSeed.emitted else { return true }
        let life = seed.life
        let age = t - birth
        guard age >= 0, age < life, let p0 = origin.at(birth) else { return true }
        let start0 = CGPoint(x: p0.x + seed.spawned.x, y: p0.y + seed.spawned.y)
        let g = cell.acceleration
        let path = Trajectory(start: start0, vx: seed.vx, vy: seed.vy, gx: g.x, gy: g.y)
        func channel(_ base: Double, _ speed: Double) -> Double { min(max(base + speed * age, 0), 1) }
        let particle = Compositor.Particle(
            position: path.at(age), z: seed.z0 + seed.vz * age + 0.5 * g.z * age * age, angle: seed.spin * age,
            scale: max(seed.scale + cell.scaleSpeed * age, 0),
            color: (channel(seed.color.r, cell.colorSpeed.r), channel(seed.color.g, cell.colorSpeed.g),
                    channel(seed.color.b, cell.colorSpeed.b), channel(seed.color.a, cell.colorSpeed.a)),
            birth: birth, cell: index)
        guard sink.take(particle) else { return false }
        // Sub-cells emit from this particle for as long as it lives.
        guard !cell.children.isEmpty, level + 1 < 8 else { return true }
        let parentKey = Compositor.mix(cellKey ^ UInt64(k + 1) &* 7919)
        let from = Origin.particle(path, birth: birth, life: life)
        for child in childList[cell.children] {
            let key = Compositor.mix(parentKey &* 31 &+ UInt64(cells[child].sibling) &+ 1)
            guard let (first, last) = ParticlePlan.window(cells[child], now: min(t, birth + life), start: birth) else { continue }
            var k = max(first, last - Double(Compositor.maxBirthsPerCell) + 1)
            while k <= last {
                guard self.birth(child, key: key, k: k, start: birth, origin: from, depth: level + 1, into: &sink) else { return false }
                k += 1
            }
        }
        return true
    }
}

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
final class ParticleMemo: @unchecked Sendable {
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

/// Where a cell emits from: the emitter's position, or (sub-cells) a particle while it lives.
enum Origin {
    case point(CGPoint)
    case particle(Trajectory, birth: Double, life: Double)

    /// The emission point at emitter time `time` (nil: the parent particle is not alive then).
    func at(_ time: Double) -> CGPoint? {
        switch self {
        case .point(let p): return p
        case let .particle(path, birth, life): return time >= birth && time < birth + life ? path.at(time - birth) : nil
        }
    }
}

/// A particle's path: where it is `a` seconds after its birth (p₀ + v·a + ½·g·a²).
struct Trajectory {
    let start: CGPoint
    let vx: Double, vy: Double, gx: Double, gy: Double

    func at(_ a: Double) -> CGPoint {
        CGPoint(x: Double(start.x) + vx * a + 0.5 * gx * a * a, y: Double(start.y) + vy * a + 0.5 * gy * a * a)
    }
}

/// Where particles start relative to emitterPosition, by emitterShape and emitterMode (the
/// strings decoded once per frame, not per particle).
struct Spawn {
    enum Kind { case point, line, rectangle, rectangleOutline, rectangleCorners, circle, circleOutline }
    let kind: Kind
    let w: Double, h: Double
    /// Cuboid and sphere spread particles over emitterDepth too.
    let hasDepth: Bool

    init(_ e: EmitterContent) {
        w = Double(e.size.width); h = Double(e.size.height)
        hasDepth = e.shape == "cuboid" || e.shape == "sphere"
        switch e.shape {
        case "line": kind = .line
        case "rectangle", "cuboid":
            kind = e.mode == "outline" ? .rectangleOutline : e.mode == "points" ? .rectangleCorners : .rectangle
        case "circle", "sphere": kind = e.mode == "outline" ? .circleOutline : e.mode == "points" ? .point : .circle
        default: kind = .point
        }
    }

    func point(_ r: Compositor.Draws) -> CGPoint {
        let u = r.unit(9), v = r.unit(10)
        switch kind {
        case .point: return .zero
        case .line: return CGPoint(x: (u - 0.5) * w, y: 0)
        case .rectangle: return CGPoint(x: (u - 0.5) * w, y: (v - 0.5) * h)
        case .rectangleCorners: return CGPoint(x: (u < 0.5 ? -0.5 : 0.5) * w, y: (v < 0.5 ? -0.5 : 0.5) * h)
        case .rectangleOutline:
            let p = u * 2 * (w + h)
            if p < w { return CGPoint(x: p - w / 2, y: -h / 2) }
            if p < w + h { return CGPoint(x: w / 2, y: p - w - h / 2) }
            if p < 2 * w + h { return CGPoint(x: w / 2 - (p - w - h), y: h / 2) }
            return CGPoint(x: -w / 2, y: h / 2 - (p - 2 * w - h))
        case .circle:
            let d = w / 2 * u.squareRoot(), angle = v * 2 * .pi
            return CGPoint(x: d * cos(angle), y: d * sin(angle))
        case .circleOutline:
            let angle = v * 2 * .pi
            return CGPoint(x: w / 2 * cos(angle), y: w / 2 * sin(angle))
        }
    }
}

extension Compositor {
    /// A particle's random draws: SplitMix64 of its key and the draw's number.
    struct Draws {
        let key: UInt64
        func unit(_ i: Int) -> Double {
            // The top 53 bits fit a signed integer: one conversion instruction instead of the unsigned sequence.
            Double(Int64(bitPattern: mix(key &+ UInt64(i) &* 0x9E37_79B9_7F4A_7C15) >> 11)) / Double(1 << 53)
        }
        func signed(_ i: Int) -> Double { unit(i) * 2 - 1 }
    }

    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
