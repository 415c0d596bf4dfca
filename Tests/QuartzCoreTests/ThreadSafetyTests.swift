// Core Animation is thread-safe as Apple documents it: layer properties may be set, sublayers
// added and removed and animations added from any thread; each thread's changes join that
// thread's transaction (explicit here: a thread without a run loop commits its own), and the
// renderer only ever sees committed snapshots. Four threads change one hosted tree while a fifth
// renders, hit-tests and asks for presentation layers; each writer also changes a neighbour's
// container. The tree must end as the threads left it. (Without the layer tree lock this test
// crashed on every run: an array mutated while a commit walked it.)
@testable import QuartzCore
import Dispatch
import Foundation
import Synchronization
import Testing

/// The tree and renderer handed to the threads (layers are thread-safe, not declared Sendable).
private final class Shared: @unchecked Sendable {
    let renderer = CARenderer()
    let root = CALayer()
    let containers = (0..<4).map { _ in CALayer() }
}

@Suite struct ThreadSafetyTests {
    @Test func fourThreadsChangeOneTreeWhileItIsRendered() {
        let shared = Shared()
        let renderer = shared.renderer, root = shared.root, containers = shared.containers
        renderer.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
        root.frame = renderer.bounds
        renderer.layer = root
        for c in containers { root.addSublayer(c) }
        CATransaction.flush()
        let writersDone = Atomic<Int>(0)
        let iterations = 1000
        DispatchQueue.concurrentPerform(iterations: 5) { worker in
            let renderer = shared.renderer, root = shared.root, containers = shared.containers
            if worker == 4 {
                // The reader: frames, hit tests and presentation trees until every writer is done.
                var round = 0
                while writersDone.load(ordering: .acquiring) < 4 {
                    round += 1
                    renderer.beginFrame(atTime: CACurrentMediaTime(), timeStamp: nil)
                    renderer.render()
                    renderer.endFrame()
                    _ = root.hitTest(CGPoint(x: 10, y: 10))
                    if round % 16 == 0 { _ = root.presentation()?.sublayers?.count }
                }
                return
            }
            let mine = containers[worker]
            let shared = containers[(worker + 1) % 4]   // a neighbour's container, changed by two threads
            var kept: [CALayer] = []
            for i in 0..<iterations {
                CATransaction.begin()
                let l = i % 3 == 0 ? CAShapeLayer() : CALayer()
                l.frame = CGRect(x: CGFloat(i % 50), y: CGFloat(worker * 10), width: 8, height: 8)
                l.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
                mine.addSublayer(l)
                l.opacity = 0.5
                l.setValue(i, forKey: "index")
                shared.opacity = Float(i % 10) / 10 + 0.05
                shared.sublayerTransform = CATransform3DMakeTranslation(CGFloat(i % 3), 0, 0)
                _ = shared.sublayers?.count
                _ = root.sublayers?.first?.sublayers?.last?.opacity
                let move = CABasicAnimation(keyPath: "position.x")
                move.toValue = 30
                move.duration = 0.05
                l.add(move, forKey: "move")
                kept.append(l)
                if i % 2 == 1 { kept.removeFirst().removeFromSuperlayer() }
                CATransaction.commit()
            }
            writersDone.add(1, ordering: .releasing)
        }
        CATransaction.flush()
        for (worker, c) in containers.enumerated() {
            let subs = c.sublayers ?? []
            // Each iteration added one layer; every second one removed the oldest still kept.
            #expect(subs.count == iterations / 2, "thread \(worker): \(subs.count) sublayers")
            #expect(subs.allSatisfy { $0.opacity == 0.5 && $0.superlayer === c })
            let indices = subs.compactMap { $0.value(forKey: "index") as? Int }
            #expect(indices == Array((iterations / 2)..<iterations), "thread \(worker)")
        }
        renderer.layer = nil
    }
}
