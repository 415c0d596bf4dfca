// Apple: CGImage describes its bytes by bitsPerComponent/bitsPerPixel/bytesPerRow/bitmapInfo;
// cropping(to:) returns the pixels inside the rect (nil when empty); ImageIO decodes PNG and
// JPEG and encodes PNG; corrupt data yields nil.
import CoreGraphics
import Foundation
import ImageIO
import Testing
import TestSupport

@Suite struct CGImageTests {
    static let fixtures = Golden.packageRoot.appendingPathComponent("Tests/CoreGraphicsTests/Fixtures")

    func image(_ bytes: [UInt8], width: Int, height: Int, bpp: Int = 32, info: UInt32,
               space: CGColorSpace = CGColorSpaceCreateDeviceRGB()) -> CGImage? {
        CGImage(width: width, height: height, bitsPerComponent: 8, bitsPerPixel: bpp, bytesPerRow: width * bpp / 8,
                space: space, bitmapInfo: CGBitmapInfo(rawValue: info),
                provider: CGDataProvider(data: Data(bytes) as NSData)!, decode: nil, shouldInterpolate: true,
                intent: .defaultIntent)
    }

    @Test func everyThirtyTwoBitLayoutReadsTheSameColour() {
        // Orange (255, 128, 0) at alpha 255 in each layout.
        let cases: [([UInt8], UInt32)] = [
            ([255, 128, 0, 255], CGImageAlphaInfo.premultipliedLast.rawValue),
            ([255, 255, 128, 0], CGImageAlphaInfo.premultipliedFirst.rawValue),
            ([0, 128, 255, 255], CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue),
            ([255, 0, 128, 255], CGImageAlphaInfo.premultipliedLast.rawValue | CGBitmapInfo.byteOrder32Little.rawValue),
            ([255, 128, 0, 0], CGImageAlphaInfo.noneSkipLast.rawValue),
            ([255, 128, 0, 255], CGImageAlphaInfo.last.rawValue),
        ]
        for (bytes, info) in cases {
            let img = image(bytes, width: 1, height: 1, info: info)
            #expect(img?.premultipliedPixel(x: 0, y: 0) == 0xFFFF_8000, "layout \(info)")
        }
    }

    @Test func straightAlphaIsPremultipliedForDrawing() {
        let img = image([255, 0, 0, 128], width: 1, height: 1, info: CGImageAlphaInfo.last.rawValue)!
        #expect(img.premultipliedPixel(x: 0, y: 0) == 0x8080_0000)
        #expect(img.alphaInfo == .last)
    }

    @Test func grayRgbAndMaskLayouts() {
        let gray = image([0, 255], width: 2, height: 1, bpp: 8, info: CGImageAlphaInfo.none.rawValue,
                         space: CGColorSpaceCreateDeviceGray())!
        #expect(gray.premultipliedPixel(x: 1, y: 0) == 0xFFFF_FFFF && gray.premultipliedPixel(x: 0, y: 0) == 0xFF00_0000)
        let rgb = image([1, 2, 3], width: 1, height: 1, bpp: 24, info: CGImageAlphaInfo.none.rawValue)!
        #expect(rgb.premultipliedPixel(x: 0, y: 0) == 0xFF01_0203)
        let mask = CGImage(maskWidth: 1, height: 1, bitsPerComponent: 8, bitsPerPixel: 8, bytesPerRow: 1,
                           provider: CGDataProvider(data: Data([200]) as NSData)!, decode: nil, shouldInterpolate: false)!
        #expect(mask.isMask && mask.premultipliedPixel(x: 0, y: 0) >> 24 == 200)
    }

    @Test func unsupportedOrShortDataIsRejected() {
        let before = CGDiagnostics.count(.unsupportedBitmapFormat)
        #expect(image([0, 0], width: 1, height: 1, bpp: 16, info: 0) == nil)
        #expect(CGDiagnostics.count(.unsupportedBitmapFormat) == before + 1)
        #expect(image([0, 0, 0], width: 1, height: 1, info: CGImageAlphaInfo.premultipliedLast.rawValue) == nil)
        #expect(image([], width: 0, height: 1, info: CGImageAlphaInfo.premultipliedLast.rawValue) == nil)
        #expect(image([0, 0, 0, 0], width: 100_000, height: 1, info: CGImageAlphaInfo.premultipliedLast.rawValue) == nil)
    }

    @Test func croppingTakesThePixelsInsideTheRect() {
        var bytes: [UInt8] = []
        for y in 0..<4 { for x in 0..<4 { bytes += [UInt8(x * 60), UInt8(y * 60), 0, 255] } }
        let img = image(bytes, width: 4, height: 4, info: CGImageAlphaInfo.premultipliedLast.rawValue)!
        let crop = img.cropping(to: CGRect(x: 1, y: 2, width: 2, height: 2))!
        #expect(crop.width == 2 && crop.height == 2)
        #expect(crop.premultipliedPixel(x: 0, y: 0) == 0xFF3C_7800)
        #expect(img.cropping(to: CGRect(x: 10, y: 10, width: 2, height: 2)) == nil)
        #expect(img.cropping(to: CGRect(x: 3.5, y: 0, width: 10, height: 1))!.width == 1)
    }

    @Test func pngRoundTripsExactly() {
        let ctx = makeContext(9, 7)
        ctx.setFillColor(red: 0.2, green: 0.6, blue: 1, alpha: 0.75)
        ctx.fillEllipse(in: CGRect(x: 0, y: 0, width: 9, height: 7))
        let original = ctx.makeImage()!
        let data = NSMutableData()
        let dest = CGImageDestinationCreateWithData(data, kUTTypePNG, 1, nil)!
        CGImageDestinationAddImage(dest, original, nil)
        #expect(CGImageDestinationFinalize(dest))
        #expect(!CGImageDestinationFinalize(dest))
        let source = CGImageSourceCreateWithData(data, nil)!
        #expect(CGImageSourceGetCount(source) == 1)
        #expect(CGImageSourceGetType(source) == kUTTypePNG)
        let decoded = CGImageSourceCreateImageAtIndex(source, 0, nil)!
        // Opaque pixels survive exactly; translucent ones within PNG's straight-alpha rounding.
        for y in 0..<7 {
            for x in 0..<9 {
                let a = original.premultipliedPixel(x: x, y: y), b = decoded.premultipliedPixel(x: x, y: y)
                for s in stride(from: 0, through: 24, by: 8) {
                    #expect(abs(Int((a >> UInt32(s)) & 255) - Int((b >> UInt32(s)) & 255)) <= 1)
                }
            }
        }
        #expect(CGImageSourceCreateImageAtIndex(source, 1, nil) == nil)
    }

    @Test func pngFileRoundTripThroughURL() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cg-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        let ctx = makeContext(5, 5)
        ctx.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
        let dest = CGImageDestinationCreateWithURL(url as CFURL, kUTTypePNG, 1, nil)!
        CGImageDestinationAddImage(dest, ctx.makeImage()!, nil)
        #expect(CGImageDestinationFinalize(dest))
        let img = CGImageSourceCreateImageAtIndex(CGImageSourceCreateWithURL(url as CFURL, nil)!, 0, nil)!
        #expect(img.width == 5 && img.premultipliedPixel(x: 4, y: 4) == 0xFF00_FF00)
        #expect(CGImageDestinationCreateWithURL(url as CFURL, kUTTypeJPEG, 1, nil) == nil)
    }

    @Test func jpegDecodesToOpaquePixels() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("halves.jpg"))
        let img = CGImageSourceCreateImageAtIndex(CGImageSourceCreateWithData(data as NSData, nil)!, 0, nil)!
        #expect(img.width == 16 && img.height == 8)
        let left = img.premultipliedPixel(x: 2, y: 4), right = img.premultipliedPixel(x: 13, y: 4)
        // JPEG is lossy: the fixture is pure red | pure blue at quality 95.
        #expect(left >> 24 == 255 && (left >> 16) & 255 > 240 && left & 255 < 16)
        #expect(right >> 24 == 255 && right & 255 > 240 && (right >> 16) & 255 < 16)
    }

    @Test func corruptTruncatedAndHugeImagesAreNil() throws {
        let before = CGDiagnostics.count(.corruptImageData)
        let jpeg = try Data(contentsOf: Self.fixtures.appendingPathComponent("halves.jpg"))
        let ctx = makeContext(4, 4)
        let png = ImageCodec.encodePNG(ctx.makeImage()!)!
        #expect(ImageCodec.decode(Data(jpeg.prefix(40))) == nil)
        #expect(ImageCodec.decode(Data(png.prefix(png.count / 2))) == nil)
        #expect(ImageCodec.decode(Data([1, 2, 3, 4, 5])) == nil)
        #expect(ImageCodec.decode(Data()) == nil)
        #expect(CGDiagnostics.count(.corruptImageData) >= before + 4)
        // A PNG header declaring 100000 × 100000 pixels is refused before any allocation.
        var huge = png
        huge.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        #expect(ImageCodec.decode(huge) == nil)
        let src = CGImageSourceCreateWithData(Data([9, 9, 9]) as NSData, nil)!
        #expect(CGImageSourceGetCount(src) == 0 && CGImageSourceGetStatus(src) == .statusUnknownType)
    }

    /// The decode budget (`ImageCodec.maxDecodedPixels`, 64 Mi pixels): a small file declaring
    /// 16,000 × 16,000 pixels (256 Mi) — within cairo's and libjpeg's own limits — is refused from
    /// its header, before any pixel memory, and counted; an image at the budget's edge is not.
    @Test func decompressionBombsAreRefusedFromTheirHeaders() throws {
        let before = CGDiagnostics.count(.invalidBitmapSize)
        let png = ImageCodec.encodePNG(makeContext(4, 4).makeImage()!)!
        var bomb = png
        bomb.replaceSubrange(16..<24, with: [0, 0, 0x3E, 0x80, 0, 0, 0x3E, 0x80])   // 16000 × 16000
        #expect(ImageCodec.decode(bomb) == nil)
        // The JPEG fixture with its frame header (SOFn) rewritten to 16000 × 16000.
        var jpeg = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent("halves.jpg")))
        let sof = try #require((2..<jpeg.count - 9).first { jpeg[$0] == 0xFF && (0xC0...0xC2).contains(jpeg[$0 + 1]) })
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0x3E, 0x80, 0x3E, 0x80])
        #expect(ImageCodec.decode(Data(jpeg)) == nil)
        #expect(CGDiagnostics.count(.invalidBitmapSize) >= before + 2)
        #expect(ImageCodec.withinBudget(8192, 8192) && !ImageCodec.withinBudget(8193, 8192))
    }
}
