import Foundation
import ImageIO
import QuartzCore

/// Writes `image` as a PNG at `path`; true when written.
@discardableResult
func write(_ image: CGImage?, _ path: String) -> Bool {
    let url = URL(fileURLWithPath: path)
    guard let image, let destination = CGImageDestinationCreateWithURL(url as CFURL, kUTTypePNG, 1, nil) else { return false }
    CGImageDestinationAddImage(destination, image, nil)
    guard CGImageDestinationFinalize(destination) else { return false }
    // Written unbuffered: with output going to a file, print's buffer would hold the line until exit.
    FileHandle.standardOutput.write(Data("samples: wrote \(url.path)\n".utf8))
    return true
}

/// Renders scene `index` offscreen as it is one second after it was built.
@MainActor func renderScene(_ index: Int, picture: CGImage?) -> CGImage? {
    let renderer = CARenderer()
    let root = CALayer()
    root.frame = CGRect(origin: .zero, size: designSize)
    root.backgroundColor = CGColor(gray: 0.12, alpha: 1)
    renderer.bounds = root.bounds
    renderer.layer = root
    let t = CACurrentMediaTime()
    renderer.beginFrame(atTime: t, timeStamp: nil)
    let stage = box(root.bounds, nil)
    _ = scenes[index].build(stage, picture)
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
    return renderer.makeImage()
}

/// Renders every scene offscreen (one frame, one second in) into `dir`, or only `only` when given.
@MainActor func renderHeadless(into dir: String, only: Int? = nil, picture: CGImage?) {
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    if let only {
        write(renderScene(only, picture: picture), String(format: "%@/scene-%02d.png", dir, only + 1))
        return
    }
    write(picture, "\(dir)/coregraphics-demo.png")
    write(LayerDemo.render(width: 480, height: 270, contents: picture), "\(dir)/layers-demo.png")
    var shots: [CGImage] = []
    for i in scenes.indices {
        let shot = renderScene(i, picture: picture)
        write(shot, String(format: "%@/scene-%02d.png", dir, i + 1))
        if let shot { shots.append(shot) }
    }
    write(contactSheet(shots, columns: 4), "\(dir)/gallery.png")
}

/// The scenes side by side at half size, composed as a layer tree (each picture a layer's contents).
@MainActor func contactSheet(_ images: [CGImage], columns: Int) -> CGImage? {
    let gap: CGFloat = 5, w = designSize.width / 2, h = designSize.height / 2
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
