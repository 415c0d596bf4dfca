import Foundation
import ImageIO
import QuartzCore
import X11Host

// The gallery: scenes from the seeds in a window (←/→ or number keys to step through, click and
// drag in a scene), or, with no display or with --headless DIR, every scene rendered to PNGs.
let arguments = CommandLine.arguments
let headlessDir = arguments.firstIndex(of: "--headless").map { $0 + 1 < arguments.count ? arguments[$0 + 1] : "out" }
let size = CGSize(width: 640, height: 480)
let picture = CoreGraphicsDemo.render(width: 480, height: 270)

/// Writes `image` as a PNG at `path`.
func write(_ image: CGImage?, _ path: String) {
    let url = URL(fileURLWithPath: path)
    guard let image, let destination = CGImageDestinationCreateWithURL(url as CFURL, kUTTypePNG, 1, nil) else { return }
    CGImageDestinationAddImage(destination, image, nil)
    if CGImageDestinationFinalize(destination) { print("samples: wrote \(url.path)") }
}

/// Renders every scene offscreen (one frame, one second in) into `dir`.
@MainActor func renderHeadless(into dir: String) {
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    write(picture, "\(dir)/coregraphics-demo.png")
    write(LayerDemo.render(width: 480, height: 270, contents: picture), "\(dir)/layers-demo.png")
    var shots: [CGImage] = []
    for (i, scene) in scenes.enumerated() {
        let renderer = CARenderer()
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.backgroundColor = CGColor(gray: 0.12, alpha: 1)
        renderer.bounds = root.bounds
        renderer.layer = root
        let t = CACurrentMediaTime()
        renderer.beginFrame(atTime: t, timeStamp: nil)
        let stage = box(root.bounds, nil)
        _ = scene.build(stage, picture)
        root.addSublayer(stage)
        renderer.endFrame()
        // A first frame asks tiled layers for their tiles; the picture waits for them (a window never does).
        renderer.beginFrame(atTime: t + 0.5, timeStamp: nil)
        renderer.render()
        renderer.endFrame()
        CATiledLayer.waitForTiles()
        renderer.beginFrame(atTime: t + 1, timeStamp: nil)
        renderer.render()
        renderer.endFrame()
        let shot = renderer.makeImage()
        write(shot, String(format: "%@/scene-%02d.png", dir, i + 1))
        if let shot { shots.append(shot) }
    }
    write(contactSheet(shots, columns: 4), "\(dir)/gallery.png")
}

/// The scenes side by side at half size, composed as a layer tree (each picture a layer's contents).
@MainActor func contactSheet(_ images: [CGImage], columns: Int) -> CGImage? {
    let gap: CGFloat = 5, w = size.width / 2, h = size.height / 2
    let rows = (images.count + columns - 1) / columns
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: gap + CGFloat(columns) * (w + gap), height: gap + CGFloat(rows) * (h + gap))
    root.backgroundColor = CGColor(gray: 1, alpha: 1)
    for (i, image) in images.enumerated() {
        let tile = CALayer()
        tile.frame = CGRect(x: gap + CGFloat(i % columns) * (w + gap), y: gap + CGFloat(i / columns) * (h + gap), width: w, height: h)
        tile.contents = image
        root.addSublayer(tile)
    }
    let renderer = CARenderer()
    renderer.bounds = root.bounds
    renderer.layer = root
    renderer.beginFrame(atTime: 0, timeStamp: nil)
    renderer.render()
    renderer.endFrame()
    return renderer.makeImage()
}

if let dir = headlessDir {
    renderHeadless(into: dir)
} else if let window = LayerWindow(title: "Core Animation gallery", size: size) {
    var index = 0
    var handler: (SceneEvent) -> Void = { _ in }
    var stage = CALayer()
    var frames = 0
    var fpsStart = CACurrentMediaTime()
    func show(_ i: Int) {
        index = (i + scenes.count) % scenes.count
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        stage.removeFromSuperlayer()
        stage = box(window.rootLayer.bounds, nil)
        handler = scenes[index].build(stage, picture)
        window.rootLayer.addSublayer(stage)
        CATransaction.commit()
        window.title = "\(index + 1)/\(scenes.count) \(scenes[index].name)"
    }
    window.onEvent = { event in
        switch event.kind {
        case .keyDown(let key, let text):
            if key == KeySym.right { show(index + 1) } else if key == KeySym.left { show(index - 1) }
            else if key == KeySym.escape { window.close() }
            else if let n = Int(text), n >= 1, n <= scenes.count { show(n - 1) }
        case .mouseDown: handler(SceneEvent(kind: .down, location: event.location, layer: event.layer))
        case .mouseUp: handler(SceneEvent(kind: .up, location: event.location, layer: event.layer))
        case .mouseMoved: handler(SceneEvent(kind: .moved, location: event.location, layer: event.layer))
        case .mouseDragged: handler(SceneEvent(kind: .dragged, location: event.location, layer: event.layer))
        case .scroll(_, let dy): handler(SceneEvent(kind: .scroll(dy), location: event.location, layer: event.layer))
        default: break
        }
    }
    window.onFrame = { t in
        frames += 1
        if t - fpsStart >= 1 {
            window.title = String(format: "%d/%d %@ — %.0f fps", index + 1, scenes.count, scenes[index].name, Double(frames) / (t - fpsStart))
            frames = 0
            fpsStart = t
        }
    }
    show(0)
    window.run()
    exit(0)
} else {
    print("samples: no X display could be opened; rendering every scene into out/ instead.")
    renderHeadless(into: "out")
}
