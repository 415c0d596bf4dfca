import CoreGraphics
import Foundation

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
    /// True when the top-level cells' histories were longer than their share of `maxBirthsExamined`.
    private(set) var truncated = false
    /// Sub-cell births examined at most per block of `blockSize` top-level births (the budget
    /// left by the top-level births, split evenly): a block is simulated whole by one thread, so
    /// which births the budget keeps does not depend on how the list is cut into chunks.
    private(set) var descendantBudget = 0
    /// Top-level births per budget block (chunks of births are whole blocks).
    static let blockSize = 1024

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
        var windows: [(cell: Int, key: UInt64, first: Double, last: Double)] = []
        for index in flatten(e.cells, depth: 0) {
            let key = Compositor.mix(UInt64(e.seed) &* 31 &+ UInt64(cells[index].sibling) &+ 1)
            guard let (first, last) = ParticlePlan.window(cells[index], now: t, start: 0) else { continue }
            // Birth numbers past 2⁵³ (rates of 1e38 for ages of years) are not whole numbers any
            // more: such a cell is skipped, counted.
            guard first.isFinite, last.isFinite, abs(last) < 0x1p53 else { CGDiagnostics.record(.clampedInteger); continue }
            windows.append((index, key, first, last))
        }
        // The top-level cells share the emitter's budget of births evenly; each keeps its newest.
        let share = max(1, Compositor.maxBirthsExamined / max(windows.count, 1))
        for w in windows {
            var from = w.first
            if w.last - w.first + 1 > Double(share) {
                from = w.last - Double(share) + 1
                truncated = true
            }
            let count = CGClampToInt(w.last - from, in: 0...(share - 1)) + 1
            runs.append(Run(cell: w.cell, key: w.key, first: from, offset: births, count: count))
            births += count
        }
        // Sub-cells share what is left, block by block of top-level births.
        let blocks = (births + ParticlePlan.blockSize - 1) / ParticlePlan.blockSize
        descendantBudget = blocks == 0 ? 0 : max(Compositor.maxBirthsExamined - births, 0) / blocks
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
                let sim = ParticleSimulator(t: t, spawn: spawn, zPosition: zPosition, depth: emitterDepth, cells: cells, childList: childList)
                var budget = BirthBudget(left: descendantBudget)
                defer { budget.report() }
                var r = runs.firstIndex { $0.offset + $0.count > range.lowerBound } ?? runs.count
                var i = range.lowerBound
                while i < range.upperBound, r < runs.count {
                    let run = runs[r]
                    let end = min(range.upperBound, run.offset + run.count)
                    let before = memo.old?.runs.first { $0.cell == run.cell }
                    for j in i..<end {
                        if j % ParticlePlan.blockSize == 0 && j != range.lowerBound {
                            budget.report()
                            budget = BirthBudget(left: descendantBudget)
                        }
                        let k = run.first + Double(j - run.offset)
                        var slot = MemoSlot(old: nil, new: memo.new.map { $0.seeds.baseAddress! + j })
                        if let old = memo.old, let before {
                            let at = k - before.first
                            if at >= 0, at < Double(before.count) { slot.old = old.seeds[before.offset + Int(at)] }
                        }
                        guard sim.birth(run.cell, key: run.key, k: k, start: 0, origin: .point(position), depth: 0,
                                        memo: slot, budget: &budget, into: &sink) else { return }
                    }
                    i = end
                    r += 1
                }
            }
        }
    }

    /// How the render mode orders particles.
    enum Ordering {
        /// By birth or depth (oldestFirst, oldestLast, backToFront): sorted after simulation.
        case sorted
        /// Left open (unordered, additive): drawers may reorder them.
        case open
        /// Any other mode: as simulated.
        case asSimulated
    }

    var ordering: Ordering {
        switch emitter.renderMode {
        case "oldestFirst", "oldestLast", "backToFront": return .sorted
        case "unordered", "additive": return .open
        default: return .asSimulated
        }
    }

    /// Chunks put back in order, capped at `maxParticles` (the excess counted) and ordered by the render mode.
    func finish<T: ParticleOrder>(_ chunks: [[T]]) -> [T] {
        // Chunks are joined only up to the cap (joining them all first held every chunk twice).
        var out: [T]
        if chunks.count == 1 {
            out = chunks[0]
            if out.count > Compositor.maxParticles { out.removeLast(out.count - Compositor.maxParticles) }
        } else {
            out = []
            out.reserveCapacity(min(chunks.reduce(0) { $0 + $1.count }, Compositor.maxParticles))
            for chunk in chunks where out.count < Compositor.maxParticles {
                out.append(contentsOf: chunk.prefix(Compositor.maxParticles - out.count))
            }
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

/// How many more sub-cell births a block of top-level births may examine, and whether some were cut.
struct BirthBudget {
    var left: Int
    var cut = false

    /// Counts the cut once per block.
    func report() { if cut { CGDiagnostics.record(.budgetExceeded) } }
}

/// Takes simulated particles in draw order; returns false to stop the simulation.
protocol ParticleSink {
    mutating func take(_ p: Compositor.Particle) -> Bool
}
