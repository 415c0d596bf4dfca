import CGSupport
import CoreGraphics
import Dispatch
import Foundation
import Synchronization

// The threads that paint a frame's bands (Compositor+Bands.swift).
//
// Reads: the jobs of one frame (closures that paint bands until none is left). Produces: their
// work, done when `run` returns. May not: run two frames at once (a compositor paints one frame
// at a time), or keep a job past its frame.
//
// Each compositor keeps its own threads for as long as it lives instead of asking dispatch for
// workers each frame: waking a sleeping thread costs both cores more than a small frame's band
// (an interrupt to the sleeping core and a pass through the scheduler on each side; under a
// hypervisor, an exit on each). So a worker that finishes its band spins a short while
// (`linger`) for the next frame before it sleeps, and the caller, done with its own band, spins
// as long for the workers' before it sleeps: the spin-then-sleep of OpenMP's and Rayon's pools.
// Frames drawn back to back (an animation that keeps the cores busy) then wake no thread. A
// worker whose last wait outlasted `linger` (frames a display tick apart, where spinning would
// only burn the core) spins just `briefly` the next time, until a frame comes within `linger`
// again; with more jobs than cores nothing spins (a spinning thread would hold a core another
// one needs). The threads' stacks hold `Compositor.maxDepth` levels of the painter's recursion,
// so deep trees need no threads of their own. Jobs no thread can be made for (the system
// refuses one, or the pool's `threadLimit` is reached) run on the caller, one after another:
// slower, never lost.

/// A compositor's band workers: threads kept for the pool's lifetime, each running one job a frame.
final class WorkerPool {
    /// How long a thread spins for work before it sleeps, in nanoseconds (a worker for the next
    /// frame, the caller for the workers' last band): about a small frame's gap between two
    /// frames drawn back to back, and a small part of a display tick.
    static let linger: UInt64 = 250_000
    /// A worker's spin, in nanoseconds, after a wait for a frame that outlasted `linger`.
    static let briefly: UInt64 = 20_000

    private let spins: Spins
    private let threadLimit: Int
    private var workers: [Worker] = []
    private let finished = Completion()
    /// True while `run` runs (a second frame at once would share its count of jobs).
    private var running = false
    /// The pool's threads still running (they end shortly after the pool does).
    let threads = Census()

    /// A pool whose threads spin as `linger` and `briefly` say (nanoseconds; 0: they sleep at
    /// once), with at most `threadLimit` threads.
    init(linger: UInt64 = WorkerPool.linger, briefly: UInt64 = WorkerPool.briefly, threadLimit: Int = Compositor.maxWorkers) {
        spins = Spins(linger: linger, briefly: min(briefly, linger))
        self.threadLimit = max(threadLimit, 0)
    }

    deinit {
        for worker in workers { worker.post(nil) }
    }

    /// Runs `jobs` at once and returns when every one has finished: the first on the calling
    /// thread when `callerRuns` (its stack must then hold the jobs' recursion), the others on
    /// the pool's threads (made on first need; jobs no thread can be made for run on the caller
    /// after its own).
    func run(_ jobs: [@Sendable () -> Void], callerRuns: Bool) {
        guard !jobs.isEmpty else { return }
        guard !(callerRuns && jobs.count == 1) else { jobs[0](); return }
        precondition(!running, "a worker pool runs one frame at a time")
        running = true
        defer { running = false }
        let own = callerRuns ? 1 : 0
        while workers.count < min(jobs.count - own, threadLimit) {
            guard let worker = Worker(census: threads) else {
                CGDiagnostics.record(.budgetExceeded)
                break
            }
            workers.append(worker)
        }
        let posted = min(workers.count, jobs.count - own)
        let spins = jobs.count <= Compositor.defaultWorkers ? self.spins : Spins(linger: 0, briefly: 0)
        finished.remaining.store(posted, ordering: .sequentiallyConsistent)
        for (worker, job) in zip(workers, jobs[own..<(own + posted)]) { worker.post(Job(work: job, finished: finished, spins: spins)) }
        if callerRuns { jobs[0]() }
        for job in jobs[(own + posted)...] { job() }
        finished.wait(spinning: spins.linger)
    }

    /// How long threads spin before they sleep (nanoseconds).
    fileprivate struct Spins {
        var linger: UInt64, briefly: UInt64
    }

    /// One frame's work for one worker, where it reports that it finished, and how long the
    /// worker spins for the next.
    fileprivate struct Job {
        var work: @Sendable () -> Void
        var finished: Completion
        var spins: Spins
    }

    /// A count of running threads.
    final class Census: Sendable {
        fileprivate let count = Atomic<Int>(0)
        /// Threads running now.
        var running: Int { count.load(ordering: .acquiring) }
    }
}

/// Spins for at most `limit` nanoseconds until `ready()` holds: true if it does.
private func spin(for limit: UInt64, until ready: () -> Bool) -> Bool {
    guard limit > 0 else { return ready() }
    let start = DispatchTime.now().uptimeNanoseconds
    var steps = 0
    while !ready() {
        cgs_spin_pause()
        steps += 1
        // The clock is read every few dozen pauses (each pause is tens of cycles).
        if steps & 31 == 0 && DispatchTime.now().uptimeNanoseconds - start > limit { return ready() }
    }
    return true
}

/// One thread's sleep and the others' wake-up: the sleeper raises `asleep` and sleeps unless what
/// it waits for already happened; a waker that takes `asleep` down signals. Whoever takes the
/// flag down owns the one signal, so it is neither lost nor left over.
private final class Sleeper: Sendable {
    private let asleep = Atomic<Bool>(false)
    private let bell = DispatchSemaphore(value: 0)

    /// Returns once `ready()` holds: spins for at most `patience` nanoseconds, then sleeps until
    /// a thread that made it hold wakes it.
    func wait(spinning patience: UInt64, until ready: () -> Bool) {
        if spin(for: patience, until: ready) { return }
        repeat {
            asleep.store(true, ordering: .sequentiallyConsistent)
            // It happened after all: take the flag down, unless a waker did (its signal is on the way).
            if ready() && asleep.exchange(false, ordering: .sequentiallyConsistent) { return }
            bell.wait()
        } while !ready()
    }

    /// Wakes the sleeper if it sleeps (or is about to).
    func wake() {
        if asleep.exchange(false, ordering: .sequentiallyConsistent) { bell.signal() }
    }
}

/// The count of a frame's jobs still running, and the caller waiting for it to reach zero.
private final class Completion: Sendable {
    let remaining = Atomic<Int>(0)
    private let caller = Sleeper()

    /// A job has finished: the last one wakes the caller.
    func jobFinished() {
        if remaining.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 { caller.wake() }
    }

    /// Returns once every job has finished (spinning at most `patience` nanoseconds first).
    func wait(spinning patience: UInt64) {
        caller.wait(spinning: patience) { remaining.load(ordering: .sequentiallyConsistent) == 0 }
    }
}

/// One kept thread and its mailbox: jobs are posted one at a time; nil ends the thread.
private final class Worker: @unchecked Sendable {   // `job` is written before `posted` rises and read after
    private let posted = Atomic<Int>(0)
    private var job: WorkerPool.Job?
    private var closing = false
    private let sleeper = Sleeper()

    private let census: WorkerPool.Census

    /// A worker on a thread of its own, with a stack of `Compositor.deepStackBytes`; nil when
    /// the system makes no thread.
    init?(census: WorkerPool.Census) {
        self.census = census
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, Compositor.deepStackBytes)
        census.count.add(1, ordering: .relaxed)
        // The thread holds its worker until it ends.
        let held = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let made = pthread_create(&thread, &attributes, { raw in
            let worker = Unmanaged<Worker>.fromOpaque(raw!).takeRetainedValue()
            cgs_name_thread("CA band worker")
            worker.serve()
            worker.census.count.subtract(1, ordering: .releasing)
            return nil
        }, held.toOpaque())
        guard made == 0 else {
            held.release()
            census.count.subtract(1, ordering: .relaxed)
            return nil
        }
        pthread_detach(thread)
    }

    /// Hands the thread its next job (nil: the thread ends).
    func post(_ next: WorkerPool.Job?) {
        job = next
        closing = next == nil
        posted.add(1, ordering: .sequentiallyConsistent)
        sleeper.wake()
    }

    private func serve() {
        var seen = 0
        var patience: UInt64 = 0
        while true {
            let idle = DispatchTime.now().uptimeNanoseconds
            sleeper.wait(spinning: patience) { posted.load(ordering: .sequentiallyConsistent) != seen }
            let waited = DispatchTime.now().uptimeNanoseconds - idle
            seen = posted.load(ordering: .acquiring)
            let finished: Completion, spins: WorkerPool.Spins
            do {   // the job (and what its closure holds) is let go before the caller hears it finished
                guard !closing, let next = job else { return }
                job = nil
                next.work()
                (finished, spins) = (next.finished, next.spins)
            }
            // Spin for the next frame as long as the pool says, or briefly after a long wait for this one.
            patience = waited <= spins.linger ? spins.linger : spins.briefly
            finished.jobFinished()
        }
    }
}
