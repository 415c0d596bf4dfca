import Foundation
import QuartzCore

/// One gallery scene: builds its layers into a container and reacts to events.
struct Scene {
    let name: String
    /// Builds the scene into `stage` (sized like the window) and returns its event handler.
    let build: (_ stage: CALayer, _ image: CGImage?) -> ((SceneEvent) -> Void)
}

/// The events a scene sees (a window-independent copy of X11Host's LayerEvent).
struct SceneEvent {
    enum Kind { case down, up, moved, dragged, scroll(CGFloat) }
    var kind: Kind
    var location: CGPoint
    var layer: CALayer?
}

/// Runs `body` in a transaction with actions disabled: the gallery's own panels and overlays
/// change at once (the scenes spell the same idiom out, as Apple code does).
func withoutAnimation(_ body: () -> Void) {
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    body()
    CATransaction.commit()
}

func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor { CGColor(red: r, green: g, blue: b, alpha: a) }

func box(_ frame: CGRect, _ fill: CGColor?, radius: CGFloat = 0, name: String? = nil) -> CALayer {
    let l = CALayer()
    l.frame = frame
    l.backgroundColor = fill
    l.cornerRadius = radius
    l.name = name
    return l
}

let palette = [color(0.95, 0.45, 0.2), color(0.3, 0.75, 0.45), color(0.35, 0.55, 0.95), color(0.9, 0.3, 0.5), color(0.95, 0.8, 0.25)]

/// The scenes, in gallery order (each reproduces a part of Apple's Core Animation guides).
@MainActor let scenes: [Scene] = baseScenes + contentScenes + structuralScenes + customPropertyScenes

@MainActor let baseScenes: [Scene] = [
    Scene(name: "Implicit animations — click a layer") { stage, _ in
        var layers: [CALayer] = []
        // The boxes move between two rows (centres at y 100 and 270), clear of the bar below them
        // and of the window's edges.
        for i in 0..<3 {
            let l = box(CGRect(x: 90 + CGFloat(i) * 170, y: 40, width: 120, height: 120), palette[i], radius: 16)
            stage.addSublayer(l)
            layers.append(l)
        }
        let slow = box(CGRect(x: 90, y: 380, width: 460, height: 50), color(0.25, 0.27, 0.33), radius: 8, name: "slow")
        let label = CATextLayer()
        label.frame = slow.bounds.insetBy(dx: 12, dy: 14)
        label.string = "Click: all three move in 2 s, then a completion block"
        label.fontSize = 14
        label.alignmentMode = .center
        label.contentsScale = stage.contentsScale
        slow.addSublayer(label)
        stage.addSublayer(slow)
        var step = 0
        return { e in
            guard case .down = e.kind, let hit = e.layer else { return }
            step += 1
            if hit === slow || hit === label {
                // Seed 001 §3.1: a 2 s transaction whose completion block runs when it is done.
                CATransaction.begin()
                CATransaction.setAnimationDuration(2)
                CATransaction.setCompletionBlock { slow.backgroundColor = color(0.25, 0.27, 0.33) }
                for l in layers { l.position.y = l.position.y == 100 ? 270 : 100 }
                slow.backgroundColor = palette[step % palette.count]
                CATransaction.commit()
            } else if hit === layers[0] {
                // Colours none of the other boxes has.
                let tints = [color(0.95, 0.8, 0.25), color(0.9, 0.3, 0.5), color(0.6, 0.4, 0.9), palette[0]]
                hit.backgroundColor = tints[step % tints.count]
            } else if hit === layers[1] {
                hit.position.x += step % 2 == 0 ? -40 : 40   // stays clear of its neighbours
            } else if hit === layers[2] {
                hit.setAffineTransform(CGAffineTransform(rotationAngle: CGFloat(step) * .pi / 4))
            }
        }
    },
    Scene(name: "Geometry — anchorPoint, position, bounds") { stage, _ in
        for (i, anchor) in [CGPoint(x: 0, y: 0), CGPoint(x: 0.5, y: 0.5), CGPoint(x: 1, y: 1)].enumerated() {
            let guide = box(CGRect(x: 0, y: 0, width: 6, height: 6), color(1, 1, 1), radius: 3)
            let p = CGPoint(x: 140 + CGFloat(i) * 180, y: 200)
            guide.position = p
            let l = box(CGRect(x: 0, y: 0, width: 100, height: 60), palette[i], radius: 6)
            l.anchorPoint = anchor
            l.position = p
            l.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 8))
            stage.addSublayer(l)
            stage.addSublayer(guide)
        }
        return { _ in }
    },
    Scene(name: "Corners, borders, shadows") { stage, _ in
        let a = box(CGRect(x: 50, y: 60, width: 150, height: 110), palette[0], radius: 20)
        a.borderWidth = 5; a.borderColor = color(1, 0.9, 0.7)
        let b = box(CGRect(x: 240, y: 60, width: 150, height: 110), palette[1], radius: 40)
        b.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMaxXMaxYCorner]
        let c = box(CGRect(x: 430, y: 60, width: 150, height: 110), palette[2], radius: 12)
        c.shadowOpacity = 0.7; c.shadowRadius = 10; c.shadowOffset = CGSize(width: 0, height: 8)
        // Seed 000: a contact shadow (a flat ellipse under the layer) and a curved one.
        let d = box(CGRect(x: 80, y: 250, width: 180, height: 120), palette[3], radius: 0)
        d.shadowOpacity = 0.6; d.shadowRadius = 6; d.shadowOffset = .zero
        d.shadowPath = CGPath(ellipseIn: CGRect(x: -10, y: 120, width: 200, height: 24), transform: nil)
        let e = box(CGRect(x: 360, y: 250, width: 180, height: 120), palette[4], radius: 0)
        let curve = CGMutablePath()
        curve.move(to: CGPoint(x: 0, y: 110)); curve.addLine(to: CGPoint(x: 180, y: 110))
        curve.addLine(to: CGPoint(x: 180, y: 135))
        curve.addCurve(to: CGPoint(x: 0, y: 135), control1: CGPoint(x: 130, y: 118), control2: CGPoint(x: 50, y: 118))
        curve.closeSubpath()
        e.shadowOpacity = 0.6; e.shadowRadius = 5; e.shadowOffset = .zero; e.shadowPath = curve
        for l in [a, b, c, d, e] { stage.addSublayer(l) }
        return { _ in }
    },
    Scene(name: "Contents — gravity and contentsRect; click the right column") { stage, image in
        // Six gravities (left, 3 × 2), then contentsRect: the image's top-left quarter, and a
        // window onto the picture that pans when clicked (contentsRect animates).
        let gravities: [CALayerContentsGravity] = [.resize, .resizeAspect, .resizeAspectFill, .center, .topLeft, .bottomRight]
        func caption(_ text: String, under l: CALayer) {
            let t = CATextLayer()
            t.frame = CGRect(x: l.frame.minX, y: l.frame.maxY + 4, width: l.frame.width, height: 18)
            t.string = text
            t.fontSize = 12
            t.alignmentMode = .center
            t.foregroundColor = color(0.8, 0.82, 0.88)
            stage.addSublayer(t)
        }
        for (i, g) in gravities.enumerated() {
            let l = box(CGRect(x: 20 + CGFloat(i % 3) * 150, y: 40 + CGFloat(i / 3) * 220, width: 130, height: 170),
                        color(0.2, 0.22, 0.28), radius: 8)
            l.contents = image
            l.contentsGravity = g
            l.contentsScale = 2
            l.masksToBounds = true
            stage.addSublayer(l)
            caption(g.rawValue, under: l)
        }
        let quarter = box(CGRect(x: 480, y: 40, width: 140, height: 170), color(0.2, 0.22, 0.28), radius: 8)
        quarter.contents = image
        quarter.contentsRect = CGRect(x: 0, y: 0, width: 0.5, height: 0.5)
        quarter.masksToBounds = true
        stage.addSublayer(quarter)
        caption("contentsRect ¼", under: quarter)
        let window = box(CGRect(x: 480, y: 260, width: 140, height: 170), color(0.2, 0.22, 0.28), radius: 8, name: "pan")
        window.contents = image
        window.contentsRect = CGRect(x: 0, y: 0, width: 0.3, height: 0.6)
        window.masksToBounds = true
        stage.addSublayer(window)
        caption("contentsRect pans", under: window)
        var step = 0
        return { e in
            guard case .down = e.kind, e.layer === window || e.layer === quarter else { return }
            step += 1
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.8)
            if e.layer === window {
                window.contentsRect.origin = CGPoint(x: [0, 0.35, 0.7, 0.35][step % 4], y: [0, 0.4, 0, 0.2][step % 4])
            } else {
                quarter.contentsRect.origin = CGPoint(x: step % 2 == 0 ? 0 : 0.5, y: step % 4 < 2 ? 0 : 0.5)
            }
            CATransaction.commit()
        }
    },
    Scene(name: "3D transforms — drag to turn") { stage, image in
        let holder = box(stage.bounds, nil)
        var p = CATransform3DIdentity
        p.m34 = -1 / 500
        holder.sublayerTransform = p
        let card = box(CGRect(x: stage.bounds.midX - 130, y: stage.bounds.midY - 90, width: 260, height: 180), palette[2], radius: 14)
        card.contents = image
        card.contentsGravity = .resizeAspectFill
        card.masksToBounds = true
        card.allowsEdgeAntialiasing = true
        card.transform = CATransform3DMakeRotation(.pi / 6, 0, 1, 0)
        holder.addSublayer(card)
        stage.addSublayer(holder)
        var angle: CGFloat = .pi / 6
        var last: CGPoint?
        return { e in
            switch e.kind {
            case .down: last = e.location
            case .dragged:
                if let l = last {
                    angle += (e.location.x - l.x) / 150
                    CATransaction.begin(); CATransaction.setDisableActions(true)
                    card.transform = CATransform3DMakeRotation(angle, 0, 1, 0)
                    CATransaction.commit()
                }
                last = e.location
            default: break
            }
        }
    },
    Scene(name: "Explicit animations — click to pause, drag to scrub") { stage, _ in
        let track = box(stage.bounds, nil)
        stage.addSublayer(track)
        let dot = box(CGRect(x: 0, y: 0, width: 40, height: 40), palette[0], radius: 20)
        let path = CGMutablePath()
        path.addEllipse(in: CGRect(x: 100, y: 80, width: 440, height: 260))
        let follow = CAKeyframeAnimation(keyPath: "position")
        follow.path = path; follow.duration = 4; follow.repeatCount = .infinity; follow.calculationMode = .paced
        dot.add(follow, forKey: "follow")
        let springy = box(CGRect(x: 300, y: 190, width: 60, height: 60), palette[1], radius: 10)
        let spring = CASpringAnimation(keyPath: "transform.scale")
        spring.fromValue = 0.3; spring.toValue = 1; spring.damping = 6; spring.duration = 2; spring.repeatCount = .infinity
        springy.add(spring, forKey: "spring")
        // A basic animation and a group (colour + corner radius together), repeating.
        let pulse = box(CGRect(x: 60, y: 380, width: 60, height: 60), palette[3], radius: 4)
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.byValue = 440; slide.duration = 3; slide.autoreverses = true; slide.repeatCount = .infinity
        pulse.add(slide, forKey: "slide")
        let tint = CABasicAnimation(keyPath: "backgroundColor")
        tint.toValue = palette[4]
        let round = CABasicAnimation(keyPath: "cornerRadius")
        round.toValue = 30
        let group = CAAnimationGroup()
        group.animations = [tint, round]
        group.duration = 1.5; group.autoreverses = true; group.repeatCount = .infinity
        pulse.add(group, forKey: "group")
        track.addSublayer(dot); track.addSublayer(springy); track.addSublayer(pulse)
        var paused = false
        var press: CGPoint?
        var scrubbed = false
        return { e in
            switch e.kind {
            case .down:
                press = e.location
                scrubbed = false
            case .dragged where paused:
                // Scrub: 100 points of horizontal drag are one second of the paused timeline.
                guard let p = press else { return }
                scrubbed = true
                CATransaction.begin(); CATransaction.setDisableActions(true)
                track.timeOffset = max(0, track.timeOffset + Double(e.location.x - p.x) / 100)
                CATransaction.commit()
                press = e.location
            case .up:
                defer { press = nil }
                guard !scrubbed else { return }
                // A click (no scrub): seed 004's "manual animation" — pause by speed 0, resume
                // from the paused time.
                CATransaction.begin(); CATransaction.setDisableActions(true)
                if paused {
                    let pausedTime = track.timeOffset
                    track.speed = 1; track.timeOffset = 0; track.beginTime = 0
                    track.beginTime = track.convertTime(CACurrentMediaTime(), from: nil) - pausedTime
                } else {
                    track.timeOffset = track.convertTime(CACurrentMediaTime(), from: nil)
                    track.speed = 0
                }
                CATransaction.commit()
                paused.toggle()
            default: break
            }
        }
    },
    Scene(name: "Hit testing — hover over the layers") { stage, _ in
        var layers: [CALayer] = []
        for i in 0..<12 {
            let l = box(CGRect(x: 40 + CGFloat(i % 4) * 150, y: 50 + CGFloat(i / 4) * 120, width: 120, height: 90),
                        color(0.25, 0.27, 0.33), radius: 10)
            l.zPosition = CGFloat(i % 3)
            if i % 2 == 0 { l.setAffineTransform(CGAffineTransform(rotationAngle: 0.2)) }
            stage.addSublayer(l)
            layers.append(l)
        }
        return { e in
            guard case .moved = e.kind else { return }
            for l in layers { l.borderWidth = l === e.layer ? 4 : 0; l.borderColor = palette[4] }
        }
    },
    Scene(name: "Masks, group opacity, transitions — click the card") { stage, image in
        let masked = box(CGRect(x: 40, y: 60, width: 180, height: 180), palette[0])
        masked.contents = image
        masked.contentsGravity = .resizeAspectFill
        let ring = box(CGRect(x: 0, y: 0, width: 180, height: 180), color(0, 0, 0), radius: 90)
        masked.mask = ring
        let group = box(CGRect(x: 250, y: 60, width: 150, height: 150), nil)
        group.opacity = 0.5
        for i in 0..<3 {
            group.addSublayer(box(CGRect(x: CGFloat(i) * 30, y: CGFloat(i) * 30, width: 90, height: 90), palette[i + 1], radius: 12))
        }
        let card = box(CGRect(x: 430, y: 60, width: 170, height: 120), palette[2], radius: 10)
        // contentsCenter: a 3×3 frame image stretched as a nine-slice around the card's edge.
        let frame = box(CGRect(x: 430, y: 260, width: 170, height: 120), nil)
        if let ctx = CGContext(data: nil, width: 9, height: 9, bitsPerComponent: 8, bytesPerRow: 0,
                               space: CGColorSpaceCreateDeviceRGB(),
                               bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue) {
            ctx.setFillColor(palette[4]); ctx.fill(CGRect(x: 0, y: 0, width: 9, height: 9))
            ctx.clear(CGRect(x: 3, y: 3, width: 3, height: 3))
            frame.contents = ctx.makeImage()
            frame.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
            frame.magnificationFilter = .nearest
        }
        for l in [masked, group, card, frame] { stage.addSublayer(l) }
        var step = 0
        let types: [CATransitionType] = [.push, .moveIn, .reveal, .fade]
        return { e in
            guard case .down = e.kind, e.layer === card else { return }
            let t = CATransition()
            t.type = types[step % types.count]
            t.subtype = .fromRight
            t.duration = 0.6
            card.add(t, forKey: kCATransition)
            step += 1
            CATransaction.begin(); CATransaction.setDisableActions(true)
            card.backgroundColor = palette[step % palette.count]
            CATransaction.commit()
        }
    },
    Scene(name: "1,000 animated layers") { stage, _ in
        for i in 0..<1000 {
            let l = box(CGRect(x: CGFloat(i % 40) * 16, y: CGFloat(i / 40) * 18, width: 14, height: 14), palette[i % 5], radius: 3)
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 1; a.toValue = 0.2; a.duration = 1 + Double(i % 7) * 0.2
            a.autoreverses = true; a.repeatCount = .infinity
            l.add(a, forKey: "pulse")
            stage.addSublayer(l)
        }
        return { _ in }
    },
]
