import QuartzCore

/// A one-picture tour of the CoreGraphics module: gradient, shapes, shadow, stroke, text.
enum CoreGraphicsDemo {
    /// Renders the demo into a new image of `width` × `height` pixels.
    static func render(width: Int, height: Int) -> CGImage? {
        guard let ctx = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                                  space: CGColorSpaceCreateDeviceRGB(),
                                  bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)
        else { return nil }
        let w = CGFloat(width), h = CGFloat(height)
        let sky = [CGColor(red: 0.13, green: 0.15, blue: 0.22, alpha: 1), CGColor(red: 0.25, green: 0.32, blue: 0.5, alpha: 1)]
        if let gradient = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: sky as CFArray, locations: [0, 1]) {
            ctx.drawLinearGradient(gradient, start: CGPoint(x: 0, y: h), end: .zero, options: [])
        }
        ctx.setShadow(offset: CGSize(width: 0, height: -6), blur: 12, color: CGColor(gray: 0, alpha: 0.6))
        let card = CGPath(roundedRect: CGRect(x: 40, y: 50, width: 170, height: 150), cornerWidth: 18, cornerHeight: 18, transform: nil)
        ctx.addPath(card)
        ctx.setFillColor(CGColor(red: 0.95, green: 0.45, blue: 0.2, alpha: 1))
        ctx.fillPath()
        ctx.setShadow(offset: .zero, blur: 0, color: nil)
        let star = CGMutablePath()
        for k in 0..<10 {
            let angle = CGFloat(k) * .pi / 5, r: CGFloat = k % 2 == 0 ? 70 : 30
            let p = CGPoint(x: 340 + r * sin(angle), y: 130 + r * cos(angle))
            if k == 0 { star.move(to: p) } else { star.addLine(to: p) }
        }
        star.closeSubpath()
        ctx.addPath(star)
        ctx.setFillColor(CGColor(red: 1, green: 0.85, blue: 0.3, alpha: 1))
        ctx.setStrokeColor(CGColor(red: 1, green: 1, blue: 1, alpha: 0.9))
        ctx.setLineWidth(4)
        ctx.setLineJoin(.round)
        ctx.drawPath(using: .fillStroke)
        let text = CGTextLayout(string: "CoreGraphics on cairo · 图层与动画",
                                style: .init(fontFamily: "DejaVu Sans", fontSize: 20, color: .white),
                                width: w - 40, alignment: .center)
        ctx.draw(text, in: CGRect(x: 20, y: 12, width: w - 40, height: 30))
        return ctx.makeImage()
    }
}
