import CoreGraphics
import Foundation

/// The mip levels of an image for trilinear filtering: level n + 1 is level n halved (2 × 2 box
/// filter of premultiplied texels, odd last rows and columns folded in), down to 1 × 1.
final class MipChain {
    let image: CGImage
    /// Levels 1, 2, …; level 0 is the image's own native bitmap.
    private(set) var levels: [OwnedTarget] = []
    /// The frame that last used this chain (the compositor drops chains no frame uses).
    var frame = 0

    init(_ image: CGImage) {
        self.image = image
        let native = image.native
        var src = ImageLevel(pixels: UnsafePointer(native.pixels.assumingMemoryBound(to: UInt32.self)),
                             width: image.width, height: image.height, stride: native.stride / 4)
        while src.width > 1 || src.height > 1 {
            let w = max(src.width / 2, 1), h = max(src.height / 2, 1)
            let next = OwnedTarget(width: w, height: h)
            MipChain.halve(src, into: next.target)
            levels.append(next)
            src = ImageLevel(pixels: UnsafePointer(next.target.pixels), width: w, height: h, stride: next.target.stride)
        }
    }

    /// Level `n` (0 = the image), with its texel scale relative to the image.
    func level(_ n: Int) -> ImageLevel {
        if n <= 0 {
            let native = image.native
            return ImageLevel(pixels: UnsafePointer(native.pixels.assumingMemoryBound(to: UInt32.self)),
                              width: image.width, height: image.height, stride: native.stride / 4)
        }
        let t = levels[min(n, levels.count) - 1].target
        return ImageLevel(pixels: UnsafePointer(t.pixels), width: t.width, height: t.height, stride: t.stride,
                          scaleX: CGFloat(t.width) / CGFloat(image.width), scaleY: CGFloat(t.height) / CGFloat(image.height))
    }

    var count: Int { levels.count + 1 }

    /// Averages each 2 × 2 block of `src` (the blocks of an odd last row or column take it in
    /// too, so no texel is dropped) into one texel of `dst`.
    private static func halve(_ src: ImageLevel, into dst: RenderTarget) {
        for y in 0..<dst.height {
            let y0 = 2 * y, y1 = min(2 * y + 1, src.height - 1)
            let y2 = y == dst.height - 1 && src.height % 2 == 1 && src.height > 1 ? src.height - 1 : y1
            for x in 0..<dst.width {
                let x0 = 2 * x, x1 = min(2 * x + 1, src.width - 1)
                let x2 = x == dst.width - 1 && src.width % 2 == 1 && src.width > 1 ? src.width - 1 : x1
                var sum = (0, 0, 0, 0) as (UInt32, UInt32, UInt32, UInt32), n: UInt32 = 0
                // Distinct rows y0 ≤ y1 ≤ y2 and columns x0 ≤ x1 ≤ x2 (equal neighbours counted once).
                for (iy, yy) in [y0, y1, y2].enumerated() where iy == 0 || yy != (iy == 1 ? y0 : y1) {
                    for (ix, xx) in [x0, x1, x2].enumerated() where ix == 0 || xx != (ix == 1 ? x0 : x1) {
                        let p = src.pixels[yy * src.stride + xx]
                        sum.0 += p >> 24; sum.1 += (p >> 16) & 255; sum.2 += (p >> 8) & 255; sum.3 += p & 255
                        n += 1
                    }
                }
                // (Shifts bind tighter than division in Swift: every quotient is parenthesised.)
                let a = (sum.0 + n / 2) / n, r = (sum.1 + n / 2) / n, g = (sum.2 + n / 2) / n, b = (sum.3 + n / 2) / n
                dst.pixels[y * dst.stride + x] = a << 24 | r << 16 | g << 8 | b
            }
        }
    }
}
