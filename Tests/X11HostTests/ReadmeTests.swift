// The README as a newcomer uses it: its Swift blocks are the example programs `make test` builds
// (so they cannot rot), the examples do what the README says when run, and a package written
// as the README shows builds against this one without warnings from our sources.
import CX11
import CoreGraphics
import Foundation
import Testing
import TestSupport
@testable import X11Host

/// The README's ```swift blocks, in order.
func readmeSwiftBlocks() -> [String] {
    let text = (try? String(contentsOf: Golden.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    var blocks: [String] = [], current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if current == nil, line == "```swift" { current = [] } else if current != nil, line == "```" {
            blocks.append(current!.joined(separator: "\n")); current = nil
        } else { current?.append(line) }
    }
    return blocks
}

extension X11WindowTests {
@Suite struct ReadmeTests {
    static let examples = ["ReadmeWindow", "ReadmeLayers", "ReadmeDrawing"]

    func binary(_ name: String) -> String { Golden.builtProduct(name) }

    @Test func everySwiftBlockIsABuiltExample() throws {
        let blocks = readmeSwiftBlocks()
        // The three programs, then the manifest of a package using this one.
        #expect(blocks.count == Self.examples.count + 1)
        for (block, name) in zip(blocks, Self.examples) {
            let file = Golden.packageRoot.appendingPathComponent("Examples/\(name)/main.swift")
            let source = try String(contentsOf: file, encoding: .utf8)
            #expect(block == source.trimmingCharacters(in: .newlines), "README block differs from Examples/\(name)/main.swift")
        }
    }

    @Test func theDrawingExampleWritesItsPicture() throws {
        try #require(FileManager.default.isExecutableFile(atPath: binary("ReadmeDrawing")), "the examples are built beside the tests")
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("drawing-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: png) }
        let r = run(binary("ReadmeDrawing"), [png])
        #expect(r.status == 0 && r.output.contains("wrote"))
        let image = try #require(ImageCodec.decode(try Data(contentsOf: URL(fileURLWithPath: png))))
        #expect(image.width == 200 && image.height == 100)
        // The disc's centre is orange; the square's outline is black; the square's inside is clear.
        #expect(image.premultipliedPixel(x: 50, y: 50) == 0xFFFF_8000)
        #expect(image.premultipliedPixel(x: 110, y: 50) & 0xFF00_0000 == 0xFF00_0000)
        #expect(image.premultipliedPixel(x: 150, y: 50) == 0)
    }

    @Test func theLayersExampleShowsAllThreeAndAClickAnimatesTheRing() throws {
        try #require(FileManager.default.isExecutableFile(atPath: binary("ReadmeLayers")), "the examples are built beside the tests")
        let x = try #require(Xvfb())
        let app = try #require(WindowProcess(x, binary: binary("ReadmeLayers"), width: 480, height: 200))
        let background: UInt32 = 0xFF1F_1F1F
        var p: [UInt32] = []
        func at(_ x: Int, _ y: Int) -> UInt32 { p[y * 480 + x] }
        func isGreen(_ c: UInt32) -> Bool { (c >> 8) & 0xFF > 0x90 && (c >> 16) & 0xFF < 0x70 }
        try #require(app.wait { p = app.pixels(); return p.count == 480 * 200 && isGreen(at(115, 100)) }, "no ring on screen")
        // The ring's stroke starts at its right-hand point; its left-hand side is not drawn yet.
        #expect(isGreen(at(115, 100)) && at(20, 100) == background)
        // Text: light pixels inside the text layer's frame.
        #expect((40..<160).contains { y in (140..<320).contains { x in (at(x, y) >> 8) & 0xFF > 0xC0 } })
        // The conic gradient: both red and blue inside its circle.
        #expect(at(400, 100) != background && at(360, 100) != at(440, 100))
        app.pointer(["115", "100", "click", "1"])
        #expect(app.wait { p = app.pixels(); return p.count == 480 * 200 && isGreen(at(20, 100)) }, "the ring did not close")
    }

    @Test func theWindowExampleGlidesOnClickAndFollowsADrag() throws {
        try #require(FileManager.default.isExecutableFile(atPath: binary("ReadmeWindow")), "the examples are built beside the tests")
        let x = try #require(Xvfb())
        let app = try #require(WindowProcess(x, binary: binary("ReadmeWindow"), width: 400, height: 300))
        let red: UInt32 = 0xFFFF_0000
        var p: [UInt32] = []
        try #require(app.wait { p = app.pixels(); return p.count == 400 * 300 && p[100 * 400 + 60] == red }, "no square on screen")
        app.pointer(["100", "100", "click", "1"])
        #expect(app.wait { p = app.pixels(); return p.count == 400 * 300 && p[100 * 400 + 60] != red && p[100 * 400 + 185] == red }, "no glide")
        app.pointer(["140", "100", "mousedown", "1"])
        for (px, py) in [(200, 150), (260, 200), (330, 240)] {
            app.pointer(["\(px)", "\(py)"])
            #expect(app.wait(2) { p = app.pixels(); return p.count == 400 * 300 && p[py * 400 + px] == red && p[(py - 48) * 400 + px] == red })
        }
        x.run("/usr/bin/xdotool", ["mouseup", "1"])
    }

    @Test func aPackageWrittenAsTheReadmeShowsBuildsWithoutWarningsFromOurSources() throws {
        let blocks = readmeSwiftBlocks()
        try #require(blocks.count == Self.examples.count + 1)
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("consumer-\(getpid())")
        defer { try? fm.removeItem(at: dir) }
        try fm.createDirectory(at: dir.appendingPathComponent("MyApp/Sources/MyApp"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(at: dir.appendingPathComponent("CoreAnimationLinux"), withDestinationURL: Golden.packageRoot)
        try (blocks[3] + "\n").write(to: dir.appendingPathComponent("MyApp/Package.swift"), atomically: true, encoding: .utf8)
        try (blocks[0] + "\n").write(to: dir.appendingPathComponent("MyApp/Sources/MyApp/main.swift"), atomically: true, encoding: .utf8)
        let scratch = Golden.packageRoot.appendingPathComponent(".build-consumer").path
        let r = run("/usr/bin/env", ["swift", "build", "-j", "2", "--package-path", dir.appendingPathComponent("MyApp").path,
                                     "--scratch-path", scratch])
        #expect(r.status == 0, "\(r.output.suffix(2000))")
        let ours = r.output.split(separator: "\n").filter { $0.contains("warning:") && $0.contains("CoreAnimationLinux/") }
        #expect(ours.isEmpty, "\(ours.prefix(5))")
    }
}
}

/// A window program of ours started under Xvfb, found by its _NET_WM_PID, read back through a
/// connection of the test's own.
final class WindowProcess {
    let x: Xvfb
    let pid: pid_t
    let window: String
    let width: Int, height: Int
    private let reader: OpaquePointer

    init?(_ x: Xvfb, binary: String, arguments: [String] = [], width: Int, height: Int) {
        self.x = x
        self.width = width
        self.height = height
        guard let pid = spawn(binary, arguments, display: x.display), let reader = cx11_open(x.display) else { return nil }
        self.pid = pid
        self.reader = reader
        var found = ""
        for _ in 0..<200 where found.isEmpty {
            found = output("/usr/bin/xdotool", ["search", "--pid", "\(pid)"], display: x.display)
                .split(separator: "\n").first.map(String.init) ?? ""
            if found.isEmpty { usleep(25_000) }
        }
        window = found
        if found.isEmpty { kill(pid, SIGKILL); reap(pid); cx11_close(reader); return nil }
    }

    deinit {
        kill(pid, SIGKILL)
        reap(pid)
        cx11_close(reader)
    }

    var title: String { output("/usr/bin/xdotool", ["getwindowname", window], display: x.display).trimmingCharacters(in: .newlines) }

    func key(_ names: String...) { x.run("/usr/bin/xdotool", ["key", "--window", window] + names) }

    func pointer(_ args: [String]) { x.run("/usr/bin/xdotool", ["mousemove", "--window", window] + args) }

    /// The window's pixels (0xFFRRGGBB rows of `width`), empty when it cannot be read.
    func pixels() -> [UInt32] {
        var out = [UInt32](repeating: 0, count: width * height)
        let ok = out.withUnsafeMutableBufferPointer { cx11_read_window(reader, UInt(window)!, 0, 0, Int32(width), Int32(height), $0.baseAddress) }
        return ok == 0 ? out.map { $0 | 0xFF00_0000 } : []
    }

    /// Waits (bounded) until `condition` holds.
    @discardableResult
    func wait(_ seconds: Double = 3, until condition: () -> Bool) -> Bool {
        let end = CACurrentMediaTime() + seconds
        while CACurrentMediaTime() < end {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }
}
