import Foundation
import QuartzCore

// How the benchmarks measure and report: each figure is the median (and min–max) of many frames
// after warm-up, timed one by one with the monotonic clock, and every thread's CPU clock summed.

/// A frame's timing in milliseconds: wall clock (median, min, max) and the process's CPU time
/// per frame (all threads, over all the timed frames; the kernel leaves out time the
/// hypervisor stole, so on a shared host it moves less than the wall clock).
struct Timing {
    var median: Double, min: Double, max: Double, cpu: Double
}

/// Frames timed per scene: 40, or `BENCH_FRAMES` (at least 1) for profiling runs.
let timedFrames = max(Int(ProcessInfo.processInfo.environment["BENCH_FRAMES"] ?? "") ?? 40, 1)

/// Each thread's CPU time so far, in milliseconds, by thread id: its own clock, which counts a
/// thread still running on another core up to now (the process clock leaves out what such a
/// thread has used since that core's last scheduler tick: a worker spinning for the next frame
/// would go uncounted).
func threadClocks() -> [Int32: Double] {
    var clocks: [Int32: Double] = [:]
    guard let tasks = opendir("/proc/self/task") else { fatalError("bench: /proc/self/task is needed for CPU times") }
    defer { closedir(tasks) }
    while let entry = readdir(tasks) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        guard let tid = Int32(name) else { continue }
        // The kernel's clock id of thread `tid` (MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)).
        let clock = clockid_t((~tid) << 3 | 4 | 2)
        var ts = timespec()
        if clock_gettime(clock, &ts) == 0 { clocks[tid] = Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6 }
    }
    return clocks
}

/// The CPU time the process's threads used since `start` (`threadClocks()`), in milliseconds:
/// each thread's own since then, or since it began. (A thread that ended meanwhile is left out,
/// rather than its whole life taken off.)
func cpuSince(_ start: [Int32: Double]) -> Double {
    threadClocks().reduce(0) { sum, thread in sum + max(thread.value - (start[thread.key] ?? 0), 0) }
}

/// Times `body` `frames` times after `warmup` untimed runs; returns milliseconds per run. The CPU
/// time is read once before and once after the timed frames (each read walks the process's
/// threads), so it counts everything the frames cost, the workers' waits between them included.
func measure(frames: Int = 200, warmup: Int = 10, _ body: () -> Void) -> Timing {
    for _ in 0..<warmup { body() }
    var samples: [Double] = []
    samples.reserveCapacity(frames)
    let c0 = threadClocks()
    for _ in 0..<frames {
        let t0 = CACurrentMediaTime()
        body()
        samples.append((CACurrentMediaTime() - t0) * 1000)
    }
    let cpu = cpuSince(c0) / Double(frames)
    samples.sort()
    return Timing(median: samples[samples.count / 2], min: samples.first!, max: samples.last!, cpu: cpu)
}

func report(_ name: String, _ r: Timing, note: String = "") {
    print(String(format: "%-44@ %8.3f ms  (%.3f–%.3f, cpu %.3f)  %@", name as NSString, r.median, r.min, r.max, r.cpu, note as NSString))
}

/// Whether the benchmark named `name` runs: with arguments, only those whose name contains one
/// of them (`bench S5`, `bench damage`).
func wanted(_ name: String) -> Bool {
    let filters = CommandLine.arguments.dropFirst()
    return filters.isEmpty || filters.contains(where: { name.contains($0) })
}
