// Rendering helpers shared by the compositor and content-layer tests.
@testable import QuartzCore
import TestSupport

/// Renders the tree `build` makes under a white `w` × `h` root at `time` (injected; never the
/// wall clock) and returns the frame.
func renderTree(_ w: Int, _ h: Int, at time: Double = 0, _ build: (CALayer) -> Void) -> CGImage {
    MediaClock.override = time
    defer { MediaClock.override = nil }
    let r = CARenderer()
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: w, height: h)
    root.backgroundColor = CGColor(gray: 1, alpha: 1)
    build(root)
    r.bounds = root.bounds
    r.layer = root
    r.beginFrame(atTime: time, timeStamp: nil)
    r.render()
    r.endFrame()
    return r.makeImage()!
}

/// How many pixels of `image` are exactly `color` (premultiplied 0xAARRGGBB).
func countPixels(_ image: CGImage, _ color: UInt32) -> Int {
    var n = 0
    for y in 0..<image.height { for x in 0..<image.width where image.premultipliedPixel(x: x, y: y) == color { n += 1 } }
    return n
}

/// How many pixels of `image` match `test`.
func countPixels(_ image: CGImage, where test: (UInt32) -> Bool) -> Int {
    var n = 0
    for y in 0..<image.height { for x in 0..<image.width where test(image.premultipliedPixel(x: x, y: y)) { n += 1 } }
    return n
}

/// A hosted tree driven frame by frame at injected times.
final class FrameDriver {
    let renderer = CARenderer()
    let root = CALayer()

    init(_ w: Int, _ h: Int) {
        root.frame = CGRect(x: 0, y: 0, width: w, height: h)
        root.backgroundColor = CGColor(gray: 1, alpha: 1)
        renderer.bounds = root.bounds
        renderer.layer = root
    }

    /// Commits pending changes and renders the frame at `time`.
    @discardableResult
    func frame(at time: Double) -> CGImage {
        MediaClock.override = time
        defer { MediaClock.override = nil }
        CATransaction.flush()
        renderer.beginFrame(atTime: time, timeStamp: nil)
        renderer.render()
        renderer.endFrame()
        return renderer.makeImage()!
    }

    /// Runs `change` as a transaction at `time` (implicit animations start from what is on screen then).
    func change(at time: Double, _ change: () -> Void) {
        MediaClock.override = time
        defer { MediaClock.override = nil }
        change()
        CATransaction.flush()
    }
}

/// How many pixels of two images of one size differ.
func differingPixels(_ a: CGImage, _ b: CGImage) -> Int {
    var n = 0
    for y in 0..<a.height { for x in 0..<a.width where a.premultipliedPixel(x: x, y: y) != b.premultipliedPixel(x: x, y: y) { n += 1 } }
    return n
}
