import Foundation
import QuartzCore

/// The size every scene is designed for (points); a window of another size shows the stage
/// scaled to fit, centred.
let designSize = CGSize(width: 640, height: 480)

/// What to do in each scene, in gallery order (shown by the help panel and `--list`).
let sceneHints = [
    "Click a box: colour, slide, turn (0.25 s implicit animations). Click the bar: all three move in 2 s, then a completion block.",
    "Three anchor points (white dots are the positions): the same rotation turns each about its own anchor.",
    "Rounded and partly rounded corners, a border, a shadow, and two shadowPaths (contact and curl).",
    "Six contentsGravity modes (top and bottom as on Apple systems: layer y runs up for contents); contentsRect crops — click the right column to pan it.",
    "A card in perspective: drag left or right to turn it about y.",
    "Keyframes on a path, a spring, a group. Click to pause or resume; drag while paused to scrub.",
    "Move the pointer: the layer under it (hit-tested on the presentation tree) gets a border.",
    "A mask, group opacity, a nine-slice contentsCenter; click the blue card for a transition.",
    "1,000 layers, each with its own repeating opacity animation.",
    "Shape layers: a stroked figure, a rounded path, an animated stroke end, a dashed star; click the ring and the morph.",
    "Text layers: a wrapped Chinese paragraph, three truncation modes, attributed runs; click the green line: its size and colour animate.",
    "Linear, radial and conic gradients, a shadowed banner and a gradient mask; click one of the four gradients to animate it.",
    "Replicators: ten turned squares, a reflection, and a spinner of delayed copies.",
    "A scroll layer of 60 rows: drag, fling, or turn the wheel.",
    "Transform layers: two cubes of six faces; drag to spin them.",
    "Emitters: sparks, fire and snow; click anywhere to move the sparks.",
    "A tiled layer 16,384 points wide: drag to scroll, wheel to zoom about the pointer.",
    "A layer subclass's own property animated: draw(in:) runs for every frame, with Core Text labels; click a pie.",
]

/// The keys of the gallery, as the help panel lists them.
let helpKeys = """
h or ?      this help
← →         previous / next scene (wraps)
1–9         scene 1–9; 10–18: 1, then 0–8
Home End    first / last scene
s           slow animations (×10)
f           frame-time overlay
r           flash repainted regions
b           blended layers red, opaque green
o           outline every layer's bounds
t           click: the layer hit and its path
p           save a PNG of the window
Esc         close this panel, or quit
q           quit
"""

/// A panel drawn with layers (a rounded translucent box holding text layers): what to do in
/// the current scene, the list of scenes, and the keys.
@MainActor final class HelpPanel {
    let layer = CALayer()
    private let current = CATextLayer()
    private let scenesText = CATextLayer()
    private let keysText = CATextLayer()

    init(scale: CGFloat) {
        layer.backgroundColor = CGColor(red: 0.05, green: 0.06, blue: 0.09, alpha: 0.92)
        layer.cornerRadius = 12
        layer.borderWidth = 1
        layer.borderColor = CGColor(gray: 1, alpha: 0.25)
        layer.zPosition = 100
        layer.name = "help"
        for t in [current, scenesText, keysText] {
            t.contentsScale = scale
            t.isWrapped = true
            t.fontSize = 11
            t.foregroundColor = CGColor(gray: 0.92, alpha: 1)
            t.font = "DejaVu Sans Mono" as CFString
            layer.addSublayer(t)
        }
        current.foregroundColor = CGColor(red: 1, green: 0.85, blue: 0.45, alpha: 1)

        keysText.string = "Keys\n\n" + helpKeys + "\nh, Esc or a click closes this panel."
    }

    /// The scenes' short names, numbered.
    private var shortNames: [String] {
        scenes.enumerated().map { n, scene in
            String(format: "%2d  %@", n + 1, String(scene.name.split(separator: "—").first ?? "").trimmingCharacters(in: .whitespaces))
        }
    }

    /// Names scene `index` and says what to do in it.
    func describe(scene index: Int) {
        current.string = "Scene \(index + 1): \(scenes[index].name)\n\(sceneHints[index])"
    }

    /// Places the panel in the middle of `bounds` (the window, in points): scenes and keys side
    /// by side, or one above the other in a narrow window.
    func layout(in bounds: CGRect) {
        let wide = bounds.width >= 600
        let w = min(bounds.width - 20, 760), h = min(bounds.height - 20, wide ? 420 : 620)
        layer.frame = CGRect(x: bounds.midX - w / 2, y: bounds.midY - h / 2, width: w, height: h)
        current.frame = CGRect(x: 16, y: 12, width: w - 32, height: wide ? 62 : 90)
        let top = current.frame.maxY + 10
        // A narrow panel lists the scenes as one wrapped paragraph, in a smaller size.
        for t in [current, scenesText, keysText] { t.fontSize = wide ? 11 : 10 }
        scenesText.string = "Scenes\n\n" + (wide ? shortNames.joined(separator: "\n")
            : shortNames.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " · "))
        if wide {
            let split = min(276, w * 0.45)
            scenesText.frame = CGRect(x: 16, y: top, width: split - 16, height: h - top - 12)
            keysText.frame = CGRect(x: split + 8, y: top, width: w - split - 24, height: h - top - 12)
        } else {
            let list: CGFloat = 120
            scenesText.frame = CGRect(x: 16, y: top, width: w - 32, height: list)
            keysText.frame = CGRect(x: 16, y: top + list, width: w - 32, height: h - top - list - 8)
        }
    }

    var isShown: Bool {
        get { !layer.isHidden }
        set { layer.isHidden = !newValue }
    }
}
