import Foundation

/// Frame pacing on the Present extension's vblank notifications.
///
/// Reads: when each present (or notify) request was made and the PresentCompleteNotify that
/// answers it (the vblank's counter and time). Produces: whether the next frame may be made —
/// one request in flight at a time, so frames follow the display's vblanks — and when to wake.
/// A server that stops answering is given up on after `timeout`, three times in a row: the
/// window then paces on its timer.
struct VBlankPacer {
    /// When the request in flight was made (seconds of media time); nil when none is.
    private(set) var awaiting: Double?
    /// The serial of the request in flight (a late answer to an earlier one does not count).
    private var awaitedSerial: UInt32 = 0
    /// The last vblank reported (seconds of media time, from the server's microseconds).
    private(set) var lastVBlank: Double?
    private var lastMSC: UInt64 = 0
    /// Seconds between vblanks, measured (1/60 until two notifications arrived).
    private(set) var vblankInterval = 1.0 / 60
    /// Requests in a row that got no answer in time.
    private(set) var misses = 0
    /// How long an answer may take before the request is counted as missed (long: a loaded
    /// machine may stall the loop for a while, and giving up on Present is for servers that
    /// stopped answering, not for slow turns).
    static let timeout = 1.0

    /// A present or notify request was sent at `t`.
    mutating func requested(at t: Double, serial: UInt32) { awaiting = t; awaitedSerial = serial }

    /// The server reported vblank `msc` at `ust` microseconds (CLOCK_MONOTONIC, as media time)
    /// for request `serial`.
    mutating func completed(ust: UInt64, msc: UInt64, serial: UInt32) {
        let t = Double(ust) / 1e6
        if let last = lastVBlank, msc > lastMSC, t > last {
            let measured = (t - last) / Double(msc - lastMSC)
            if measured >= 1.0 / 480, measured <= 1 { vblankInterval += (measured - vblankInterval) * 0.25 }
        }
        lastVBlank = t
        lastMSC = msc
        guard serial == awaitedSerial else { return }
        awaiting = nil
        misses = 0
    }

    /// True when a frame may be made: no request is in flight (the last one's vblank came).
    var isDue: Bool { awaiting == nil }

    /// The vblank the next frame is for, at the cadence `interval` (seconds): as many vblanks
    /// after the last one shown as make up the interval, at least one; 0 (the next) before any.
    func targetMSC(interval: Double) -> UInt64 {
        guard lastVBlank != nil else { return 0 }
        return lastMSC + UInt64(max(1, min(240, (interval / vblankInterval).rounded())))
    }

    /// When the loop must look again: the answer's deadline, or now when nothing is in flight.
    func wakeTime(now: Double) -> Double { awaiting.map { $0 + Self.timeout } ?? now }

    /// Counts an unanswered request whose time is up; true when the server is to be given up on.
    mutating func checkTimeout(now: Double) -> Bool {
        guard let awaiting, now - awaiting > Self.timeout else { return false }
        self.awaiting = nil
        misses += 1
        return misses >= 3
    }
}
