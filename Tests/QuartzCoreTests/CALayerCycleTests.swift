// Apple: layoutSublayers() calls the delegate's layoutSublayers(of:) when implemented, else the
// layout manager; layoutIfNeeded() starts at the topmost ancestor that needs layout. display()
// lets a delegate that implements display(_:) take over; otherwise a backing store is made at
// contentsScale and draw(in:) is called, whose default calls the delegate's draw(_:in:), after
// layerWillDraw(_:). The context handed to drawing is flipped so layer coordinates work as on iOS.
// The action search is delegate → actions → style["actions"] → defaultAction(forKey:); NSNull stops it.
@testable import QuartzCore
import Testing

final class RecordingDelegate: NSObject, CALayerDelegate {
    var calls: [String] = []
    func layoutSublayers(of layer: CALayer) { calls.append("layout:\(layer.name ?? "")") }
    func draw(_ layer: CALayer, in ctx: CGContext) {
        calls.append("draw")
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))   // the top-left corner in layer space
    }
    func layerWillDraw(_ layer: CALayer) { calls.append("willDraw") }
}

final class DisplayingDelegate: NSObject, CALayerDelegate {
    var displayed = 0
    func display(_ layer: CALayer) { displayed += 1 }
    func draw(_ layer: CALayer, in ctx: CGContext) { Issue.record("draw must not run when display(_:) is implemented") }
}

final class SilentDelegate: NSObject, CALayerDelegate {}

final class Manager: CALayoutManager {
    var count = 0
    func layoutSublayers(of layer: CALayer) { count += 1 }
}

@Suite struct CALayerCycleTests {
    @Test func delegateLayoutComesBeforeTheLayoutManager() {
        let d = RecordingDelegate(), m = Manager()
        let l = CALayer(); l.name = "l"
        l.delegate = d; l.layoutManager = m
        l.setNeedsLayout(); l.layoutIfNeeded()
        #expect(d.calls == ["layout:l"] && m.count == 0)
        let s = SilentDelegate()
        l.delegate = s
        l.setNeedsLayout(); l.layoutIfNeeded()
        #expect(m.count == 1)
        #expect(!l.needsLayout())
    }

    @Test func layoutIfNeededStartsAtTheTopmostAncestorNeedingLayout() {
        let d = RecordingDelegate()
        let a = CALayer(), b = CALayer(), c = CALayer()
        a.name = "a"; b.name = "b"; c.name = "c"
        for l in [a, b, c] { l.delegate = d }
        a.addSublayer(b); b.addSublayer(c)
        a.layoutIfNeeded(); d.calls = []
        b.setNeedsLayout(); c.setNeedsLayout()
        c.layoutIfNeeded()
        #expect(d.calls == ["layout:b", "layout:c"])
    }

    @Test func displayDrawsABackingStoreAtContentsScaleFlippedForLayerCoordinates() {
        let d = RecordingDelegate()
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 40, height: 30)
        l.contentsScale = 2
        l.delegate = d
        l.setNeedsDisplay()
        #expect(l.needsDisplay())
        l.displayIfNeeded()
        #expect(!l.needsDisplay())
        #expect(d.calls == ["willDraw", "draw"])
        let image = l.contents as! CGImage
        #expect(image.width == 80 && image.height == 60)
        // (0,0,10,10) in layer space is the top-left 20×20 pixels of the store.
        #expect(image.premultipliedPixel(x: 1, y: 1) == 0xFFFF_0000)
        #expect(image.premultipliedPixel(x: 19, y: 19) == 0xFFFF_0000)
        #expect(image.premultipliedPixel(x: 21, y: 21) == 0 && image.premultipliedPixel(x: 1, y: 58) == 0)
    }

    @Test func delegateDisplayTakesPrecedence() {
        let d = DisplayingDelegate()
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        l.delegate = d
        l.display()
        #expect(d.displayed == 1 && l.contents == nil)
    }

    @Test func drawInContextOverrideIsUsed() {
        final class Painted: CALayer {
            override func draw(in ctx: CGContext) {
                ctx.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
                ctx.fill(bounds)
            }
        }
        let l = Painted()
        l.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        l.display()
        #expect((l.contents as? CGImage)?.premultipliedPixel(x: 3, y: 3) == 0xFF00_00FF)
    }

    @Test func nothingToDrawKeepsContents() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        let marker = NSObject()
        l.contents = marker
        l.display()
        #expect(l.contents as? NSObject === marker)
        l.delegate = SilentDelegate()
        l.display()
        #expect(l.contents as? NSObject === marker)
    }

    @Test func boundsChangesRedisplayOnlyWhenAsked() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 5, height: 5)
        #expect(!l.needsDisplay())
        l.needsDisplayOnBoundsChange = true
        l.bounds = CGRect(x: 0, y: 0, width: 6, height: 5)
        #expect(l.needsDisplay())
    }

    @Test func emptyBoundsDisplayClearsContents() {
        let l = CALayer()
        l.delegate = RecordingDelegate()
        l.contents = NSObject()
        l.display()
        #expect(l.contents == nil)
    }

    @Test func actionSearchOrder() {
        final class ActionDelegate: NSObject, CALayerDelegate {
            let answer: (any CAAction)?
            init(_ a: (any CAAction)?) { answer = a }
            func action(for layer: CALayer, forKey event: String) -> (any CAAction)? { answer }
        }
        final class Marker: NSObject, CAAction {
            func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
        }
        let l = CALayer()
        // With nothing configured, an animatable key gets Core Animation's built-in basic animation
        // (defaultAction(forKey:) itself is nil), and other keys get nothing.
        #expect((l.action(forKey: "opacity") as? CABasicAnimation)?.keyPath == "opacity")
        #expect(l.action(forKey: "name") == nil)
        let fromStyle = Marker(), fromActions = Marker(), fromDelegate = Marker()
        l.style = ["actions": ["opacity": fromStyle] as [String: any CAAction]]
        #expect(l.action(forKey: "opacity") === fromStyle)
        l.actions = ["opacity": fromActions]
        #expect(l.action(forKey: "opacity") === fromActions)
        let d = ActionDelegate(fromDelegate)
        l.delegate = d
        #expect(l.action(forKey: "opacity") === fromDelegate)
        // "If any of the above steps returns an instance of NSNull, it is converted to nil."
        let stop = ActionDelegate(NSNull())
        l.delegate = stop
        #expect(l.action(forKey: "opacity") == nil)
        l.delegate = nil
        l.actions = ["opacity": NSNull()]
        #expect(l.action(forKey: "opacity") == nil)
    }

    @Test func delegateIsWeak() {
        let l = CALayer()
        do {
            let d = SilentDelegate()
            l.delegate = d
            #expect(l.delegate != nil)
        }
        #expect(l.delegate == nil)
    }
}

/// Counts `display(_:)` calls per layer name, and flags other layers from inside a display.
final class CountingDelegate: NSObject, CALayerDelegate {
    var displayed: [String: Int] = [:]
    var laidOut: [String: Int] = [:]
    /// Layers to flag for display when the named layer displays.
    var flags: [String: [CALayer]] = [:]
    func display(_ layer: CALayer) {
        let name = layer.name ?? ""
        displayed[name, default: 0] += 1
        for l in flags.removeValue(forKey: name) ?? [] { l.setNeedsDisplay() }
    }
    func layoutSublayers(of layer: CALayer) { laidOut[layer.name ?? "", default: 0] += 1 }
}

// Apple: "the layer's display() method is called during the next update cycle" for a layer
// marked with setNeedsDisplay(), and layoutSublayers() runs for one marked with
// setNeedsLayout() — wherever the layer sits in the tree, and whenever it was marked.
@Suite struct CommitCycleTests {
    /// A hosted tree: root → (a → (a1, a2), b → b1), every layer named and delegated to `d`.
    func tree(_ d: CountingDelegate) -> (FrameDriver, [String: CALayer]) {
        let p = FrameDriver(40, 40)
        var all: [String: CALayer] = ["root": p.root]
        func add(_ name: String, to parent: CALayer) -> CALayer {
            let l = CALayer()
            l.name = name
            l.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            l.delegate = d
            parent.addSublayer(l)
            all[name] = l
            return l
        }
        let a = add("a", to: p.root), b = add("b", to: p.root)
        _ = add("a1", to: a); _ = add("a2", to: a); _ = add("b1", to: b)
        p.frame(at: 1)
        return (p, all)
    }

    @Test func aCommitDisplaysEveryMarkedLayerAndNoOther() {
        let d = CountingDelegate()
        let (p, l) = tree(d)
        d.displayed = [:]; d.laidOut = [:]
        l["a2"]!.setNeedsDisplay()
        l["b1"]!.setNeedsLayout()
        p.frame(at: 2)
        #expect(d.displayed == ["a2": 1])
        #expect(d.laidOut == ["b1": 1])
        // Nothing marked: a commit displays and lays out nothing.
        l["a"]!.opacity = 0.5
        p.frame(at: 3)
        #expect(d.displayed == ["a2": 1])
        #expect(d.laidOut == ["b1": 1])
        withExtendedLifetime(d) {}
    }

    @Test func layersMarkedDuringTheCommitAreDisplayedInIt() {
        let d = CountingDelegate()
        let (p, l) = tree(d)
        d.displayed = [:]
        // b1's display marks a1 (visited earlier in the walk) and b (its own superlayer).
        d.flags = ["b1": [l["a1"]!, l["b"]!]]
        l["b1"]!.setNeedsDisplay()
        p.frame(at: 2)
        #expect(d.displayed == ["b1": 1, "a1": 1, "b": 1])
        #expect(!l["a1"]!.needsDisplay() && !l["b"]!.needsDisplay())
        withExtendedLifetime(d) {}
    }

    @Test func layersMarkedBeforeJoiningTheTreeAreDisplayedWhenTheyJoin() {
        let d = CountingDelegate()
        let (p, l) = tree(d)
        d.displayed = [:]
        let loose = CALayer(), leaf = CALayer(), mask = CALayer()
        loose.name = "loose"; leaf.name = "leaf"; mask.name = "mask"
        for x in [loose, leaf, mask] { x.delegate = d; x.frame = CGRect(x: 0, y: 0, width: 5, height: 5) }
        loose.addSublayer(leaf)
        leaf.setNeedsDisplay()
        mask.setNeedsDisplay()
        p.frame(at: 2)
        #expect(d.displayed.isEmpty)   // not in a hosted tree yet
        l["a1"]!.addSublayer(loose)
        l["b1"]!.mask = mask
        p.frame(at: 3)
        #expect(d.displayed == ["leaf": 1, "mask": 1])
        withExtendedLifetime(d) {}
    }

    @Test func masksAreLaidOutAndLeaveNothingMarked() {
        let d = CountingDelegate()
        let (p, l) = tree(d)
        d.laidOut = [:]
        let mask = CALayer()
        mask.name = "mask"
        mask.delegate = d
        l["a"]!.mask = mask
        mask.frame = CGRect(x: 0, y: 0, width: 10, height: 10)   // a resize marks it for layout
        p.frame(at: 2)
        #expect(d.laidOut["mask"] == 1)
        #expect(!mask.needsLayout())
        // Nothing is left marked: the next commit walks nothing.
        #expect(!p.root.cyclePending)
        withExtendedLifetime(d) {}
    }
}
