// The band workers' threads (Paint/WorkerPool.swift): every job of a frame runs once and has
// finished when `run` returns, frame after frame, whether the threads spin between frames or
// sleep; deep trees' jobs run on the pool's threads with their tall stacks; the threads end
// when the pool does. (What the bands paint is BandedRenderingTests'.)
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct WorkerPoolTests {
    /// Counts of each job's runs, written by the jobs themselves.
    private final class Tally: Sendable {
        let runs: Locked<[Int]>
        init(_ n: Int) { runs = Locked(Array(repeating: 0, count: n)) }
        func jobs() -> [@Sendable () -> Void] { (0..<runs.withLock { $0.count }).map { i in { self.runs.withLock { $0[i] += 1 } } } }
        func counts() -> [Int] { runs.withLock { $0 } }
    }

    /// Frames back to back (threads spinning between them, as in an animation) and with threads
    /// that sleep at once (as between display ticks): each job runs once a frame, and all have
    /// run when `run` returns.
    @Test(arguments: [(WorkerPool.linger, WorkerPool.briefly), (0, 0)])
    func everyJobRunsOnceAFrame(linger: UInt64, briefly: UInt64) {
        let pool = WorkerPool(linger: linger, briefly: briefly)
        for jobs in [1, 2, 3, 7] {
            let tally = Tally(jobs)
            for frame in 1...200 {
                pool.run(tally.jobs(), callerRuns: true)
                #expect(tally.counts() == Array(repeating: frame, count: jobs))
            }
        }
    }

    /// A job's plain writes are seen by the caller once `run` returns (the pool's hand-over orders
    /// them; ThreadSanitizer checks it in `make tsan`).
    @Test func theCallerSeesWhatTheJobsWrote() {
        final class Cells: @unchecked Sendable {   // each job writes its own cell, the caller reads them after `run`
            let values = UnsafeMutableBufferPointer<Int>.allocate(capacity: 4)
            init() { values.initialize(repeating: 0) }
            deinit { values.deallocate() }
        }
        let pool = WorkerPool()
        let cells = Cells()
        for frame in 1...500 {
            let jobs: [@Sendable () -> Void] = (0..<4).map { i in { cells.values[i] = frame * 10 + i } }
            pool.run(jobs, callerRuns: true)
            #expect(Array(cells.values) == (0..<4).map { frame * 10 + $0 })
        }
    }

    /// Without the caller (a deep tree's bands): every job runs on one of the pool's threads,
    /// whose stack holds `Compositor.deepStackBytes`.
    @Test func deepJobsRunOnThePoolsThreads() {
        final class Seen: @unchecked Sendable { let lock = NSLock(); var stacks: [Int] = []; var onCaller = false }
        let pool = WorkerPool()
        let seen = Seen()
        let caller = pthread_self()
        let jobs: [@Sendable () -> Void] = (0..<2).map { _ in {
            let size = Thread.current.stackSize
            seen.lock.lock(); seen.stacks.append(size); seen.onCaller = seen.onCaller || pthread_equal(pthread_self(), caller) != 0; seen.lock.unlock()
        } }
        pool.run(jobs, callerRuns: false)
        #expect(seen.stacks.count == 2 && !seen.onCaller)
        #expect(seen.stacks.allSatisfy { $0 >= Compositor.deepStackBytes })
    }

    /// The pool's threads end once the pool is gone, whether they were spinning or asleep.
    @Test(arguments: [WorkerPool.linger, 0])
    func threadsEndWithThePool(linger: UInt64) {
        var pool: WorkerPool? = WorkerPool(linger: linger)
        let census = pool!.threads
        pool!.run((0..<3).map { _ in {} }, callerRuns: true)
        #expect(census.running == 2)
        pool = nil
        // Each thread ends as soon as it reads the pool's last post: wait for it, bounded.
        let deadline = Date().addingTimeInterval(10)
        while census.running > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        #expect(census.running == 0)
    }
}
