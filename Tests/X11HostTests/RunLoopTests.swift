// The window's loop as an app drives it. Apple's rules quoted from the CATransaction and
// CADisplayLink documentation:
// - "Core Animation supports two types of transactions: implicit transactions and explicit
//   transactions. […] Explicit transactions occur when you send the CATransaction class a begin
//   message before modifying the layer tree, and a commit message afterwards." A commit is what
//   the render server draws: nothing else is needed for a change to reach the screen.
// - CADisplayLink: "a timer object that allows your app to synchronize its drawing to the
//   refresh rate of the display"; its callback runs once per frame, before that frame is drawn.
// - The run loop commits the implicit transaction at the end of each turn, so an animation added
//   during set-up is committed before the first frame's display-link callback.
import CX11
import Foundation
import Testing
import TestSupport
@testable import X11Host

/// Nested in the serialized X11 suite: display links and SHM counts are process-wide.
extension X11WindowTests {
@Suite struct RunLoopTests {
    /// The columns of row `y` holding `color` in the window.
    func columns(_ window: LayerWindow, row y: Int, color: UInt32) -> [Int] {
        let p = window.readPixels()
        guard y < p.height else { return [] }
        return (0..<p.width).filter { p.pixels[y * p.width + $0] == color }
    }

    @Test func anExplicitTransactionWhileIdleReachesTheScreen() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "commit", size: CGSize(width: 100, height: 40), display: x.display))
        let dot = addBox(to: window.rootLayer, CGRect(x: 0, y: 10, width: 10, height: 10), CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        spin(window, seconds: 0.3)
        let idleFrames = window.frameCount
        spin(window, seconds: 0.2)
        #expect(window.frameCount == idleFrames)   // idle: nothing animates
        CATransaction.begin(); CATransaction.setDisableActions(true)
        dot.position = CGPoint(x: 55, y: 15)
        CATransaction.commit()
        // The commit itself asks for the frame: without that the idle loop never draws it (the
        // wait is long only so that a busy machine does not fail the test).
        spin(window, seconds: 3, until: { columns(window, row: 15, color: 0xFFFF_0000).first == 50 })
        #expect(columns(window, row: 15, color: 0xFFFF_0000).first == 50)
    }

    @Test func aDragWithActionsDisabledTracksThePointerFrameByFrame() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "drag", size: CGSize(width: 300, height: 60), display: x.display))
        let dot = addBox(to: window.rootLayer, CGRect(x: 0, y: 20, width: 20, height: 20), CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        var dragged = 0
        window.onEvent = { event in
            guard event.kind == .mouseDragged || event.kind == .mouseDown(button: 1) else { return }
            dragged += 1
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            dot.position = CGPoint(x: event.location.x, y: 30)
            CATransaction.commit()
        }
        spin(window, seconds: 0.3)
        let id = "\(window.windowID)"
        x.run("/usr/bin/xdotool", ["mousemove", "--window", id, "20", "30", "mousedown", "1"])
        for step in 1...8 {
            let px = 20 + step * 30
            x.run("/usr/bin/xdotool", ["mousemove", "--window", id, "\(px)", "30"])
            // The square is centred under the pointer within a few ticks of each move, with no glide.
            spin(window, seconds: 0.5, until: { columns(window, row: 30, color: 0xFF00_FF00).first == px - 10 })
            let seen = columns(window, row: 30, color: 0xFF00_FF00)
            #expect(seen.first == px - 10 && seen.count == 20, "step \(step): \(seen.first ?? -1)")
        }
        x.run("/usr/bin/xdotool", ["mouseup", "1"])
        #expect(dragged >= 8)
    }

    @Test func aCommitFromAnotherThreadWakesTheLoop() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "thread", size: CGSize(width: 40, height: 40), display: x.display))
        spin(window, seconds: 0.3)
        // Apple: layers may be changed from any thread, each thread having its own transaction.
        nonisolated(unsafe) let root = window.rootLayer
        let thread = Thread {
            usleep(100_000)
            CATransaction.begin(); CATransaction.setDisableActions(true)
            root.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            CATransaction.commit()
        }
        thread.start()
        let start = CACurrentMediaTime()
        // A long wait is cut short by the commit's wake signal (plus one tick to draw it).
        window.runOnce(maxWait: 5)
        window.runOnce(maxWait: 5)
        #expect(CACurrentMediaTime() - start < 2.5)   // not the 5 s wait
        spin(window, seconds: 3, until: { window.readPixels().pixels.first == 0xFF00_00FF })
        #expect(window.readPixels().pixels.first == 0xFF00_00FF)
    }

    /// CAMediaTiming.beginTime: an animation added now may start later; the idle loop wakes for it.
    @Test func anAnimationThatBeginsLaterWakesTheIdleLoop() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "later", size: CGSize(width: 40, height: 40), display: x.display))
        let dot = addBox(to: window.rootLayer, CGRect(x: 0, y: 0, width: 10, height: 10), CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        spin(window, seconds: 0.3)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1; fade.toValue = 0; fade.duration = 1
        fade.beginTime = CACurrentMediaTime() + 0.3
        dot.add(fade, forKey: "fade")
        spin(window, seconds: 0.1)
        let frames = window.frameCount
        let start = CACurrentMediaTime()
        while window.frameCount == frames && CACurrentMediaTime() - start < 3 { window.runOnce(maxWait: 5) }
        #expect(CACurrentMediaTime() - start < 2, "the first frame of a later animation came late")
    }

    @Test func aDisplayLinkScrubMovesTheLayerFromTheFirstFrame() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "scrub", size: CGSize(width: 140, height: 20), display: x.display))
        let dot = CALayer()
        dot.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        dot.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        dot.speed = 0   // paused: the display link drives it through timeOffset
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 5; slide.toValue = 105; slide.duration = 1
        dot.add(slide, forKey: "slide")
        window.rootLayer.addSublayer(dot)
        var firstFrame: Int?
        let link = CADisplayLink { _ in dot.timeOffset = 0.5 }
        link.add(to: .main, forMode: .default)
        defer { link.invalidate() }
        window.onFrame = { [unowned window] _ in if firstFrame == nil { firstFrame = window.frameCount } }
        while window.frameCount == 0 { window.runOnce(maxWait: 0.05) }
        // Halfway: x = 55 − 5 = 50 on the very first frame (the frame's own pixels), and on screen.
        let first = try #require(window.makeImage())
        #expect((0..<140).first { first.premultipliedPixel(x: $0, y: 5) == 0xFFFF_FF00 } == 50)
        #expect(firstFrame == 0)
        spin(window, seconds: 1, until: { columns(window, row: 5, color: 0xFFFF_FF00).first == 50 })
        #expect(columns(window, row: 5, color: 0xFFFF_FF00).first == 50)
    }

    /// Paced by Present's vblanks where the server offers it (Xvfb does, with a 60 Hz fake
    /// display), by the timer with XPutImage; at 60 and at 30 frames per second.
    @Test(.enabled(if: !Sanitizers.active, "measures frame timing"), arguments: [(true, 60.0), (false, 60.0), (true, 30.0), (false, 30.0)])
    func framesStayOnTheTickCadence(sharedMemory: Bool, rate: Double) throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "cadence", size: CGSize(width: 320, height: 200), display: x.display,
                                              sharedMemory: sharedMemory))
        #expect(window.pacing == (sharedMemory ? .presentVBlank : .timer))
        window.framesPerSecond = rate
        // 80 animated layers: a load a debug build draws in about a quarter of a tick, so that what
        // is measured is the window's pacing, not how fast a debug build paints beside the other
        // tests running at once (200 took most of a tick: a debug build blends translucent pixels
        // in unoptimised Swift). The release bench measures 1,000 layers.
        CATransaction.begin(); CATransaction.setDisableActions(true)
        for i in 0..<80 {
            let l = CALayer()
            l.frame = CGRect(x: CGFloat(i % 40) * 8, y: CGFloat(i / 40) * 8, width: 6, height: 6)
            l.backgroundColor = CGColor(red: 1, green: 0.5, blue: 0.2, alpha: 1)
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 1; a.toValue = 0.2; a.duration = 0.7; a.autoreverses = true; a.repeatCount = .infinity
            l.add(a, forKey: "pulse")
            window.rootLayer.addSublayer(l)
        }
        CATransaction.commit()
        var stamps: [Double] = []
        window.onFrame = { stamps.append($0) }
        // Two seconds of ticks, waited for up to ten: the other test processes may take the cores
        // for a while (a stalled process is not a pacing fault; a burst of frames after it is).
        spin(window, seconds: 10, until: { stamps.count > Int(rate * 2) })
        let tick = 1.0 / rate
        let intervals = zip(stamps, stamps.dropFirst()).map { $1 - $0 }.sorted()
        // No frame half a tick after the previous one (a late frame may shorten the next interval
        // a little; a noisy machine is allowed a few), and the median on the tick.
        let short = intervals.filter { $0 < tick * 0.75 }.count
        #expect(intervals.count >= Int(rate / 2), "\(intervals.count) frames")
        #expect(short <= max(3, intervals.count / 20), "\(short) of \(intervals.count) intervals under ¾ tick")
        let median = intervals.isEmpty ? 0 : intervals[intervals.count / 2]
        #expect(abs(median - tick) < tick * 0.2, "median interval \(median * 1000) ms for \(rate) fps")
        #expect(window.pacing == (sharedMemory ? .presentVBlank : .timer))   // never gave up on Present
    }

    @Test func framesInLastSecondFallsToZeroWhenIdle() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "fps", size: CGSize(width: 40, height: 40), display: x.display))
        let link = CADisplayLink { _ in }
        link.add(to: .main, forMode: .default)
        // Half the ticks of one second, waited for up to ten (other test processes may hold the cores).
        spin(window, seconds: 10, until: { window.framesInLastSecond >= 30 })
        #expect(window.framesInLastSecond >= 30)
        link.invalidate()
        spin(window, seconds: 1.1)
        #expect(window.framesInLastSecond == 0)
    }
}
}
