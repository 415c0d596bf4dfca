// The gallery as a newcomer drives it, in its own process under a private Xvfb, with xdotool
// keys and pointer, read back from the X server: every scene reachable by key shows that scene;
// drags show at every step; the overlays draw; bad arguments are refused with a message.
import CX11
import CoreGraphics
import Foundation
import Testing
import TestSupport
@testable import X11Host

/// A running gallery (640 × 480).
func GalleryProcess(_ x: Xvfb, arguments: [String] = []) -> WindowProcess? {
    let binary = Golden.samplesBinary
    guard FileManager.default.isExecutableFile(atPath: binary) else { return nil }
    return WindowProcess(x, binary: binary, arguments: arguments, width: 640, height: 480)
}

func differing(_ a: [UInt32], _ b: [UInt32]) -> Int { a.count != b.count ? max(a.count, b.count) : zip(a, b).filter { $0 != $1 }.count }

/// Where two 640-wide pictures differ: "x0–x1 × y0–y1", for failure messages.
func whereDiffering(_ a: [UInt32], _ b: [UInt32]) -> String {
    guard a.count == b.count else { return "sizes differ" }
    let at = a.indices.filter { a[$0] != b[$0] }
    guard !at.isEmpty else { return "nowhere" }
    let xs = at.map { $0 % 640 }, ys = at.map { $0 / 640 }
    return "\(xs.min()!)–\(xs.max()!) × \(ys.min()!)–\(ys.max()!)"
}

extension X11WindowTests {
@Suite struct GalleryTests {
    /// The scenes whose picture does not change with time once built: the window must show
    /// exactly what `samples --headless` renders for them.
    static let stillScenes = [2, 3, 4, 7, 8, 11, 12, 15, 18]

    @Test func everySceneIsReachableByKeyAndShowsOnScreen() throws {
        let x = try #require(Xvfb())
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-\(getpid())").path
        let binary = Golden.samplesBinary
        let headless = try #require(spawn(binary, ["--headless", dir], display: nil))
        #expect(reap(headless) == 0)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let g = try #require(GalleryProcess(x))
        // The help panel is open at launch and names every scene; h closes it.
        #expect(g.wait { g.title.hasPrefix("1/18 ") })
        let withHelp = g.pixels()
        g.key("h")
        #expect(g.wait { differing(g.pixels(), withHelp) > 10_000 })
        var previous = g.pixels()
        for n in 1...18 {
            if n > 1 { g.key("Right") }
            #expect(g.wait { g.title.hasPrefix("\(n)/18 ") }, "scene \(n): title \(g.title)")
            if Self.stillScenes.contains(n) {
                let png = try #require(try? Data(contentsOf: URL(fileURLWithPath: String(format: "%@/scene-%02d.png", dir, n))))
                let image = try #require(ImageCodec.decode(png))
                let expected = (0..<480).flatMap { y in (0..<640).map { image.premultipliedPixel(x: $0, y: y) | 0xFF00_0000 } }
                var shown: [UInt32] = []
                g.wait { shown = g.pixels(); return differing(shown, expected) == 0 }
                #expect(differing(shown, expected) == 0, "scene \(n): \(differing(shown, expected)) pixels differ from its offscreen render, in \(whereDiffering(shown, expected))")
                previous = shown
            } else if n > 1 {
                var shown: [UInt32] = []
                g.wait { shown = g.pixels(); return differing(shown, previous) > 5_000 }
                #expect(differing(shown, previous) > 5_000, "scene \(n) looks like scene \(n - 1)")
                previous = shown
            }
        }
        // Two digits within a second reach scenes past 9; Home the first.
        g.key("1", "4")
        #expect(g.wait { g.title.hasPrefix("14/18 ") }, "\(g.title)")
        g.key("Home")
        #expect(g.wait { g.title.hasPrefix("1/18 ") })
    }

    @Test(arguments: [5, 14, 15, 17]) func dragsShowAtEveryStep(scene: Int) throws {
        let x = try #require(Xvfb())
        let g = try #require(GalleryProcess(x, arguments: ["--scene", "\(scene)"]))
        #expect(g.wait { g.title.hasPrefix("\(scene)/18 ") })
        g.key("h")
        usleep(400_000)
        g.pointer(["320", "240", "mousedown", "1"])
        var last = g.pixels()
        for step in 1...6 {
            g.pointer(["\(320 + step * 12)", "\(240 - step * 10)"])
            var now: [UInt32] = []
            let moved = g.wait(2) { now = g.pixels(); return differing(now, last) > 50 }
            #expect(moved, "scene \(scene), step \(step): the drag did not show")
            usleep(300_000)   // let an animation the step started settle before the next comparison
            last = g.pixels()
        }
        x.run("/usr/bin/xdotool", ["mouseup", "1"])
    }

    /// Scene 18's pies are a layer subclass whose own `progress` property animates: Apple redraws
    /// the presentation layer at every frame ("Animations changing the value of the attribute also
    /// trigger redisplay", needsDisplay(forKey:)), so the filled wedge grows step by step.
    @Test func aCustomPropertyAnimatesInTheWindowFrameByFrame() throws {
        let x = try #require(Xvfb())
        let g = try #require(GalleryProcess(x, arguments: ["--scene", "18"]))
        #expect(g.wait { g.title.hasPrefix("18/18 ") })
        g.key("h")
        usleep(500_000)
        // The third pie (4 s) spans x 440–600, y 90–250; its fill colour is the palette's blue.
        let isBlue = { (p: UInt32) in p & 0xFF > 0xD0 && (p >> 16) & 0xFF < 0x70 }
        func filled() -> Int { let p = g.pixels(); return (90..<250).reduce(0) { n, y in n + (440..<600).filter { isBlue(p[y * 640 + $0]) }.count } }
        #expect(filled() == 0)
        g.pointer(["520", "120", "click", "1"])
        var seen: [Int] = []
        for _ in 0..<12 {
            usleep(250_000)
            seen.append(filled())
        }
        // Growing through several distinct in-between sizes, never shrinking, ending nearly full.
        #expect(Set(seen).count >= 6, "\(seen)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 }, "\(seen)")
        #expect(g.wait(5) { filled() > 17_000 })
    }

    @Test func clickingTheFirstScenesBarMovesTheBoxes() throws {
        let x = try #require(Xvfb())
        let g = try #require(GalleryProcess(x))
        g.key("h")
        usleep(500_000)
        let before = g.pixels()
        // The bar's middle, where its caption is: the click belongs to the bar.
        g.pointer(["320", "405", "click", "1"])
        #expect(g.wait { differing(Array(g.pixels()[(40 * 640)..<(160 * 640)]), Array(before[(40 * 640)..<(160 * 640)])) > 5_000 },
                "the boxes did not move")
    }

    @Test func theRepaintFlashAppearsWhereALayerMovedAndNowhereElse() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "flash", size: CGSize(width: 200, height: 100), display: x.display))
        let dot = addBox(to: window.rootLayer, CGRect(x: 10, y: 10, width: 20, height: 20), CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        window.debugOptions = [.flashRepaints]
        spin(window, seconds: 0.3)
        let clean = window.readPixels().pixels
        CATransaction.begin(); CATransaction.setDisableActions(true)
        dot.position = CGPoint(x: 150, y: 70)
        CATransaction.commit()
        let frames = window.frameCount
        // The frame that moved it, once it is on screen (with Present, at its vblank).
        while window.frameCount == frames || window.isPresentPending { window.runOnce(maxWait: 0.05) }
        let flashed = window.readPixels().pixels
        let yellowish = { (p: UInt32) in (p >> 16) & 0xFF >= 0x80 && (p >> 8) & 0xFF >= 0x80 && p & 0xFF < 0x80 }
        // Tinted: the old place and the new one (the frame's damage is the box holding both);
        // untouched: what lies outside that box.
        #expect(yellowish(flashed[20 * 200 + 20]) && yellowish(flashed[70 * 200 + 150]))
        #expect(flashed[95 * 200 + 5] == clean[95 * 200 + 5] && flashed[5 * 200 + 190] == clean[5 * 200 + 190])
        spin(window, seconds: 3, until: { window.readPixels().pixels[70 * 200 + 150] == 0xFF00_00FF })
        let settled = window.readPixels().pixels
        #expect(settled[70 * 200 + 150] == 0xFF00_00FF && settled[20 * 200 + 20] == clean[0])
    }

    @Test(.enabled(if: !Sanitizers.active, "waits on frame timing")) func theDebugOverlaysAndSlowModeDraw() throws {
        let x = try #require(Xvfb())
        let g = try #require(GalleryProcess(x, arguments: ["--scene", "2"]))
        #expect(g.wait { g.title.hasPrefix("2/18 ") })
        g.key("h")
        usleep(600_000)   // the panel's fade ends
        let plain = g.pixels()
        // Each key draws its overlay (and a notice); pressing it again takes the overlay away, and
        // once the notice has gone the window is as it was.
        for key in ["o", "b", "t", "f", "r"] {
            g.key(key)
            #expect(g.wait { differing(g.pixels(), plain) > 200 }, "\(key) drew nothing")
            usleep(300_000)
            g.key(key)
            var after: [UInt32] = []
            let restored = g.wait(4) { after = g.pixels(); return differing(after, plain) == 0 }
            #expect(restored, "after \(key) off, \(whereDiffering(after, plain)) still differs")
        }
        g.key("s")
        #expect(g.wait { g.title.contains("slow ×10") })
        // The title's figure comes from a Foundation Timer on the main run loop: it fires while
        // the window sleeps with nothing to draw, and says so.
        #expect(g.wait(4) { g.title.contains("— idle —") }, "\(g.title)")
    }

    @Test func badArgumentsAreRefusedWithAMessage() throws {
        let binary = Golden.samplesBinary
        try #require(FileManager.default.isExecutableFile(atPath: binary), "the gallery is built beside the tests")
        for args in [["--scene", "0"], ["--scene", "19"], ["--scene", "x"], ["--scale", "nan"], ["--bogus"], ["--scene"]] {
            let pid = try #require(spawn(binary, args, display: nil))
            #expect(reap(pid) == 2, "\(args)")
        }
        let list = output(binary, ["--list"], display: "")
        #expect(list.contains("17  Tiled layer") && list.contains("18  Custom animatable property") && list.contains("drag to scroll"))
        #expect(output(binary, ["--help"], display: "").contains("--scene N"))
    }
}
}
