import Foundation
import QuartzCore

/// A pie chart slice with its own animatable property, written as Apple's guides and the popular
/// samples write it (the only edit for Linux: `@NSManaged var progress: CGFloat` became a stored
/// property with a default). `draw(in:)` runs for every frame of the animation, on the
/// presentation copy, and labels the pie with Core Text.
final class PieLayer: CALayer {
    var progress: CGFloat = 0
    var fillColor: CGColor = palette[0]

    override init() { super.init() }

    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? PieLayer {
            progress = other.progress
            fillColor = other.fillColor
        }
    }

    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

    override class func needsDisplay(forKey key: String) -> Bool {
        if key == "progress" { return true }
        return super.needsDisplay(forKey: key)
    }

    override func action(forKey event: String) -> CAAction? {
        if event == "progress" {
            let animation = CABasicAnimation(keyPath: event)
            animation.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
            animation.fromValue = presentation()?.progress ?? progress
            return animation
        }
        return super.action(forKey: event)
    }

    override func draw(in ctx: CGContext) {
        let centre = CGPoint(x: bounds.midX, y: bounds.midY)
        let radius = min(bounds.width, bounds.height) / 2 - 4
        ctx.setFillColor(color(0.2, 0.22, 0.28))
        ctx.fillEllipse(in: CGRect(x: centre.x - radius, y: centre.y - radius, width: radius * 2, height: radius * 2))
        if progress > 0 {
            // Clockwise on screen from twelve o'clock (layer space has y down).
            ctx.move(to: centre)
            ctx.addArc(center: centre, radius: radius, startAngle: -.pi / 2,
                       endAngle: -.pi / 2 + 2 * .pi * min(progress, 1), clockwise: false)
            ctx.closePath()
            ctx.setFillColor(fillColor)
            ctx.fillPath()
        }
        // The percentage, centred, with Core Text (text space has y up: flip around the baseline).
        let font = CTFontCreateWithName("DejaVu Sans Bold" as CFString, 20, nil)
        let text = NSAttributedString(string: "\(Int((progress * 100).rounded())) %",
                                      attributes: [.font: font, .foregroundColor: CGColor(gray: 1, alpha: 1)])
        let line = CTLineCreateWithAttributedString(text)
        let width = CTLineGetTypographicBounds(line, nil, nil, nil)
        ctx.saveGState()
        ctx.textMatrix = .identity
        ctx.translateBy(x: centre.x - CGFloat(width) / 2, y: centre.y + 7)
        ctx.scaleBy(x: 1, y: -1)
        ctx.textPosition = .zero
        CTLineDraw(line, ctx)
        ctx.restoreGState()
    }
}

@MainActor let customPropertyScenes: [Scene] = [
    Scene(name: "Custom animatable property — click a pie") { stage, _ in
        var pies: [PieLayer] = []
        let durations: [CFTimeInterval] = [0.5, 1.5, 4]
        for i in 0..<3 {
            let pie = PieLayer()
            pie.frame = CGRect(x: 40 + CGFloat(i) * 200, y: 90, width: 160, height: 160)
            pie.fillColor = palette[i]
            pie.contentsScale = stage.contentsScale
            pie.name = "pie \(i + 1)"
            pie.setNeedsDisplay()
            stage.addSublayer(pie)
            pies.append(pie)
        }
        let caption = CATextLayer()
        caption.frame = CGRect(x: 40, y: 300, width: 560, height: 60)
        caption.string = "Each pie is a CALayer subclass with a `progress` property: click to fill or empty it (0.5 s, 1.5 s, 4 s). Click again mid-way: it turns back from where it is."
        caption.fontSize = 14
        caption.isWrapped = true
        caption.alignmentMode = .center
        caption.contentsScale = stage.contentsScale
        stage.addSublayer(caption)
        return { event in
            guard case .down = event.kind, let i = pies.firstIndex(where: { $0 === event.layer }) else { return }
            let pie = pies[i]
            CATransaction.begin()
            CATransaction.setAnimationDuration(durations[i])
            pie.progress = pie.progress < 0.5 ? 1 : 0
            CATransaction.commit()
        }
    },
]
