import CX11
import Foundation
import LayerRender

extension LayerWindow {
    /// An open display with a mapped window and its image buffers: what a `LayerWindow` is made from.
    struct Connection {
        let display: OpaquePointer
        let window: UInt
        let presenter: Presenter
        /// Device pixels.
        let width: Int, height: Int
        let scale: CGFloat
        let fallback: LayerWindowError?

        /// Opens `name`, checks its visual, creates and maps the window and its buffers; throws
        /// the first step that failed.
        static func make(title: String, size: CGSize, display name: String?, sharedMemory: Bool,
                         scale requested: CGFloat?) throws(LayerWindowError) -> Connection {
            // XDisplayName returns its argument when given one: a temporary C copy of `name`
            // that is gone once the call returns. Only ask it for $DISPLAY.
            let tried = name ?? String(cString: cx11_display_name(nil))
            guard let d = cx11_open(name) else {
                throw LayerWindowError(reason: .noDisplay, request: "XOpenDisplay", code: 0,
                                       detail: tried.isEmpty ? "DISPLAY is not set" : "display \"\(tried)\"")
            }
            guard cx11_depth(d) != 0 else {
                cx11_close(d)
                throw LayerWindowError(reason: .unsupportedVisual, request: "DefaultVisual", code: 0, detail: "display \"\(tried)\"")
            }
            let scale = resolveScale(requested, display: d)
            let w = pixels(size.width, scale: scale), h = pixels(size.height, scale: scale)
            let program = (CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "").nonEmpty ?? "swift-app"
            let win = cx11_create_window(d, Int32(w), Int32(h), title, program, program.prefix(1).uppercased() + program.dropFirst())
            let created = XProtocolError.take(from: d)
            guard win != 0, created.isEmpty else {
                let code = created.first?.code ?? 0
                if win != 0 { cx11_destroy_window(d, win) }
                cx11_close(d)
                throw LayerWindowError(reason: .windowNotCreated, request: "XCreateWindow", code: code, detail: "\(w) × \(h) px")
            }
            guard let presenter = Presenter(display: d, window: win, width: w, height: h, preferSharedMemory: sharedMemory) else {
                cx11_destroy_window(d, win)
                cx11_close(d)
                throw LayerWindowError(reason: .noImageBuffers, request: "XCreateImage", code: 0, detail: "\(w) × \(h) px")
            }
            var fallback: LayerWindowError?
            if sharedMemory && !presenter.usesSharedMemory {
                let refused = XProtocolError.take(from: d).first
                fallback = LayerWindowError(reason: .sharedMemoryRefused, request: refused?.requestName ?? "XShmQueryVersion",
                                            code: refused?.code ?? 0,
                                            detail: refused == nil ? "the server has no MIT-SHM" : refused!.codeName)
            }
            return Connection(display: d, window: win, presenter: presenter, width: w, height: h, scale: scale, fallback: fallback)
        }

        /// A length in points as device pixels, clamped to 1…8192 (counted when clamped or not finite).
        static func pixels(_ points: CGFloat, scale: CGFloat) -> Int {
            let v = Double(points * scale).rounded()
            return max(1, CGClampToInt(v.isNaN ? 1 : v, in: 1...8192))
        }

        /// The requested scale, else `GDK_SCALE`, else `Xft.dpi` ÷ 96 in quarter steps; 1…4.
        static func resolveScale(_ requested: CGFloat?, display: OpaquePointer) -> CGFloat {
            var s: Double = 1
            if let requested {
                s = Double(requested)
            } else if let env = ProcessInfo.processInfo.environment["GDK_SCALE"], let v = Double(env) {
                s = v
            } else {
                let dpi = cx11_resource_dpi(display)
                if dpi > 0 { s = (dpi / 96 * 4).rounded() / 4 }
            }
            guard s.isFinite, s > 0 else { CGDiagnostics.record(.nonFiniteGeometry); return 1 }
            return CGFloat(min(max(s, 1), 4))
        }
    }
}

extension String {
    /// Nil when empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
