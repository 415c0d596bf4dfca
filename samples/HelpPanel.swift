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
    "Six contentsGravity modes; contentsRect crops (click the right column to pan it).",
    "A card in perspective: drag left or right to turn it about y.",
    "Keyframes on a path, a spring, a group. Click to pause or resume; drag while paused to scrub.",
    "Move the pointer: the layer under it (hit-tested on the presentation tree) gets a border.",
    "A mask, group opacity, a nine-slice contentsCenter; click the blue card for a transition.",
    "1,000 layers, each with its own repeating opacity animation.",
    "Shape layers: stroke ends, dashes, fill rules; click the ring and the morph.",
    "Text layers: wrapping, alignment, truncation, the seed's paragraph.",
    "Linear, radial and conic gradients and a gradient mask; click a gradient to animate it.",
    "Replicators: ten turned squares, a reflection, and a spinner of delayed copies.",
    "A scroll layer of 60 rows: drag, fling, or turn the wheel.",
    "Transform layers: two cubes of six faces; drag to spin them.",
    "Emitters: sparks, fire and snow; click to move the sparks.",
    "A tiled layer 16,384 points wide: drag to scroll, wheel to zoom about the pointer.",
]

/// The keys of the gallery, as the help panel lists them.
let helpKeys = """
h or ?      this help
← →         previous / next scene
1–9         a scene (1, then 0–7: 10–17)
Home End    first / last scene
s           slow animations (×10)
f           frame-time overlay
r           flash repainted regions
b           blended layers red, opaque green
o           outline every layer's bounds
t           click: the layer hit and its path
p           save a PNG of the window
Esc q       quit
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
        scenesText.string = "Scenes\n\n" + scenes.enumerated().map { n, scene in
            String(format: "%2d  %@", n + 1, String(scene.name.split(separator: "—").first ?? "").trimmingCharacters(in: .whitespaces))
        }.joined(separator: "\n")
        keysText.string = "Keys\n\n" + helpKeys + "\n\nh, Esc or a click closes this panel."
    }

    /// Names scene `index` and says what to do in it.
    func describe(scene index: Int) {
        current.string = "Scene \(index + 1): \(scenes[index].name)\n\(sceneHints[index])"
    }

    /// Places the panel in the middle of `bounds` (the window, in points).
    func layout(in bounds: CGRect) {
        let w = min(bounds.width - 20, 760), h = min(bounds.height - 20, 420)
        layer.frame = CGRect(x: bounds.midX - w / 2, y: bounds.midY - h / 2, width: w, height: h)
        current.frame = CGRect(x: 16, y: 12, width: w - 32, height: 62)
        let split = min(276, w * 0.45)
        scenesText.frame = CGRect(x: 16, y: 84, width: split - 16, height: h - 96)
        keysText.frame = CGRect(x: split + 8, y: 84, width: w - split - 24, height: h - 96)
    }

    var isShown: Bool {
        get { !layer.isHidden }
        set { layer.isHidden = !newValue }
    }
}
