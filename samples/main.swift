import Foundation
import QuartzCore
import X11Host

// The gallery: scenes from Apple's Core Animation guides in a window (press h for help), or,
// with no display or with --headless DIR, every scene rendered to PNGs.
let usage = """
usage: samples [--scene N] [--scale S] [--headless DIR] [--list] [--help]

  (no option)     open the gallery in a window on $DISPLAY (scene 1, help shown);
                  without a display, render the scenes into out/ instead
  --scene N       start at scene N (1–\(scenes.count)); with --headless, render only that scene
  --scale S       device pixels per point (1–4; default: GDK_SCALE or the screen's Xft.dpi)
  --headless DIR  render the scenes to PNG files in DIR instead of opening a window
  --list          print the scenes and what to do in each, then exit
  --help          print this text, then exit

In the window: h or ? help · ←/→ previous/next (wrapping) · 1–9, then 0–8 within a second for
10–18 · Home/End first/last · s slow animations · f frame times · r flash repaints · b blended
layers · o layer bounds · t hit-test path on click · p save a PNG · Esc close the help or quit ·
q quit
"""

/// The command line, parsed; a bad argument prints why and exits with status 2.
@MainActor struct Options {
    var scene = 0
    var scale: CGFloat?
    var headless: String?

    static func parse(_ args: [String]) -> Options {
        var o = Options()
        var i = 1
        func fail(_ message: String) -> Never {
            FileHandle.standardError.write(Data("samples: \(message)\n\(usage)\n".utf8))
            exit(2)
        }
        func value() -> String {
            i += 1
            guard i < args.count else { fail("\(args[i - 1]) needs a value") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--help", "-h": print(usage); exit(0)
            case "--list":
                for (n, s) in scenes.enumerated() { print(String(format: "%2d  %@\n    %@", n + 1, s.name, sceneHints[n])) }
                exit(0)
            case "--scene":
                let v = value()
                guard let n = Int(v), (1...scenes.count).contains(n) else { fail("--scene takes 1–\(scenes.count), not \"\(v)\"") }
                o.scene = n - 1
            case "--scale":
                let v = value()
                guard let s = Double(v), s.isFinite, s >= 1, s <= 4 else { fail("--scale takes a number from 1 to 4, not \"\(v)\"") }
                o.scale = CGFloat(s)
            case "--headless":
                o.headless = i + 1 < args.count && !args[i + 1].hasPrefix("--") ? value() : "out"
            default: fail("unknown argument \"\(args[i])\"")
            }
            i += 1
        }
        return o
    }
}

let options = Options.parse(CommandLine.arguments)
let picture = CoreGraphicsDemo.render(width: 480, height: 270)

if let dir = options.headless {
    renderHeadless(into: dir, only: CommandLine.arguments.contains("--scene") ? options.scene : nil, picture: picture)
} else {
    do {
        let window = try LayerWindow.open(title: "Core Animation gallery", size: designSize, scale: options.scale)
        let app = GalleryApp(window: window, picture: picture)
        app.start(at: options.scene)
        window.run()
        exit(0)
    } catch {
        print("samples: no window (\(error)); rendering every scene into out/ instead.")
        renderHeadless(into: "out", picture: picture)
    }
}
