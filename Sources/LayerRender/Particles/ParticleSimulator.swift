import CoreGraphics
import Foundation

/// The per-particle half of the simulation: plain values and unowned views of the plan's cells,
/// so that no particle pays for reference counting.
struct ParticleSimulator {
    let t: Double
    let spawn: Spawn
    let zPosition: Double, depth: Double
    let cells: UnsafeBufferPointer<ParticlePlan.Cell>
    let childList: UnsafeBufferPointer<Int>

    /// The time-independent part of a particle of `cell` from its draws `r`.
    /// (`cell` is read in place: a cell's parameters are a few hundred bytes, copied per birth otherwise.)
    func seed(_ cellAt: UnsafePointer<ParticlePlan.Cell>, _ r: Compositor.Draws) -> ParticleSeed {
        var seed = ParticleSeed()
        seed.state = ParticleSeed.emitted
        seed.life = max(cellAt.pointee.lifetime + cellAt.pointee.lifetimeRange * r.signed(0), 0) * max(cellAt.pointee.multipliers.lifetime, 0)
        seed.spawned = spawn.point(r)
        let direction = cellAt.pointee.longitude + cellAt.pointee.range * r.signed(1)
        let latitude = cellAt.pointee.latitude + cellAt.pointee.range * r.signed(11)
        let speed = (cellAt.pointee.velocity + cellAt.pointee.velocityRange * r.signed(2)) * cellAt.pointee.multipliers.velocity
        let lat = SineCosine.of(latitude), dir = SineCosine.of(direction)
        let planar = speed * lat.cos
        seed.vx = planar * dir.cos; seed.vy = planar * dir.sin; seed.vz = speed * lat.sin
        seed.z0 = zPosition + (spawn.hasDepth ? (r.unit(12) - 0.5) * depth : 0)
        seed.scale = (cellAt.pointee.scale + cellAt.pointee.scaleRange * r.signed(3)) * cellAt.pointee.multipliers.scale
        seed.spin = (cellAt.pointee.spin + cellAt.pointee.spinRange * r.signed(4)) * cellAt.pointee.multipliers.spin
        seed.color = (cellAt.pointee.color.r + cellAt.pointee.colorRange.r * r.signed(5), cellAt.pointee.color.g + cellAt.pointee.colorRange.g * r.signed(6),
                      cellAt.pointee.color.b + cellAt.pointee.colorRange.b * r.signed(7), cellAt.pointee.color.a + cellAt.pointee.colorRange.a * r.signed(8))
        return seed
    }

    /// A birth index as hash input: the index itself while it fits 64 bits (as it always does at
    /// sane rates), else its bit pattern (rates of 1e38 a second must not trap).
    static func birthKey(_ k: Double) -> UInt64 { k >= 0 && k < 0x1p64 ? UInt64(k) : k.bitPattern }

    /// Simulates birth `k` of cell `index` (emitting from `origin` since `start`), passing it and
    /// its descendants to `sink`; false when `sink` asked to stop. `memo`: where this birth's seed
    /// may be found from the last frame, and where to keep it for the next. Descendants are
    /// examined while `budget` lasts (each sub-cell keeps its newest births).
    func birth<Sink: ParticleSink>(_ index: Int, key cellKey: UInt64, k: Double, start: Double, origin: Origin,
                                   depth level: Int, memo: MemoSlot = MemoSlot(), budget: inout BirthBudget,
                                   into sink: inout Sink) -> Bool {
        let cellAt = cells.baseAddress! + index
        let birth = start + k / cellAt.pointee.rate
        let seed: ParticleSeed
        if let known = memo.old, known.state != ParticleSeed.unknown {
            seed = known
        } else if !cellAt.pointee.emits(at: birth - start) {
            // The cell's own timing bounds when it emits.
            var none = ParticleSeed()
            none.state = ParticleSeed.notEmitted
            seed = none
        } else {
            seed = self.seed(cellAt, Compositor.Draws(key: Compositor.mix(cellKey ^ Self.birthKey(k))))
        }
        memo.new?.pointee = seed
        guard seed.state == ParticleSeed.emitted else { return true }
        let life = seed.life
        let age = t - birth
        guard age >= 0, age < life, let p0 = origin.at(birth) else { return true }
        let start0 = CGPoint(x: p0.x + seed.spawned.x, y: p0.y + seed.spawned.y)
        let g = cellAt.pointee.acceleration
        let path = Trajectory(start: start0, vx: seed.vx, vy: seed.vy, gx: g.x, gy: g.y)
        func channel(_ base: Double, _ speed: Double) -> Double { min(max(base + speed * age, 0), 1) }
        let particle = Compositor.Particle(
            position: path.at(age), z: seed.z0 + seed.vz * age + 0.5 * g.z * age * age, angle: seed.spin * age,
            scale: max(seed.scale + cellAt.pointee.scaleSpeed * age, 0),
            color: (channel(seed.color.r, cellAt.pointee.colorSpeed.r), channel(seed.color.g, cellAt.pointee.colorSpeed.g),
                    channel(seed.color.b, cellAt.pointee.colorSpeed.b), channel(seed.color.a, cellAt.pointee.colorSpeed.a)),
            birth: birth, cell: index)
        guard sink.take(particle) else { return false }
        // Sub-cells emit from this particle for as long as it lives.
        guard !cellAt.pointee.children.isEmpty, level + 1 < 8 else { return true }
        let parentKey = Compositor.mix(cellKey ^ Self.birthKey(k + 1) &* 7919)
        let from = Origin.particle(path, birth: birth, life: life)
        for child in childList[cellAt.pointee.children] {
            let key = Compositor.mix(parentKey &* 31 &+ UInt64(cells[child].sibling) &+ 1)
            guard let (first, last) = ParticlePlan.window(cells[child], now: min(t, birth + life), start: birth) else { continue }
            // Birth numbers past 2⁵³ are not whole numbers any more (k + 1 would be k): such a
            // sub-cell is skipped, counted, as a top-level cell is.
            guard abs(last) < 0x1p53 else { CGDiagnostics.record(.clampedInteger); continue }
            guard budget.left > 0 else { budget.cut = true; return true }
            var k = first
            if last - first + 1 > Double(budget.left) {
                k = last - Double(budget.left) + 1
                budget.cut = true
            }
            budget.left -= CGClampToInt(last - k + 1, in: 0...budget.left)
            while k <= last {
                guard self.birth(child, key: key, k: k, start: birth, origin: from, depth: level + 1,
                                 budget: &budget, into: &sink) else { return false }
                k += 1
            }
        }
        return true
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
