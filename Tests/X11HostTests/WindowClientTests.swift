// The window as other X clients see it (ICCCM/EWMH properties, destruction by another client),
// the reasons it reports when it cannot open, HiDPI, and refused or clamped input.
import CX11
import Foundation
import Testing
import TestSupport
@testable import X11Host

/// Nested in the serialized X11 suite: display links and SHM counts are process-wide.
extension X11WindowTests {
@Suite struct WindowClientTests {
    @Test func theWindowCarriesItsClassPidAndATitleLegacyReadersCanDecode() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "Ünïcode — 动画", size: CGSize(width: 40, height: 40), display: x.display))
        spin(window, seconds: 0.1)
        let props = output("/usr/bin/xprop", ["-id", "\(window.windowID)", "WM_CLASS", "_NET_WM_PID", "_NET_WM_NAME", "WM_NAME"],
                           display: x.display)
        #expect(props.contains("_NET_WM_PID(CARDINAL) = \(getpid())"))
        #expect(props.contains("WM_CLASS(STRING) = \""))
        #expect(props.contains("_NET_WM_NAME(UTF8_STRING) = \"Ünïcode — 动画\""))
        // Not Latin-1: WM_NAME is COMPOUND_TEXT, never raw UTF-8 bytes labelled STRING.
        #expect(props.contains("WM_NAME(COMPOUND_TEXT)"))
        window.title = "plain"
        spin(window, seconds: 0.05)
        let plain = output("/usr/bin/xprop", ["-id", "\(window.windowID)", "WM_NAME"], display: x.display)
        #expect(plain.contains("WM_NAME(STRING) = \"plain\""))
    }

    @Test func destructionByAnotherClientEndsTheLoop() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "destroy", size: CGSize(width: 40, height: 40), display: x.display))
        spin(window, seconds: 0.2)
        x.run("/usr/bin/xdotool", ["windowclose", "\(window.windowID)"])
        spin(window, seconds: 2, until: { !window.isOpen })
        #expect(!window.isOpen)
        #expect(window.readPixels().width == 0)
    }

    @Test func aMissingDisplayIsReportedWithItsCause() throws {
        #expect(LayerWindow(title: "none", size: CGSize(width: 10, height: 10), display: ":987") == nil)
        let reason = try #require(LayerWindow.lastOpenError)
        #expect(reason.reason == .noDisplay && reason.request == "XOpenDisplay")
        #expect(reason.description.contains(":987"))
        #expect(throws: LayerWindowError.self) {
            _ = try LayerWindow.open(title: "none", size: CGSize(width: 10, height: 10), display: ":987")
        }
    }

    @Test func protocolErrorsAreKeptWithTheirRequest() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "errors", size: CGSize(width: 20, height: 20), display: x.display))
        // A request naming a window that does not exist: BadWindow (3) in X_DestroyWindow (4).
        cx11_destroy_window(window.display, 0x7FFF_FFF0)
        _ = cx11_sync_errors(window.display)
        let errors = window.protocolErrors
        #expect(window.protocolErrorCount == 1)
        #expect(errors.first?.code == 3 && errors.first?.requestCode == 4)
        #expect(errors.first?.requestName == "X_DestroyWindow")
        #expect(errors.first?.resource == 0x7FFF_FFF0)
    }

    @Test func aScaledWindowRendersAtDevicePixelsAndMapsClicksToPoints() throws {
        let x = try #require(Xvfb())
        let window = try #require(LayerWindow(title: "hidpi", size: CGSize(width: 60, height: 40), display: x.display, scale: 2))
        #expect(window.scale == 2 && window.rootLayer.contentsScale == 2)
        #expect(window.rootLayer.bounds.size == CGSize(width: 60, height: 40))
        let dot = addBox(to: window.rootLayer, CGRect(x: 10, y: 10, width: 20, height: 10), CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        var hit: (CALayer?, CGPoint)?
        window.onEvent = { if case .mouseDown = $0.kind { hit = ($0.layer, $0.location) } }
        spin(window, seconds: 3, until: { window.readPixels().pixels.contains(0xFFFF_0000) })
        let p = window.readPixels()
        #expect(p.width == 120 && p.height == 80)
        let red = (0..<p.width).filter { p.pixels[30 * p.width + $0] == 0xFFFF_0000 }
        #expect(red.first == 20 && red.count == 40)
        x.run("/usr/bin/xdotool", ["mousemove", "--window", "\(window.windowID)", "50", "30", "click", "1"])
        spin(window, seconds: 1, until: { hit != nil })
        #expect(hit?.0 === dot && hit?.1 == CGPoint(x: 25, y: 15))
    }

    @Test func hostileSizesAndRatesAreClamped() throws {
        let x = try #require(Xvfb())
        for (w, h) in [(0.0, 0.0), (-50, 20), (100_000, 30), (Double.nan, Double.infinity)] {
            let window = try #require(LayerWindow(title: "size", size: CGSize(width: w, height: h), display: x.display),
                                      "\(String(describing: LayerWindow.lastOpenError))")
            spin(window, seconds: 0.05)
            let size = window.rootLayer.bounds.size
            #expect(size.width >= 1 && size.width <= 8192 && size.height >= 1 && size.height <= 8192, "\(w)×\(h) → \(size)")
            #expect(window.frameCount == 1 && window.isOpen)
        }
        let window = try #require(LayerWindow(title: "rate", size: CGSize(width: 20, height: 20), display: x.display))
        for (rate, expected) in [(0.0, 1.0), (-5, 1), (Double.nan, 1), (10_000, 240), (30, 30)] {
            window.framesPerSecond = rate
            #expect(window.framesPerSecond == expected, "\(rate)")
        }
        window.framesPerSecond = 60
        // 2,000 key presses queued at once: handled in bounded turns, the window keeps drawing.
        var keys = 0
        window.onEvent = { if case .keyDown = $0.kind { keys += 1 } }
        x.run("/usr/bin/xdotool", ["key", "--window", "\(window.windowID)", "--delay", "0", "--repeat", "2000", "a"])
        spin(window, seconds: 5, until: { keys >= 2000 })
        #expect(keys == 2000)
        #expect(window.isOpen)
    }
}
}
