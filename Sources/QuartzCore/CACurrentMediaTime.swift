import CoreGraphics
import Foundation
import Synchronization

/// The current absolute media time: seconds of a monotonic clock (CLOCK_MONOTONIC), unaffected by
/// changes of the wall clock.
public func CACurrentMediaTime() -> CFTimeInterval {
    MediaClock.now()
}

/// The clock behind `CACurrentMediaTime()`. Tests inject time with `MediaClock.override`
/// (never sleeping); everything in the stack reads time through here.
enum MediaClock {
    private static let key = "QuartzCore.MediaClock.override"
    /// Set once any override was used, so the real clock skips the thread-dictionary lookup
    /// (atomic: every thread reads it on every `CACurrentMediaTime()`).
    private static let everOverridden = Atomic<Bool>(false)

    /// A fixed time to report instead of the monotonic clock, for the calling thread only (tests
    /// running in parallel each keep their own clock); nil restores the real clock.
    static var override: Double? {
        get { everOverridden.load(ordering: .acquiring) ? Thread.current.threadDictionary[key] as? Double : nil }
        set {
            everOverridden.store(true, ordering: .releasing)
            Thread.current.threadDictionary[key] = newValue
        }
    }

    static func now() -> Double {
        if let t = override { return t }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
