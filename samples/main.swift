import Foundation
import ImageIO
import QuartzCore
import X11Host

// The gallery arrives with the X11 host issue. Until then `make run` renders the Core
// Graphics demo below into out/ (or the folder given after --headless) and says so.
let arguments = CommandLine.arguments
let outDir = arguments.firstIndex(of: "--headless").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } ?? "out"
try? FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)

let url = URL(fileURLWithPath: outDir).appendingPathComponent("coregraphics-demo.png")
if let image = CoreGraphicsDemo.render(width: 480, height: 270),
   let destination = CGImageDestinationCreateWithURL(url as CFURL, kUTTypePNG, 1, nil) {
    CGImageDestinationAddImage(destination, image, nil)
    if CGImageDestinationFinalize(destination) {
        print("samples: wrote \(url.path)")
    }
}
print("samples: the live gallery window is not built yet (X11 host shim v\(X11HostInfo.shimVersion)).")
