import CoreGraphics
import Foundation
import QuartzCore

/// Drives a layer tree with an operation stream — hierarchy changes, property sets, masks,
/// animations of every kind, nested and explicit transactions — and renders it with a
/// `CARenderer` at several times, and through `render(in:)`, hit tests and presentation().
enum LayerFuzz {
    static let maxOperations = 200
    static let maxLayers = 24

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let renderer = CARenderer()
        renderer.bounds = CGRect(x: 0, y: 0, width: 48, height: 48)
        let root = CALayer()
        root.frame = renderer.bounds
        renderer.layer = root
        var layers: [CALayer] = [root]
        var depth = 0
        let start = CACurrentMediaTime()
        var count = 0
        while input.hasMore, count < maxOperations {
            count += 1
            let target = layers[input.int(layers.count)]
            switch input.int(14) {
            case 0 where layers.count < maxLayers:
                let kinds: [() -> CALayer] = [CALayer.init, CAShapeLayer.init, CATextLayer.init, CAGradientLayer.init,
                                              CAReplicatorLayer.init, CATransformLayer.init, CAScrollLayer.init, CAEmitterLayer.init]
                let l = kinds[input.int(kinds.count)]()
                l.frame = input.rect()
                l.backgroundColor = input.color()
                configure(l, &input)
                target.addSublayer(l)
                layers.append(l)
            case 1: target.removeFromSuperlayer()
            case 2: layers[input.int(layers.count)].addSublayer(target)   // cycles are refused
            case 3: target.mask = input.bool() ? layers[input.int(layers.count)] : nil
            case 4: setGeometry(target, &input)
            case 5: setLook(target, &input)
            case 6: setTiming(target, &input)
            case 7: target.add(animation(&input), forKey: input.bool() ? "k\(input.int(3))" : nil)
            case 8: CATransaction.begin(); depth += 1; CATransaction.setAnimationDuration(Double(input.number()))
            case 9: if depth > 0 { CATransaction.commit(); depth -= 1 }
            case 10: CATransaction.setDisableActions(input.bool())
            case 11: CATransaction.flush()
            case 12: configure(target, &input)
            default: target.removeAllAnimations()
            }
        }
        while depth > 0 { CATransaction.commit(); depth -= 1 }
        CATransaction.flush()
        for step in 0..<3 {
            let t = start + Double(step) * Double(input.int(64)) / 16
            renderer.beginFrame(atTime: t, timeStamp: nil)
            renderer.render()
            renderer.endFrame()
        }
        _ = renderer.makeImage()
        _ = root.hitTest(input.point())
        _ = layers[input.int(layers.count)].presentation()
        if let ctx = fuzzContext(48, 48) { root.render(in: ctx) }
        renderer.layer = nil
    }

    static func setGeometry(_ l: CALayer, _ input: inout FuzzInput) {
        switch input.int(8) {
        case 0: l.position = input.point()
        case 1: l.bounds = input.rect()
        case 2: l.anchorPoint = CGPoint(x: input.number(), y: input.number())
        case 3: l.transform = CATransform3DMakeRotation(input.number(), input.number(), input.number(), input.number())
        case 4: l.transform = CATransform3DMakeScale(input.number(), input.number(), input.number())
        case 5: var t = CATransform3DIdentity; t.m34 = input.number(); l.sublayerTransform = t
        case 6: l.zPosition = input.number()
        default: l.contentsRect = input.rect()
        }
    }

    static func setLook(_ l: CALayer, _ input: inout FuzzInput) {
        switch input.int(9) {
        case 0: l.opacity = Float(input.number())
        case 1: l.cornerRadius = input.number(); l.masksToBounds = input.bool()
        case 2: l.borderWidth = input.number(); l.borderColor = input.color()
        case 3: l.shadowOpacity = Float(input.number()); l.shadowRadius = input.number(); l.shadowOffset = input.size()
        case 4: l.shadowPath = CGPath(ellipseIn: input.rect(), transform: nil)
        case 5: l.shouldRasterize = input.bool(); l.rasterizationScale = input.number()
        case 6: l.isHidden = input.bool(); l.isDoubleSided = input.bool()
        case 7: l.contents = smallImage(&input)
        default: l.allowsGroupOpacity = input.bool(); l.minificationFilter = input.bool() ? .trilinear : .nearest
        }
    }

    static func setTiming(_ l: CALayer, _ input: inout FuzzInput) {
        switch input.int(5) {
        case 0: l.speed = Float(input.number())
        case 1: l.timeOffset = Double(input.number())
        case 2: l.beginTime = Double(input.number())
        case 3: l.repeatCount = Float(input.number()); l.autoreverses = input.bool()
        default: l.duration = Double(input.number())
        }
    }

    /// Sets what only the layer's own class has.
    static func configure(_ l: CALayer, _ input: inout FuzzInput) {
        switch l {
        case let s as CAShapeLayer:
            s.path = CGPath(roundedRect: input.rect(), cornerWidth: abs(input.number()), cornerHeight: abs(input.number()), transform: nil)
            s.lineWidth = input.number(); s.strokeColor = input.color(); s.strokeStart = input.number(); s.strokeEnd = input.number()
            s.lineDashPattern = (0..<input.int(4)).map { _ in NSNumber(value: Double(input.number())) }
        case let t as CATextLayer:
            t.string = String(decoding: (0..<input.int(24)).map { _ in input.byte() }, as: UTF8.self)
            t.fontSize = input.number(); t.isWrapped = input.bool(); t.truncationMode = input.bool() ? .middle : .end
        case let g as CAGradientLayer:
            g.colors = (0..<input.int(5)).map { _ in input.color() }
            g.locations = (0..<input.int(5)).map { _ in NSNumber(value: Double(input.number())) }
            g.type = [.axial, .radial, .conic][input.int(3)]
            g.startPoint = input.point(); g.endPoint = input.point()
        case let r as CAReplicatorLayer:
            // Counts stay small and large ones rare: replicators nested three deep reach the copy
            // budget (tested apart, in BudgetTests), and painting that many copies takes seconds
            // under ASan, which would starve the fuzzer of executions.
            r.instanceCount = input.int(12) * (input.int(8) == 0 ? 30 : 1)
            r.instanceTransform = CATransform3DMakeTranslation(input.number(), input.number(), 0)
            r.instanceDelay = Double(input.number()); r.instanceAlphaOffset = Float(input.number())
        case let e as CAEmitterLayer:
            let cell = CAEmitterCell()
            cell.birthRate = Float(input.number()); cell.lifetime = Float(input.number())
            cell.velocity = input.number(); cell.scale = input.number(); cell.contents = smallImage(&input)
            e.emitterCells = [cell]
            e.birthRate = Float(input.number()); e.emitterPosition = input.point(); e.emitterSize = input.size()
        default:
            l.sublayerTransform = CATransform3DMakeRotation(input.number(), 0, 1, 0)
        }
    }

    static func animation(_ input: inout FuzzInput) -> CAAnimation {
        let keys = ["position", "position.x", "bounds", "opacity", "transform", "transform.rotation.z", "backgroundColor",
                    "cornerRadius", "strokeEnd", "path", "shadowRadius", "sublayerTransform.scale", "custom", "colors"]
        let key = keys[input.int(keys.count)]
        let anim: CAAnimation
        switch input.int(5) {
        case 0:
            let b = CABasicAnimation(keyPath: key)
            if input.bool() { b.fromValue = value(&input) }
            if input.bool() { b.toValue = value(&input) }
            if input.bool() { b.byValue = value(&input) }
            anim = b
        case 1:
            let k = CAKeyframeAnimation(keyPath: key)
            k.values = (0..<input.int(6)).map { _ in value(&input) }
            if input.bool() { k.keyTimes = (0..<input.int(6)).map { _ in NSNumber(value: Double(input.number())) } }
            k.calculationMode = [.linear, .discrete, .paced, .cubic, .cubicPaced][input.int(5)]
            if input.bool() { k.path = CGPath(ellipseIn: input.rect(), transform: nil) }
            anim = k
        case 2:
            let s = CASpringAnimation(keyPath: key)
            s.damping = input.number(); s.stiffness = input.number(); s.mass = input.number(); s.initialVelocity = input.number()
            if input.bool() { s.toValue = value(&input) }
            anim = s
        case 3:
            let g = CAAnimationGroup()
            g.animations = (0..<input.int(3)).map { _ in
                let b = CABasicAnimation(keyPath: keys[input.int(keys.count)]); b.toValue = value(&input); return b
            }
            anim = g
        default:
            let t = CATransition()
            t.type = [.fade, .push, .moveIn, .reveal][input.int(4)]
            t.startProgress = Float(input.number()); t.endProgress = Float(input.number())
            anim = t
        }
        anim.duration = Double(input.number())
        anim.speed = Float(input.number())
        anim.timeOffset = Double(input.number())
        anim.repeatCount = Float(input.number())
        anim.autoreverses = input.bool()
        anim.fillMode = [.removed, .forwards, .backwards, .both][input.int(4)]
        anim.isRemovedOnCompletion = input.bool()
        return anim
    }

    static func value(_ input: inout FuzzInput) -> Any {
        switch input.int(8) {
        case 0: return input.number()
        case 1: return NSValue(cgPoint: input.point())
        case 2: return NSValue(cgRect: input.rect())
        case 3: return input.color()
        case 4: return NSValue(caTransform3D: CATransform3DMakeScale(input.number(), input.number(), 1))
        case 5: return CGPath(rect: input.rect(), transform: nil)
        case 6: return NSNumber(value: Double(input.number()))
        default: return "text"
        }
    }

    static func smallImage(_ input: inout FuzzInput) -> CGImage? {
        let w = 1 + input.int(40), h = 1 + input.int(12)
        guard let ctx = fuzzContext(w, h) else { return nil }
        ctx.setFillColor(input.color())
        ctx.fill(CGRect(x: 0, y: 0, width: w / 2 + 1, height: h))
        return ctx.makeImage()
    }
}
