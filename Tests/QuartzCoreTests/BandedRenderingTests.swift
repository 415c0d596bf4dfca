// Frames on every core (Compositor+Bands.swift): a banded frame equals the one-thread frame pixel
// for pixel, wherever the bands meet and whatever worker count is asked for.
@testable import LayerRender
@testable import QuartzCore
import TestSupport
import Testing

/// Banded frames: the same pixels as one thread, including shadows, masks, transitions,
/// particles and content layers that cross the lines between the bands.
@Suite(.serialized) struct BandedRenderingTests {
    func frame(threads: Int, at time: Double, bandRows: Int? = nil) -> CGImage {
        MediaClock.override = 0
        defer { MediaClock.override = nil }
        let r = CARenderer()
        r.compositor.threads = threads
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 240, height: 200)
        root.backgroundColor = CGColor(gray: 0.9, alpha: 1)
        for i in 0..<6 {
            let l = CALayer()
            l.frame = CGRect(x: 10 + i * 38, y: 70 + (i % 3) * 12, width: 34, height: 50)
            l.backgroundColor = CGColor(red: CGFloat(i) / 6, green: 0.4, blue: 0.8, alpha: 1)
            l.cornerRadius = 8
            l.shadowOpacity = 0.8
            l.shadowRadius = 6
            l.shadowOffset = CGSize(width: 3, height: 9)
            l.transform = CATransform3DMakeRotation(CGFloat(i) * 0.2, 0, 0, 1)
            root.addSublayer(l)
        }
        let g = CAGradientLayer()
        g.frame = CGRect(x: 20, y: 130, width: 200, height: 60)
        g.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        let m = CAShapeLayer()
        m.frame = g.bounds
        m.path = CGPath(ellipseIn: g.bounds, transform: nil)
        g.mask = m
        root.addSublayer(g)
        // Overlapping, turning, differently coloured particles across the band line, drawn in
        // strips (unordered): each band must draw the ones it shares in the same order.
        let sparks = CAEmitterLayer()
        sparks.frame = root.bounds
        sparks.emitterPosition = CGPoint(x: 120, y: 100)
        sparks.emitterShape = .rectangle
        sparks.emitterSize = CGSize(width: 220, height: 180)
        let cell = CAEmitterCell()
        cell.contents = CAEmitterLayerTests.square
        cell.birthRate = 2000; cell.lifetime = 1; cell.scale = 2; cell.spin = 3; cell.spinRange = 3
        cell.color = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.8)
        cell.redRange = 0.5; cell.greenRange = 0.5; cell.blueRange = 0.5
        sparks.emitterCells = [cell]
        root.addSublayer(sparks)
        let card = CALayer()
        card.frame = CGRect(x: 60, y: 60, width: 120, height: 80)
        card.backgroundColor = CGColor(red: 0.2, green: 0.7, blue: 0.3, alpha: 1)
        root.addSublayer(card)
        r.bounds = root.bounds
        r.layer = root
        r.beginFrame(atTime: 0, timeStamp: nil); r.render(); r.endFrame()
        let t = CATransition()
        t.type = .push; t.subtype = .fromTop; t.duration = 1
        card.add(t, forKey: kCATransition)
        card.backgroundColor = CGColor(red: 0.9, green: 0.5, blue: 0.1, alpha: 1)
        if let bandRows { r.compositor.bandRows = bandRows }
        r.beginFrame(atTime: time, timeStamp: nil); r.render(); r.endFrame()
        return r.makeImage()!
    }

    @Test func bandsPaintTheSamePixelsAsOne() {
        // Wherever the bands meet: bands of 64 rows (three), of 25 (eight) and of 41 (four of
        // 50 rows each — a band is cut where rows divide evenly, not at a multiple of the height).
        for time in [0.0, 0.4] {
            let one = frame(threads: 1, at: time)
            for rows in [64, 25, 41] {
                let banded = frame(threads: 4, at: time, bandRows: rows)
                var differing = 0
                for y in 0..<200 { for x in 0..<240 where one.premultipliedPixel(x: x, y: y) != banded.premultipliedPixel(x: x, y: y) { differing += 1 } }
                #expect(differing == 0, "bands of \(rows) rows")
            }
        }
    }

    @Test func anyWorkerCountPaintsTheSamePixels() {
        // A worker count of 0 (or less) paints on one thread, 2, 3 and 7 take bands as they
        // finish, 1,000 is cut to `maxWorkers`: never refused, and never a pixel changed.
        let one = frame(threads: 1, at: 0.4)
        for threads in [0, -5, 2, 3, 7, 1_000] {
            let other = frame(threads: threads, at: 0.4, bandRows: 20)
            var differing = 0
            for y in 0..<200 { for x in 0..<240 where one.premultipliedPixel(x: x, y: y) != other.premultipliedPixel(x: x, y: y) { differing += 1 } }
            #expect(differing == 0, "threads \(threads)")
        }
    }
}
