// The band workers' threads (Paint/WorkerPool.swift): every job of a frame runs once and has
// finished when `run` returns, frame after frame, whether the threads spin between frames or
// sleep; deep trees' jobs run on the pool's threads with their tall stacks; the threads end
// when the pool does. (What the bands paint is BandedRenderingTests'.)
import CGSupport
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
    /// them; ThreadSanitizer checks it in `make tsan`), with threads that spin (no more jobs than
    /// cores) and threads that sleep (more).
    @Test(arguments: [2, 9])
    func theCallerSeesWhatTheJobsWrote(jobs count: Int) {
        final class Cells: @unchecked Sendable {   // each job writes its own cell, the caller reads them after `run`
            let values: UnsafeMutableBufferPointer<Int>
            init(_ n: Int) { values = .allocate(capacity: n); values.initialize(repeating: 0) }
            deinit { values.deallocate() }
        }
        let pool = WorkerPool()
        let cells = Cells(count)
        for frame in 1...300 {
            let jobs: [@Sendable () -> Void] = (0..<count).map { i in { cells.values[i] = frame * 10 + i } }
            pool.run(jobs, callerRuns: true)
            #expect(Array(cells.values) == (0..<count).map { frame * 10 + $0 })
        }
    }

    /// Without the caller (a deep tree's bands): every job runs on one of the pool's threads,
    /// whose stack holds `Compositor.deepStackBytes`.
    @Test func deepJobsRunOnThePoolsThreads() {
        let pool = WorkerPool()
        let caller = pthread_self()
        let seen = Locked<(stacks: [Int], onCaller: Bool)>(([], false))
        let jobs: [@Sendable () -> Void] = (0..<2).map { _ in {
            let size = cgs_thread_stack_bytes()
            let mine = pthread_equal(pthread_self(), caller) != 0
            seen.withLock { $0.stacks.append(size); $0.onCaller = $0.onCaller || mine }
        } }
        pool.run(jobs, callerRuns: false)
        let (stacks, onCaller) = seen.withLock { $0 }
        #expect(stacks.count == 2 && !onCaller)
        #expect(stacks.allSatisfy { $0 >= Compositor.deepStackBytes }, "\(stacks)")
    }

    /// Jobs no thread is made for (past the pool's thread limit, as when the system refuses
    /// one) run on the caller, after its own: every one, once a frame.
    @Test(arguments: [0, 1])
    func jobsWithoutAThreadRunOnTheCaller(threadLimit: Int) {
        let pool = WorkerPool(threadLimit: threadLimit)
        for callerRuns in [true, false] {
            let tally = Tally(4)
            for frame in 1...20 {
                pool.run(tally.jobs(), callerRuns: callerRuns)
                #expect(tally.counts() == Array(repeating: frame, count: 4))
            }
        }
        #expect(pool.threads.running == threadLimit)
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
