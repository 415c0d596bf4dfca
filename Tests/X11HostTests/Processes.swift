// Child processes for the window tests: tools (xdotool, xprop, swift) and our own binaries,
// started with posix_spawn (Foundation's Process can hang waiting for exit inside the test
// runner), with DISPLAY set and their output sent where the test reads it.
import Foundation

/// Starts `tool` with `args` and `DISPLAY` (when given), standard output to `stdout` and
/// standard error to `stderr` (nil: the same file as standard output); returns the child's pid.
func spawn(_ tool: String, _ args: [String], display: String?, stdout: String = "/dev/null",
           stderr: String? = "/dev/null") -> pid_t? {
    var pid: pid_t = 0
    let argv = ([tool] + args).map { strdup($0) } + [nil]
    var env = ProcessInfo.processInfo.environment
    if let display { env["DISPLAY"] = display }
    env["LC_ALL"] = "C.UTF-8"
    let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if let stderr {
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    } else {
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    // No signal blocked and every signal at its default action in the child: a test thread's
    // mask (the runtime blocks some signals in its threads) would otherwise pass on, and a shell
    // child that waits for SIGCHLD or traps SIGTERM would never see them.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    var none = sigset_t(), all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let rc = posix_spawn(&pid, tool, &actions, &attributes, argv, envp)
    posix_spawnattr_destroy(&attributes)
    posix_spawn_file_actions_destroy(&actions)
    argv.forEach { free($0) }
    envp.forEach { free($0) }
    return rc == 0 ? pid : nil
}

/// Waits for a child to exit; returns its exit status (−1 when it was killed or not found).
@discardableResult
func reap(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    guard waitpid(pid, &status, 0) == pid else { return -1 }
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
}

/// Runs `tool` with `args` to its end; returns its exit status and what it printed (standard
/// output, and standard error too with `errors`).
func run(_ tool: String, _ args: [String], display: String? = nil, errors: Bool = true) -> (status: Int32, output: String) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    guard let pid = spawn(tool, args, display: display, stdout: path, stderr: errors ? nil : "/dev/null") else { return (-1, "") }
    let status = reap(pid)
    return (status, (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
}

/// What `tool` printed on standard output (for xprop, xdotool: their warnings are left out).
func output(_ tool: String, _ args: [String], display: String) -> String {
    run(tool, args, display: display, errors: false).output
}
