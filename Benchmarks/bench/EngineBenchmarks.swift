import Foundation
import LayerRender
import QuartzCore
import X11Host

// The engine's own lines beside the peer scenes: animated layers evaluated, damage-tracked
// frames, particles and replicators, the gallery's spinner, render(in:), a live window.

/// 1,000 layers, each with its own running animation: a whole frame, and evaluation alone.
func presentationBenchmark() {
    var time = CACurrentMediaTime()
    let renderer = animatedLayers(at: &time, drawing: false)
    let r = measure {
        time += 1.0 / 60
        renderer.beginFrame(atTime: time, timeStamp: nil)
        renderer.render()
        renderer.endFrame()
    }
    report("frame (commit + callbacks + evaluation)", r, note: String(format: "= %.3f ms per 100 layers", r.median / 10))
    let e = measure {
        time += 1.0 / 60
        renderer.render()
    }
    report("evaluation + traversal (nothing to paint)", e,
           note: String(format: "= %.3f ms per 100 layers (target ≤ 0.3 ms: %@)", e.median / 10,
                        e.median <= 0.3 ? "met" : "not met"))
    // The same layers with a background each, all beyond the frame's right edge: each is placed
    // (its map, its box, its display geometry) and listed, then culled by every band.
    let offscreen = animatedLayers(at: &time, drawing: true)
    let o = measure {
        time += 1.0 / 60
        offscreen.render()
    }
    report("  the same, drawing layers outside the frame", o, note: String(format: "= %.3f ms per 100 layers", o.median / 10))
}

/// A renderer of 1,000 layers in a 1280 × 720 frame, each with a running animation (position,
/// rotation, opacity or width, one in four each), after one frame at `time`. The root's
/// position is left at the origin (its centre), as it always was for this line. With `drawing`,
/// each layer has a background and lies beyond the frame's right edge.
func animatedLayers(at time: inout Double, drawing: Bool) -> CARenderer {
    let renderer = CARenderer()
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 1280, height: 720)
    renderer.bounds = root.bounds
    renderer.layer = root
    // Frame times on the media clock's timebase (as Apple's CARenderer expects): the animations
    // begin at the commit's media time, so frames at earlier times would find none of them running.
    time = CACurrentMediaTime()
    renderer.beginFrame(atTime: time, timeStamp: nil)
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    for i in 0..<1000 {
        let l = CALayer()
        l.frame = CGRect(x: Double(i % 40) * 32 + (drawing ? 2000 : 0), y: Double(i / 40) * 28, width: 30, height: 26)
        if drawing { l.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1) }
        root.addSublayer(l)
        let a: CAAnimation
        switch i % 4 {
        case 0:
            let b = CABasicAnimation(keyPath: "position.x"); b.byValue = 40; a = b
        case 1:
            let b = CABasicAnimation(keyPath: "transform.rotation.z"); b.fromValue = 0; b.toValue = CGFloat.pi * 2; a = b
        case 2:
            let k = CAKeyframeAnimation(keyPath: "opacity"); k.values = [1, 0.2, 1]; a = k
        default:
            let s = CASpringAnimation(keyPath: "bounds.size.width"); s.fromValue = 10; s.toValue = 30; a = s
        }
        a.duration = 2
        a.repeatCount = .infinity
        l.add(a, forKey: "a")
    }
    CATransaction.commit()
    renderer.endFrame()
    return renderer
}

/// Frames of `mover` moving by whole points over `tree` (damage-tracked, as in a window): the
/// timings and the last frame's repainted area (points).
func movingFrames(_ mover: CALayer, over tree: CALayer) -> (Timing, CGRect) {
    tree.addSublayer(mover)
    let renderer = CARenderer()
    renderer.bounds = tree.bounds
    renderer.layer = tree
    var t = 3000.0
    renderer.beginFrame(atTime: t, timeStamp: nil); renderer.render(); renderer.endFrame()
    var step = 0
    let r = measure(frames: 100, warmup: 5) {
        t += 1.0 / 60
        step += 1
        CATransaction.begin(); CATransaction.setDisableActions(true)
        mover.position = CGPoint(x: 150 + Double(step % 200) * 5, y: 150 + Double(step % 50) * 8)
        CATransaction.commit()
        renderer.beginFrame(atTime: t, timeStamp: nil)
        renderer.render()
        renderer.endFrame()
    }
    return (r, renderer.updateBounds())
}

/// A frame where one 100 × 100 layer moves over the static S2 scene: only its old and new
/// places are repainted. The layer is opaque (what it covers is painted only around it); the
/// same with a translucent layer follows, for comparison.
func damageBenchmark() {
    guard wanted("damage") else { return }
    for alpha in [1.0, 0.5] {
        let mover = CALayer()
        mover.frame = CGRect(x: 100, y: 100, width: 100, height: 100)
        mover.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: alpha)
        let (r, d) = movingFrames(mover, over: PeerScenes.s2())
        if alpha == 1 {
            report("damage: one 100×100 layer moves over S2", r,
                   note: String(format: "repaints %.0f×%.0f of 1280×720 (target ≤ 0.25 ms: %@)", d.width, d.height,
                                r.median <= 0.25 ? "met" : "not met"))
        } else {
            report("  the same, the layer translucent", r, note: String(format: "repaints %.0f×%.0f", d.width, d.height))
        }
    }
}

/// The gallery's spinner as the window draws it: a 640 × 480 frame where only a 80 × 80
/// replicator of twelve fading bars changes (damage-tracked, as in a live window).
func spinnerBenchmark() {
    guard wanted("spinner") else { return }
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 640, height: 480)
    root.backgroundColor = CGColor(gray: 0.12, alpha: 1)
    let spinner = CAReplicatorLayer()
    spinner.frame = CGRect(x: 520, y: 60, width: 80, height: 80)
    spinner.instanceCount = 12
    spinner.instanceTransform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
    spinner.instanceDelay = 1.0 / 12
    let bar = CALayer()
    bar.frame = CGRect(x: 37, y: 4, width: 6, height: 20)
    bar.backgroundColor = CGColor(gray: 1, alpha: 1)
    bar.cornerRadius = 3
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 1; fade.toValue = 0.1; fade.duration = 1; fade.repeatCount = .infinity
    bar.add(fade, forKey: "fade")
    spinner.addSublayer(bar)
    root.addSublayer(spinner)
    let renderer = CARenderer()
    renderer.bounds = root.bounds
    renderer.layer = root
    var t = CACurrentMediaTime()
    renderer.beginFrame(atTime: t, timeStamp: nil); renderer.render(); renderer.endFrame()
    let r = measure(frames: 200, warmup: 5) {
        t += 1.0 / 60
        renderer.beginFrame(atTime: t, timeStamp: nil)
        renderer.render()
        renderer.endFrame()
    }
    let d = renderer.updateBounds()
    report("spinner: 12 fading bars, 80×80, in a 640×480 window", r,
           note: String(format: "repaints %.0f×%.0f (a frame's budget at 60 Hz is 16.7 ms)", d.width, d.height))
}

/// `CALayer.render(in:)` of a 256 × 256 tree of 20 rounded, bordered layers into an RGBA bitmap
/// context (Apple's samples' usual layout), one call a frame: a thumbnail made again and again.
func renderInContextBenchmark() {
    guard wanted("render(in:)") else { return }
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 256, height: 256)
    root.backgroundColor = CGColor(gray: 0.12, alpha: 1)
    for i in 0..<20 {
        let l = CALayer()
        l.frame = CGRect(x: 8 + (i % 5) * 48, y: 8 + (i / 5) * 60, width: 40, height: 50)
        l.backgroundColor = CGColor(red: 0.2 + Double(i % 4) * 0.2, green: 0.5, blue: 0.7, alpha: 1)
        l.cornerRadius = 6
        l.borderWidth = 1
        root.addSublayer(l)
    }
    guard let ctx = CGContext(data: nil, width: 256, height: 256, bitsPerComponent: 8, bytesPerRow: 0,
                              space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
    else { return }
    root.render(in: ctx)
    let r = measure(frames: 200, warmup: 5) { root.render(in: ctx) }
    report("render(in:): 20 layers into a 256×256 RGBA bitmap context", r, note: "one call a frame")
}

/// A live window (under the Xvfb scripts/bench.sh starts; skipped without a display) animating
/// 1,000 layers for three seconds: the intervals between frames (they should sit on the tick)
/// and the process's CPU time per frame.
func windowBenchmark() {
    guard wanted("window"),
          ProcessInfo.processInfo.environment["DISPLAY"] != nil,
          let window = LayerWindow(title: "bench", size: CGSize(width: 640, height: 480)) else { return }
    CATransaction.begin(); CATransaction.setDisableActions(true)
    for i in 0..<1000 {
        let l = CALayer()
        l.frame = CGRect(x: CGFloat(i % 40) * 16, y: CGFloat(i / 40) * 18, width: 14, height: 14)
        l.backgroundColor = CGColor(red: 0.3 + Double(i % 5) * 0.1, green: 0.6, blue: 0.4, alpha: 1)
        l.cornerRadius = 3
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 1; a.toValue = 0.2; a.duration = 1 + Double(i % 7) * 0.2
        a.autoreverses = true; a.repeatCount = .infinity
        l.add(a, forKey: "pulse")
        window.rootLayer.addSublayer(l)
    }
    CATransaction.commit()
    var stamps: [Double] = []
    window.onFrame = { stamps.append($0) }
    let warm = CACurrentMediaTime() + 0.5
    while CACurrentMediaTime() < warm { window.runOnce(maxWait: 0.05) }
    stamps = []
    let c0 = threadClocks(), end = CACurrentMediaTime() + 3
    while CACurrentMediaTime() < end { window.runOnce(maxWait: 0.05) }
    let cpu = cpuSince(c0) / 1000
    let intervals = zip(stamps, stamps.dropFirst()).map { ($1 - $0) * 1000 }.sorted()
    guard intervals.count > 10 else { return }
    func pct(_ p: Double) -> Double { intervals[min(intervals.count - 1, Int(Double(intervals.count) * p))] }
    let short = intervals.filter { $0 < 0.75 * 1000 / window.framesPerSecond }.count
    print(String(format: "%-44@ %8.3f ms  (p5 %.2f, p95 %.2f; %d of %d under ¾ tick; cpu %.3f ms a frame)  %@",
                 "window: 1,000 animated layers, frame interval" as NSString, pct(0.5), pct(0.05), pct(0.95), short,
                 intervals.count, cpu * 1000 / Double(stamps.count), (window.pacing == .presentVBlank ? "paced by Present vblanks" : "paced by the timer") as NSString))
}

/// Issue 8's figures: 10,000 live particles, and a replicator drawing 1,000 instances of a small layer.
func structuralBenchmark() {
    let dotContext = CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                               bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
    dotContext.setFillColor(CGColor(gray: 1, alpha: 1)); dotContext.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
    let dot = dotContext.makeImage()!
    // The same dot with soft edges (texels differ, so every sprite is filtered).
    dotContext.clear(CGRect(x: 0, y: 0, width: 4, height: 4))
    dotContext.setFillColor(CGColor(gray: 1, alpha: 0.5)); dotContext.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
    dotContext.setFillColor(CGColor(gray: 1, alpha: 1)); dotContext.fill(CGRect(x: 1, y: 1, width: 2, height: 2))
    let softDot = dotContext.makeImage()!
    func frames(_ name: String, _ tree: CALayer, note: String) {
        let renderer = CARenderer()
        renderer.bounds = tree.bounds
        renderer.layer = tree
        // Frame times on the media clock: emission starts at the commit, as animations do.
        var t = CACurrentMediaTime()
        renderer.beginFrame(atTime: t, timeStamp: nil); renderer.render(); renderer.endFrame()
        t += 10   // the emitter reaches its steady state (birthRate × lifetime alive)
        let r = measure(frames: timedFrames, warmup: 5) {
            t += 1.0 / 60
            renderer.beginFrame(atTime: t, timeStamp: nil)
            renderer.addUpdate(renderer.bounds)
            renderer.render()
            renderer.endFrame()
        }
        report(name, r, note: note)
    }
    let sky = PeerScenes.root()
    let emitter = CAEmitterLayer()
    emitter.frame = sky.bounds
    emitter.emitterPosition = CGPoint(x: 640, y: 360)
    emitter.emitterShape = .rectangle
    emitter.emitterSize = CGSize(width: 1200, height: 640)
    let cell = CAEmitterCell()
    cell.contents = dot
    cell.birthRate = 2000
    cell.lifetime = 5
    cell.velocity = 20
    cell.emissionRange = .pi * 2
    cell.color = CGColor(red: 1, green: 0.8, blue: 0.4, alpha: 1)
    emitter.emitterCells = [cell]
    sky.addSublayer(emitter)
    if wanted("particles") { frames("particles: 10,000 live 4×4 particles", sky, note: "target < 4 ms") }
    if wanted("particles") {
        cell.contents = softDot
        emitter.emitterCells = [cell]
        frames("particles, soft-edged (filtered) picture", sky, note: "target < 4 ms")
    }
    let field = PeerScenes.root()
    let rep = CAReplicatorLayer()
    rep.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
    rep.instanceCount = 1000
    rep.instanceTransform = CATransform3DMakeTranslation(1.2, 0.68, 0)
    let item = CALayer()
    item.frame = CGRect(x: 20, y: 20, width: 12, height: 12)
    item.backgroundColor = CGColor(red: 0.3, green: 0.75, blue: 0.45, alpha: 1)
    rep.addSublayer(item)
    field.addSublayer(rep)
    if wanted("replicator") { frames("replicator: 1,000 instances of a 12×12 layer", field, note: "target < 3 ms") }
}
