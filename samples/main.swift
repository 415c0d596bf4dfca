import Foundation
import ImageIO
import QuartzCore
import X11Host

// The gallery arrives with the X11 host issue. Until then `make run` renders the Core
// Graphics demo below into out/ (or the folder given after --headless) and says so.
let arguments = CommandLine.arguments
let outDir = arguments.firstIndex(of: "--headless").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } ?? "out"
try? FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)

/// Writes `image` as a PNG named `name` in the output folder.
func write(_ image: CGImage?, _ name: String) {
    let url = URL(fileURLWithPath: outDir).appendingPathComponent(name)
    guard let image, let destination = CGImageDestinationCreateWithURL(url as CFURL, kUTTypePNG, 1, nil) else { return }
    CGImageDestinationAddImage(destination, image, nil)
    if CGImageDestinationFinalize(destination) { print("samples: wrote \(url.path)") }
}

let drawing = CoreGraphicsDemo.render(width: 480, height: 270)
write(drawing, "coregraphics-demo.png")
write(LayerDemo.render(width: 480, height: 270, contents: drawing), "layers-demo.png")
print("samples: the live gallery window is not built yet (X11 host shim v\(X11HostInfo.shimVersion)).")
