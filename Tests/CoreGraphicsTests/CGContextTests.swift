// Apple: a bitmap context's user space has its origin at the bottom-left, y up, and the
// first row of `data` is the image's top row; premultipliedFirst | byteOrder32Little is BGRA
// in memory, premultipliedLast with default order is RGBA.
import CoreGraphics
import Foundation
import Testing
import TestSupport

@Suite struct CGContextTests {
    @Test func fillRectPaintsExactlyItsPixelsFromTheBottomLeft() {
        let ctx = makeContext(64, 64)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 10, y: 10, width: 20, height: 20))
        #expect(countPixels(ctx) { $0 == 0xFFFF_0000 } == 400)
        #expect(countPixels(ctx) { $0 != 0 } == 400)
        // y up: user rows 10..<30 are data rows 34..<54.
        #expect(pixel(ctx, 10, 53) == 0xFFFF_0000 && pixel(ctx, 29, 34) == 0xFFFF_0000)
        #expect(pixel(ctx, 10, 54) == 0 && pixel(ctx, 10, 33) == 0 && pixel(ctx, 9, 40) == 0 && pixel(ctx, 30, 40) == 0)
    }

    @Test func rgbaAndBgraLayoutsStoreBytesInTheirOrder() {
        var rgba = [UInt8](repeating: 0, count: 4 * 4 * 4)
        var bgra = rgba
        rgba.withUnsafeMutableBytes { buf in
            let c = CGContext(data: buf.baseAddress, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 16,
                              space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            c.setFillColor(red: 1, green: 0.5, blue: 0, alpha: 1)
            c.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        }
        bgra.withUnsafeMutableBytes { buf in
            let c = CGContext(data: buf.baseAddress, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 16,
                              space: CGColorSpaceCreateDeviceRGB(),
                              bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
            c.setFillColor(red: 1, green: 0.5, blue: 0, alpha: 1)
            c.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        }
        #expect(Array(rgba[0..<4]) == [255, 128, 0, 255])
        #expect(Array(bgra[0..<4]) == [0, 128, 255, 255])
    }

    @Test func drawingPreservesPixelsWrittenByTheCaller() {
        var rgba = [UInt8](repeating: 0, count: 2 * 1 * 4)
        rgba.withUnsafeMutableBytes { buf in
            let c = CGContext(data: buf.baseAddress, width: 2, height: 1, bitsPerComponent: 8, bytesPerRow: 8,
                              space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            buf[4] = 0; buf[5] = 0; buf[6] = 255; buf[7] = 255       // caller paints pixel 1 blue
            c.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            c.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        }
        #expect(rgba == [255, 0, 0, 255, 0, 0, 255, 255])
    }

    @Test func grayAndAlphaOnlyContextsDraw() {
        let gray = CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0,
                             space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.none.rawValue)!
        gray.setFillColor(gray: 1, alpha: 1)
        gray.fill(CGRect(x: 0, y: 0, width: 2, height: 4))
        let g = gray.data!.assumingMemoryBound(to: UInt8.self)
        #expect(g[0] == 255 && g[1] == 255 && g[2] == 0)
        let mask = CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0,
                             space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.alphaOnly.rawValue)!
        mask.setFillColor(gray: 0, alpha: 1)
        mask.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        let m = mask.data!.assumingMemoryBound(to: UInt8.self)
        #expect(m[3 * mask.bytesPerRow] == 255 && m[0] == 0)
    }

    @Test func unsupportedOrInvalidContextsAreNil() {
        let rgb = CGColorSpaceCreateDeviceRGB()
        let info = CGImageAlphaInfo.premultipliedLast.rawValue
        let before = CGDiagnostics.count(.invalidBitmapSize)
        #expect(CGContext(data: nil, width: 0, height: 10, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: info) == nil)
        #expect(CGContext(data: nil, width: 40000, height: 10, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: info) == nil)
        #expect(CGContext(data: nil, width: 20000, height: 20000, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: info) == nil)
        #expect(CGContext(data: nil, width: 10, height: 10, bitsPerComponent: 8, bytesPerRow: 8, space: rgb, bitmapInfo: info) == nil)
        #expect(CGDiagnostics.count(.invalidBitmapSize) >= before + 4)
        #expect(CGContext(data: nil, width: 10, height: 10, bitsPerComponent: 16, bytesPerRow: 0, space: rgb, bitmapInfo: info) == nil)
        #expect(CGContext(data: nil, width: 10, height: 10, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                          bitmapInfo: CGImageAlphaInfo.last.rawValue) == nil)
    }

    @Test func ctmStartsAtIdentityAndComposes() {
        let ctx = makeContext(32, 32)
        #expect(ctx.ctm.isIdentity)
        ctx.translateBy(x: 10, y: 5)
        ctx.scaleBy(x: 2, y: 2)
        #expect(ctx.ctm == CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 10, ty: 5))
        #expect(ctx.convertToDeviceSpace(CGPoint(x: 1, y: 1)) == CGPoint(x: 12, y: 7))
        ctx.setFillColor(gray: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))   // device (10,5)-(12,7) → rows 25, 26
        #expect(countPixels(ctx) { $0 == 0xFF00_0000 } == 4)
        #expect(pixel(ctx, 10, 26) == 0xFF00_0000 && pixel(ctx, 11, 25) == 0xFF00_0000)
    }

    @Test func saveAndRestoreRoundTripStateAndIgnoreUnbalancedRestore() {
        let ctx = makeContext(8, 8)
        ctx.saveGState()
        ctx.translateBy(x: 3, y: 3)
        ctx.clip(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        ctx.restoreGState()
        #expect(ctx.ctm.isIdentity)
        #expect(ctx.boundingBoxOfClipPath == CGRect(x: 0, y: 0, width: 8, height: 8))
        let before = CGDiagnostics.count(.invalidDrawingState)
        ctx.restoreGState()
        #expect(CGDiagnostics.count(.invalidDrawingState) == before + 1)
    }

    @Test func clipLimitsDrawingAndReportsItsBounds() {
        let ctx = makeContext(20, 20)
        ctx.clip(to: CGRect(x: 5, y: 5, width: 4, height: 3))
        #expect(ctx.boundingBoxOfClipPath == CGRect(x: 5, y: 5, width: 4, height: 3))
        ctx.setFillColor(gray: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 20, height: 20))
        #expect(countPixels(ctx) { $0 != 0 } == 12)
        ctx.resetClip()
        #expect(ctx.boundingBoxOfClipPath == CGRect(x: 0, y: 0, width: 20, height: 20))
    }

    @Test func globalAlphaMultipliesPaint() {
        let ctx = makeContext(4, 4)
        ctx.setAlpha(0.5)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        let p = pixel(ctx, 0, 0)
        #expect((127...128).contains(p >> 24) && (p >> 16) & 255 == p >> 24 && p & 0xFFFF == 0)
    }

    @Test func clearMakesPixelsTransparentWhateverTheBlendMode() {
        let ctx = makeContext(10, 10)
        ctx.setFillColor(gray: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        ctx.setBlendMode(.multiply)
        ctx.setAlpha(0.2)
        ctx.clear(CGRect(x: 0, y: 0, width: 5, height: 10))
        #expect(countPixels(ctx) { $0 == 0 } == 50)
    }

    @Test func copyBlendModeIsConfinedToTheShape() {
        let ctx = makeContext(10, 10)
        ctx.setFillColor(gray: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        ctx.setBlendMode(.copy)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        ctx.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
        #expect(countPixels(ctx) { $0 == 0xFF00_0000 } == 75)
        #expect(countPixels(ctx) { $0 >> 24 < 255 } == 25)
    }

    @Test func pathQueriesWorkInUserSpace() {
        let ctx = makeContext(50, 50)
        ctx.translateBy(x: 10, y: 10)
        ctx.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(!ctx.isPathEmpty)
        #expect(ctx.boundingBoxOfPath == CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(ctx.pathContains(CGPoint(x: 5, y: 5), mode: .fill))
        #expect(!ctx.pathContains(CGPoint(x: 15, y: 5), mode: .fill))
        #expect(ctx.pathContains(CGPoint(x: 10.2, y: 5), mode: .stroke))
        #expect(ctx.path!.boundingBox == CGRect(x: 0, y: 0, width: 10, height: 10))
        ctx.fillPath()
        #expect(ctx.isPathEmpty)
    }

    @Test func nonFiniteAndSingularInputDrawsNothing() {
        let ctx = makeContext(10, 10)
        ctx.setFillColor(gray: 0, alpha: 1)
        ctx.fill(CGRect(x: CGFloat.nan, y: 0, width: 5, height: 5))
        ctx.concatenate(CGAffineTransform(a: .infinity, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        ctx.saveGState()
        ctx.scaleBy(x: 0, y: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
        ctx.restoreGState()
        ctx.setLineWidth(.nan)
        ctx.setLineDash(phase: 0, lengths: [0, 0])
        #expect(countPixels(ctx) { $0 != 0 } == 0)
    }

    @Test func shadowBlurAndOffsetFollowBaseSpace() {
        let ctx = makeContext(60, 60)
        ctx.setShadow(offset: CGSize(width: 10, height: 10), blur: 0, color: CGColor(gray: 0, alpha: 1))
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 10, y: 10, width: 10, height: 10))
        // Hard shadow 10 right and 10 up in y-up space: user (20..30, 20..30) → rows 30..<40.
        #expect(countPixels(ctx) { $0 == 0xFF00_0000 } == 100)
        #expect(pixel(ctx, 25, 35) == 0xFF00_0000)
        #expect(countPixels(ctx) { $0 == 0xFFFF_0000 } == 100)
    }

    @Test func transparencyLayerCompositesAsOneImage() {
        let ctx = makeContext(20, 10)
        ctx.setAlpha(0.5)
        ctx.beginTransparencyLayer(auxiliaryInfo: nil)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 15, height: 10))
        ctx.fill(CGRect(x: 5, y: 0, width: 15, height: 10))
        ctx.endTransparencyLayer()
        // Overlap is no darker than the rest: every pixel has the same half alpha.
        let a = pixel(ctx, 0, 0) >> 24
        #expect((127...128).contains(a))
        #expect(countPixels(ctx) { $0 >> 24 == a } == 200)
    }

    @Test func makeImageCopiesPixelsInTheContextLayout() {
        let ctx = makeContext(3, 2)
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 1, width: 1, height: 1))   // top-left pixel
        let image = ctx.makeImage()!
        #expect(image.width == 3 && image.height == 2 && image.bitsPerPixel == 32 && image.bytesPerRow == ctx.bytesPerRow)
        #expect(image.alphaInfo == .premultipliedFirst && image.byteOrderInfo == .order32Little)
        #expect(image.premultipliedPixel(x: 0, y: 0) == 0xFF00_00FF && image.premultipliedPixel(x: 0, y: 1) == 0)
        ctx.fill(CGRect(x: 0, y: 0, width: 3, height: 2))
        #expect(image.premultipliedPixel(x: 1, y: 1) == 0)   // a snapshot, not a view
    }
}
