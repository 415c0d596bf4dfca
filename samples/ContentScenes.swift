import Foundation
import QuartzCore

/// The seeds' content-layer examples: shape, text and gradient layers.
@MainActor let contentScenes: [Scene] = [
    Scene(name: "Shape layers — click the ring and the morph") { stage, _ in
        // Seed 004: the stick figure, white round-capped 5-point lines.
        let figure = CAShapeLayer()
        figure.frame = CGRect(x: -50, y: -40, width: 300, height: 300)
        let body = CGMutablePath()
        body.move(to: CGPoint(x: 175, y: 100))
        body.addArc(center: CGPoint(x: 150, y: 100), radius: 25, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        body.move(to: CGPoint(x: 150, y: 125)); body.addLine(to: CGPoint(x: 150, y: 175)); body.addLine(to: CGPoint(x: 125, y: 225))
        body.move(to: CGPoint(x: 150, y: 175)); body.addLine(to: CGPoint(x: 175, y: 225))
        body.move(to: CGPoint(x: 100, y: 150)); body.addLine(to: CGPoint(x: 200, y: 150))
        figure.path = body
        figure.strokeColor = color(1, 1, 1)
        figure.fillColor = color(0, 0, 0, 0)
        figure.lineWidth = 5
        figure.lineJoin = .round
        figure.lineCap = .round
        // Seed 004: a rectangle with three rounded corners (top right, top left, bottom left).
        let corners = CAShapeLayer()
        corners.frame = CGRect(x: 200, y: 30, width: 200, height: 200)
        corners.path = roundedRect(CGRect(x: 50, y: 50, width: 100, height: 100), radius: 20, squareBottomRight: true)
        corners.strokeColor = color(1, 1, 1)
        corners.fillColor = color(0, 0, 0, 0)
        corners.lineWidth = 5
        corners.lineJoin = .round
        corners.lineCap = .round
        // A progress ring: strokeEnd animates implicitly on each click.
        let track = CAShapeLayer()
        track.frame = CGRect(x: 440, y: 60, width: 140, height: 140)
        track.path = CGPath(ellipseIn: CGRect(x: 10, y: 10, width: 120, height: 120), transform: nil)
        track.fillColor = nil
        track.strokeColor = color(1, 1, 1, 0.15)
        track.lineWidth = 12
        let ring = CAShapeLayer()
        ring.frame = track.bounds
        let arc = CGMutablePath()
        arc.addArc(center: CGPoint(x: 70, y: 70), radius: 60, startAngle: -.pi / 2, endAngle: 3 * .pi / 2, clockwise: false)
        ring.path = arc
        ring.fillColor = nil
        ring.strokeColor = palette[1]
        ring.lineWidth = 12
        ring.lineCap = .round
        ring.strokeEnd = 0.3
        ring.name = "ring"
        track.addSublayer(ring)
        // A dashed star whose path morphs into a rounded shape (same element kinds, so it blends).
        let morph = CAShapeLayer()
        morph.frame = CGRect(x: 220, y: 270, width: 200, height: 180)
        morph.path = star(CGRect(x: 20, y: 0, width: 160, height: 160), inner: 0.4)
        morph.fillColor = palette[3]
        morph.strokeColor = color(1, 1, 1)
        morph.lineWidth = 3
        morph.lineDashPattern = [8, 4]
        morph.shadowOpacity = 0.5
        morph.shadowRadius = 8
        morph.name = "morph"
        for l in [figure, corners, track, morph] { stage.addSublayer(l) }
        var progress: CGFloat = 0.3
        var starry = true
        return { e in
            guard case .down = e.kind else { return }
            if e.layer === ring || e.layer === track {
                progress = progress >= 1 ? 0.1 : min(progress + 0.3, 1)
                CATransaction.begin()
                CATransaction.setAnimationDuration(0.6)
                ring.strokeEnd = progress
                CATransaction.commit()
            } else if e.layer === morph {
                starry.toggle()
                CATransaction.begin()
                CATransaction.setAnimationDuration(0.8)
                morph.path = star(CGRect(x: 20, y: 0, width: 160, height: 160), inner: starry ? 0.4 : 0.9)
                morph.fillColor = starry ? palette[3] : palette[2]
                CATransaction.commit()
            }
        }
    },
    Scene(name: "Text layers — wrapping, truncation, attributed runs; click the green line") { stage, _ in
        let card = box(CGRect(x: 30, y: 30, width: 280, height: 200), color(0.95, 0.95, 0.92), radius: 10)
        // Seed 004: black, justified, wrapped 15-point text.
        let text = CATextLayer()
        text.frame = card.bounds.insetBy(dx: 14, dy: 14)
        text.contentsScale = 1
        text.foregroundColor = color(0, 0, 0)
        text.alignmentMode = .justified
        text.isWrapped = true
        text.font = CGFont("Helvetica" as CFString)
        text.fontSize = 15
        text.string = "辣椒开始的法律监督减肥了空间阿里的开发价值,。春夏女快放假了哦 i 将凯迪拉克你的,v来肯德基法拉第健身房"
        card.addSublayer(text)
        stage.addSublayer(card)
        let modes: [(CATextLayerTruncationMode, CATextLayerAlignmentMode, String)] = [
            (.end, .left, "truncation end"), (.middle, .center, "truncation middle"), (.start, .right, "truncation start"),
        ]
        for (i, (mode, align, label)) in modes.enumerated() {
            let t = CATextLayer()
            t.frame = CGRect(x: 340, y: 40 + CGFloat(i) * 50, width: 270, height: 30)
            t.fontSize = 20
            t.truncationMode = mode
            t.alignmentMode = align
            t.string = "\(label): Core Animation for Linux, in Swift"
            t.backgroundColor = color(1, 1, 1, 0.08)
            stage.addSublayer(t)
        }
        let rich = NSMutableAttributedString(string: "Attributed runs: colour, size and family")
        rich.addAttribute(.foregroundColor, value: palette[0], range: NSRange(location: 17, length: 6))
        rich.addAttribute(.fontSize, value: 30, range: NSRange(location: 25, length: 4))
        rich.addAttribute(.foregroundColor, value: palette[4], range: NSRange(location: 25, length: 4))
        rich.addAttribute(.font, value: "DejaVu Serif", range: NSRange(location: 34, length: 6))
        let attributed = CATextLayer()
        attributed.frame = CGRect(x: 30, y: 270, width: 580, height: 50)
        attributed.fontSize = 22
        attributed.string = rich
        stage.addSublayer(attributed)
        let grow = CATextLayer()
        grow.frame = CGRect(x: 30, y: 340, width: 580, height: 110)
        grow.fontSize = 24
        grow.foregroundColor = palette[1]
        grow.string = "Click me: fontSize and foregroundColor animate"
        grow.isWrapped = true
        stage.addSublayer(grow)
        var big = false
        return { e in
            guard case .down = e.kind, e.layer === grow else { return }
            big.toggle()
            grow.fontSize = big ? 40 : 24
            grow.foregroundColor = big ? palette[4] : palette[1]
        }
    },
    Scene(name: "Gradient layers — click to animate") { stage, _ in
        // Seed 004: red, yellow, blue at locations 0, 0.25, 0.5 from the top-left to the bottom-right corner.
        let seed = CAGradientLayer()
        seed.frame = CGRect(x: 30, y: 40, width: 180, height: 180)
        seed.colors = [color(1, 0, 0), color(1, 1, 0), color(0, 0, 1)]
        seed.locations = [0, 0.25, 0.5]
        seed.startPoint = CGPoint(x: 0, y: 0)
        seed.endPoint = CGPoint(x: 1, y: 1)
        let radial = CAGradientLayer()
        radial.frame = CGRect(x: 230, y: 40, width: 180, height: 180)
        radial.type = .radial
        radial.colors = [color(1, 1, 1), palette[2], color(0.1, 0.1, 0.2)]
        radial.startPoint = CGPoint(x: 0.5, y: 0.5)
        radial.endPoint = CGPoint(x: 1, y: 1)
        radial.cornerRadius = 90
        let conic = CAGradientLayer()
        conic.frame = CGRect(x: 430, y: 40, width: 180, height: 180)
        conic.type = .conic
        conic.colors = palette + [palette[0]]
        conic.startPoint = CGPoint(x: 0.5, y: 0.5)
        conic.endPoint = CGPoint(x: 0.5, y: 0)
        conic.cornerRadius = 20
        let banner = CAGradientLayer()
        banner.frame = CGRect(x: 30, y: 260, width: 580, height: 80)
        banner.colors = [palette[0], palette[4]]
        banner.startPoint = CGPoint(x: 0, y: 0.5)
        banner.endPoint = CGPoint(x: 1, y: 0.5)
        banner.cornerRadius = 12
        banner.shadowOpacity = 0.6
        banner.shadowRadius = 10
        banner.shadowOffset = CGSize(width: 0, height: 6)
        // A gradient used as a mask: the picture fades out towards the bottom.
        let faded = box(CGRect(x: 30, y: 370, width: 580, height: 90), palette[2], radius: 0)
        let fade = CAGradientLayer()
        fade.frame = faded.bounds
        fade.colors = [color(0, 0, 0, 1), color(0, 0, 0, 0)]
        faded.mask = fade
        for l in [seed, radial, conic, banner, faded] { stage.addSublayer(l) }
        // Each layer keeps its own state: a click always changes the layer clicked.
        var turnedLayers: Set<ObjectIdentifier> = []
        return { e in
            guard case .down = e.kind, let hit = e.layer as? CAGradientLayer else { return }
            let id = ObjectIdentifier(hit)
            let turned = !turnedLayers.contains(id)
            if turned { turnedLayers.insert(id) } else { turnedLayers.remove(id) }
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            if hit === seed {
                seed.locations = turned ? [0.5, 0.75, 1] : [0, 0.25, 0.5]
            } else if hit === radial {
                radial.endPoint = turned ? CGPoint(x: 0.7, y: 0.7) : CGPoint(x: 1, y: 1)
            } else if hit === conic {
                conic.endPoint = turned ? CGPoint(x: 1, y: 0.5) : CGPoint(x: 0.5, y: 0)
            } else {
                hit.colors = turned ? [palette[2], palette[3]] : [palette[0], palette[4]]
            }
            CATransaction.commit()
        }
    },
]

/// A rounded rectangle path with every corner rounded but, optionally, the bottom-right one
/// (UIKit's `bezierPathWithRoundedRect:byRoundingCorners:cornerRadii:`, in layer coordinates).
func roundedRect(_ r: CGRect, radius: CGFloat, squareBottomRight: Bool) -> CGPath {
    let p = CGMutablePath()
    p.move(to: CGPoint(x: r.minX + radius, y: r.minY))
    p.addArc(tangent1End: CGPoint(x: r.maxX, y: r.minY), tangent2End: CGPoint(x: r.maxX, y: r.maxY), radius: radius)
    p.addArc(tangent1End: CGPoint(x: r.maxX, y: r.maxY), tangent2End: CGPoint(x: r.minX, y: r.maxY), radius: squareBottomRight ? 0 : radius)
    p.addArc(tangent1End: CGPoint(x: r.minX, y: r.maxY), tangent2End: CGPoint(x: r.minX, y: r.minY), radius: radius)
    p.addArc(tangent1End: CGPoint(x: r.minX, y: r.minY), tangent2End: CGPoint(x: r.maxX, y: r.minY), radius: radius)
    p.closeSubpath()
    return p
}

/// A five-pointed star in `r`; `inner` is the inner radius as a fraction of the outer one.
func star(_ r: CGRect, inner: CGFloat) -> CGPath {
    let p = CGMutablePath()
    for i in 0..<10 {
        let angle = CGFloat(i) * .pi / 5 - .pi / 2
        let radius = r.width / 2 * (i % 2 == 0 ? 1 : inner)
        let q = CGPoint(x: r.midX + radius * cos(angle), y: r.midY + radius * sin(angle))
        if i == 0 { p.move(to: q) } else { p.addLine(to: q) }
    }
    p.closeSubpath()
    return p
}
