@_exported import QuartzCore
import CX11
import Foundation
import LayerRender
import Synchronization

/// A top-level X11 window showing a layer tree, with a run-loop-like driver.
///
/// Each turn of `run()` follows Apple's order: wait for input, main-queue work or the next tick;
/// handle X events and run `RunLoop.main` once (DispatchQueue.main blocks and Foundation
/// timers); commit what they changed; then, when a tick is due and something changed, fire the
/// display links, commit what they changed (layout, display), render at the tick's time
/// straight into a shared-memory image and show it. Every commit — implicit or explicit, on any
/// thread — wakes the loop and is on screen at the next tick. Ticks lie on a fixed cadence
/// (`framesPerSecond`, 60 by default): a late frame shows the values for "now" and the next
/// one returns to the cadence. With nothing animating and nothing committed, no frames are
/// made and the loop sleeps.
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
    /// The root of the shown tree; its frame follows the window's size (points).
    public let rootLayer: CALayer
    /// Called for every mouse and key event, on the thread running the window.
    public var onEvent: ((LayerEvent) -> Void)?
    /// Called at the start of every frame with the frame's time (seconds of media time), before
    /// the display links.
    public var onFrame: ((CFTimeInterval) -> Void)?
    /// Called when the window's size changed (points), after the root layer took the new size.
    public var onResize: ((CGSize) -> Void)?
    /// Frames per second while something changes (60 unless set). Clamped to 1…240; NaN is
    /// refused (both counted as `.clampedInteger` in `CGDiagnostics`).
    public var framesPerSecond: Double = 60 {
        didSet {
            if framesPerSecond.isNaN { CGDiagnostics.record(.clampedInteger); framesPerSecond = oldValue; return }
            if framesPerSecond < 1 || framesPerSecond > 240 {
                CGDiagnostics.record(.clampedInteger)
                framesPerSecond = min(max(framesPerSecond, 1), 240)
            }
            clock.interval = 1 / framesPerSecond
        }
    }
    /// False once the window was closed (by the user, `close()`, or destroyed by another client).
    public var isOpen: Bool { isOpenStorage }
    var isOpenStorage = true
    /// Frames rendered so far.
    public internal(set) var frameCount = 0
    /// Device pixels per point (2 on a HiDPI screen): from the initialiser's `scale`, else
    /// `GDK_SCALE`, else the `Xft.dpi` resource ÷ 96, else 1. The root layer's `contentsScale`.
    public let scale: CGFloat
    /// What the window draws over its frames to show how they are made (Quartz Debug's options).
    public struct DebugOptions: OptionSet, Sendable {
        /// Raw bits.
        public let rawValue: Int
        /// Creates a set from raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Tints each frame's repainted region yellow for a tenth of a second ("flash screen updates").
        public static let flashRepaints = DebugOptions(rawValue: 1)
    }

    /// Debug drawing over the frames (none unless set). The tint is drawn into the shown image
    /// only: the layer tree, `makeImage()` and damage tracking never see it.
    public var debugOptions: DebugOptions = [] {
        didSet { if debugOptions != oldValue { needsRedraw = true } }
    }

    /// Wall-clock seconds the last frame took from display links to present (the frame-time overlay's figure).
    public internal(set) var lastFrameDuration: Double = 0

    /// Why shared memory is not in use, when the server refused it (frames then go through XPutImage).
    public internal(set) var sharedMemoryFallback: LayerWindowError?

    /// How frames are paced.
    public enum Pacing: Sendable {
        /// On the window's own timer, `framesPerSecond` apart (no Present extension).
        case timer
        /// On the display's vblanks, reported by the Present extension; frames are shown tear-free.
        case presentVBlank
    }

    /// How frames are paced: on vblanks where the server offers Present (with shared-memory
    /// pixmaps), else on the timer. A server that stops answering falls back to the timer.
    public var pacing: Pacing { presenter?.usesPresent == true ? .presentVBlank : .timer }

    /// Whether frames go through shared memory (false when the server lacks MIT-SHM or it failed).
    public var usesSharedMemory: Bool { presenter?.usesSharedMemory ?? false }

    let display: OpaquePointer
    let window: UInt
    let renderer = CARenderer()
    var presenter: Presenter?
    var clock: FrameClock
    var pacer = VBlankPacer()
    /// Signalled by commits from any thread, so that the loop wakes for them.
    let wake: Int32
    /// The window must be drawn in full at the next tick (first frame, expose, resize).
    var needsRedraw = true
    /// The next put must cover the whole window (first frame, expose, resize).
    var needsFullPut = true
    /// The last frame still had something moving: one more frame shows where it ended.
    var wasAnimating = false
    /// When the drawn tree next changes by time alone (`CARenderer.nextFrameTime()` asked once
    /// per frame: the tree only changes through a commit, and a commit makes a frame).
    var nextAnimationTime = Double.infinity
    var buttonsDown = 0
    /// Where a flash is shown and when it must be taken away again (flashRepaints).
    var flash: (box: PixelBox, until: Double)?
    /// The window was destroyed by the server or another client (nothing left to destroy).
    var destroyed = false
    private(set) var recentErrors: [XProtocolError] = []
    private var totalErrors = 0

    private static let openError = Locked<LayerWindowError?>(nil)

    /// Why the last failable initialisation returned nil (nil after a success).
    public static var lastOpenError: LayerWindowError? { openError.withLock { $0 } }

    /// Opens a window of `size` points on `display` (nil: `$DISPLAY`), or throws why it could not.
    /// `sharedMemory` false forces XPutImage; `scale` overrides the screen's scale factor.
    /// Sizes are clamped to 1…8192 pixels (counted as `.clampedInteger`).
    public static func open(title: String, size: CGSize, display: String? = nil, sharedMemory: Bool = true,
                            scale: CGFloat? = nil) throws(LayerWindowError) -> LayerWindow {
        let c = try Connection.make(title: title, size: size, display: display, sharedMemory: sharedMemory, scale: scale)
        return LayerWindow(c, title: title)
    }

    /// Opens a window of `size` points on `display` (nil: `$DISPLAY`); nil when it cannot, with
    /// the reason in `LayerWindow.lastOpenError`. `sharedMemory` false forces XPutImage.
    public convenience init?(title: String, size: CGSize, display: String? = nil, sharedMemory: Bool = true,
                             scale: CGFloat? = nil) {
        switch Result(catching: { () throws(LayerWindowError) in
            try Connection.make(title: title, size: size, display: display, sharedMemory: sharedMemory, scale: scale)
        }) {
        case .success(let c):
            Self.openError.withLock { $0 = nil }
            self.init(c, title: title)
        case .failure(let e):
            Self.openError.withLock { $0 = e }
            return nil
        }
    }

    private init(_ c: Connection, title: String) {
        display = c.display
        window = c.window
        scale = c.scale
        presenter = c.presenter
        sharedMemoryFallback = c.fallback
        self.title = title
        wake = cx11_wake_create()
        clock = FrameClock(interval: 1.0 / 60, origin: CACurrentMediaTime())
        rootLayer = CALayer()
        let points = CGRect(x: 0, y: 0, width: CGFloat(c.width) / c.scale, height: CGFloat(c.height) / c.scale)
        rootLayer.frame = points
        rootLayer.backgroundColor = CGColor(gray: 0.12, alpha: 1)
        rootLayer.contentsScale = c.scale
        renderer.bounds = points
        renderer.scale = c.scale
        renderer.layer = rootLayer
        let fd = wake
        renderer.onCommit = { if fd >= 0 { cx11_wake_signal(fd) } }
    }

    deinit {
        renderer.onCommit = nil
        presenter = nil
        renderer.layer = nil
        if !destroyed { cx11_destroy_window(display, window) }
        cx11_close(display)
        cx11_wake_close(wake)
    }

    /// The window title (UTF-8; shown without mojibake by legacy and EWMH readers alike).
    public var title: String {
        didSet { if title != oldValue { cx11_set_title(display, window, title) } }
    }

    /// Runs until the window is closed.
    public func run() {
        while isOpen { runOnce(maxWait: 1) }
    }

    /// Closes the window; `run()` returns after the current turn.
    public func close() { isOpenStorage = false }

    /// Frames made in the last second (what an fps figure shows; 0 once the window is idle).
    public var framesInLastSecond: Int { clock.framesInLastSecond(now: CACurrentMediaTime()) }

    /// The X protocol errors received so far, the last 64 at most, oldest first.
    public var protocolErrors: [XProtocolError] {
        collectErrors()
        return recentErrors
    }

    /// X protocol errors received since the window opened (including those dropped from `protocolErrors`).
    public var protocolErrorCount: Int {
        collectErrors()
        return totalErrors
    }

    func collectErrors() {
        let new = XProtocolError.take(from: display)
        totalErrors += new.count
        recentErrors.append(contentsOf: new)
        if recentErrors.count > 64 { recentErrors.removeFirst(recentErrors.count - 64) }
    }

    /// Pixels sent to the server by the last frame (only what changed is put).
    public var lastPresentedArea: Int { presenter?.lastPutArea ?? 0 }

    /// The X window id (for tools such as xdotool).
    public var windowID: UInt { window }

    /// Asks the window to close as a window manager would (WM_DELETE_WINDOW); for tests.
    public func sendCloseRequest() { cx11_send_delete(display, window) }

    /// Reads the window's pixels back from the X server (0xAARRGGBB words with alpha forced to
    /// 255, device pixels; for tests and screenshots). Empty once the window is gone.
    public func readPixels() -> (width: Int, height: Int, pixels: [UInt32]) {
        guard !destroyed else { return (0, 0, []) }
        let w = presenter?.width ?? 0, h = presenter?.height ?? 0
        var out = [UInt32](repeating: 0, count: w * h)
        _ = cx11_sync_errors(display)
        let ok = out.withUnsafeMutableBufferPointer { cx11_read_window(display, window, 0, 0, Int32(w), Int32(h), $0.baseAddress) }
        if ok != 0 { return (0, 0, []) }
        return (w, h, out.map { $0 | 0xFF00_0000 })
    }

    /// The last frame as an image (the renderer's bitmap, device pixels), for saving screenshots.
    public func makeImage() -> CGImage? { renderer.makeImage() }
}
