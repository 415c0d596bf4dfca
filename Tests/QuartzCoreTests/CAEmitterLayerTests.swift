// CAEmitterLayer: particle counts follow birthRate × t exactly (closed form), frames depend only
// on their time and seed, the seed's additive red squares, key paths into cells, nesting and caps.
@testable import QuartzCore
@testable import LayerRender
import TestSupport
import Testing
import Foundation

@Suite(.serialized) struct CAEmitterLayerTests {
    /// A 4 × 4 opaque white square image.
    static let square: CGImage = {
        let ctx = CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                            bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
        ctx.setFillColor(CGColor.white); ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        return ctx.makeImage()!
    }()

    /// The seed's emitter: 150 red squares a second, spreading all ways at 50 ± 50 points/s, fading.
    func seedEmitter(seed: UInt32 = 7) -> CAEmitterLayer {
        let e = CAEmitterLayer()
        e.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        e.emitterPosition = CGPoint(x: 80, y: 60)
        e.renderMode = .additive
        e.seed = seed
        let cell = CAEmitterCell()
        cell.name = "spark"
        cell.contents = Self.square
        cell.birthRate = 150
        cell.lifetime = 5
        cell.color = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        cell.alphaSpeed = -0.4
        cell.velocity = 50
        cell.velocityRange = 50
        cell.emissionRange = .pi * 2
        e.emitterCells = [cell]
        return e
    }

    /// Renders `layer` hosted from time 0 at each of `times`; returns the last frame.
    func frames(_ layer: CALayer, at times: [Double]) -> CGImage {
        MediaClock.override = 0
        defer { MediaClock.override = nil }
        let r = CARenderer()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        root.backgroundColor = CGColor(gray: 0, alpha: 1)
        root.addSublayer(layer)
        r.bounds = root.bounds
        r.layer = root
        r.beginFrame(atTime: 0, timeStamp: nil); r.render(); r.endFrame()
        for t in times { MediaClock.override = t; r.beginFrame(atTime: t, timeStamp: nil); r.render(); r.endFrame() }
        return r.makeImage()!
    }

    @Test func defaultsAreApples() {
        let e = CAEmitterLayer()
        #expect(e.birthRate == 1 && e.lifetime == 1 && e.velocity == 1 && e.scale == 1 && e.spin == 1 && e.seed == 0)
        #expect(e.emitterShape == .point && e.emitterMode == .volume && e.renderMode == .unordered && e.emitterCells == nil)
        let c = CAEmitterCell()
        #expect(c.birthRate == 0 && c.lifetime == 0 && c.scale == 1 && c.isEnabled && c.color == CGColor.white)
    }

    @Test func countsFollowTheBirthRate() {
        var e = EmitterContent()
        var cell = EmitterCellModel()
        cell.birthRate = 100; cell.lifetime = 10
        e.cells = [cell]
        for t in [0.5, 2.0, 7.25] {
            #expect(Compositor.particles(e, at: t).0.count == Int((100 * t).rounded(.down)) + 1)   // births at 0, 0.01, … t
        }
        // After a lifetime, births and deaths balance: rate × lifetime alive.
        #expect(abs(Compositor.particles(e, at: 30).0.count - 1000) <= 1)
        e.birthRate = 0.5   // the layer's multiplier
        #expect(abs(Compositor.particles(e, at: 2).0.count - 101) <= 1)
    }

    @Test func framesDependOnlyOnTheirTimeAndSeed() {
        let direct = frames(seedEmitter(), at: [1.5])
        let stepped = frames(seedEmitter(), at: [0.2, 0.7, 1.1, 1.5])
        var same = true
        for y in 0..<120 { for x in 0..<160 where direct.premultipliedPixel(x: x, y: y) != stepped.premultipliedPixel(x: x, y: y) { same = false } }
        #expect(same)
        let other = frames(seedEmitter(seed: 8), at: [1.5])
        var differs = false
        for y in 0..<120 { for x in 0..<160 where direct.premultipliedPixel(x: x, y: y) != other.premultipliedPixel(x: x, y: y) { differs = true } }
        #expect(differs)
        Golden.check("emitter-seed-additive", direct)
        // Additive red: only the red channel lights up.
        var green = 0
        for y in 0..<120 { for x in 0..<160 where direct.premultipliedPixel(x: x, y: y) >> 8 & 255 != 0 { green += 1 } }
        #expect(green == 0 && countPixels(direct) { $0 >> 16 & 255 > 0 } > 200)
    }

    /// Seeds kept between frames must be dropped when what they were drawn from changes, and kept
    /// (with the new position added) when only the emitter moves: frames equal fresh renders.
    @Test func framesAfterChangesEqualFreshFrames() {
        func render(_ times: [Double], change: (CAEmitterLayer) -> Void) -> CGImage {
            MediaClock.override = 0
            defer { MediaClock.override = nil }
            let e = seedEmitter()
            e.renderMode = .unordered
            let r = CARenderer()
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
            root.addSublayer(e)
            r.bounds = root.bounds
            r.layer = root
            r.beginFrame(atTime: 0, timeStamp: nil); r.render(); r.endFrame()
            for (n, t) in times.enumerated() {
                if n == times.count - 1 {
                    CATransaction.begin(); CATransaction.setDisableActions(true); change(e); CATransaction.commit()
                }
                MediaClock.override = t
                r.beginFrame(atTime: t, timeStamp: nil); r.addUpdate(r.bounds); r.render(); r.endFrame()
            }
            return r.makeImage()!
        }
        let changes: [(CAEmitterLayer) -> Void] = [
            { $0.velocity = 2 }, { $0.emitterPosition = CGPoint(x: 50, y: 70) }, { $0.emitterCells?.first?.velocity = 10 },
            { $0.seed = 99 }, { $0.emitterSize = CGSize(width: 40, height: 10); $0.emitterShape = .rectangle },
        ]
        for change in changes {
            let stepped = render([0.6, 1.2, 1.8], change: change), fresh = render([1.8], change: change)
            var differing = 0
            for y in 0..<120 { for x in 0..<160 where stepped.premultipliedPixel(x: x, y: y) != fresh.premultipliedPixel(x: x, y: y) { differing += 1 } }
            #expect(differing == 0)
            #expect(countPixels(fresh) { $0 >> 16 & 255 > 0 } > 100)
        }
    }

    @Test func keyPathsReachCellsAndAnimate() {
        let e = seedEmitter()
        e.setValue(20, forKeyPath: "emitterCells.spark.birthRate")
        #expect(e.emitterCells?.first?.birthRate == 20)
        #expect(e.value(forKeyPath: "emitterCells.spark.birthRate") as? Float == 20)
        var state = EmitterContent()
        var cell = EmitterCellModel()
        cell.name = "spark"; cell.birthRate = 10; cell.lifetime = 1
        state.cells = [cell]
        var s = LayerState()
        s.content = .emitter(state)
        s.setAnimatableValue(.number(40), at: ["emitterCells", "spark", "birthRate"])
        #expect(s.animatableValue(at: ["emitterCells", "spark", "birthRate"]) == .number(40))
    }

    @Test func nestedCellsAndCaps() {
        var e = EmitterContent()
        var parent = EmitterCellModel()
        parent.birthRate = 2; parent.lifetime = 1
        var child = EmitterCellModel()
        child.birthRate = 10; child.lifetime = 0.5
        parent.cells = [child]
        e.cells = [parent]
        // At t = 0.2: one parent (born at 0) with its children born at 0, 0.1, 0.2.
        #expect(Compositor.particles(e, at: 0.2).0.count == 1 + 3)
        // A billion particles a second is clamped; the live count is capped.
        var flood = EmitterContent()
        var cell = EmitterCellModel()
        cell.birthRate = 1e9; cell.lifetime = 100
        flood.cells = [cell]
        #expect(Compositor.particles(flood, at: 10).0.count == Compositor.maxParticles)
        // Non-finite values are refused by the model.
        let layer = CAEmitterLayer()
        layer.birthRate = .nan
        #expect(layer.birthRate == 1)
        // Cells nested 100 deep stop at 8 levels.
        let top = CAEmitterCell()
        var c = top
        for _ in 0..<100 { let n = CAEmitterCell(); c.emitterCells = [n]; c = n }
        var depth = 0
        var m: EmitterCellModel? = top.model()
        while let x = m { depth += 1; m = x.cells.first }
        #expect(depth == 9)
    }

    @Test func particlesCoverAtMostTheirPixelBudget() {
        // Found by fuzzing: 50,000 particles each larger than the target made one frame take
        // minutes. The boxes drawn are capped at Compositor.maxParticlePixels, in draw order
        // (counted); the first particles are still drawn.
        let e = seedEmitter()
        e.emitterCells?.first?.birthRate = 100_000
        e.emitterCells?.first?.scale = 200           // a 4-point square → 800 × 800 points
        e.emitterCells?.first?.alphaSpeed = 0
        let before = CGDiagnostics.count(.budgetExceeded)
        let image = frames(e, at: [1])
        #expect(CGDiagnostics.count(.budgetExceeded) > before)
        #expect(image.premultipliedPixel(x: 80, y: 60) >> 16 & 255 > 0)   // red particles cover the middle
    }

    @Test func cellTimingBoundsEmissionAndDepthOrdersBackToFront() {
        let cell = CAEmitterCell()
        cell.birthRate = 100; cell.lifetime = 10
        cell.beginTime = 1; cell.duration = 1
        var e = EmitterContent()
        e.cells = [cell.model()]
        // Births only during [1, 2): 100 particles, alive long after.
        #expect(abs(Compositor.particles(e, at: 5).0.count - 100) <= 1)
        #expect(Compositor.particles(e, at: 0.5).0.isEmpty)
        // Latitude sends particles towards the viewer or away; backToFront draws the far ones first.
        var deep = EmitterCellModel()
        deep.birthRate = 50; deep.lifetime = 5; deep.velocity = 40; deep.emissionRange = .pi
        var d = EmitterContent()
        d.cells = [deep]
        d.renderMode = "backToFront"
        let zs = Compositor.particles(d, at: 2).0.map(\.z)
        #expect(zs == zs.sorted() && zs.first! < 0 && zs.last! > 0)
    }

    @Test func preservesDepthPlacesParticlesInPerspective() {
        // One particle flying straight at the viewer (latitude π/2) for 2 s: 200 points nearer.
        func litPixels(_ depth: Bool) -> Int {
            let e = CAEmitterLayer()
            e.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
            e.emitterPosition = CGPoint(x: 80, y: 60)
            e.preservesDepth = depth
            let cell = CAEmitterCell()
            cell.contents = Self.square
            cell.birthRate = 1; cell.lifetime = 10
            cell.velocity = 100; cell.emissionLatitude = .pi / 2
            cell.scale = 4
            e.emitterCells = [cell]
            let holder = CALayer()
            holder.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
            var p = CATransform3DIdentity
            p.m34 = -1.0 / 500
            holder.sublayerTransform = p
            holder.addSublayer(e)
            return countPixels(frames(holder, at: [0.9, 1.9])) { $0 != 0xFF00_0000 }
        }
        // 16 × 16 points in the plane; 1 / (1 − 190/500) ≈ 1.6 times wider when kept in depth.
        let flat = litPixels(false), deep = litPixels(true)
        #expect(abs(flat - 256) <= 40 && Double(deep) > 2 * Double(flat))
    }
}
