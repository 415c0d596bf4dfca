// CATiledLayer: only the visible tiles of a 16,384-point layer are drawn, off the frame, at the
// level of detail it is shown at, clipped to the tile; they appear at the next frame, fading in;
// frames never wait for them; bad tile sizes are clamped.
@testable import QuartzCore
@testable import LayerRender
import TestSupport
import Testing
import Foundation

/// A tiled layer that paints each tile a flat colour and records which tiles it drew.
final class RecordingTiledLayer: CATiledLayer, @unchecked Sendable {
    private let lock = NSLock()
    private var rects: [CGRect] = []
    var drawn: [CGRect] { lock.lock(); defer { lock.unlock() }; return rects }

    override func draw(in ctx: CGContext) {
        let r = ctx.boundingBoxOfClipPath
        lock.lock(); rects.append(r); lock.unlock()
        ctx.setFillColor(CGColor(red: 0, green: 0.5, blue: 1, alpha: 1))
        ctx.fill(r)
    }
}

@Suite(.serialized) struct CATiledLayerTests {
    func scene(scrollTo origin: CGPoint, scale: CGFloat = 1, levels: Int = 1) -> (CARenderer, RecordingTiledLayer) {
        let r = CARenderer()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 300, height: 200)
        root.backgroundColor = CGColor(gray: 1, alpha: 1)
        let scroller = CAScrollLayer()
        scroller.frame = root.bounds
        let tiled = RecordingTiledLayer()
        tiled.frame = CGRect(x: 0, y: 0, width: 16_384, height: 16_384)
        tiled.levelsOfDetail = levels
        if scale != 1 { tiled.anchorPoint = .zero; tiled.position = .zero; tiled.transform = CATransform3DMakeScale(scale, scale, 1) }
        scroller.addSublayer(tiled)
        scroller.scroll(to: origin)
        root.addSublayer(scroller)
        r.bounds = root.bounds
        r.layer = root
        return (r, tiled)
    }

    func frame(_ r: CARenderer, at t: Double) -> CGImage {
        MediaClock.override = t
        defer { MediaClock.override = nil }
        r.beginFrame(atTime: t, timeStamp: nil); r.render(); r.endFrame()
        return r.makeImage()!
    }

    @Test func onlyVisibleTilesAreDrawnAndTheyFadeIn() {
        MediaClock.override = 0
        let (r, tiled) = scene(scrollTo: CGPoint(x: 1000, y: 2000))
        MediaClock.override = nil
        let first = frame(r, at: 0)
        // The frame did not wait: nothing of the layer yet.
        #expect(first.premultipliedPixel(x: 150, y: 100) == 0xFFFF_FFFF)
        CATiledLayer.waitForTiles()
        // Columns 3…5 (x 768…1536) and rows 7…8 (y 1792…2304) overlap the 300 × 200 view at (1000, 2000).
        let expected = Set([3, 4, 5].flatMap { c in [7, 8].map { r in CGRect(x: c * 256, y: r * 256, width: 256, height: 256) } })
        #expect(Set(tiled.drawn) == expected && tiled.drawn.count == 6)
        #expect(r.nextFrameTime().isFinite)                   // a frame is wanted for the new tiles
        _ = frame(r, at: 0.1)          // the tiles arrive with this frame's commit, fully transparent
        let fading = frame(r, at: 0.2)
        let done = frame(r, at: 1)
        let mid = fading.premultipliedPixel(x: 150, y: 100), end = done.premultipliedPixel(x: 150, y: 100)
        #expect(end == 0xFF00_80FF)
        #expect(mid != end && mid != 0xFFFF_FFFF)          // 0.1 s into a 0.25 s fade: 40 % of the way
        // Scrolling on asks only for the newly visible tiles.
        CATransaction.begin(); CATransaction.setDisableActions(true)
        (tiled.superlayer as? CAScrollLayer)?.scroll(to: CGPoint(x: 1300, y: 2000))
        CATransaction.commit()
        _ = frame(r, at: 2)
        CATiledLayer.waitForTiles()
        #expect(tiled.drawn.count == 6 + 2)                   // column 6 joins, rows 7 and 8
    }

    @Test func levelOfDetailFollowsTheScale() {
        MediaClock.override = 0
        let (r, tiled) = scene(scrollTo: .zero, scale: 0.25, levels: 3)
        MediaClock.override = nil
        _ = frame(r, at: 0)
        CATiledLayer.waitForTiles()
        // Shown at a quarter size, level 2 (¼ pixel per point) is used: one tile covers 1024 points.
        #expect(tiled.drawn.allSatisfy { $0.width == 1024 && $0.height == 1024 } && !tiled.drawn.isEmpty)
        #expect(tiled.drawn.count == 2)                       // 1200 × 800 points visible
    }

    @Test func badTileSizesAreClamped() {
        let t = CATiledLayer()
        #expect(t.tileSize == CGSize(width: 256, height: 256) && t.levelsOfDetail == 1 && CATiledLayer.fadeDuration() == 0.25)
        t.tileSize = CGSize(width: 0, height: 1e6)
        #expect(t.tileSize == CGSize(width: 16, height: 4096))
    }
}
