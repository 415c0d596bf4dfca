import CoreGraphics
import Foundation
import ImageIO

/// Decodes the input as an image (PNG, JPEG, or anything else: refused) and draws what decodes
/// into a small context at every interpolation quality, scaled down and up.
enum ImageFuzz {
    static func run(_ data: [UInt8]) {
        guard let source = CGImageSourceCreateWithData(Data(data) as CFData, nil),
              let image = CGImageSourceCreateImageAtIndex(source, 0, nil), let ctx = fuzzContext() else { return }
        for (quality, rect) in [(CGInterpolationQuality.none, CGRect(x: 0, y: 0, width: 64, height: 64)),
                                (.low, CGRect(x: -3, y: 5, width: 7, height: 2)),
                                (.high, CGRect(x: 1.5, y: 0.25, width: 200, height: 0.5))] {
            ctx.interpolationQuality = quality
            ctx.draw(image, in: rect)
        }
        _ = image.cropping(to: CGRect(x: 1, y: 1, width: 3, height: 3))
    }
}
