// The prepare pass's decisions, apart from pixels: which layers a frame's display list holds, in
// which order, which are painted as offscreen groups, and what sublayers inherit. Each case is
// one of Apple's documented rules for how a layer tree is composited.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct DisplayListTests {
    private var snapshots = SnapshotBuilder()

    /// A snapshot of a layer at `frame` (superlayer space), with `configure` applied.
    private mutating func layer(_ frame: CGRect, _ subs: [LayerSnapshot] = [], mask: LayerSnapshot? = nil,
                                _ configure: (inout LayerState) -> Void = { _ in }) -> LayerSnapshot {
        snapshots.layer(frame, subs, mask: mask, configure)
    }

    /// The display list of one frame of `root` in a 200 × 200 target.
    private func list(_ root: LayerSnapshot, maxDepth: Int = 1024) -> (DisplayList, Compositor) {
        let c = Compositor()
        c.maxDepth = maxDepth
        _ = c.damage(root, at: 0, base: Compositor.base(scale: 1, origin: .zero), frame: PixelBox(x0: 0, y0: 0, x1: 200, y1: 200))
        return (c.displayList, c)
    }

    /// `root` painted from its display list, with occluded layers painted around what hides
    /// them, gives the tree walk's pixels for 1, 2 and 3 workers and within two limits, and (when
    /// `culls`) some layer is culled.
    private func expectListedPixelsAreTheTreeWalks(_ root: LayerSnapshot, culls: Bool = true) {
        let frame = PixelBox(x0: 0, y0: 0, x1: 200, y1: 200)
        let base = Compositor.base(scale: 1, origin: .zero)
        for (threads, limit) in [(1, frame), (2, frame), (3, frame), (1, PixelBox(x0: 30, y0: 40, x1: 170, y1: 190)),
                                 (2, PixelBox(x0: 60, y0: 0, x1: 140, y1: 200))] {
            let listed = OwnedTarget(box: frame), walked = OwnedTarget(box: frame)
            let c = Compositor()
            c.threads = threads
            _ = c.damage(root, at: 0, base: base, frame: frame)
            c.render(root, at: 0, into: listed.target, base: base, limit: limit)
            Compositor().render(root, at: 0, into: walked.target, base: base, limit: limit)
            #expect(memcmp(listed.target.pixels, walked.target.pixels, 200 * 200 * 4) == 0, "\(threads) workers, \(limit)")
            if culls { #expect(c.culledLayers > 0) }
        }
    }

    /// 120 translucent rounded cards, turned, over a 200 × 200 frame; every seventeenth shadowed.
    private mutating func turnedCards() -> [LayerSnapshot] {
        (0..<120).map { i in
            layer(CGRect(x: Double(i % 12) * 16 - 5, y: Double(i / 12) * 19.5, width: 30, height: 26)) {
                $0.backgroundColor = CGColor(red: Double(i % 7) / 6, green: 0.5, blue: Double(i % 3) / 2, alpha: 0.7)
                $0.cornerRadius = 5
                $0.transform = Transform3D.rotation(0.2 * Double(i % 9), 0, 0, 1)
                if i % 17 == 0 { $0.shadowOpacity = 0.8; $0.shadowRadius = 4; $0.shadowOffset = CGSize(width: 3, height: 3) }
            }
        }
    }

    private func entries(_ l: DisplayList) -> [String] {
        l.items.map { "\($0.kind)\($0.bordered ? "+border" : ""):\($0.footprint.snapshot.id)" }
    }

    /// "Sublayers are drawn in ascending zPosition order, then in the order of the sublayers
    /// array"; the border "is composited above the receiver's contents and sublayers".
    @Test mutating func itemsFollowPaintingOrderWithTheBorderAfterTheSublayers() {
        let a = layer(CGRect(x: 10, y: 10, width: 20, height: 20)) { $0.zPosition = 1 }   // 1
        let b = layer(CGRect(x: 20, y: 20, width: 20, height: 20))                         // 2
        let leaf = layer(CGRect(x: 50, y: 50, width: 20, height: 20)) { $0.borderWidth = 2 }   // 3
        let root = layer(CGRect(x: 0, y: 0, width: 200, height: 200), [a, b, leaf]) { $0.borderWidth = 1 }   // 4
        let (l, _) = list(root)
        #expect(entries(l) == ["layer:4", "layer:2", "layer+border:3", "layer:1", "border:4"])
    }

    /// allowsGroupOpacity: "the layer is allowed to composite itself as a group separate from its
    /// parent" when its opacity is below 1; a shadow is cast by the layer and its sublayers
    /// together; a mask's alpha multiplies the layer and its sublayers: each is one group item,
    /// its sublayers inside it.
    @Test mutating func groupsHoldTheirSublayers() {
        let inner1 = layer(CGRect(x: 0, y: 0, width: 10, height: 10))
        let group = layer(CGRect(x: 10, y: 10, width: 50, height: 50), [inner1]) { $0.opacity = 0.5 }
        let inner2 = layer(CGRect(x: 0, y: 0, width: 10, height: 10))
        let shadowed = layer(CGRect(x: 70, y: 10, width: 50, height: 50), [inner2]) { $0.shadowOpacity = 1 }
        let maskLayer = layer(CGRect(x: 0, y: 0, width: 20, height: 20))
        let masked = layer(CGRect(x: 130, y: 10, width: 50, height: 50), mask: maskLayer)
        let faded = layer(CGRect(x: 10, y: 100, width: 20, height: 20)) { $0.opacity = 0.5 }   // no sublayers: no group
        let root = layer(CGRect(x: 0, y: 0, width: 200, height: 200), [group, shadowed, masked, faded])
        let (l, _) = list(root)
        #expect(entries(l) == ["layer:\(root.id)", "group:\(group.id)", "group:\(shadowed.id)", "group:\(masked.id)",
                               "layer:\(faded.id)"])
    }

    /// Hidden layers and their sublayers are not drawn; a single-sided layer facing away is not
    /// drawn ("isDoubleSided … when false, the layer hides when facing away from the viewer");
    /// a layer with nothing to draw adds nothing.
    @Test mutating func culledLayersAreLeftOut() {
        let underHidden = layer(CGRect(x: 0, y: 0, width: 10, height: 10))
        let hidden = layer(CGRect(x: 10, y: 10, width: 20, height: 20), [underHidden]) { $0.isHidden = true }
        let underBack = layer(CGRect(x: 0, y: 0, width: 10, height: 10))
        let back = layer(CGRect(x: 40, y: 10, width: 20, height: 20), [underBack]) {
            $0.isDoubleSided = false
            $0.transform = Transform3D.scale(-1, 1, 1)
        }
        let empty = layer(CGRect(x: 70, y: 10, width: 20, height: 20)) { $0.backgroundColor = nil }
        let clear = layer(CGRect(x: 100, y: 10, width: 20, height: 20)) { $0.opacity = 0 }
        let root = layer(CGRect(x: 0, y: 0, width: 200, height: 200), [hidden, back, empty, clear])
        let (l, _) = list(root)
        #expect(entries(l) == ["layer:\(root.id)"])
    }

    /// masksToBounds: "sublayers are clipped to the layer's bounds": they inherit its shape and box.
    @Test mutating func clippingLayersPassTheirShapeToTheirSublayers() {
        let child = layer(CGRect(x: -10, y: -10, width: 100, height: 100))
        let clipping = layer(CGRect(x: 20, y: 30, width: 40, height: 50), [child]) {
            $0.masksToBounds = true
            $0.cornerRadius = 8
        }
        let root = layer(CGRect(x: 0, y: 0, width: 200, height: 200), [clipping])
        let (l, _) = list(root)
        let item = try! #require(l.items.last)
        #expect(item.footprint.snapshot.id == child.id)
        let context = l.contexts[Int(item.context)]
        #expect(context.limit == PixelBox(x0: 20, y0: 30, x1: 60, y1: 80))
        #expect(context.clips.count == 1 && context.clips[0].shape.radii.0 == 8)
        #expect(context.depth == 2)
    }

    /// Levels past the compositor's depth limit are left out and counted (Compositor.maxDepth).
    @Test mutating func levelsPastTheDepthLimitAreCounted() {
        var chain = layer(CGRect(x: 1, y: 1, width: 100, height: 100))
        for _ in 0..<9 { chain = layer(CGRect(x: 1, y: 1, width: 100, height: 100), [chain]) }
        let (l, _) = list(chain, maxDepth: 4)
        #expect(l.items.count == 4)
        #expect(l.skippedForDepth == 1)
    }

    /// The list of a tree of many plain layers holds one item each, and the bands paint it with
    /// the pixels of the tree walk (the walk is what `render(in:)` and unlisted frames use).
    @Test mutating func bandsPaintTheListWithTheTreeWalksPixels() {
        var subs: [LayerSnapshot] = []
        for i in 0..<300 {
            subs.append(layer(CGRect(x: Double(i % 20) * 9.5, y: Double(i / 20) * 12.25, width: 14, height: 11)) {
                $0.borderWidth = 1
                $0.cornerRadius = CGFloat(i % 4)
                $0.opacity = i % 3 == 0 ? 0.6 : 1
                $0.transform = i % 5 == 0 ? Transform3D.rotation(0.3, 0, 0, 1) : .identity
            })
        }
        let root = layer(CGRect(x: 0, y: 0, width: 200, height: 200), subs) { $0.masksToBounds = true; $0.cornerRadius = 30 }
        let frame = PixelBox(x0: 0, y0: 0, x1: 200, y1: 200)
        let base = Compositor.base(scale: 1, origin: .zero)
        let listed = OwnedTarget(box: frame), walked = OwnedTarget(box: frame)
        let c = Compositor()
        _ = c.damage(root, at: 0, base: base, frame: frame)
        #expect(c.displayList.items.count == 301)
        c.render(root, at: 0, into: listed.target, base: base)
        Compositor().render(root, at: 0, into: walked.target, base: base)
        let n = 200 * 200
        #expect(memcmp(listed.target.pixels, walked.target.pixels, n * 4) == 0)
    }

    /// An opaque layer hides what lies under it (Apple composites sublayers in order, each over
    /// the ones before): the layers listed before an opaque solid rect that covers much of a band
    /// are painted only around it — plain layers in each part it leaves, groups (a shadow here)
    /// once in the box of those parts — with the pixels of the tree walk, for any band split and
    /// within any limit; layers wholly under it are not painted at all.
    @Test mutating func layersUnderAnOpaqueLayerArePaintedOnlyAroundIt() {
        var subs = turnedCards()
        // Wholly under the opaque layer: never painted.
        subs.append(layer(CGRect(x: 80, y: 80, width: 20, height: 20)) { $0.cornerRadius = 4 })
        // A group (group opacity) whose own box lies under it, its sublayer overflowing out of it.
        subs.append(layer(CGRect(x: 60, y: 70, width: 40, height: 40), [layer(CGRect(x: 30, y: -40, width: 80, height: 30))]) {
            $0.opacity = 0.6
        })
        let opaque = layer(CGRect(x: 40, y: 50, width: 110, height: 120)) {
            $0.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            $0.borderWidth = 2
            $0.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        }
        subs.append(opaque)
        subs.append(layer(CGRect(x: 120, y: 20, width: 50, height: 60)) {   // over it, translucent
            $0.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
            $0.transform = Transform3D.rotation(0.4, 0, 0, 1)
        })
        let root = layer(CGRect(x: 0, y: 0, width: 200, height: 200), subs) { $0.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1) }
        expectListedPixelsAreTheTreeWalks(root)
        // The occluder is found: the opaque layer, for a band it covers a quarter of.
        let (l, _) = list(root)
        l.extents.withUnsafeBufferPointer { extents in
            l.items.withUnsafeBufferPointer { items in
                l.covers.withUnsafeBufferPointer { covers in
                    let o = Compositor.occluder(items, extents, covers, band: PixelBox(x0: 0, y0: 40, x1: 200, y1: 180))
                    #expect(items[o.index].footprint.snapshot.id == opaque.id)
                    #expect(o.box == PixelBox(x0: 40, y0: 50, x1: 150, y1: 170))
                    // A band it covers less than a quarter of has none.
                    #expect(Compositor.occluder(items, extents, covers, band: PixelBox(x0: 0, y0: 160, x1: 200, y1: 200)).index == 0)
                }
            }
        }
    }

    /// An image of opaque pixels drawn over its layer hides what lies under it as an opaque
    /// background does ("each sublayer is composited over the ones before"): the layers before a
    /// stretched, off-grid opaque image are painted only around its inside, with the tree walk's
    /// pixels for any band split and limit; an image with one translucent pixel, one drawn from
    /// past its edge (`contentsRect`) or under rounded corners that clip it hides nothing.
    @Test mutating func layersUnderAnOpaqueImageArePaintedOnlyAroundIt() {
        func image(translucentAt: Int?) -> CGImage {
            let ctx = CGContext(data: nil, width: 16, height: 12, bitsPerComponent: 8, bytesPerRow: 0,
                                space: CGColorSpaceCreateDeviceRGB(),
                                bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
            for y in 0..<12 { for x in 0..<16 {
                ctx.setFillColor(CGColor(red: Double(x) / 15, green: Double(y) / 11, blue: 0.5, alpha: 1))
                ctx.fill(CGRect(x: x, y: y, width: 1, height: 1))
            } }
            if let t = translucentAt { ctx.clear(CGRect(x: t, y: 3, width: 1, height: 1)) }
            return ctx.makeImage()!
        }
        let opaque = image(translucentAt: nil), holed = image(translucentAt: 7)
        #expect(opaque.hasOnlyOpaquePixels && !holed.hasOnlyOpaquePixels)
        var subs = turnedCards()
        let cover = layer(CGRect(x: 20.3, y: 30.6, width: 150.5, height: 141.2)) {
            $0.backgroundColor = nil; $0.contents = .discrete(.init(opaque))
        }
        subs.append(cover)
        let root = layer(CGRect(x: 0, y: 0, width: 200, height: 200), subs) { $0.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1) }
        let frame = PixelBox(x0: 0, y0: 0, x1: 200, y1: 200)
        expectListedPixelsAreTheTreeWalks(root)
        // Its inside (a pixel clear of each side) is the occluder; the others hide nothing.
        func occluder(_ top: LayerSnapshot) -> (Int, PixelBox, UInt64) {
            let (l, _) = list(layer(CGRect(x: 0, y: 0, width: 200, height: 200), subs.dropLast() + [top]) {
                $0.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1)
            })
            return l.items.withUnsafeBufferPointer { items in
                l.extents.withUnsafeBufferPointer { extents in
                    l.covers.withUnsafeBufferPointer { covers in
                        let o = Compositor.occluder(items, extents, covers, band: frame)
                        return (o.index, o.box, items[o.index].footprint.snapshot.id)
                    }
                }
            }
        }
        let found = occluder(cover)
        #expect(found.2 == cover.id && found.1 == PixelBox(x0: 22, y0: 32, x1: 169, y1: 170))
        let rect = CGRect(x: 20.3, y: 30.6, width: 150.5, height: 141.2)
        #expect(occluder(layer(rect) { $0.backgroundColor = nil; $0.contents = .discrete(.init(holed)) }).0 == 0)
        #expect(occluder(layer(rect) {
            $0.backgroundColor = nil; $0.contents = .discrete(.init(opaque)); $0.contentsRect = CGRect(x: -0.1, y: 0, width: 1, height: 1)
        }).0 == 0)
        #expect(occluder(layer(rect) {
            $0.backgroundColor = nil; $0.contents = .discrete(.init(opaque)); $0.masksToBounds = true; $0.cornerRadius = 8
        }).0 == 0)
        #expect(occluder(layer(rect) {   // reads no texel: draws nothing
            $0.backgroundColor = nil; $0.contents = .discrete(.init(opaque)); $0.contentsRect = CGRect(x: 0.5, y: 0, width: 1e-17, height: 1)
        }).0 == 0)
        // Other ways of drawing it, each over the cards with the tree walk's pixels; those that
        // cover (nearest texels, a square clip, an image overflowing the bounds at centre
        // gravity) are the occluder, a minified trilinear draw (two mip levels mixed in Float)
        // is not.
        // 400 × 300 opaque pixels, minified into the bounds.
        let ctx = CGContext(data: nil, width: 400, height: 300, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                            bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
        for i in 0..<20 {
            ctx.setFillColor(CGColor(red: Double(i) / 19, green: 0.3, blue: Double(19 - i) / 19, alpha: 1))
            ctx.fill(CGRect(x: i * 20, y: 0, width: 20, height: 300))
        }
        let large = ctx.makeImage()!
        let ways: [(String, Bool, (inout LayerState) -> Void)] = [
            ("nearest", true, { $0.magnificationFilter = "nearest" }),
            ("square clip", true, { $0.masksToBounds = true }),
            ("centre, overflowing", true, { $0.contentsGravity = "center"; $0.contentsScale = 0.05 }),
            ("trilinear, minified", false, { $0.minificationFilter = "trilinear"; $0.contents = .discrete(.init(large)) }),
        ]
        for (name, covers, configure) in ways {
            // Centred at a scale of 0.05, the image's 16 × 12 pixels are 320 × 240 points.
            let top = layer(rect) { $0.backgroundColor = nil; $0.contents = .discrete(.init(opaque)); configure(&$0) }
            expectListedPixelsAreTheTreeWalks(layer(CGRect(x: 0, y: 0, width: 200, height: 200), subs.dropLast() + [top]) {
                $0.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1)
            }, culls: covers)
            let o = occluder(top)
            #expect((o.2 == top.id) == covers, "\(name)")
        }
    }

    /// Layers that paint only opaque colour on whole device pixels are stored as solid rects
    /// (`SolidRect`): unrotated, unscaled, at whole pixels, square, opaque, with whole-pixel
    /// borders, no contents, under no group alpha or rounded clip. Anything else is left to the
    /// general fill, and both give the tree walk's pixels.
    @Test mutating func solidRectsAreStoredWithTheTreeWalksPixels() {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let translucent = CGColor(red: 0, green: 0.5, blue: 1, alpha: 0.5)
        var subs: [LayerSnapshot] = []
        var solidIDs: Set<UInt64> = []
        for i in 0..<400 {
            let x = Double((i * 37) % 230) - 20, y = Double((i * 53) % 230) - 20
            let w = Double(1 + (i * 7) % 40), h = Double(1 + (i * 11) % 30)
            let width: CGFloat = [0, 1, 2, 3, 17][(i / 10) % 5]
            let variant = i % 10
            let inner = variant == 9 ? [layer(CGRect(x: 2, y: 2, width: 5, height: 5))] : []
            let l = layer(CGRect(x: x + (variant == 1 ? 0.5 : 0), y: y, width: w, height: h), inner) {
                $0.backgroundColor = CGColor(red: Double(i % 7) / 6, green: Double(i % 5) / 4, blue: Double(i % 3) / 2, alpha: 1)
                $0.borderWidth = width
                $0.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
                switch variant {
                case 2: $0.cornerRadius = 3
                case 3: $0.opacity = 0.5
                case 4: $0.backgroundColor = translucent
                case 5: $0.borderColor = translucent
                case 6: $0.borderWidth = 1.5
                case 7: $0.transform = Transform3D.scale(2, 1, 1)
                case 8: $0.backgroundColor = nil
                default: break
                }
            }
            // A layer that touches no pixel of the frame is not listed at all.
            func onFrame(_ r: CGRect) -> Bool {
                let i = r.intersection(CGRect(x: 0, y: 0, width: 200, height: 200))
                return !i.isNull && i.width > 0 && i.height > 0
            }
            let own = CGRect(x: x + (variant == 1 ? 0.5 : 0), y: y, width: w, height: h)
            switch variant {
            case 0 where onFrame(own): solidIDs.insert(l.id)
            case 5 where width == 0 && onFrame(own): solidIDs.insert(l.id)              // its border is not drawn
            case 6 where (w <= 3 || h <= 3) && onFrame(own): solidIDs.insert(l.id)      // the border covers it all
            case 8 where width > 0 && onFrame(own): solidIDs.insert(l.id)               // only a border
            case 9:
                solidIDs.insert(l.id)   // it has a sublayer: listed wherever it is
                if onFrame(CGRect(x: x + 2, y: y + 2, width: 5, height: 5)) { solidIDs.insert(inner[0].id) }
            default: break
            }
            subs.append(l)
        }
        let clipped = layer(CGRect(x: 150, y: 150, width: 40, height: 40), [layer(CGRect(x: 5, y: 5, width: 10, height: 10))]) {
            $0.masksToBounds = true
            $0.backgroundColor = red
        }
        subs.append(clipped)
        solidIDs.insert(clipped.id)
        let root = layer(CGRect(x: 0, y: 0, width: 200, height: 200), subs)
        solidIDs.insert(root.id)
        let frame = PixelBox(x0: 0, y0: 0, x1: 200, y1: 200)
        let base = Compositor.base(scale: 1, origin: .zero)
        let listed = OwnedTarget(box: frame), walked = OwnedTarget(box: frame)
        let c = Compositor()
        _ = c.damage(root, at: 0, base: base, frame: frame)
        // Solid: the root, opaque whole-pixel layers and their borders (a border wider than half
        // the layer covers it all), a sublayer's parent, a layer with only a border, and a
        // clipping layer itself; its sublayer is under a clip, so it is not.
        let solid = Set(c.displayList.items.filter(\.solid).map(\.footprint.snapshot.id))
        #expect(solid == solidIDs)
        c.render(root, at: 0, into: listed.target, base: base)
        Compositor().render(root, at: 0, into: walked.target, base: base)
        #expect(memcmp(listed.target.pixels, walked.target.pixels, 200 * 200 * 4) == 0)
    }
}
