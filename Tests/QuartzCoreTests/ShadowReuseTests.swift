// Shadows kept across frames (Compositor+Shadow.swift): a layer whose alpha did not change gets
// the blurred plane of the last frame — with the pixels of a shadow drawn afresh, whatever
// changed around it (colour, place, opacity, offset, what the layer holds) and wherever the
// bands fall.
import CoreGraphics
import Foundation
@testable import LayerRender
@testable import QuartzCore
import Testing

@Suite(.serialized) struct ShadowReuseTests {
    /// Twelve overlapping shadowed cards; from `step` 2 on, some change. Card 7 holds a sublayer,
    /// card 8 casts its shadow from a path (never kept), card 10's blur is wide (three box passes),
    /// and a thirteenth layer clips a shadowed card to its rounded bounds.
    static func configure(_ root: CALayer, step: Int) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        while root.sublayers?.count ?? 0 < 12 {
            let card = CALayer()
            if root.sublayers?.count == 7 { card.addSublayer(CALayer()) }
            root.addSublayer(card)
        }
        if root.sublayers?.count == 12 {
            let clip = CALayer()
            clip.frame = CGRect(x: 110, y: 96, width: 80, height: 56)
            clip.masksToBounds = true
            clip.cornerRadius = 14
            let inner = CALayer()
            inner.frame = CGRect(x: 10, y: 6, width: 50, height: 30)
            inner.backgroundColor = CGColor(red: 0.2, green: 0.8, blue: 0.4, alpha: 1)
            inner.shadowOpacity = 0.8
            inner.shadowRadius = 4
            inner.shadowOffset = CGSize(width: 3, height: 5)
            clip.addSublayer(inner)
            root.addSublayer(clip)
        }
        root.sublayers?[12].sublayers?[0].position.x = step >= 3 ? 40 : 35
        for (i, card) in (root.sublayers ?? []).prefix(12).enumerated() {
            var origin = CGPoint(x: 8 + CGFloat(i % 4) * 46, y: 10 + CGFloat(i / 4) * 48)
            card.backgroundColor = CGColor(red: CGFloat(i) / 12, green: 0.5, blue: 0.8, alpha: 1)
            card.cornerRadius = 8
            card.opacity = 1
            card.shadowOpacity = 0.6
            card.shadowRadius = i == 10 ? 30 : 5
            card.shadowOffset = CGSize(width: 2, height: 4)
            card.shadowPath = i == 8 ? CGPath(rect: CGRect(x: 0, y: 0, width: 60, height: 44), transform: nil) : nil
            let inner = card.sublayers?.first
            inner?.frame = CGRect(x: 6, y: 6, width: 20, height: 10)
            inner?.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.5)
            if step >= 2 {
                switch i {
                case 0: origin.x += CGFloat(3 * (step - 1)); origin.y += 2   // whole points: the same alpha
                case 1: card.backgroundColor = CGColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 1)
                case 2: card.cornerRadius = CGFloat(8 + step)
                case 3: origin.x += 0.5 * CGFloat(step)
                case 4: card.shadowRadius = 5.1   // the same reach, another blur
                case 5: card.shadowOffset = CGSize(width: -3, height: CGFloat(step))
                case 6: card.opacity = 0.7
                case 7:
                    inner?.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
                    if step >= 4 { inner?.frame.origin.x = 12 }
                default: break
                }
            }
            card.frame = CGRect(origin: origin, size: CGSize(width: 60, height: 44))
        }
    }

    /// Frames 0 ... 5, each painted whole (or only where it changed, `damaged`) by one renderer
    /// that keeps its planes.
    @Test(arguments: [(1, false), (2, false), (1, true), (2, true)])
    func keptShadowsGiveTheFreshPixels(threads: Int, damaged: Bool) {
        let warm = FrameDriver(200, 160)
        warm.renderer.paintThreads = threads
        warm.renderer.compositor.bandRows = 40
        var hits: [Int] = []
        for step in 0..<6 {
            ShadowReuseTests.configure(warm.root, step: step)
            if !damaged { warm.renderer.addUpdate(warm.renderer.bounds) }
            let kept = warm.frame(at: Double(step))
            hits.append(warm.renderer.shadowCacheHits)
            // A renderer of its own draws every shadow afresh.
            let fresh = FrameDriver(200, 160)
            ShadowReuseTests.configure(fresh.root, step: step)
            let drawn = fresh.frame(at: Double(step))
            #expect(differingPixels(kept, drawn) == 0, "step \(step), \(threads) workers, damaged \(damaged)")
        }
        // Painted only where they change, the cards around the changes are repainted in part,
        // a different part each frame: their offscreens' bytes differ, and nothing is kept.
        guard !damaged else { return }
        // On one worker, frames 0 to 2 see each alpha three times (kept, met again, blurred
        // whole); from frame 3 on, the unchanged cards are blended from their planes, and those
        // that change are not (each worker keeps its own planes, and the bands a worker takes
        // change from frame to frame: a worker that takes both bands sees a card twice a frame).
        if threads == 1 { #expect(hits[2] == 0 && hits[5] - hits[4] >= 7, "\(hits)") }
        #expect(hits[3] > 0 && hits[5] > hits[4], "\(hits)")
    }
}
