// Apple: sublayers is nil when empty; adding a sublayer removes it from its old parent; a
// mask's superlayer is the masked layer though it is not a sublayer; adding, inserting or
// removing a sublayer marks the superlayer as needing layout.
import QuartzCore
import Testing

@Suite struct CALayerHierarchyTests {
    func named(_ n: String) -> CALayer { let l = CALayer(); l.name = n; return l }

    @Test func addInsertReplaceAndRemove() {
        let p = CALayer()
        let a = named("a"), b = named("b"), c = named("c"), d = named("d")
        p.addSublayer(a); p.addSublayer(b)
        p.insertSublayer(c, at: 0)
        #expect(p.sublayers!.map { $0.name! } == ["c", "a", "b"])
        p.insertSublayer(d, above: a)
        #expect(p.sublayers!.map { $0.name! } == ["c", "a", "d", "b"])
        p.insertSublayer(d, below: c)
        #expect(p.sublayers!.map { $0.name! } == ["d", "c", "a", "b"])
        p.insertSublayer(named("e"), at: 99)
        #expect(p.sublayers!.last!.name == "e")
        let f = named("f")
        p.replaceSublayer(a, with: f)
        #expect(p.sublayers!.map { $0.name! } == ["d", "c", "f", "b", "e"] && a.superlayer == nil && f.superlayer === p)
        b.removeFromSuperlayer()
        #expect(p.sublayers!.map { $0.name! } == ["d", "c", "f", "e"] && b.superlayer == nil)
        p.sublayers = nil
        #expect(p.sublayers == nil && c.superlayer == nil)
    }

    @Test func addingMovesALayerFromItsOldParent() {
        let p1 = CALayer(), p2 = CALayer(), x = CALayer()
        p1.addSublayer(x)
        p2.addSublayer(x)
        #expect(p1.sublayers == nil && p2.sublayers!.count == 1 && x.superlayer === p2)
        p2.addSublayer(x)   // re-adding keeps one copy, moved to the front
        #expect(p2.sublayers!.count == 1)
    }

    @Test func cyclesAreRejectedAndCounted() {
        let a = CALayer(), b = CALayer(), c = CALayer()
        a.addSublayer(b); b.addSublayer(c)
        let before = CGDiagnostics.count(.layerCycle)
        a.addSublayer(a)
        c.addSublayer(a)
        c.mask = a
        b.mask = b
        #expect(a.superlayer == nil && a.sublayers!.count == 1 && c.sublayers == nil && c.mask == nil && b.mask == nil)
        #expect(CGDiagnostics.count(.layerCycle) == before + 4)
    }

    @Test func maskBelongsToTheMaskedLayerButIsNotASublayer() {
        let l = CALayer(), m = CALayer(), other = CALayer()
        other.addSublayer(m)
        l.mask = m
        #expect(m.superlayer === l && l.sublayers == nil && other.sublayers == nil)
        let l2 = CALayer()
        l2.mask = m   // moved, not shared
        #expect(l.mask == nil && l2.mask === m && m.superlayer === l2)
        m.removeFromSuperlayer()
        #expect(l2.mask == nil && m.superlayer == nil)
    }

    @Test func treeChangesMarkTheSuperlayerForLayout() {
        let p = CALayer(), c = CALayer()
        p.addSublayer(c)
        #expect(p.needsLayout())
        p.layoutIfNeeded()
        #expect(!p.needsLayout())
        c.bounds = CGRect(x: 0, y: 0, width: 5, height: 5)
        #expect(p.needsLayout())
        p.layoutIfNeeded()
        c.removeFromSuperlayer()
        #expect(p.needsLayout())
    }

    @Test func deepChainsAndWideTreesStayLinearAndDoNotOverflow() {
        var root: CALayer? = CALayer()
        var leaf = root!
        for _ in 0..<100_000 {
            let next = CALayer()
            next.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            next.position = CGPoint(x: 5, y: 5)
            leaf.addSublayer(next)
            leaf = next
        }
        root!.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        root!.position = CGPoint(x: 5, y: 5)
        root!.layoutIfNeeded()
        #expect(root!.hitTest(CGPoint(x: 1, y: 1)) === leaf)
        #expect(leaf.convert(CGPoint(x: 2, y: 3), to: nil) == CGPoint(x: 2, y: 3))
        root = nil   // releases 100,000 levels without recursing

        let wide = CALayer()
        wide.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        for _ in 0..<1_000_000 { wide.addSublayer(CALayer()) }
        #expect(wide.sublayers!.count == 1_000_000)
        #expect(wide.hitTest(CGPoint(x: 10, y: 10)) === wide)
        wide.layoutIfNeeded()
        wide.sublayers = nil
    }
}
