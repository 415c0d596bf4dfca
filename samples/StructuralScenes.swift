import Foundation
import QuartzCore

/// The seeds' structural-layer examples: replicators and a scroll layer.
@MainActor let structuralScenes: [Scene] = [
    Scene(name: "Replicator layers — ten squares, a reflection, a spinner") { stage, image in
        // Seed 004: ten squares turned by π/5 about the replicator's centre, blue and green fading.
        let ring = CAReplicatorLayer()
        ring.frame = CGRect(x: 20, y: 40, width: 265, height: 265)
        ring.instanceCount = 10
        ring.instanceTransform = CATransform3DRotate(CATransform3DIdentity, .pi / 5, 0, 0, 1)
        ring.instanceBlueOffset = -0.1
        ring.instanceGreenOffset = -0.1
        let square = CALayer()
        square.frame = CGRect(x: 107.5, y: 0, width: 50, height: 50)
        square.backgroundColor = color(0, 1, 0)
        let label = CATextLayer()
        label.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        label.string = "xy"
        square.addSublayer(label)
        ring.addSublayer(square)
        // Seed 004: a reflection — two instances, the second flipped below with alpha − 0.6.
        let mirror = CAReplicatorLayer()
        mirror.frame = CGRect(x: 330, y: 40, width: 160, height: 110)
        mirror.instanceCount = 2
        var flip = CATransform3DIdentity
        flip = CATransform3DTranslate(flip, 0, 110 + 2, 0)
        flip = CATransform3DScale(flip, 1, -1, 0)
        mirror.instanceTransform = flip
        mirror.instanceAlphaOffset = -0.6
        let picture = box(mirror.bounds, palette[2], radius: 8)
        picture.contents = image
        picture.contentsGravity = .resizeAspectFill
        picture.masksToBounds = true
        mirror.addSublayer(picture)
        // A spinner: twelve bars, each fading a twelfth of a second after the previous one.
        let spinner = CAReplicatorLayer()
        spinner.frame = CGRect(x: 520, y: 60, width: 80, height: 80)
        spinner.instanceCount = 12
        spinner.instanceTransform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        spinner.instanceDelay = 1.0 / 12
        let bar = box(CGRect(x: 37, y: 4, width: 6, height: 20), color(1, 1, 1), radius: 3)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1; fade.toValue = 0.1; fade.duration = 1; fade.repeatCount = .infinity
        bar.add(fade, forKey: "fade")
        spinner.addSublayer(bar)
        for l in [ring, mirror, spinner] { stage.addSublayer(l) }
        return { _ in }
    },
    Scene(name: "Scroll layer — drag or use the wheel") { stage, _ in
        let scroller = CAScrollLayer()
        scroller.frame = CGRect(x: 120, y: 30, width: 400, height: 420)
        scroller.scrollMode = .vertically
        scroller.backgroundColor = color(0.16, 0.17, 0.2)
        scroller.cornerRadius = 10
        let rowHeight: CGFloat = 56, count = 60
        for i in 0..<count {
            let row = box(CGRect(x: 10, y: 10 + CGFloat(i) * rowHeight, width: 380, height: rowHeight - 8),
                          palette[i % palette.count], radius: 6)
            let text = CATextLayer()
            // The row's whole width less its margins; a line that still does not fit ends in "…".
            text.frame = CGRect(x: 14, y: 12, width: 352, height: 30)
            text.fontSize = 18
            text.truncationMode = .end
            text.foregroundColor = color(0.1, 0.1, 0.12)
            text.string = "Row \(i + 1) — scrolled by bounds.origin"
            row.addSublayer(text)
            scroller.addSublayer(row)
        }
        stage.addSublayer(scroller)
        let contentHeight = 20 + CGFloat(count) * rowHeight
        func clamp(_ y: CGFloat) -> CGFloat { min(max(y, 0), contentHeight - scroller.bounds.height) }
        var last: (y: CGFloat, t: CFTimeInterval)?
        var velocity: CGFloat = 0
        return { e in
            switch e.kind {
            case .down:
                last = (e.location.y, CACurrentMediaTime()); velocity = 0
            case .dragged:
                guard let l = last else { return }
                let now = CACurrentMediaTime()
                let dy = l.y - e.location.y
                if now > l.t { velocity = dy / CGFloat(now - l.t) }
                CATransaction.begin(); CATransaction.setDisableActions(true)
                scroller.scroll(to: CGPoint(x: 0, y: clamp(scroller.bounds.origin.y + dy)))
                CATransaction.commit()
                last = (e.location.y, now)
            case .up:
                // Momentum: keep going a third of a second's worth, easing out.
                guard abs(velocity) > 50 else { return }
                CATransaction.begin()
                CATransaction.setAnimationDuration(0.6)
                CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeOut))
                scroller.scroll(to: CGPoint(x: 0, y: clamp(scroller.bounds.origin.y + velocity / 3)))
                CATransaction.commit()
                last = nil
            case .scroll(let dy):
                scroller.scroll(to: CGPoint(x: 0, y: clamp(scroller.bounds.origin.y + dy * 60)))
            default: break
            }
        }
    },
    Scene(name: "Transform layers — two cubes, drag to spin") { stage, _ in
        // Seed: two cubes of six coloured faces in perspective, the second turned 45° about x and y.
        let holder = box(stage.bounds, nil)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 500
        holder.sublayerTransform = perspective
        func cube(at center: CGPoint, turn: CATransform3D) -> CATransformLayer {
            let c = CATransformLayer()
            c.frame = CGRect(x: center.x - 60, y: center.y - 60, width: 120, height: 120)
            let placements: [CATransform3D] = [
                CATransform3DMakeTranslation(0, 0, 60),
                CATransform3DTranslate(CATransform3DMakeRotation(.pi / 2, 0, 1, 0), 0, 0, 60),
                CATransform3DTranslate(CATransform3DMakeRotation(.pi / 2, 1, 0, 0), 0, 0, 60),
                CATransform3DTranslate(CATransform3DMakeRotation(-.pi / 2, 1, 0, 0), 0, 0, 60),
                CATransform3DTranslate(CATransform3DMakeRotation(-.pi / 2, 0, 1, 0), 0, 0, 60),
                CATransform3DTranslate(CATransform3DMakeRotation(.pi, 0, 1, 0), 0, 0, 60),
            ]
            for (i, t) in placements.enumerated() {
                let face = box(CGRect(x: 0, y: 0, width: 120, height: 120), palette[i % palette.count], radius: 4)
                face.transform = t
                face.borderWidth = 2
                face.borderColor = color(1, 1, 1, 0.6)
                let label = CATextLayer()
                label.frame = CGRect(x: 0, y: 40, width: 120, height: 40)
                label.alignmentMode = .center
                label.fontSize = 30
                label.string = "\(i + 1)"
                face.addSublayer(label)
                c.addSublayer(face)
            }
            c.transform = turn
            return c
        }
        let left = cube(at: CGPoint(x: 180, y: 240), turn: CATransform3DIdentity)
        let right = cube(at: CGPoint(x: 460, y: 240), turn: CATransform3DRotate(CATransform3DMakeRotation(.pi / 4, 1, 0, 0), .pi / 4, 0, 1, 0))
        holder.addSublayer(left)
        holder.addSublayer(right)
        stage.addSublayer(holder)
        var angles = (x: CGFloat(0), y: CGFloat(0))
        var last: CGPoint?
        return { e in
            switch e.kind {
            case .down: last = e.location
            case .dragged:
                guard let l = last else { return }
                angles.y += (e.location.x - l.x) / 100
                angles.x -= (e.location.y - l.y) / 100
                last = e.location
                CATransaction.begin(); CATransaction.setDisableActions(true)
                let spin = CATransform3DRotate(CATransform3DMakeRotation(angles.x, 1, 0, 0), angles.y, 0, 1, 0)
                left.transform = spin
                right.transform = CATransform3DConcat(spin, CATransform3DRotate(CATransform3DMakeRotation(.pi / 4, 1, 0, 0), .pi / 4, 0, 1, 0))
                CATransaction.commit()
            default: break
            }
        }
    },
    Scene(name: "Emitter layers — sparks, fire and snow; click to move the sparks") { stage, _ in
        func dot(_ size: Int, soft: Bool) -> CGImage? {
            guard let ctx = CGContext(data: nil, width: size, height: size, bitsPerComponent: 8, bytesPerRow: 0,
                                      space: CGColorSpaceCreateDeviceRGB(),
                                      bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)
            else { return nil }
            let r = CGFloat(size) / 2
            if soft {
                let g = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(),
                                   colors: [CGColor(gray: 1, alpha: 1), CGColor(gray: 1, alpha: 0)] as CFArray, locations: [0, 1])!
                ctx.drawRadialGradient(g, startCenter: CGPoint(x: r, y: r), startRadius: 0, endCenter: CGPoint(x: r, y: r), endRadius: r, options: [])
            } else {
                ctx.setFillColor(CGColor(gray: 1, alpha: 1))
                ctx.fill(CGRect(x: 0, y: 0, width: size, height: size))
            }
            return ctx.makeImage()
        }
        // Seed 004: 150 red squares a second spreading all ways, fading at 0.4 a second, added up.
        let sparks = CAEmitterLayer()
        sparks.frame = stage.bounds   // the whole window: a click anywhere moves them
        sparks.emitterPosition = CGPoint(x: 160, y: 200)
        sparks.renderMode = .additive
        let spark = CAEmitterCell()
        spark.name = "spark"
        spark.contents = dot(8, soft: false)
        spark.birthRate = 150
        spark.lifetime = 5
        spark.color = color(1, 0, 0)
        spark.alphaSpeed = -0.4
        spark.velocity = 50
        spark.velocityRange = 50
        spark.emissionRange = .pi * 2
        sparks.emitterCells = [spark]
        // Fire: soft orange dots rising from a line, shrinking and fading.
        let fire = CAEmitterLayer()
        fire.frame = CGRect(x: 320, y: 240, width: 320, height: 240)
        fire.emitterPosition = CGPoint(x: 160, y: 220)
        fire.emitterShape = .line
        fire.emitterSize = CGSize(width: 80, height: 0)
        fire.renderMode = .additive
        let flame = CAEmitterCell()
        flame.contents = dot(32, soft: true)
        flame.birthRate = 300
        flame.lifetime = 1.4
        flame.lifetimeRange = 0.4
        flame.color = color(1, 0.45, 0.1, 0.5)
        flame.alphaSpeed = -0.35
        flame.velocity = 90
        flame.velocityRange = 30
        flame.emissionLongitude = -.pi / 2
        flame.emissionRange = 0.35
        flame.scaleSpeed = -0.4
        fire.emitterCells = [flame]
        // Snow: white flakes drifting down from a line across the top, turning slowly.
        let snow = CAEmitterLayer()
        snow.frame = CGRect(x: 320, y: 0, width: 320, height: 240)
        snow.masksToBounds = true
        snow.emitterPosition = CGPoint(x: 160, y: -10)
        snow.emitterShape = .line
        snow.emitterSize = CGSize(width: 320, height: 0)
        let flake = CAEmitterCell()
        flake.contents = dot(10, soft: true)
        flake.birthRate = 40
        flake.lifetime = 8
        flake.velocity = 30
        flake.velocityRange = 15
        flake.emissionLongitude = .pi / 2
        flake.emissionRange = 0.4
        flake.yAcceleration = 4
        flake.scale = 0.8
        flake.scaleRange = 0.4
        flake.spin = 0.5
        flake.spinRange = 1
        snow.emitterCells = [flake]
        for l in [sparks, fire, snow] { stage.addSublayer(l) }
        return { e in
            guard case .down = e.kind else { return }
            CATransaction.begin(); CATransaction.setDisableActions(true)
            sparks.emitterPosition = e.location
            CATransaction.commit()
        }
    },
    Scene(name: "Tiled layer — a 16,384-point picture: drag to scroll, wheel to zoom") { stage, _ in
        let scroller = CAScrollLayer()
        scroller.frame = stage.bounds
        let map = CATiledLayer()
        map.anchorPoint = .zero
        map.bounds = CGRect(x: 0, y: 0, width: 16_384, height: 16_384)
        map.position = .zero
        map.levelsOfDetail = 6
        map.levelsOfDetailBias = 1
        map.delegate = TilePainter.shared
        scroller.addSublayer(map)
        stage.addSublayer(scroller)
        var zoom: CGFloat = 1
        var last: CGPoint?
        return { e in
            switch e.kind {
            case .down: last = e.location
            case .dragged:
                guard let l = last else { return }
                let o = scroller.bounds.origin
                CATransaction.begin(); CATransaction.setDisableActions(true)
                scroller.scroll(to: CGPoint(x: o.x - (e.location.x - l.x), y: o.y - (e.location.y - l.y)))
                CATransaction.commit()
                last = e.location
            case .scroll(let dy):
                // Zoom about the pointer: the map point under it stays under it.
                let under = map.convert(e.location, from: stage)   // the map point under the pointer
                let pointer = CGPoint(x: e.location.x - scroller.frame.minX, y: e.location.y - scroller.frame.minY)
                zoom = min(max(zoom * (dy < 0 ? 1.25 : 0.8), 1.0 / 32), 2)
                CATransaction.begin(); CATransaction.setAnimationDuration(0.2)
                map.transform = CATransform3DMakeScale(zoom, zoom, 1)
                // Never past the picture's top-left corner (zooming out would leave empty space).
                scroller.scroll(to: CGPoint(x: max(0, under.x * zoom - pointer.x), y: max(0, under.y * zoom - pointer.y)))
                CATransaction.commit()
            default: break
            }
        }
    },
]

/// Paints the tiles of the tiled-layer scene: a colour field with a grid and coordinates, drawn
/// from the clip box only (thread-safe: no shared state).
final class TilePainter: NSObject, CALayerDelegate, @unchecked Sendable {
    static let shared = TilePainter()

    func draw(_ layer: CALayer, in ctx: CGContext) {
        let r = ctx.boundingBoxOfClipPath
        let u = r.midX / 16_384, v = r.midY / 16_384
        ctx.setFillColor(CGColor(red: 0.2 + 0.6 * u, green: 0.3 + 0.4 * v, blue: 0.8 - 0.5 * u, alpha: 1))
        ctx.fill(r)
        ctx.setStrokeColor(CGColor(gray: 1, alpha: 0.5))
        ctx.setLineWidth(max(1, r.width / 256))
        ctx.stroke(r.insetBy(dx: r.width / 512, dy: r.height / 512))
        let label = CGTextLayout(string: String(format: "%.0f, %.0f", r.minX, r.minY),
                                 style: .init(fontFamily: "DejaVu Sans", fontSize: r.width / 10, color: CGColor(gray: 1, alpha: 0.9)))
        ctx.draw(label, in: r.insetBy(dx: r.width / 20, dy: r.height / 20))
    }
}
