import CX11
import Foundation
import LayerRender

/// X events turned into `LayerEvent`s (device pixels ÷ `scale` = window points), window
/// management (close, destroy, expose, resize) and buffer completions.
extension LayerWindow {
    func handle(_ ev: cx11_event) {
        let p = CGPoint(x: CGFloat(ev.x) / scale, y: CGFloat(ev.y) / scale)
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
            isOpenStorage = false
        case Int(CX11_DESTROY) where UInt(ev.window) == window:
            // Another client (or the server) destroyed the window: nothing is left to draw into.
            destroyed = true
            isOpenStorage = false
        case Int(CX11_SHM_COMPLETION):
            presenter?.completed(segment: UInt(ev.drawable))
        case Int(CX11_PRESENT_IDLE) where UInt(ev.window) == window:
            presenter?.idle(pixmap: UInt(ev.drawable))
        case Int(CX11_PRESENT_COMPLETE) where UInt(ev.window) == window:
            pacer.completed(ust: ev.ust, msc: ev.msc, serial: ev.serial)
        default:
            break
        }
    }

    private func deliver(_ kind: LayerEvent.Kind, at p: CGPoint) {
        guard let onEvent else { return }
        onEvent(LayerEvent(kind: kind, location: p, layer: renderer.hitTestPresentation(p)))
    }

    /// The window changed size (device pixels): new buffers, the root layer follows (without
    /// animation), and the whole window is drawn at the next tick.
    private func resize(width w: Int, height h: Int) {
        guard w > 0, h > 0, w != presenter?.width || h != presenter?.height else { return }
        presenter?.resize(width: w, height: h)
        let size = CGSize(width: CGFloat(w) / scale, height: CGFloat(h) / scale)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        rootLayer.frame = CGRect(origin: .zero, size: size)
        onResize?(size)
        CATransaction.commit()
        renderer.bounds = CGRect(origin: .zero, size: size)
        needsRedraw = true
        needsFullPut = true
    }
}
