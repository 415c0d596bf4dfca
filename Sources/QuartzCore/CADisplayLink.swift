import CoreGraphics
import Foundation

/// A timer synchronised with the host's frame ticks.
///
/// Linux: Apple's `init(target:selector:)` needs the Objective-C runtime; this type is created
/// with a closure instead. It fires from the X11 host's tick (after events, before the frame is
/// committed and rendered) once added to a run loop and while not paused; a window keeps ticking
/// while any display link is active.
public final class CADisplayLink {
    /// The time of the frame being prepared when the handler was last called (seconds of media time).
    public private(set) var timestamp: CFTimeInterval = 0
    /// The time the next frame is expected to be shown.
    public private(set) var targetTimestamp: CFTimeInterval = 0
    /// The time between frames at the host's rate (seconds).
    public private(set) var duration: CFTimeInterval = 0
    /// Stops (true) or resumes (false) calls to the handler.
    public var isPaused = false
    /// The rate the handler wants (0: the host's rate); it is called at most this often.
    public var preferredFramesPerSecond = 0

    private let handler: (CADisplayLink) -> Void
    private var lastFire = -Double.infinity

    /// A display link calling `handler` once per frame.
    public init(handler: @escaping (CADisplayLink) -> Void) { self.handler = handler }

    /// Starts delivering frames (the run loop and mode are accepted for Apple compatibility).
    public func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {
        CADisplayLink.withRegistry { links in
            if !links.contains(where: { $0 === self }) { links.append(self) }
        }
    }

    /// Stops delivering frames for good.
    public func invalidate() { CADisplayLink.withRegistry { $0.removeAll { $0 === self } } }

    /// The active display links; links may be added and invalidated from any thread.
    nonisolated(unsafe) private static var registry: [CADisplayLink] = []   // read and written under registryLock only
    private static let registryLock = NSLock()

    private static func withRegistry<T>(_ body: (inout [CADisplayLink]) -> T) -> T {
        registryLock.lock()
        defer { registryLock.unlock() }
        return body(&registry)
    }

    /// True when some active, unpaused display link wants frames (hosts keep ticking).
    package static var wantsFrames: Bool { withRegistry { $0.contains { !$0.isPaused } } }

    /// Calls every active display link for the frame at `time`, `interval` seconds apart (host tick).
    /// Handlers run outside the registry's lock (they may add or invalidate links).
    package static func fire(at time: CFTimeInterval, interval: CFTimeInterval) {
        let links = withRegistry { $0 }
        for link in links where !link.isPaused {
            if link.preferredFramesPerSecond > 0, time - link.lastFire < 1 / Double(link.preferredFramesPerSecond) - interval / 2 {
                continue
            }
            link.timestamp = time
            link.duration = interval
            link.targetTimestamp = time + interval
            link.lastFire = time
            link.handler(link)
        }
    }
}
