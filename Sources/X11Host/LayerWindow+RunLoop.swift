import CX11
import Foundation
import LayerRender

/// One turn of the window's loop, in Apple's order: events and main-queue work → commit of what
/// they changed → (at a tick) display-link callbacks → commit of what those changed → render →
/// present. Reads the X connection, the main queue and the commit wake signal; produces frames
/// on the tick grid of `FrameClock`.
extension LayerWindow {
    /// One turn of the loop: wait at most `maxWait` seconds for input, main-queue work, a commit
    /// or the next tick, then handle events, main-queue work, and a frame when one is due.
    public func runOnce(maxWait: Double) {
        guard isOpen else { return }
        waitForWork(maxWait: maxWait.isNaN ? 0 : maxWait)
        // 1. Events, then main-queue blocks and timers (DispatchQueue.main and timers run on the
        // main thread's run loop; a window driven from another thread services only X events).
        var handled = 0
        while isOpen && handled < Self.eventsPerTurn && cx11_pending(display) > 0 {
            var ev = cx11_event()
            cx11_next_event(display, window, &ev)
            handle(ev)
            handled += 1
        }
        if Thread.isMainThread { _ = RunLoop.main.run(mode: .default, before: Date()) }
        guard isOpen else { return }
        // 2. Commit what they changed (an implicit transaction; explicit ones committed already).
        CATransaction.flush()
        // 3. A frame, when a tick is due and something is to be drawn.
        let t = CACurrentMediaTime()
        if pacing == .presentVBlank, pacer.checkTimeout(now: t) || (presenter?.busyLongerThan(VBlankPacer.timeout * 3, now: t) ?? false) {
            // The server stopped answering: put whole frames from now on (a present it still
            // holds may land late; the full puts that follow cover it).
            presenter?.stopPresenting()
            needsFullPut = true
            needsRedraw = true
        }
        if wantsFrame(at: t) && isDue(at: t) && presenter?.hasFreeBuffer == true { frame(at: t) }
    }

    /// A frame was handed to Present and its vblank has not been reported yet (its pixels are not
    /// on screen yet).
    var isPresentPending: Bool { pacing == .presentVBlank && pacer.awaiting != nil }

    /// Whether the cadence allows a frame at `t`: the vblank pacer's answer, else the timer's.
    func isDue(at t: Double) -> Bool {
        pacing == .presentVBlank ? pacer.isDue : clock.isDue(now: t)
    }

    /// When the cadence next allows a frame (or, with Present, when an answer is overdue).
    private func nextDue(now: Double) -> Double {
        pacing == .presentVBlank ? pacer.wakeTime(now: now) : clock.nextTick(now: now)
    }

    /// Events handled per turn at most, so that a flood of input cannot starve the frames.
    static let eventsPerTurn = 256

    /// Whether something is to be drawn at `t`: a commit not yet drawn, an animation, a display
    /// link, an expose, or changes waiting for their commit.
    func wantsFrame(at t: Double) -> Bool {
        needsRedraw || wasAnimating || (flash.map { t >= $0.until } ?? false) || CADisplayLink.wantsFrames || renderer.hasUnrenderedCommit
            || CARenderer.hasPendingChanges || nextAnimationTime <= t + clock.interval
    }

    /// Sleeps until X input, main-queue work, a commit from another thread, a timer, or the next
    /// tick when a frame is wanted (at most `maxWait` seconds).
    private func waitForWork(maxWait: Double) {
        // Asked first: on Linux, asking the run loop for its next timer also runs the timers and
        // main-queue blocks already due, and what they change must count below.
        let onMain = Thread.isMainThread
        let limit = onMain ? RunLoop.main.limitDate(forMode: .default) : nil
        let now = CACurrentMediaTime()
        var deadline = now + max(0, maxWait)
        if let limit { deadline = min(deadline, now + max(0, limit.timeIntervalSinceNow)) }
        // An animation that begins later: wake a tick before it (one running now is the
        // cadence's business, below).
        if nextAnimationTime.isFinite, nextAnimationTime > now + clock.interval {
            deadline = min(deadline, nextAnimationTime - clock.interval)
        }
        // A frame waits for the tick; with both buffers still being read, for the server's
        // completion event instead (it arrives on the X connection).
        if wantsFrame(at: now) && presenter?.hasFreeBuffer == true { deadline = min(deadline, nextDue(now: now)) }
        if pacing == .presentVBlank, let awaiting = pacer.awaiting { deadline = min(deadline, awaiting + VBlankPacer.timeout) }
        if pacing == .presentVBlank, presenter?.hasFreeBuffer == false { deadline = min(deadline, now + VBlankPacer.timeout) }
        // A flash still showing: wake to take it away (one already due is a wanted frame above).
        if let flash, flash.until > now { deadline = min(deadline, flash.until) }
        if cx11_pending(display) == 0 && deadline > now {
            var fds: [Int32] = [cx11_fd(display), wake]
            if onMain { fds.append(Self.mainQueueFD) }
            let ns = Int64(min((deadline - now) * 1e9, 60e9).rounded(.up))
            _ = fds.withUnsafeBufferPointer { cx11_wait($0.baseAddress, Int32($0.count), ns) }
        }
        if wake >= 0 { cx11_wake_drain(wake) }
    }

    /// libdispatch's main-queue signal (read by the run loop; the wait only watches it).
    private static let mainQueueFD: Int32 = cx11_main_queue_fd()

    /// Renders and shows a frame at media time `t`.
    func frame(at t: CFTimeInterval) {
        guard let presenter, let (index, _) = presenter.acquire() else { return }
        let started = CACurrentMediaTime()
        onFrame?(t)
        CADisplayLink.fire(at: t, interval: clock.interval)
        // Commits what the display links changed, runs layout and display, delivers callbacks.
        renderer.beginFrame(atTime: t, timeStamp: nil)
        // The renderer repaints only what changed into its own bitmap; the buffer to show gets
        // the pixels that changed since it last held a frame.
        renderer.render()
        if let source = renderer.outputTarget { presenter.refresh(index, from: source, damage: renderer.lastDamage) }
        // Asked at the frame's own time: an animation that ends between this frame and "now" still
        // gets the one more frame that shows its end.
        nextAnimationTime = renderer.nextFrameTime()
        wasAnimating = nextAnimationTime <= t + clock.interval
        renderer.endFrame()
        // The region to compare with the frame on screen: what changed, and a flash to take away.
        var changed = renderer.lastDamage
        if let f = flash {
            // The buffer drawn now has the true pixels where the last flash was: compare there
            // too, or a tint the shown buffer still has would stay on screen.
            changed = changed.union(f.box)
            if t >= f.until { flash = nil }
        }
        if debugOptions.contains(.flashRepaints), !renderer.lastDamage.isEmpty {
            presenter.flash(index, box: renderer.lastDamage)
            flash = (renderer.lastDamage, t + 0.1)   // the previous flash is taken away by this frame
        }
        let serial = UInt32(truncatingIfNeeded: frameCount)
        let target = pacer.targetMSC(interval: clock.interval)
        let shown = presenter.present(index, full: needsFullPut, within: changed, serial: serial, targetMSC: target)
        if presenter.usesPresent {
            // Every frame waits for its vblank, also one that changed no pixel: the cadence is the display's.
            if !shown { cx11_present_notify(display, window, serial, target) }
            pacer.requested(at: t, serial: serial)
        }
        needsFullPut = false
        needsRedraw = false
        clock.frameMade(at: t)
        lastFrameDuration = CACurrentMediaTime() - started
        frameCount += 1
    }
}
