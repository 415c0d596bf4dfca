@_exported import QuartzCore
import CX11
import Foundation
import LayerRender

/// A top-level X11 window showing a layer tree, with a run-loop-like driver.
///
/// Each turn of `run()` waits on the X connection (poll) until the next tick or input; handles
/// events; runs `RunLoop.main` once (DispatchQueue.main blocks and Foundation timers); and, when a
/// frame is due, flushes pending transactions (layout, display, commit), renders the tree at the
/// tick's time straight into a shared-memory image and shows it. Ticks are time-based
/// (`framesPerSecond`, 60 by default): a late frame shows the values for "now". With nothing
/// animating and nothing pending, no frames are made and the loop sleeps in poll.
///
/// ```swift
/// let window = LayerWindow(title: "Hello", size: CGSize(width: 400, height: 300))!
/// let box = CALayer()
/// box.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
/// box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
/// window.rootLayer.addSublayer(box)
/// window.onEvent = { event in
///     if case .mouseDown = event.kind, event.layer === box { box.position.x += 40 }   // glides in 0.25 s
/// }
/// window.run()
/// ```
public final class LayerWindow {
    /// The root of the shown tree; its frame follows the window's size.
    public let rootLayer: CALayer
    /// Called for every mouse and key event, on the thread running the window.
    public var onEvent: ((LayerEvent) -> Void)?
    /// Called at the start of every frame with the frame's time (seconds of media time).
    public var onFrame: ((CFTimeInterval) -> Void)?
    /// Frames per second while something changes.
    public var framesPerSecond: Double = 60
    /// False once the window was closed (by the user or `close()`).
    public private(set) var isOpen = true
    /// Frames rendered so far.
    public private(set) var frameCount = 0

    /// Whether frames go through shared memory (false when the server lacks MIT-SHM or it failed).
    public var usesSharedMemory: Bool { presenter?.usesSharedMemory ?? false }

    let display: OpaquePointer
    let window: UInt
    let renderer = CARenderer()
    var presenter: Presenter?
    private var needsRedraw = true
    /// The next put must cover the whole window (first frame, expose, resize).
    private var needsFullPut = true
    /// The last frame still had something moving: one more frame shows where it ended.
    private var wasAnimating = false
    private var lastFrameTime = -Double.infinity
    private var buttonsDown = 0
    private var pendingSegments: Set<UInt> = []

    /// Opens a window of `size` points on `display` (nil: $DISPLAY); nil when no X server can be
    /// reached or its visual is not 24/32-bit TrueColor. `sharedMemory` false forces XPutImage.
    public init?(title: String, size: CGSize, display name: String? = nil, sharedMemory: Bool = true) {
        guard let d = cx11_open(name) else { return nil }
        guard cx11_depth(d) != 0 else { cx11_close(d); return nil }
        let w = max(1, CGClampToInt(Double(size.width), in: 1...8192))
        let h = max(1, CGClampToInt(Double(size.height), in: 1...8192))
        let win = cx11_create_window(d, Int32(w), Int32(h), title)
        guard win != 0 else { cx11_close(d); return nil }
        display = d
        window = win
        rootLayer = CALayer()
        rootLayer.frame = CGRect(x: 0, y: 0, width: w, height: h)
        rootLayer.backgroundColor = CGColor(gray: 0.12, alpha: 1)
        renderer.bounds = rootLayer.bounds
        renderer.layer = rootLayer
        presenter = Presenter(display: d, window: win, width: w, height: h, preferSharedMemory: sharedMemory)
    }

    deinit {
        presenter = nil
        renderer.layer = nil
        cx11_destroy_window(display, window)
        cx11_close(display)
    }

    /// The window title.
    public var title: String = "" {
        didSet { cx11_set_title(display, window, title) }
    }

    /// Runs until the window is closed.
    public func run() {
        while isOpen { runOnce(maxWait: 1) }
    }

    /// Closes the window; `run()` returns after the current turn.
    public func close() { isOpen = false }

    /// One turn of the loop: wait at most `maxWait` seconds for input or the next tick, then handle
    /// events, main-queue work, and a frame when one is due.
    public func runOnce(maxWait: Double) {
        let now = CACurrentMediaTime()
        let interval = 1 / max(framesPerSecond, 1)
        let wantsFrame = needsRedraw || wasAnimating || CADisplayLink.wantsFrames || CARenderer.hasPendingChanges
            || renderer.nextFrameTime() <= now + interval
        var wait = maxWait
        if wantsFrame { wait = max(0, lastFrameTime + interval - now) }
        // DispatchQueue.main and timers run on the main thread's run loop; a window driven from
        // another thread (tests) services that thread's run loop instead.
        let loop = Thread.isMainThread ? RunLoop.main : RunLoop.current
        if Thread.isMainThread, let limit = loop.limitDate(forMode: .default) { wait = min(wait, max(0, limit.timeIntervalSinceNow)) }
        if cx11_pending(display) == 0 {
            var fds = pollfd(fd: cx11_fd(display), events: Int16(POLLIN), revents: 0)
            _ = poll(&fds, 1, Int32(CGClampToInt(wait * 1000, in: 0...60_000)))
        }
        while isOpen && cx11_pending(display) > 0 {
            var ev = cx11_event()
            cx11_next_event(display, window, &ev)
            handle(ev)
        }
        if Thread.isMainThread { _ = loop.run(mode: .default, before: Date()) }
        let t = CACurrentMediaTime()
        // nextFrameTime() answers "now" (a moment after t) while something animates: allow half a tick.
        if isOpen && (needsRedraw || wasAnimating || CADisplayLink.wantsFrames || CARenderer.hasPendingChanges
            || renderer.nextFrameTime() <= t + interval / 2)
            && t >= lastFrameTime + interval * 0.5 {
            frame(at: t)
        }
    }

    /// Renders and shows a frame at media time `t`.
    func frame(at t: CFTimeInterval) {
        guard let presenter, let (index, _) = presenter.acquire() else { return }
        onFrame?(t)
        CADisplayLink.fire(at: t, interval: 1 / max(framesPerSecond, 1))
        renderer.beginFrame(atTime: t, timeStamp: nil)
        // The renderer repaints only what changed into its own bitmap; the buffer to show gets
        // the pixels that changed since it last held a frame.
        renderer.render()
        if let source = renderer.outputTarget { presenter.refresh(index, from: source, damage: renderer.lastDamage) }
        // Asked at the frame's own time: an animation that ends between this frame and "now" still
        // gets the one more frame that shows its end.
        wasAnimating = renderer.nextFrameTime() <= t + 1 / max(framesPerSecond, 1)
        renderer.endFrame()
        presenter.present(index, full: needsFullPut, within: renderer.lastDamage)
        needsFullPut = false
        needsRedraw = false
        lastFrameTime = t
        frameCount += 1
    }

    private func handle(_ ev: cx11_event) {
        let p = CGPoint(x: CGFloat(ev.x), y: CGFloat(ev.y))
        switch Int(ev.type) {
        case Int(CX11_BUTTON_PRESS):
            switch ev.button {
            case 4...7:
                let (dx, dy): (CGFloat, CGFloat) = ev.button == 4 ? (0, -1) : ev.button == 5 ? (0, 1) : ev.button == 6 ? (-1, 0) : (1, 0)
                deliver(.scroll(dx: dx, dy: dy), at: p)
            default:
                buttonsDown += 1
                deliver(.mouseDown(button: Int(ev.button)), at: p)
            }
        case Int(CX11_BUTTON_RELEASE):
            if ev.button < 4 || ev.button > 7 {
                buttonsDown = max(0, buttonsDown - 1)
                deliver(.mouseUp(button: Int(ev.button)), at: p)
            }
        case Int(CX11_MOTION):
            deliver(buttonsDown > 0 ? .mouseDragged : .mouseMoved, at: p)
        case Int(CX11_KEY_PRESS):
            let text = withUnsafeBytes(of: ev.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            onEvent?(LayerEvent(kind: .keyDown(keysym: UInt(ev.keysym), text: text), location: p, layer: nil))
        case Int(CX11_KEY_RELEASE):
            onEvent?(LayerEvent(kind: .keyUp(keysym: UInt(ev.keysym)), location: p, layer: nil))
        case Int(CX11_CONFIGURE):
            resize(width: Int(ev.width), height: Int(ev.height))
        case Int(CX11_EXPOSE):
            needsRedraw = true
            needsFullPut = true
        case Int(CX11_CLOSE):
            isOpen = false
        case Int(CX11_SHM_COMPLETION):
            presenter?.completed(segment: UInt(ev.drawable))
        default:
            break
        }
    }

    private func deliver(_ kind: LayerEvent.Kind, at p: CGPoint) {
        guard let onEvent else { return }
        onEvent(LayerEvent(kind: kind, location: p, layer: renderer.hitTestPresentation(p)))
    }

    private func resize(width w: Int, height h: Int) {
        guard w > 0, h > 0, w != presenter?.width || h != presenter?.height else { return }
        presenter?.resize(width: w, height: h)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        rootLayer.frame = CGRect(x: 0, y: 0, width: w, height: h)
        CATransaction.commit()
        renderer.bounds = CGRect(x: 0, y: 0, width: w, height: h)
        needsRedraw = true
        needsFullPut = true
    }

    /// Pixels sent to the server by the last frame (only what changed is put).
    public var lastPresentedArea: Int { presenter?.lastPutArea ?? 0 }

    /// The X window id (for tools such as xdotool).
    public var windowID: UInt { window }

    /// Asks the window to close as a window manager would (WM_DELETE_WINDOW); for tests.
    public func sendCloseRequest() { cx11_send_delete(display, window) }

    /// Reads the window's pixels back from the X server (0xAARRGGBB words with alpha forced to
    /// 255; for tests and screenshots).
    public func readPixels() -> (width: Int, height: Int, pixels: [UInt32]) {
        let w = presenter?.width ?? 0, h = presenter?.height ?? 0
        var out = [UInt32](repeating: 0, count: w * h)
        _ = cx11_sync_errors(display)
        let ok = out.withUnsafeMutableBufferPointer { cx11_read_window(display, window, 0, 0, Int32(w), Int32(h), $0.baseAddress) }
        if ok != 0 { return (0, 0, []) }
        return (w, h, out.map { $0 | 0xFF00_0000 })
    }
}
