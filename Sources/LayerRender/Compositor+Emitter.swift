import CoreGraphics
import Foundation

// CAEmitterLayer: particles in closed form. Each cell emits particle k at time k / birthRate
// (time since emission began); every random choice of a particle comes from a hash of (seed,
// cell, k, which draw), and its state at age a is a formula of a (position p₀ + v·a + ½·g·a²,
// scale, spin, colour + speed·a). So a frame depends only on its time — the same seed and
// times give the same pictures however frames are spaced — and the particles alive at t are
// exactly those born in (t − lifetime, t]: birthRate × t of them while t < lifetime.
// Nested cells emit from each particle of their parent. A cell's beginTime, duration, speed and
// repeat settings bound when it emits (its emission window, in emitter time). Depths: z values
// move particles in depth (emitterZPosition, emissionLatitude, zAcceleration) and order them in
// backToFront mode; with preservesDepth they are also placed at their depth through the layer's
// 3D chain (perspective shows it), else drawn in its plane. Live particles are capped at
// `maxParticles`.
extension Compositor {
    /// Most particles drawn in one emitter per frame; beyond it the oldest are dropped (counted).
    package static let maxParticles = 50_000

    struct Particle {
        var position: CGPoint
        /// Depth (points; larger is nearer): orders particles in backToFront mode.
        var z: Double
        var angle: Double
        var scale: Double
        var color: (r: Double, g: Double, b: Double, a: Double)
        var birth: Double
        var cell: Int
    }

    /// The particles alive `t` seconds after emission began, and the flattened cell list they refer to.
    static func particles(_ e: EmitterContent, at t: Double) -> ([Particle], [EmitterCellModel]) {
        var flat: [EmitterCellModel] = []
        var out: [Particle] = []
        guard t.isFinite, t >= 0 else { return (out, flat) }
        func emit(_ cells: [EmitterCellModel], origin: (Double) -> CGPoint?, from start: Double, until end: Double,
                  key: UInt64, depth: Int) {
            guard depth < 8 else { return }
            for (ci, cell) in cells.enumerated() where cell.isEnabled {
                let cellIndex = flat.count
                flat.append(cell)
                let cellKey = mix(key &* 31 &+ UInt64(ci) &+ 1)
                let rate = min(max(cell.birthRate * e.birthRate, 0), 100_000)
                guard rate > 0, rate.isFinite else { continue }
                let longest = max(cell.lifetime + abs(cell.lifetimeRange), 0) * max(e.lifetime, 0)
                guard longest > 0 else { continue }
                let now = min(t, end)
                let first = max(0, ((now - start - longest) * rate).rounded(.up))
                let last = ((now - start) * rate).rounded(.down)
                guard last >= first else { continue }
                var k = first
                while k <= last && out.count < maxParticles {
                    let r = Draws(key: mix(cellKey ^ UInt64(k)))
                    let birth = start + k / rate
                    k += 1
                    // The cell's own timing bounds when it emits (duration 0: for ever).
                    if !cell.emits(at: birth - start) { continue }
                    let life = max(cell.lifetime + cell.lifetimeRange * r.signed(0), 0) * max(e.lifetime, 0)
                    let age = t - birth
                    guard age >= 0, age < life, let p0 = origin(birth) else { continue }
                    let spawn = Compositor.spawnPoint(e, r)
                    let start0 = CGPoint(x: p0.x + spawn.x, y: p0.y + spawn.y)
                    let direction = cell.emissionLongitude + cell.emissionRange * r.signed(1)
                    let latitude = cell.emissionLatitude + cell.emissionRange * r.signed(11)
                    let speed = (cell.velocity + cell.velocityRange * r.signed(2)) * e.velocity
                    let planar = speed * cos(latitude)
                    let vx = planar * cos(direction), vy = planar * sin(direction), vz = speed * sin(latitude)
                    let z0 = Double(e.zPosition) + (e.shape == "cuboid" || e.shape == "sphere" ? (r.unit(12) - 0.5) * Double(e.depth) : 0)
                    func place(_ a: Double) -> CGPoint {
                        CGPoint(x: Double(start0.x) + vx * a + 0.5 * cell.acceleration.x * a * a,
                                y: Double(start0.y) + vy * a + 0.5 * cell.acceleration.y * a * a)
                    }
                    func channel(_ base: Double, _ range: Double, _ speed: Double, _ i: Int) -> Double {
                        min(max(base + range * r.signed(i) + speed * age, 0), 1)
                    }
                    let scale = max((cell.scale + cell.scaleRange * r.signed(3)) * e.scale + cell.scaleSpeed * age, 0)
                    let spin = (cell.spin + cell.spinRange * r.signed(4)) * e.spin
                    out.append(Particle(position: place(age), z: z0 + vz * age + 0.5 * cell.acceleration.z * age * age,
                                        angle: spin * age, scale: scale,
                                        color: (channel(cell.color.r, cell.colorRange.r, cell.colorSpeed.r, 5),
                                                channel(cell.color.g, cell.colorRange.g, cell.colorSpeed.g, 6),
                                                channel(cell.color.b, cell.colorRange.b, cell.colorSpeed.b, 7),
                                                channel(cell.color.a, cell.colorRange.a, cell.colorSpeed.a, 8)),
                                        birth: birth, cell: cellIndex))
                    if !cell.cells.isEmpty {
                        // Sub-cells emit from this particle for as long as it lives.
                        emit(cell.cells, origin: { at in at >= birth && at < birth + life ? place(at - birth) : nil },
                             from: birth, until: birth + life, key: mix(cellKey ^ UInt64(k) &* 7919), depth: depth + 1)
                    }
                }
                if out.count >= maxParticles { CGDiagnostics.record(.invalidParameter); return }
            }
        }
        emit(e.cells, origin: { _ in e.position }, from: 0, until: .infinity, key: UInt64(e.seed), depth: 0)
        switch e.renderMode {
        case "oldestFirst": out.sort { $0.birth < $1.birth }
        case "oldestLast": out.sort { $0.birth > $1.birth }
        case "backToFront": out.sort { $0.z < $1.z }
        default: break
        }
        return (out, flat)
    }

    /// Where a particle starts relative to emitterPosition, by emitterShape and emitterMode.
    static func spawnPoint(_ e: EmitterContent, _ r: Draws) -> CGPoint {
        let w = Double(e.size.width), h = Double(e.size.height)
        let u = r.unit(9), v = r.unit(10)
        switch e.shape {
        case "line": return CGPoint(x: (u - 0.5) * w, y: 0)
        case "rectangle", "cuboid":
            switch e.mode {
            case "outline":
                let p = u * 2 * (w + h)
                if p < w { return CGPoint(x: p - w / 2, y: -h / 2) }
                if p < w + h { return CGPoint(x: w / 2, y: p - w - h / 2) }
                if p < 2 * w + h { return CGPoint(x: w / 2 - (p - w - h), y: h / 2) }
                return CGPoint(x: -w / 2, y: h / 2 - (p - 2 * w - h))
            case "points": return CGPoint(x: (u < 0.5 ? -0.5 : 0.5) * w, y: (v < 0.5 ? -0.5 : 0.5) * h)
            default: return CGPoint(x: (u - 0.5) * w, y: (v - 0.5) * h)
            }
        case "circle", "sphere":
            let radius = w / 2, angle = v * 2 * .pi
            switch e.mode {
            case "outline": return CGPoint(x: radius * cos(angle), y: radius * sin(angle))
            case "points": return .zero
            default:
                let d = radius * u.squareRoot()
                return CGPoint(x: d * cos(angle), y: d * sin(angle))
            }
        default: return .zero
        }
    }

    /// A particle's random draws: SplitMix64 of its key and the draw's number.
    struct Draws {
        let key: UInt64
        func unit(_ i: Int) -> Double { Double(mix(key &+ UInt64(i) &* 0x9E37_79B9_7F4A_7C15) >> 11) / Double(1 << 53) }
        func signed(_ i: Int) -> Double { unit(i) * 2 - 1 }
    }

    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Draws the emitter's particles alive at layer-local time `local`, through `world`, inside `box`.
    /// With `space3D` (preservesDepth), particles sit at their depth in the layer's 3D chain
    /// (`full4`, flattened into `plane`): under a perspective, nearer particles are larger.
    func paintEmitter(_ e: EmitterContent, local: Double, world: Homography, pixel: CGFloat, target: RenderTarget,
                      box: PixelBox, alpha: Double, clips: [ClipShape], space3D: (full4: Transform3D, plane: Homography)? = nil) {
        let (particles, cells) = Compositor.particles(e, at: local - e.startTime)
        let additive = e.renderMode == "additive"
        // What each cell's particles share: the picture, its sampled part, its size in points at scale 1.
        struct Sprite { let window: SampleWindow; let source: CGRect; let size: CGSize }
        let sprites: [Sprite?] = cells.map { cell in
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
            return Sprite(window: window, source: source, size: CGSize(width: abs(source.width) * k, height: abs(source.height) * k))
        }
        withExtendedLifetime(cells) {
            for p in particles {
                guard let sprite = sprites[p.cell], p.scale > 0, p.color.a > 0 else { continue }
                let k = CGFloat(p.scale)
                let w = sprite.size.width * k, h = sprite.size.height * k
                let dest = CGRect(x: -w / 2, y: -h / 2, width: w, height: h)
                // Particle space → layer space: a turn by the particle's angle, then its position.
                let c = CGFloat(cos(p.angle)), sn = CGFloat(sin(p.angle))
                let map: Homography
                if let space3D {
                    var t = Transform3D.identity
                    t.m11 = c; t.m12 = sn; t.m21 = -sn; t.m22 = c
                    t.m41 = p.position.x; t.m42 = p.position.y; t.m43 = CGFloat(p.z)
                    map = Homography(t.concatenating(space3D.full4)).concatenating(space3D.plane)
                } else {
                    map = Homography(m: (c, sn, 0, -sn, c, 0, p.position.x, p.position.y, 1)).concatenating(world)
                }
                guard let inverse = map.inverse else { continue }
                let pbox = Compositor.box(of: dest, world: map, limit: box)
                guard !pbox.isEmpty else { continue }
                let a = Float(p.color.a * alpha)
                let tint = (Float(p.color.r) * a, Float(p.color.g) * a, Float(p.color.b) * a, a)
                let source = sprite.source, window = sprite.window
                let sx = source.width / w, sy = source.height / h
                func draw(_ y: Int, _ x: Int, _ cov: Float) {
                    guard let q = inverse.project(CGFloat(x) + 0.5, CGFloat(y) + 0.5) else { return }
                    let s = Raster.channels(window.word(source.minX + (q.x - dest.minX) * sx, source.minY + (q.y - dest.minY) * sy, nearest: false))
                    let row = target.row(y) + x
                    if additive {
                        Raster.add(row, s.r * tint.0 * cov, s.g * tint.1 * cov, s.b * tint.2 * cov, s.a * tint.3 * cov)
                    } else {
                        Raster.blend(row, s.r * tint.0, s.g * tint.1, s.b * tint.2, s.a * tint.3, cov)
                    }
                }
                let edge = RoundedRect(rect: dest, radius: 0, mask: 0)
                let m = inverse.m
                guard m.2 == 0, m.5 == 0, m.8 == 1 else {
                    Raster.cover(box: pbox, inverse: inverse, pixel: pixel, shape: edge, hole: nil, antialias: true, clips: clips,
                                 full: { y, xs in for x in xs { draw(y, x, 1) } }, edge: draw)
                    continue
                }
                // Sprites are a few pixels: a direct loop costs less than setting up row spans.
                for y in pbox.y0..<pbox.y1 {
                    let cy = CGFloat(y) + 0.5
                    for x in pbox.x0..<pbox.x1 {
                        let cx = CGFloat(x) + 0.5
                        let qx = cx * m.0 + cy * m.3 + m.6, qy = cx * m.1 + cy * m.4 + m.7
                        var cov = edge.coverage(qx, qy, pixel: pixel, antialias: true)
                        if cov == 0 { continue }
                        if !clips.isEmpty { cov *= Raster.clipCoverage(clips, cx, cy); if cov == 0 { continue } }
                        draw(y, x, Float(cov))
                    }
                }
            }
        }
    }
}

extension Raster {
    /// Adds premultiplied (r, g, b, a) in [0, 255] to the pixel, clamped (the additive render mode).
    @inline(__always)
    static func add(_ p: UnsafeMutablePointer<UInt32>, _ r: Float, _ g: Float, _ b: Float, _ a: Float) {
        let d = p.pointee
        func ch(_ v: UInt32, _ s: Float) -> UInt32 { UInt32(min(Float(v) + s + 0.5, 255)) }
        p.pointee = ch(d >> 24, a) << 24 | ch((d >> 16) & 255, r) << 16 | ch((d >> 8) & 255, g) << 8 | ch(d & 255, b)
    }
}
