// The live window under a private Xvfb that each test starts and stops itself: readback equals
// the offscreen render (through SHM and through the XPutImage fallback); a click reaches the layer
// under the pointer and its implicit animation glides; WM_DELETE_WINDOW ends the loop; no SHM
// segment outlives the window or a SIGKILLed process; an idle window costs no frames.
import Foundation
import Testing
import TestSupport
@testable import X11Host

/// A private X server on a free display number, killed when the test ends.
final class Xvfb {
    let display: String
    private let pid: pid_t

    /// Suites run concurrently in one process: picking a number and waiting for its socket is
    /// done under one lock, so that two servers never race for the same display.
    private static let startLock = NSLock()

    init?() {
        Self.startLock.lock()
        defer { Self.startLock.unlock() }
        var number = 90 + Int(getpid() % 100)
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
            number += 1
        }
        display = ":\(number)"
        // The server runs under a shell that watches this process: a test that crashes it (a
        // trap skips `deinit`) would otherwise leave the server running. The shell kills the
        // server and removes its lock and socket when this process is gone, or when it is sent
        // SIGTERM (`deinit`).
        let watch = """
            /usr/bin/Xvfb "$1" -screen 0 640x480x24 -nolisten tcp -noreset & x=$!
            stop() { kill -9 $x 2>/dev/null; wait $x; rm -f "/tmp/.X${1#:}-lock" "/tmp/.X11-unix/X${1#:}"; exit 0; }
            trap 'stop "$1"' TERM
            while kill -0 \(getpid()) 2>/dev/null && kill -0 $x 2>/dev/null; do sleep 0.2 & wait $!; done
            stop "$1"
            """
        guard let p = spawn("/bin/sh", ["-c", watch, "sh", display], display: nil) else { return nil }
        pid = p
        // Wait (bounded) for the server's socket.
        for _ in 0..<300 {
            if FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") { usleep(50_000); return }
            usleep(10_000)
        }
        kill(pid, SIGTERM)
        reap(pid)
        return nil
    }

    deinit {
        kill(pid, SIGTERM)
        reap(pid)
        // A killed server leaves its lock and socket behind: remove them, so that display
        // numbers are not used up run after run.
        let number = display.dropFirst()
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
    }

    /// Runs a command against this server and waits for it.
    @discardableResult
    func run(_ tool: String, _ args: [String]) -> Int32 {
        guard let p = spawn(tool, args, display: display) else { return -1 }
        return reap(p)
    }
}

/// Shared-memory segments currently in the system (ipcs -m).
func sharedMemorySegments() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/sysvipc/shm", encoding: .utf8) else { return -1 }
    return text.split(separator: "\n").count - 1
}

/// Turns `window`'s loop until `condition` holds or `seconds` pass.
func spin(_ window: LayerWindow, seconds: Double, until condition: () -> Bool = { false }) {
    let end = CACurrentMediaTime() + seconds
    while CACurrentMediaTime() < end && !condition() { window.runOnce(maxWait: 0.01) }
}

/// Adds a layer of `color` at `frame` to `parent` without an animation (an explicit transaction
/// with actions disabled, as Apple code does for set-up); returns it.
@discardableResult
func addBox(to parent: CALayer, _ frame: CGRect, _ color: CGColor) -> CALayer {
    let l = CALayer()
    CATransaction.begin(); CATransaction.setDisableActions(true)
    l.frame = frame
    l.backgroundColor = color
    parent.addSublayer(l)
    CATransaction.commit()
    return l
}

func scene(_ root: CALayer) {
    let a = CALayer()
    a.frame = CGRect(x: 10, y: 10, width: 50, height: 40)
    a.backgroundColor = CGColor(red: 0.9, green: 0.3, blue: 0.2, alpha: 1)
    a.cornerRadius = 8
    let b = CALayer()
    b.frame = CGRect(x: 40, y: 30, width: 60, height: 40)
    b.backgroundColor = CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.7)
    b.borderWidth = 3
    b.borderColor = CGColor(gray: 1, alpha: 1)
    root.addSublayer(a)
    root.addSublayer(b)
}

@Suite(.serialized) struct X11WindowTests {
    @Test(arguments: [true, false])
    func readbackEqualsTheOffscreenRender(sharedMemory: Bool) throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "readback", size: CGSize(width: 120, height: 80),
                                              display: x.display, sharedMemory: sharedMemory))
        #expect(window.usesSharedMemory == sharedMemory)
        CATransaction.begin(); CATransaction.setDisableActions(true)
        scene(window.rootLayer)
        CATransaction.commit()
        spin(window, seconds: 5, until: { window.frameCount > 0 && !window.isPresentPending })
        spin(window, seconds: 0.2)
        let shown = window.readPixels()
        let renderer = CARenderer()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 120, height: 80)
        root.backgroundColor = window.rootLayer.backgroundColor
        scene(root)
        renderer.bounds = root.bounds
        renderer.layer = root
        renderer.beginFrame(atTime: CACurrentMediaTime(), timeStamp: nil)
        renderer.render()
        renderer.endFrame()
        let offscreen = try #require(renderer.makeImage())
        #expect(shown.width == 120 && shown.height == 80)
        var differing = 0
        for y in 0..<80 {
            for x in 0..<120 where shown.pixels[y * 120 + x] != (offscreen.premultipliedPixel(x: x, y: y) | 0xFF00_0000) {
                differing += 1
            }
        }
        #expect(differing == 0, "window \(String(shown.pixels.first ?? 0, radix: 16)) vs offscreen \(String(offscreen.premultipliedPixel(x: 0, y: 0), radix: 16)), frames \(window.frameCount)")
    }

    @Test func aClickReachesTheLayerAndItGlides() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "click", size: CGSize(width: 200, height: 60), display: x.display))
        let dot = addBox(to: window.rootLayer, CGRect(x: 10, y: 20, width: 20, height: 20), CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        var clicked: CALayer?
        window.onEvent = { event in
            if case .mouseDown = event.kind {
                clicked = event.layer
                CATransaction.begin()
                CATransaction.setAnimationDuration(1)
                CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
                dot.position.x += 100
                CATransaction.commit()
            }
        }
        spin(window, seconds: 0.3)
        x.run("/usr/bin/xdotool", ["mousemove", "--window", "\(window.windowID)", "20", "30", "click", "1"])
        spin(window, seconds: 2, until: { clicked != nil })
        #expect(clicked === dot)
        func redColumns() -> [Int] {
            let p = window.readPixels()
            return (0..<p.width).filter { p.pixels[30 * p.width + $0] == 0xFFFF_0000 }
        }
        spin(window, seconds: 0.4)
        // Only the moving square's neighbourhood is put: a band 20 px tall, not the whole window.
        #expect(window.lastPresentedArea > 0 && window.lastPresentedArea <= 200 * 20, "put \(window.lastPresentedArea) px")
        let mid = redColumns()
        #expect(!mid.isEmpty && mid.first! > 10 && mid.first! < 110)   // on its way, not at either end
        spin(window, seconds: 3, until: { redColumns().first == 110 })
        #expect(redColumns().first == 110)
    }

    @Test func closeRequestEndsTheLoopAndLeavesNoSegments() throws {
        let x = try #require(Xvfb())
        let before = sharedMemorySegments()
        do {
            let window = try #require(LayerWindow(title: "close", size: CGSize(width: 64, height: 64), display: x.display))
            spin(window, seconds: 0.2)
            #expect(window.usesSharedMemory)
            window.sendCloseRequest()
            spin(window, seconds: 2, until: { !window.isOpen })
            #expect(!window.isOpen)
        }
        #expect(sharedMemorySegments() == before)
    }

    @Test func anIdleWindowMakesNoFrames() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "idle", size: CGSize(width: 64, height: 64), display: x.display))
        spin(window, seconds: 0.3)
        let frames = window.frameCount
        // CPU time of this thread only (other suites may run concurrently in the process).
        func threadCPU() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }
        let cpuBefore = threadCPU()
        let end = CACurrentMediaTime() + 5
        while CACurrentMediaTime() < end { window.runOnce(maxWait: 1) }
        #expect(window.frameCount == frames)
        #expect(threadCPU() - cpuBefore < 0.05)   // under 1 % of the 5 s
    }

    @Test func noSegmentOutlivesAKilledProcess() throws {
        let x = try #require(Xvfb())
        let binary = Golden.samplesBinary
        try #require(FileManager.default.isExecutableFile(atPath: binary), "the gallery is built beside the tests")
        let before = sharedMemorySegments()
        let pid = try #require(spawn(binary, [], display: x.display))
        // The gallery is showing through SHM once its segment exists (a debug build beside the
        // other tests may take seconds to start: waited for, up to 15 s, not assumed).
        let shown = CACurrentMediaTime() + 15
        while sharedMemorySegments() <= before && CACurrentMediaTime() < shown { usleep(50_000) }
        #expect(sharedMemorySegments() > before)
        kill(pid, SIGKILL)
        reap(pid)
        usleep(200_000)
        #expect(sharedMemorySegments() == before)
    }

    @Test func aResizeStormKeepsTheRootLayerInStep() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "resize", size: CGSize(width: 100, height: 100), display: x.display))
        var laidOut: [CGSize] = []
        window.onResize = { laidOut.append($0) }
        spin(window, seconds: 0.2)
        for i in 0..<100 {
            let w = 60 + (i * 37) % 300, h = 50 + (i * 53) % 200
            x.run("/usr/bin/xdotool", ["windowsize", "\(window.windowID)", "\(w)", "\(h)"])
            window.runOnce(maxWait: 0)
        }
        x.run("/usr/bin/xdotool", ["windowsize", "\(window.windowID)", "222", "111"])
        spin(window, seconds: 2, until: { window.rootLayer.bounds.size == CGSize(width: 222, height: 111) })
        #expect(window.rootLayer.bounds.size == CGSize(width: 222, height: 111))
        spin(window, seconds: 0.2)
        let p = window.readPixels()
        #expect(p.width == 222 && p.height == 111 && p.pixels[111 * 222 - 1] == 0xFF1F_1F1F)
        // The app was told of every size it got, the last one last, to lay its layers out.
        #expect(laidOut.last == CGSize(width: 222, height: 111))
        #expect(window.isOpen)
    }

    @Test func losingTheServerEndsTheProcessWithAMessage() throws {
        var x: Xvfb? = try #require(Xvfb())
        let binary = Golden.samplesBinary
        try #require(FileManager.default.isExecutableFile(atPath: binary), "the gallery is built beside the tests")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("x11-loss-\(getpid()).log").path
        let pid = try #require(spawn(binary, [], display: x!.display, stderr: log))
        usleep(1_500_000)
        x = nil                                   // kill the X server
        let start = CACurrentMediaTime()
        var status: Int32 = 0
        var exited = false
        while CACurrentMediaTime() - start < 3 {
            if waitpid(pid, &status, WNOHANG) == pid { exited = true; break }
            usleep(10_000)
        }
        if !exited { kill(pid, SIGKILL); reap(pid) }
        #expect(exited && CACurrentMediaTime() - start < 1.5)
        #expect(exited && (status >> 8) & 0xFF == 1)
        let message = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(message.contains("lost the connection to the X server"))
        try? FileManager.default.removeItem(atPath: log)
    }

    @Test func displayLinksFireFromTheTicks() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "link", size: CGSize(width: 32, height: 32), display: x.display))
        spin(window, seconds: 0.2)
        var stamps: [CFTimeInterval] = []
        let link = CADisplayLink { stamps.append($0.timestamp) }
        link.add(to: .main, forMode: .default)
        spin(window, seconds: 0.5)
        link.invalidate()
        let count = stamps.count
        spin(window, seconds: 0.2)
        #expect(count >= 10 && stamps.count == count)   // ~30 at 60 Hz; none once invalidated
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $1 > $0 })
    }
}
