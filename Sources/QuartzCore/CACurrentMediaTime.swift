import CoreGraphics
import Foundation

/// The current absolute media time: seconds of a monotonic clock (CLOCK_MONOTONIC), unaffected by
/// changes of the wall clock.
public func CACurrentMediaTime() -> CFTimeInterval {
    MediaClock.now()
}

/// The clock behind `CACurrentMediaTime()`. Tests inject time with `MediaClock.override`
/// (never sleeping); everything in the stack reads time through here.
enum MediaClock {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var injected: Double?

    /// A fixed time to report instead of the monotonic clock (nil restores the real clock).
    static var override: Double? {
        get { lock.lock(); defer { lock.unlock() }; return injected }
        set { lock.lock(); injected = newValue; lock.unlock() }
    }

    static func now() -> Double {
        if let t = override { return t }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
