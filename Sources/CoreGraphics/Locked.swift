import Foundation

/// A value reached only under its own lock: the project's one mutex-guarded box for state shared
/// across threads (diagnostic counters, caches, the last window error).
///
/// A pthread mutex (NSLock), not the Synchronization library's `Mutex`: ThreadSanitizer sees a
/// pthread mutex's ordering, while `Mutex` locks inside the prebuilt, uninstrumented standard
/// library, so `make tsan` would report every access it guards as a race.
package final class Locked<Value>: @unchecked Sendable {   // `value` is touched only inside `lock`
    private let lock = NSLock()
    private var value: Value

    /// A box holding `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
