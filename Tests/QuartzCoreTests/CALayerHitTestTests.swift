// Apple: hitTest(_:) takes a point in the superlayer's space, walks front to back, skips hidden
// layers, lets masksToBounds clip descendants, and a higher zPosition wins over a later sibling
// (measured; the seed text says otherwise). contains(_:) is half-open on bounds.
import QuartzCore
import Testing

@Suite struct CALayerHitTestTests {
    func box(_ name: String, _ frame: CGRect) -> CALayer {
        let l = CALayer(); l.name = name; l.frame = frame; return l
    }

    @Test func containsIsHalfOpen() {
        let l = box("l", CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(l.contains(.zero) && l.contains(CGPoint(x: 9.999, y: 9.999)))
        #expect(!l.contains(CGPoint(x: 10, y: 5)) && !l.contains(CGPoint(x: 5, y: 10)) && !l.contains(CGPoint(x: -0.001, y: 0)))
    }

    @Test func frontmostSiblingWinsAndZPositionRaises() {
        let root = box("root", CGRect(x: 0, y: 0, width: 100, height: 100))
        let a = box("a", CGRect(x: 10, y: 10, width: 50, height: 50))
        let b = box("b", CGRect(x: 30, y: 30, width: 50, height: 50))
        root.addSublayer(a); root.addSublayer(b)
        #expect(root.hitTest(CGPoint(x: 40, y: 40))?.name == "b")
        a.zPosition = 1
        #expect(root.hitTest(CGPoint(x: 40, y: 40))?.name == "a")
        #expect(root.hitTest(CGPoint(x: 5, y: 5))?.name == "root")
        #expect(root.hitTest(CGPoint(x: 150, y: 5)) == nil)
    }

    @Test func hiddenLayersAndTheirSubtreesAreSkipped() {
        let root = box("root", CGRect(x: 0, y: 0, width: 100, height: 100))
        let a = box("a", CGRect(x: 0, y: 0, width: 50, height: 50))
        let inner = box("inner", CGRect(x: 0, y: 0, width: 10, height: 10))
        root.addSublayer(a); a.addSublayer(inner)
        a.isHidden = true
        #expect(root.hitTest(CGPoint(x: 5, y: 5))?.name == "root")
    }

    @Test func masksToBoundsClipsDescendants() {
        let root = box("root", CGRect(x: 0, y: 0, width: 100, height: 100))
        let clip = box("clip", CGRect(x: 0, y: 0, width: 20, height: 20))
        let child = box("child", CGRect(x: 10, y: 10, width: 50, height: 50))
        root.addSublayer(clip); clip.addSublayer(child)
        #expect(root.hitTest(CGPoint(x: 40, y: 40))?.name == "child")
        clip.masksToBounds = true
        #expect(root.hitTest(CGPoint(x: 40, y: 40))?.name == "root")
        #expect(root.hitTest(CGPoint(x: 15, y: 15))?.name == "child")
    }

    @Test func pointIsInTheSuperlayersSpace() {
        let root = box("root", CGRect(x: 100, y: 100, width: 50, height: 50))
        #expect(root.hitTest(CGPoint(x: 110, y: 110)) === root)
        #expect(root.hitTest(CGPoint(x: 10, y: 10)) == nil)
    }

    @Test func overriddenContainsIsHonoured() {
        final class Round: CALayer {
            override func contains(_ p: CGPoint) -> Bool {
                let r = bounds.width / 2
                return hypot(p.x - r, p.y - r) < r
            }
        }
        let root = box("root", CGRect(x: 0, y: 0, width: 100, height: 100))
        let round = Round(); round.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.addSublayer(round)
        #expect(root.hitTest(CGPoint(x: 50, y: 50)) === round)
        #expect(root.hitTest(CGPoint(x: 2, y: 2)) === root)
    }

    // MARK: Oracle

    /// A random tree through rotations, scales and perspective, checked against a brute-force
    /// oracle: each layer's bounds are projected forward to the root space with matrices built
    /// here from public properties only; the hit is the last-painted layer whose quad (and every
    /// clipping ancestor's quad) holds the point.
    @Test func tenThousandRandomPointsMatchTheOracle() {
        var rng = SplitMix(seed: 0xCA1A7E5)
        let root = box("root", CGRect(x: 0, y: 0, width: 400, height: 400))
        var all: [CALayer] = [root]
        for i in 0..<60 {
            let l = CALayer()
            l.name = "L\(i)"
            l.bounds = CGRect(x: rng.range(-10, 10), y: rng.range(-10, 10), width: rng.range(20, 160), height: rng.range(20, 160))
            l.position = CGPoint(x: rng.range(20, 380), y: rng.range(20, 380))
            l.anchorPoint = CGPoint(x: rng.range(0, 1), y: rng.range(0, 1))
            var t = CATransform3DMakeRotation(rng.range(-3, 3), 0, 0, 1)
            t = CATransform3DScale(t, rng.range(0.5, 1.5), rng.range(0.5, 1.5), 1)
            if rng.next() % 4 == 0 { t = CATransform3DConcat(CATransform3DMakeRotation(rng.range(-0.8, 0.8), 0, 1, 0), t) }
            l.transform = t
            l.zPosition = CGFloat(rng.next() % 3)
            l.masksToBounds = rng.next() % 3 == 0
            l.isHidden = rng.next() % 10 == 0
            if rng.next() % 5 == 0 {
                var p = CATransform3DIdentity; p.m34 = -1 / 600
                l.sublayerTransform = p
            }
            let parent = all[Int(rng.next() % UInt64(all.count))]
            parent.addSublayer(l)
            all.append(l)
        }
        let oracle = Oracle(root)
        var agree = 0
        for _ in 0..<10_000 {
            let p = CGPoint(x: rng.range(-20, 420), y: rng.range(-20, 420))
            if root.hitTest(p) === oracle.hit(p) { agree += 1 }
        }
        #expect(agree == 10_000)
    }
}

/// Deterministic 64-bit generator for test scenes.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func range(_ lo: CGFloat, _ hi: CGFloat) -> CGFloat {
        lo + (hi - lo) * CGFloat(next() >> 11) / CGFloat(1 << 53)
    }
}

/// Forward-projection hit oracle, independent of the library's inverse mapping.
struct Oracle {
    /// Visible layers back to front, each with its projected quad and its clipping ancestors' quads.
    let entries: [(layer: CALayer, quad: [CGPoint]?, clips: [[CGPoint]?])]

    init(_ root: CALayer) {
        var order: [CALayer] = []
        Oracle.paintOrder(root, into: &order)
        var quads: [ObjectIdentifier: [CGPoint]?] = [:]
        for l in order { quads[ObjectIdentifier(l)] = Oracle.quad(l) }
        entries = order.map { layer in
            var clips: [[CGPoint]?] = []
            var a = layer.superlayer
            while let c = a {
                if c.masksToBounds { clips.append(quads[ObjectIdentifier(c)] ?? Oracle.quad(c)) }
                a = c.superlayer
            }
            return (layer, quads[ObjectIdentifier(layer)]!, clips)
        }
    }

    func hit(_ p: CGPoint) -> CALayer? {
        for e in entries.reversed() where Oracle.inside(e.quad, p) && e.clips.allSatisfy({ Oracle.inside($0, p) }) {
            return e.layer
        }
        return nil
    }

    /// 4×4 row-vector product.
    static func mul(_ a: [CGFloat], _ b: [CGFloat]) -> [CGFloat] {
        var r = [CGFloat](repeating: 0, count: 16)
        for i in 0..<4 { for j in 0..<4 { for k in 0..<4 { r[i * 4 + j] += a[i * 4 + k] * b[k * 4 + j] } } }
        return r
    }
    static func m(_ t: CATransform3D) -> [CGFloat] {
        [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
    }
    static func translate(_ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> [CGFloat] { m(CATransform3DMakeTranslation(x, y, z)) }

    /// Maps a point of `layer`'s plane to the root's superlayer space, flattening at each level.
    static func project(_ p: CGPoint, from layer: CALayer) -> CGPoint? {
        var q = p
        var l: CALayer? = layer
        while let c = l {
            let a = CGPoint(x: c.bounds.minX + c.anchorPoint.x * c.bounds.width, y: c.bounds.minY + c.anchorPoint.y * c.bounds.height)
            var mat = mul(mul(translate(-a.x, -a.y, -c.anchorPointZ), m(c.transform)), translate(c.position.x, c.position.y, c.zPosition))
            if let s = c.superlayer {
                let sa = CGPoint(x: s.bounds.minX + s.anchorPoint.x * s.bounds.width, y: s.bounds.minY + s.anchorPoint.y * s.bounds.height)
                mat = mul(mul(mul(mat, translate(-sa.x, -sa.y, 0)), m(s.sublayerTransform)), translate(sa.x, sa.y, 0))
            }
            let x = q.x * mat[0] + q.y * mat[4] + mat[12], y = q.x * mat[1] + q.y * mat[5] + mat[13]
            let w = q.x * mat[3] + q.y * mat[7] + mat[15]
            guard w > 0 else { return nil }
            q = CGPoint(x: x / w, y: y / w)
            l = c.superlayer
        }
        return q
    }

    /// The projected corners of `layer`'s bounds, or nil when a corner is behind the viewer.
    static func quad(_ layer: CALayer) -> [CGPoint]? {
        let b = layer.bounds.standardized
        let corners = [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY),
                       CGPoint(x: b.maxX, y: b.maxY), CGPoint(x: b.minX, y: b.maxY)].compactMap { project($0, from: layer) }
        return corners.count == 4 ? corners : nil
    }

    /// Whether `p` is inside a convex quad (either winding).
    static func inside(_ quad: [CGPoint]?, _ p: CGPoint) -> Bool {
        guard let corners = quad else { return false }
        var sign: CGFloat = 0
        for i in 0..<4 {
            let a = corners[i], c = corners[(i + 1) % 4]
            let cross = (c.x - a.x) * (p.y - a.y) - (c.y - a.y) * (p.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        return true
    }

    /// Layers in painting order (back to front), skipping hidden subtrees.
    static func paintOrder(_ layer: CALayer, into out: inout [CALayer]) {
        guard !layer.isHidden else { return }
        out.append(layer)
        let subs = (layer.sublayers ?? []).enumerated().sorted {
            $0.element.zPosition != $1.element.zPosition ? $0.element.zPosition < $1.element.zPosition : $0.offset < $1.offset
        }.map(\.element)
        for s in subs { paintOrder(s, into: &out) }
    }
}
