// Golden images for every drawing feature of CGContext. Each scene is small and drawn in
// plain y-up Core Graphics coordinates; the goldens were inspected by eye when recorded.
import CoreGraphics
import Foundation
import Testing
import TestSupport

@Suite struct CGContextGoldenTests {
    let red = CGColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 1)
    let blue = CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 1)
    let green = CGColor(red: 0.1, green: 0.7, blue: 0.2, alpha: 1)

    func canvas(_ w: Int = 96, _ h: Int = 96) -> CGContext {
        let ctx = makeContext(w, h)
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: w, height: h))
        return ctx
    }

    @Test func fillsAndEllipses() {
        let ctx = canvas()
        ctx.setFillColor(red); ctx.fill(CGRect(x: 8, y: 8, width: 40, height: 30))
        ctx.setFillColor(blue); ctx.fillEllipse(in: CGRect(x: 40, y: 30, width: 48, height: 56))
        ctx.setFillColor(green.copy(alpha: 0.5)!); ctx.fill(CGRect(x: 20.5, y: 20.5, width: 40, height: 40))
        Golden.check("cg-fills", ctx)
    }

    @Test func strokesWithCapsAndJoins() {
        let ctx = canvas(120, 96)
        ctx.setStrokeColor(blue)
        ctx.setLineWidth(9)
        for (i, cap) in [CGLineCap.butt, .round, .square].enumerated() {
            ctx.setLineCap(cap)
            let y = CGFloat(80 - i * 16)
            ctx.strokeLineSegments(between: [CGPoint(x: 12, y: y), CGPoint(x: 48, y: y)])
        }
        for (i, join) in [CGLineJoin.miter, .round, .bevel].enumerated() {
            ctx.setLineJoin(join); ctx.setLineCap(.butt)
            let x = CGFloat(62 + i * 18)
            ctx.addLines(between: [CGPoint(x: x, y: 20), CGPoint(x: x + 8, y: 80), CGPoint(x: x + 14, y: 20)])
            ctx.strokePath()
        }
        ctx.setStrokeColor(red); ctx.setLineWidth(2)
        ctx.setLineDash(phase: 3, lengths: [8, 4, 2, 4])
        ctx.stroke(CGRect(x: 8, y: 8, width: 48, height: 20))
        Golden.check("cg-strokes", ctx)
    }

    @Test func arcsCurvesAndEvenOddFill() {
        let ctx = canvas()
        ctx.setFillColor(green)
        ctx.addRect(CGRect(x: 6, y: 6, width: 84, height: 84))
        ctx.addEllipse(in: CGRect(x: 20, y: 20, width: 56, height: 56))
        ctx.fillPath(using: .evenOdd)
        ctx.setStrokeColor(red); ctx.setLineWidth(3)
        ctx.move(to: CGPoint(x: 48, y: 48))
        ctx.addArc(center: CGPoint(x: 48, y: 48), radius: 22, startAngle: 0, endAngle: .pi * 1.5, clockwise: false)
        ctx.closePath()
        ctx.strokePath()
        ctx.setStrokeColor(blue)
        ctx.move(to: CGPoint(x: 10, y: 10))
        ctx.addCurve(to: CGPoint(x: 86, y: 10), control1: CGPoint(x: 30, y: 60), control2: CGPoint(x: 66, y: -40))
        ctx.addQuadCurve(to: CGPoint(x: 86, y: 86), control: CGPoint(x: 40, y: 50))
        ctx.strokePath()
        Golden.check("cg-arcs-curves-evenodd", ctx)
    }

    @Test func clippingToPathsAndRects() {
        let ctx = canvas()
        ctx.saveGState()
        ctx.addEllipse(in: CGRect(x: 8, y: 8, width: 80, height: 80))
        ctx.clip()
        ctx.clip(to: [CGRect(x: 0, y: 0, width: 96, height: 40), CGRect(x: 0, y: 56, width: 96, height: 40)])
        ctx.setFillColor(red)
        ctx.fill(CGRect(x: 0, y: 0, width: 96, height: 96))
        ctx.restoreGState()
        ctx.setFillColor(blue)
        ctx.fill(CGRect(x: 44, y: 0, width: 8, height: 96))
        Golden.check("cg-clip", ctx)
    }

    @Test func transformedDrawing() {
        let ctx = canvas()
        ctx.translateBy(x: 48, y: 48)
        for i in 0..<8 {
            ctx.saveGState()
            ctx.rotate(by: CGFloat(i) * .pi / 4)
            ctx.scaleBy(x: 1, y: 0.5)
            ctx.setFillColor(CGColor(red: CGFloat(i) / 8, green: 0.2, blue: 1 - CGFloat(i) / 8, alpha: 0.8))
            ctx.fill(CGRect(x: 10, y: -8, width: 30, height: 16))
            ctx.restoreGState()
        }
        Golden.check("cg-transforms", ctx)
    }

    @Test func everyBlendMode() {
        // 28 tiles: a blue-green backdrop square, then a red-translucent circle in the mode.
        let modes: [CGBlendMode] = [.normal, .multiply, .screen, .overlay, .darken, .lighten, .colorDodge, .colorBurn,
                                    .softLight, .hardLight, .difference, .exclusion, .hue, .saturation, .color, .luminosity,
                                    .clear, .copy, .sourceIn, .sourceOut, .sourceAtop, .destinationOver, .destinationIn,
                                    .destinationOut, .destinationAtop, .xor, .plusDarker, .plusLighter]
        let ctx = makeContext(7 * 24, 4 * 24)
        for (i, mode) in modes.enumerated() {
            let ox = CGFloat(i % 7 * 24), oy = CGFloat(i / 7 * 24)
            ctx.setBlendMode(.normal)
            ctx.setFillColor(CGColor(red: 0.1, green: 0.6, blue: 0.7, alpha: 1))
            ctx.fill(CGRect(x: ox + 2, y: oy + 2, width: 14, height: 14))
            ctx.setBlendMode(mode)
            ctx.setFillColor(CGColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.8))
            ctx.fillEllipse(in: CGRect(x: ox + 7, y: oy + 7, width: 15, height: 15))
        }
        Golden.check("cg-blend-modes", ctx)
    }

    @Test func blurredShadowsAndTransparencyLayers() {
        let ctx = canvas(128, 96)
        ctx.setShadow(offset: CGSize(width: 5, height: -5), blur: 8, color: CGColor(gray: 0, alpha: 0.6))
        ctx.setFillColor(red)
        ctx.fill(CGRect(x: 10, y: 40, width: 40, height: 40))
        ctx.setShadow(offset: CGSize(width: 4, height: -4), blur: 6)
        ctx.beginTransparencyLayer(auxiliaryInfo: nil)
        ctx.setFillColor(blue); ctx.fillEllipse(in: CGRect(x: 60, y: 30, width: 40, height: 40))
        ctx.setFillColor(green); ctx.fillEllipse(in: CGRect(x: 80, y: 30, width: 40, height: 40))
        ctx.endTransparencyLayer()
        ctx.setShadow(offset: .zero, blur: 0, color: nil)
        ctx.setStrokeColor(green); ctx.setLineWidth(4)
        ctx.setShadow(offset: CGSize(width: 0, height: -3), blur: 3, color: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        ctx.strokeEllipse(in: CGRect(x: 14, y: 8, width: 30, height: 24))
        Golden.check("cg-shadows-layers", ctx)
    }

    @Test func linearAndRadialGradients() {
        let ctx = canvas(128, 64)
        let colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 1, green: 1, blue: 0, alpha: 1),
                      CGColor(red: 0, green: 0, blue: 1, alpha: 1)] as CFArray
        let gradient = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: colors, locations: [0, 0.25, 0.5])!
        ctx.saveGState()
        ctx.clip(to: CGRect(x: 0, y: 0, width: 64, height: 64))
        ctx.drawLinearGradient(gradient, start: CGPoint(x: 0, y: 64), end: CGPoint(x: 64, y: 0), options: [])
        ctx.restoreGState()
        ctx.saveGState()
        ctx.clip(to: CGRect(x: 64, y: 0, width: 64, height: 64))
        ctx.drawRadialGradient(gradient, startCenter: CGPoint(x: 90, y: 36), startRadius: 4,
                               endCenter: CGPoint(x: 96, y: 32), endRadius: 30,
                               options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        ctx.restoreGState()
        Golden.check("cg-gradients", ctx)
        // Without the "after end" option, the linear gradient leaves the far side unpainted.
        let bare = makeContext(40, 10)
        bare.drawLinearGradient(gradient, start: CGPoint(x: 10, y: 5), end: CGPoint(x: 30, y: 5), options: [])
        #expect(pixel(bare, 5, 5) == 0 && pixel(bare, 35, 5) == 0 && pixel(bare, 11, 5) >> 24 == 255)
        let padded = makeContext(40, 10)
        padded.drawLinearGradient(gradient, start: CGPoint(x: 10, y: 5), end: CGPoint(x: 30, y: 5),
                                  options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        #expect(pixel(padded, 2, 5) == 0xFFFF_0000 && pixel(padded, 38, 5) == 0xFF00_00FF)
    }

    @Test func imagesScaledWithEachQualityAndTiled() {
        // A 4×4 checker with a red top-left pixel, so orientation is visible.
        var bytes: [UInt8] = []
        for y in 0..<4 {
            for x in 0..<4 {
                if x == 0 && y == 0 { bytes += [255, 0, 0, 255] } else if (x + y) % 2 == 0 { bytes += [0, 0, 0, 255] } else { bytes += [255, 255, 255, 255] }
            }
        }
        let img = CGImage(width: 4, height: 4, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 16,
                          space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue),
                          provider: CGDataProvider(data: Data(bytes) as NSData)!, decode: nil, shouldInterpolate: true,
                          intent: .defaultIntent)!
        let ctx = canvas(128, 64)
        ctx.interpolationQuality = .none
        ctx.draw(img, in: CGRect(x: 0, y: 0, width: 32, height: 32))
        ctx.interpolationQuality = .default
        ctx.draw(img, in: CGRect(x: 32, y: 0, width: 32, height: 32))
        ctx.saveGState()
        ctx.clip(to: CGRect(x: 64, y: 0, width: 64, height: 32))
        ctx.interpolationQuality = .none
        ctx.draw(img, in: CGRect(x: 64, y: 0, width: 8, height: 8), byTiling: true)
        ctx.restoreGState()
        ctx.setAlpha(0.5)
        ctx.draw(img, in: CGRect(x: 8, y: 36, width: 112, height: 24))
        Golden.check("cg-images", ctx)
        // Upright in y-up space: the red top-left pixel lands at the top-left of the rect.
        #expect(pixel(ctx, 2, 64 - 30) == 0xFFFF_0000)
    }

    @Test func textLatinAndCJK() {
        let ctx = canvas(200, 80)
        let latin = CGTextLayout(string: "Core Animation", style: .init(fontFamily: "DejaVu Sans", fontSize: 18, color: blue))
        ctx.draw(latin, in: CGRect(x: 6, y: 50, width: 190, height: 24))
        let cjk = CGTextLayout(string: "图层是动画的核心", style: .init(fontFamily: "DejaVu Sans", fontSize: 20, color: red),
                               width: 190, alignment: .center)
        ctx.draw(cjk, in: CGRect(x: 6, y: 12, width: 190, height: 30))
        Golden.check("cg-text", ctx)
        // The CJK run falls back to a font that has the glyphs.
        #expect(cjk.firstFontFamily.map { $0.contains("WenQuanYi") } == true)
    }
}
