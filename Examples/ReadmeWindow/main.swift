import X11Host   // re-exports QuartzCore, CoreGraphics and Foundation

guard let window = LayerWindow(title: "Hello", size: CGSize(width: 400, height: 300)) else {
    fatalError("no window: \(LayerWindow.lastOpenError!)")   // e.g. no X display
}
let box = CALayer()
box.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
window.rootLayer.addSublayer(box)

window.onEvent = { event in
    switch event.kind {
    case .mouseDown where event.layer === box:
        box.position.x += 40              // an implicit animation: it glides there in 0.25 s
    case .mouseDragged:
        CATransaction.begin()             // the usual drag: follow the pointer, no animation
        CATransaction.setDisableActions(true)
        box.position = event.location
        CATransaction.commit()
    default:
        break
    }
}
window.run()                              // returns when the window is closed
