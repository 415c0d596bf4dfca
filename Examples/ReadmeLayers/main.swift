import X11Host

guard let window = LayerWindow(title: "Shape, text and gradient layers", size: CGSize(width: 480, height: 200)) else {
    fatalError("no window: \(LayerWindow.lastOpenError!)")
}

let ring = CAShapeLayer()
ring.frame = CGRect(x: 20, y: 50, width: 100, height: 100)
ring.path = CGPath(ellipseIn: ring.bounds, transform: nil)
ring.fillColor = nil
ring.strokeColor = CGColor(red: 0.3, green: 0.75, blue: 0.45, alpha: 1)
ring.lineWidth = 10
ring.strokeEnd = 0.3                      // click the ring: the stroke animates to the full circle

let text = CATextLayer()
text.frame = CGRect(x: 140, y: 40, width: 180, height: 120)
text.string = "Core Animation on Linux — 图层与动画"   // CJK falls back to an installed Chinese font
text.fontSize = 20
text.isWrapped = true
text.contentsScale = window.scale         // crisp on a HiDPI screen

let gradient = CAGradientLayer()
gradient.frame = CGRect(x: 340, y: 40, width: 120, height: 120)
gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
gradient.type = .conic                    // .axial (the default), .radial, .conic
gradient.startPoint = CGPoint(x: 0.5, y: 0.5)
gradient.cornerRadius = 60

for layer in [ring, text, gradient] { window.rootLayer.addSublayer(layer) }
window.onEvent = { event in
    if case .mouseDown = event.kind, event.layer === ring {
        ring.strokeEnd = ring.strokeEnd < 1 ? 1 : 0.3
    }
}
window.run()
