import Foundation
import QuartzCore
import X11Host

/// The gallery in a window: one scene at a time on a stage scaled to fit, a help panel, a
/// frame-time overlay, slow animations, debug overlays and screenshots, all driven by keys.
@MainActor final class GalleryApp {
    let window: LayerWindow
    let picture: CGImage?
    private(set) var index = 0
    private var stage = CALayer()
    private var handler: (SceneEvent) -> Void = { _ in }
    private let help: HelpPanel
    private let overlay: DebugOverlay
    private let frameTimes = CATextLayer()
    private let notice = CATextLayer()
    private var slow = false
    /// A first digit typed, and when: a second one within a second makes a two-digit scene number.
    private var firstDigit: (value: Int, time: Double)?
    private var titleTimer: Timer?

    init(window: LayerWindow, picture: CGImage?) {
        self.window = window
        self.picture = picture
        help = HelpPanel(scale: window.scale)
        overlay = DebugOverlay(scale: window.scale)
        for t in [frameTimes, notice] {
            t.fontSize = 12
            t.contentsScale = window.scale
            t.foregroundColor = CGColor(gray: 1, alpha: 1)
            t.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.7)
            t.cornerRadius = 4
            t.alignmentMode = .center
            t.zPosition = 90
            t.isHidden = true
        }
    }

    /// Shows scene `first` with the help panel open, and starts reacting to input.
    func start(at first: Int) {
        let root = window.rootLayer
        withoutAnimation {
            for l in [overlay.layer, frameTimes, notice, help.layer] { root.addSublayer(l) }
            layout(root.bounds.size)
        }
        show(first)
        window.onEvent = { [unowned self] in self.handle($0) }
        window.onResize = { [unowned self] in self.layout($0) }
        window.onFrame = { [unowned self] _ in self.overlay.update(stage: self.stage, root: self.window.rootLayer) }
        // The title's fps and the frame-time overlay: twice a second, from the frames of the last second.
        titleTimer = Timer.scheduledTimer(withTimeInterval: 0.5, repeats: true) { [unowned self] _ in
            MainActor.assumeIsolated { self.updateFigures() }
        }
    }

    /// Lays the window out for `size` (points): the stage scaled to fit and centred, the panels at its edges.
    func layout(_ size: CGSize) {
        let bounds = CGRect(origin: .zero, size: size)
        let fit = min(size.width / designSize.width, size.height / designSize.height)
        stage.bounds = CGRect(origin: .zero, size: designSize)
        stage.position = CGPoint(x: bounds.midX, y: bounds.midY)
        stage.transform = CATransform3DMakeScale(fit, fit, 1)
        // Text is drawn at the pixels it covers: the screen's scale times the stage's.
        var stack = [stage]
        while let l = stack.popLast() {
            if let text = l as? CATextLayer, text.contentsScale != window.scale * fit { text.contentsScale = window.scale * fit }
            stack.append(contentsOf: l.sublayers ?? [])
        }
        overlay.layer.frame = bounds
        help.layout(in: bounds)
        frameTimes.frame = CGRect(x: bounds.maxX - 268, y: 8, width: 260, height: 20)
        notice.frame = CGRect(x: bounds.midX - 200, y: bounds.maxY - 34, width: 400, height: 22)
    }

    /// Replaces the stage with scene `i` (wrapping around).
    func show(_ i: Int) {
        index = (i % scenes.count + scenes.count) % scenes.count
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        stage.removeFromSuperlayer()
        stage = box(CGRect(origin: .zero, size: designSize), nil)
        stage.name = "stage"
        handler = scenes[index].build(stage, picture)
        window.rootLayer.insertSublayer(stage, at: 0)
        layout(window.rootLayer.bounds.size)
        help.describe(scene: index)
        CATransaction.commit()
        updateTitle()
    }

    private func updateTitle() {
        let n = window.framesInLastSecond
        let rate = n == 0 ? "idle" : "\(n) fps"
        window.title = "\(index + 1)/\(scenes.count) \(scenes[index].name) — \(rate)\(slow ? " — slow ×10" : "") — h: help"
    }

    private func updateFigures() {
        updateTitle()
        guard !frameTimes.isHidden else { return }
        let n = window.framesInLastSecond
        withoutAnimation {
            frameTimes.string = n == 0 ? "idle (no frames in the last second)"
                : String(format: "%d fps · last frame %.2f ms · %d frames", n, window.lastFrameDuration * 1000, window.frameCount)
        }
    }

    /// Shows `text` at the bottom of the window for a moment.
    private func say(_ text: String) {
        withoutAnimation {
            notice.string = text
            notice.isHidden = false
        }
        Timer.scheduledTimer(withTimeInterval: 2, repeats: false) { [unowned self] _ in
            MainActor.assumeIsolated {
                withoutAnimation {
                    self.notice.isHidden = true
                }
            }
        }
    }

    private func handle(_ event: LayerEvent) {
        switch event.kind {
        case .keyDown(let key, let text): handleKey(key, text)
        default:
            guard !help.isShown else {
                if case .mouseDown = event.kind { setHelp(false) }
                return
            }
            let p = stage.convert(event.location, from: window.rootLayer)
            // Hit-tested within the scene (as the window does, on the presentation tree): the
            // panels and overlays above it never take the click.
            let hit = event.layer == nil ? nil : stage.presentation()?.hitTest(event.location)?.model()
            let kind: SceneEvent.Kind
            switch event.kind {
            case .mouseDown:
                overlay.clicked(hit, root: window.rootLayer)
                kind = .down
            case .mouseUp: kind = .up
            case .mouseMoved: kind = .moved
            case .mouseDragged: kind = .dragged
            case .scroll(_, let dy): kind = .scroll(dy)
            default: return
            }
            handler(SceneEvent(kind: kind, location: p, layer: hit))
        }
    }

    private func handleKey(_ key: UInt, _ text: String) {
        let now = CACurrentMediaTime()
        if let d = Int(text), text.count == 1 {
            if let first = firstDigit, now - first.time < 1, first.value * 10 + d <= scenes.count, first.value * 10 + d >= 10 {
                show(first.value * 10 + d - 1)
                firstDigit = nil
            } else if d >= 1 {
                show(d - 1)
                firstDigit = (d, now)
            }
            return
        }
        firstDigit = nil
        switch (key, text) {
        case (KeySym.right, _), (KeySym.down, _): show(index + 1)
        case (KeySym.left, _), (KeySym.up, _): show(index - 1)
        case (KeySym.home, _): show(0)
        case (KeySym.end, _): show(scenes.count - 1)
        case (KeySym.escape, _): if help.isShown { setHelp(false) } else { window.close() }
        case (_, "q"): window.close()
        case (_, "h"), (_, "?"): setHelp(!help.isShown)
        case (_, "s"): toggleSlow()
        case (_, "f"):
            withoutAnimation {
                frameTimes.isHidden.toggle()
            }
            updateFigures()
        case (_, "r"):
            window.debugOptions.formSymmetricDifference(.flashRepaints)
            say(window.debugOptions.contains(.flashRepaints) ? "flashing repainted regions (r again: off)" : "repaint flashing off")
        case (_, "b"):
            overlay.tintsBlended.toggle()
            say(overlay.tintsBlended ? "blended layers red, opaque green (b again: off)" : "blending tint off")
        case (_, "o"):
            overlay.outlinesBounds.toggle()
            say(overlay.outlinesBounds ? "layer bounds outlined (o again: off)" : "outlines off")
        case (_, "t"):
            overlay.showsHitTest.toggle()
            say(overlay.showsHitTest ? "click a layer to see it and its path (t again: off)" : "hit-test display off")
        case (_, "p"): saveScreenshot()
        default: break
        }
        overlay.update(stage: stage, root: window.rootLayer)
    }

    private func setHelp(_ shown: Bool) {
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.15)
        help.isShown = shown
        CATransaction.commit()
    }

    /// Slows every animation ten times through the root layer's timing (the iOS simulator's
    /// "Slow Animations"), keeping the current moment where it is.
    private func toggleSlow() {
        slow.toggle()
        let root = window.rootLayer
        let now = CACurrentMediaTime()
        withoutAnimation {
            root.timeOffset = root.convertTime(now, from: nil)
            root.beginTime = now
            root.speed = slow ? 0.1 : 1
        }
        updateTitle()
        say(slow ? "slow animations: ×10 (s: normal speed)" : "normal speed")
    }

    private func saveScreenshot() {
        let stamp = Int(Date().timeIntervalSince1970 * 1000)
        let path = FileManager.default.currentDirectoryPath + String(format: "/gallery-scene-%02d-", index + 1) + "\(stamp).png"
        say(write(window.makeImage(), path) ? "saved \(path)" : "could not write \(path)")
    }
}
