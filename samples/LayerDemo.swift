import QuartzCore

/// A layer tree rendered offscreen by CARenderer: corners, borders, contents, a rotation, a
/// perspective card and an animation caught halfway.
enum LayerDemo {
    static func render(width: Int, height: Int, contents: CGImage?) -> CGImage? {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        root.backgroundColor = CGColor(red: 0.12, green: 0.13, blue: 0.18, alpha: 1)

        let card = CALayer()
        card.frame = CGRect(x: 24, y: 24, width: 130, height: 100)
        card.backgroundColor = CGColor(red: 0.95, green: 0.45, blue: 0.2, alpha: 1)
        card.cornerRadius = 18
        card.borderWidth = 4
        card.borderColor = CGColor(red: 1, green: 0.85, blue: 0.6, alpha: 1)
        root.addSublayer(card)

        let leaf = CALayer()
        leaf.frame = CGRect(x: 180, y: 24, width: 100, height: 100)
        leaf.backgroundColor = CGColor(red: 0.3, green: 0.75, blue: 0.45, alpha: 1)
        leaf.cornerRadius = 40
        leaf.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        root.addSublayer(leaf)

        let spinner = CALayer()
        spinner.frame = CGRect(x: 320, y: 34, width: 80, height: 80)
        spinner.backgroundColor = CGColor(red: 0.35, green: 0.55, blue: 0.95, alpha: 1)
        spinner.transform = CATransform3DMakeRotation(.pi / 8, 0, 0, 1)
        spinner.allowsEdgeAntialiasing = true
        root.addSublayer(spinner)

        let stage = CALayer()
        stage.frame = CGRect(x: 20, y: 140, width: 200, height: 120)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 300
        stage.sublayerTransform = perspective
        let picture = CALayer()
        picture.frame = CGRect(x: 30, y: 8, width: 150, height: 104)
        picture.contents = contents
        picture.contentsGravity = .resizeAspectFill
        picture.masksToBounds = true
        picture.cornerRadius = 10
        picture.transform = CATransform3DMakeRotation(.pi / 5, 0, 1, 0)
        picture.allowsEdgeAntialiasing = true
        stage.addSublayer(picture)
        root.addSublayer(stage)

        let group = CALayer()
        group.frame = CGRect(x: 260, y: 150, width: 190, height: 100)
        group.opacity = 0.6
        for i in 0..<3 {
            let dot = CALayer()
            dot.frame = CGRect(x: CGFloat(i) * 55, y: 10, width: 80, height: 80)
            dot.cornerRadius = 40
            dot.backgroundColor = [CGColor(red: 1, green: 0.3, blue: 0.4, alpha: 1),
                                   CGColor(red: 1, green: 0.8, blue: 0.2, alpha: 1),
                                   CGColor(red: 0.4, green: 0.9, blue: 1, alpha: 1)][i]
            group.addSublayer(dot)
        }
        root.addSublayer(group)

        let renderer = CARenderer()
        renderer.bounds = root.bounds
        renderer.layer = root
        let t = CACurrentMediaTime()
        renderer.beginFrame(atTime: t, timeStamp: nil)
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0
        spin.toValue = CGFloat.pi
        spin.duration = 2
        spinner.add(spin, forKey: "spin")
        renderer.render()
        renderer.endFrame()
        // Half a second into the two-second spin (linear): the animated rotation is π/4, replacing the model's π/8.
        renderer.beginFrame(atTime: t + 0.5, timeStamp: nil)
        renderer.render()
        renderer.endFrame()
        return renderer.makeImage()
    }
}
