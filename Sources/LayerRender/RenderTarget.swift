import CoreGraphics
import Foundation

/// Pixels the compositor draws into: premultiplied 32-bit words 0xAARRGGBB (B, G, R, A bytes in
/// memory on little-endian — cairo's ARGB32 and the X11 window's layout), rows of `stride` words.
package struct RenderTarget {
    package let pixels: UnsafeMutablePointer<UInt32>
    package let width: Int
    package let height: Int
    /// Words (not bytes) from one row to the next.
    package let stride: Int

    package init(pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int) {
        self.pixels = pixels; self.width = width; self.height = height; self.stride = stride
    }

    /// Sets every pixel to `color`.
    package func clear(to color: UInt32 = 0) {
        for y in 0..<height { (pixels + y * stride).update(repeating: color, count: width) }
    }
}

/// An owned, zeroed render target (offscreen groups and renderer output).
package final class OwnedTarget {
    package let target: RenderTarget
    package init(width: Int, height: Int) {
        let w = max(width, 1), h = max(height, 1)
        let p = UnsafeMutablePointer<UInt32>.allocate(capacity: w * h)
        p.initialize(repeating: 0, count: w * h)
        target = RenderTarget(pixels: p, width: w, height: h, stride: w)
    }
    deinit { target.pixels.deallocate() }
}
