import Foundation
import QuartzCore

// Benchmarks of the engine, run by `make bench` in a release build. Each figure is the median
// (and min–max) of many frames after warm-up, timed one by one with the monotonic clock.

/// Times `body` `frames` times after `warmup` untimed runs; returns milliseconds per run.
func measure(frames: Int = 200, warmup: Int = 10, _ body: () -> Void) -> (median: Double, min: Double, max: Double) {
    for _ in 0..<warmup { body() }
    var samples: [Double] = []
    samples.reserveCapacity(frames)
    for _ in 0..<frames {
        let t0 = CACurrentMediaTime()
        body()
        samples.append((CACurrentMediaTime() - t0) * 1000)
    }
    samples.sort()
    return (samples[samples.count / 2], samples.first!, samples.last!)
}

func report(_ name: String, _ r: (median: Double, min: Double, max: Double), note: String = "") {
    print(String(format: "%-44@ %8.3f ms  (%.3f–%.3f)  %@", name as NSString, r.median, r.min, r.max, note as NSString))
}

/// 1,000 layers, each with its own running animation: a whole frame, and evaluation alone.
func presentationBenchmark() {
    let renderer = CARenderer()
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 1280, height: 720)
    renderer.layer = root
    var time = 1000.0
    renderer.beginFrame(atTime: time, timeStamp: nil)
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    for i in 0..<1000 {
        let l = CALayer()
        l.frame = CGRect(x: Double(i % 40) * 32, y: Double(i / 40) * 28, width: 30, height: 26)
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
    report("presentation evaluation, 1,000 layers", e, note: String(format: "= %.3f ms per 100 layers", e.median / 10))
}

print("Benchmarks (release build, \(ProcessInfo.processInfo.activeProcessorCount) cores)")
presentationBenchmark()
