import Foundation

/// The one lock of every layer tree in the process, as Core Animation's own: each public member
/// of a layer class runs under it, and so does a commit (layout, display, snapshot, publish) and
/// the building of presentation trees. So layers may be changed from any thread (each change
/// lands in that thread's transaction), and the renderer only ever reads committed, immutable
/// snapshots. It is recursive: actions, delegates and `draw(in:)` run under it and may change
/// layers again. `CATransaction.lock()` takes it, to read several values consistently.
enum LayerTreeLock {
    static let lock = NSRecursiveLock()

    /// Runs `body` holding the lock.
    @inline(__always)
    static func run<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

extension CALayer {
    /// Runs `body` holding the layer tree lock (every public member of a layer class does).
    @inline(__always)
    func locked<T>(_ body: () throws -> T) rethrows -> T { try LayerTreeLock.run(body) }
}
