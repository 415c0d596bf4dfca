import Foundation

/// The window's frame cadence: when the next tick is due, and how many frames the last second
/// held.
///
/// Reads: the tick interval and the times frames were made (seconds of media time). Produces:
/// the next tick's time. Ticks lie on a fixed grid (`origin + k × interval`), so a frame is never
/// made half a tick after the previous one: a frame made late still shows "now", and the one
/// after it returns to the grid. A vblank source (Present) moves the grid to the server's
/// reported vblank times.
struct FrameClock {
    /// Seconds between ticks.
    var interval: Double
    /// A time on the grid (seconds): ticks fall at `origin + k × interval`.
    var origin: Double
    /// The grid time of the last frame made (−∞ before the first).
    private(set) var lastTick = -Double.infinity
    /// Times of the frames made in the last second, oldest first (bounded by the rate).
    private var recent: [Double] = []

    init(interval: Double, origin: Double) {
        self.interval = interval
        self.origin = origin
    }

    /// The grid time at or before `t`.
    func tick(atOrBefore t: Double) -> Double {
        origin + (((t - origin) / interval).rounded(.down)) * interval
    }

    /// The earliest time a frame may be made: the first grid time after the last frame's tick
    /// that is not already behind `now` by more than a tick (a late loop does not catch up with
    /// a burst of frames).
    func nextTick(now: Double) -> Double {
        let next = lastTick + interval
        // A small tolerance keeps a tick reached a few microseconds early from slipping a whole tick.
        return next >= now - interval ? next : tick(atOrBefore: now)
    }

    /// True when a frame may be made at `now`.
    func isDue(now: Double) -> Bool { now >= nextTick(now: now) - interval * 0.02 }

    /// Records a frame made at `now`.
    mutating func frameMade(at now: Double) {
        lastTick = max(tick(atOrBefore: now + interval * 0.02), lastTick + interval)
        recent.append(now)
        recent.removeFirst(recent.prefix { $0 <= now - 1 }.count)
        if recent.count > 1024 { recent.removeFirst(recent.count - 1024) }
    }

    /// Frames made in the second before `now` (what a title's fps figure shows; 0 when idle).
    func framesInLastSecond(now: Double) -> Int { recent.count - recent.prefix { $0 <= now - 1 }.count }

    /// Moves the grid so that `vblank` (seconds) is a tick (a Present notification arrived).
    mutating func align(toVBlank vblank: Double) { origin = vblank }
}
