// What a listed layer covers (Prepare/OpaqueCover.swift) and what the layers under it skip: Apple
// composites sublayers in order, each over the ones before, so where a later layer's pixels are
// opaque whatever lies under them, nothing painted there before shows. The layers before it then
// skip those pixels in their shadows and composites — with the tree walk's pixels exactly.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct OpaqueCoverTests {
    private var snapshots = SnapshotBuilder()
    private let frame = PixelBox(x0: 0, y0: 0, x1: 200, y1: 200)

    private func box(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> PixelBox { PixelBox(x0: x0, y0: y0, x1: x1, y1: y1) }

    /// The cover of each listed item, by layer identity.
    private func covers(_ root: LayerSnapshot, scale: CGFloat = 1) -> [UInt64: OpaqueCover] {
        let c = Compositor()
        _ = c.damage(root, at: 0, base: Compositor.base(scale: scale, origin: .zero), frame: frame)
        var out: [UInt64: OpaqueCover] = [:]
        for (item, cover) in zip(c.displayList.items, c.displayList.covers) { out[item.footprint.snapshot.id] = cover }
        return out
    }

    /// A rounded rect's inside is the cross of its straight rows and straight columns, one pixel
    /// clear of every edge; a shadow under it (a group only for the shadow) does not change it.
    @Test mutating func anOpaqueLayerCoversTheInsideOfItsRoundedRect() {
        let plain = snapshots.layer(CGRect(x: 10, y: 10, width: 60, height: 40)) { $0.cornerRadius = 8 }
        let shadowed = snapshots.layer(CGRect(x: 80, y: 10, width: 60, height: 40)) {
            $0.cornerRadius = 8; $0.shadowOpacity = 0.5; $0.shadowRadius = 5
        }
        let square = snapshots.layer(CGRect(x: 10.25, y: 60.5, width: 30, height: 20))
        let root = snapshots.layer(CGRect(x: 0, y: 0, width: 200, height: 200), [plain, shadowed, square])
        let k = covers(root)
        #expect(k[plain.id]?.rows == box(11, 19, 69, 41))
        #expect(k[plain.id]?.columns == box(19, 11, 61, 49))
        #expect(k[shadowed.id]?.rows == box(81, 19, 139, 41))
        #expect(k[shadowed.id]?.columns == box(89, 11, 131, 49))
        // Sides off the pixel grid: the pixels wholly inside, less one.
        #expect(k[square.id]?.rows == box(12, 62, 39, 79))
        // Through a scale of 2 (a Retina frame): in device pixels.
        let k2 = covers(root, scale: 2)
        #expect(k2[square.id]?.rows == box(22, 122, 79, 160))
        #expect(k2[plain.id]?.rows == box(21, 37, 139, 83))
    }

    /// An antialiased side is fully covered from 0.5·√(sx/sy) pixels in along x under a map
    /// scaling x by sx and y by sy (one pixel size for both axes), so the inside is taken that
    /// far from the sides; a map with no finite inverse, or corners past `maxCorner`, covers
    /// nothing.
    @Test mutating func theInsideKeepsClearOfStretchedEdges() {
        #expect(Compositor.inset(1, 1) == (1, 1))
        #expect(Compositor.inset(1, 12) == (1, 2))
        #expect(Compositor.inset(50, 1) == (4, 1))
        let stretched = snapshots.layer(CGRect(x: 20, y: 20, width: 40, height: 10)) { $0.transform = Transform3D.scale(1, 12, 1) }
        let tiny = snapshots.layer(CGRect(x: 0, y: 0, width: 1e202, height: 1e202)) { $0.transform = Transform3D.scale(1e-200, 1e-200, 1) }
        let far = snapshots.layer(CGRect(x: -5e7, y: 150, width: 1e8, height: 40))   // across the frame
        let root = snapshots.layer(CGRect(x: 0, y: 0, width: 200, height: 200), [stretched, tiny, far]) { $0.backgroundColor = nil }
        let k = covers(root)
        // Rows −35 … 85 in pixels (12 × 10 about the centre, 25), clipped to the frame, kept
        // clear by 2 along y and 1 along x.
        #expect(k[stretched.id]?.rows == box(21, 2, 59, 83))
        #expect(k[tiny.id]?.isEmpty ?? true)   // not listed: its map has no inverse
        #expect(k[far.id]?.isEmpty == true)
    }

    /// Anything that lets what lies under a layer show, or changes how it is composited, covers
    /// nothing: opacity, a translucent background, a turn, a mask, group alpha or a rounded clip
    /// from its superlayers, shouldRasterize, being hidden.
    @Test mutating func whatShowsThroughCoversNothing() {
        let rect = CGRect(x: 10, y: 10, width: 60, height: 40)
        let faded = snapshots.layer(rect) { $0.opacity = 0.99 }
        let translucent = snapshots.layer(rect) { $0.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.9) }
        let turned = snapshots.layer(rect) { $0.transform = Transform3D.rotation(0.1, 0, 0, 1) }
        let masked = snapshots.layer(rect, mask: snapshots.layer(CGRect(x: 0, y: 0, width: 20, height: 20)))
        let rasterized = snapshots.layer(rect) { $0.shouldRasterize = true; $0.shadowOpacity = 1 }
        let inFaded = snapshots.layer(rect)
        let fadedParent = snapshots.layer(CGRect(x: 0, y: 100, width: 100, height: 100), [inFaded]) {
            $0.opacity = 0.5; $0.allowsGroupOpacity = false
        }
        let clipped = snapshots.layer(rect)
        let clipping = snapshots.layer(CGRect(x: 100, y: 0, width: 100, height: 100), [clipped]) {
            $0.masksToBounds = true; $0.cornerRadius = 10
        }
        let root = snapshots.layer(CGRect(x: 0, y: 0, width: 200, height: 200),
                                   [faded, translucent, turned, masked, rasterized, fadedParent, clipping])
        let k = covers(root)
        for l in [faded, translucent, turned, masked, rasterized, fadedParent, inFaded, clipped] {
            #expect(k[l.id]?.isEmpty == true, "layer \(l.id)")
        }
        #expect(k[clipping.id]?.isEmpty == false)
    }

    /// The covers of later items hold only if those items are painted: a band past its pixel
    /// budget skips the rest of the list. Each item says the most it may charge (a plain layer
    /// its box, a leaf drawn apart for its shadow three times its box, any other group without
    /// bound), and a band sums what follows each item.
    @Test mutating func laterItemsSayWhatTheyMayCharge() {
        let plain = snapshots.layer(CGRect(x: 10, y: 10, width: 20, height: 10))
        let shadowed = snapshots.layer(CGRect(x: 50, y: 10, width: 20, height: 20)) { $0.shadowOpacity = 0.5; $0.shadowRadius = 2 }
        let parent = snapshots.layer(CGRect(x: 100, y: 10, width: 20, height: 20), [snapshots.layer(CGRect(x: 0, y: 0, width: 5, height: 5))]) {
            $0.shadowOpacity = 0.5
        }
        func list(_ subs: [LayerSnapshot]) -> DisplayList {
            let root = snapshots.layer(CGRect(x: 0, y: 0, width: 200, height: 200), subs) { $0.backgroundColor = nil }
            let c = Compositor()
            _ = c.damage(root, at: 0, base: Compositor.base(scale: 1, origin: .zero), frame: frame)
            return c.displayList
        }
        let l = list([plain, shadowed, parent])
        let shadowedBox = l.items[1].box.area
        #expect(shadowedBox > 400)   // its shadow's spread included
        #expect(l.charges == [200, 3 * shadowedBox, Int.max])
        l.extents.withUnsafeBufferPointer { extents in
            l.charges.withUnsafeBufferPointer { charges in
                #expect(Compositor.laterSpend(extents, charges, band: frame) == [Int.max, Int.max, Int.max, 0])
            }
        }
        // Without the unbounded group: the sums, and only what meets the band.
        let bounded = list([plain, shadowed])
        bounded.extents.withUnsafeBufferPointer { extents in
            bounded.charges.withUnsafeBufferPointer { charges in
                #expect(Compositor.laterSpend(extents, charges, band: frame) == [200 + 3 * shadowedBox, 3 * shadowedBox, 0])
                #expect(Compositor.laterSpend(extents, charges, band: box(0, 0, 40, 200)) == [200, 0, 0])
            }
        }
    }

    /// Overlapping shadowed cards (S3's kind of frame) with sublayers, translucent ones, plain
    /// opaque ones, shifted far: the bands skip what later cards hide and paint the tree walk's
    /// pixels, for any number of workers and within any limit.
    @Test mutating func layersUnderOpaqueCardsSkipWhatTheyHideWithTheSamePixels() {
        var g = TestLCG(seed: 26)
        var subs: [LayerSnapshot] = []
        for i in 0..<60 {
            let x = g.unit() * 170 - 10, y = g.unit() * 170 - 10
            let colour = CGColor(red: g.unit(), green: g.unit(), blue: g.unit(), alpha: i % 7 == 3 ? 0.7 : 1)
            let inner = i % 5 == 0 ? [snapshots.layer(CGRect(x: 4, y: 30, width: 50, height: 12)) {
                $0.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.5)
            }] : []
            subs.append(snapshots.layer(CGRect(x: x, y: y, width: 40 + g.unit() * 30, height: 30 + g.unit() * 20), inner) {
                $0.backgroundColor = colour
                $0.cornerRadius = CGFloat(i % 4) * 4
                if i % 6 != 1 {
                    $0.shadowOpacity = 0.6; $0.shadowRadius = 3 + CGFloat(i % 3) * 2
                    $0.shadowOffset = CGSize(width: CGFloat(i % 3) - 1, height: i % 9 == 0 ? 25 : 4)
                }
            })
        }
        // Stretched twelve times along y (a card animating its scale passes through such maps):
        // its antialiased edges are wider along y than one pixel.
        for i in 0..<3 {
            subs.append(snapshots.layer(CGRect(x: 20 + Double(i) * 50, y: 60, width: 40, height: 10)) {
                $0.cornerRadius = 4
                $0.transform = Transform3D.scale(1, 12, 1)
                if i == 1 { $0.shadowOpacity = 0.7; $0.shadowRadius = 3 }
            })
            subs.append(snapshots.layer(CGRect(x: 30 + Double(i) * 50, y: 40, width: 30, height: 30)) {
                $0.backgroundColor = CGColor(red: 0.9, green: 0.9, blue: 0.1, alpha: 1)
                $0.cornerRadius = 6
                $0.shadowOpacity = 0.6; $0.shadowRadius = 2
            })
        }
        // A wide opaque rect last: the groups before it are painted only around it in the bands
        // it covers much of (the occluder), and skip its inside in the others.
        subs.append(snapshots.layer(CGRect(x: 20, y: 110, width: 170, height: 70)) {
            $0.backgroundColor = CGColor(red: 0.3, green: 0.3, blue: 0.35, alpha: 1)
        })
        let root = snapshots.layer(CGRect(x: 0, y: 0, width: 200, height: 200), subs) {
            $0.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1)
        }
        let base = Compositor.base(scale: 1, origin: .zero)
        for (threads, limit) in [(1, frame), (2, frame), (3, frame), (1, box(30, 40, 170, 190)), (2, box(60, 0, 140, 200))] {
            let listed = OwnedTarget(box: frame), walked = OwnedTarget(box: frame)
            let c = Compositor()
            c.threads = threads
            c.bandRows = 40
            _ = c.damage(root, at: 0, base: base, frame: frame)
            c.render(root, at: 0, into: listed.target, base: base, limit: limit)
            Compositor().render(root, at: 0, into: walked.target, base: base, limit: limit)
            #expect(memcmp(listed.target.pixels, walked.target.pixels, 200 * 200 * 4) == 0, "\(threads) workers, \(limit)")
        }
        // The cards do hide some of what lies under them.
        let c = Compositor()
        _ = c.damage(root, at: 0, base: base, frame: frame)
        let t = OwnedTarget(box: frame)
        let hiding = c.displayList.items.withUnsafeBufferPointer { items in
            c.displayList.covers.withUnsafeBufferPointer { covers in
                items.indices.filter { Compositor.hidden(after: $0, items, covers, limit: frame, target: t.target) != nil }.count
            }
        }
        #expect(hiding > 20)
    }

    /// A layer drawn into an offscreen of its own (for its shadow, group opacity or a mask) paints
    /// its opaque background first, so the offscreen is cleared only outside the background's
    /// inside (`OwnedTarget(box:budget:keeping:)`). Debug builds fill the pixels left uncleared
    /// with `keptPoison`; with it 0 they hold what a zeroed offscreen holds, so frames drawn with
    /// an opaque magenta there and with 0 must be the same bytes — for rounded, square, partly
    /// rounded and hard-edged layers off the pixel grid, at scale 1, 2 and stretched, with
    /// borders, contents and sublayers over the background, group opacity and a mask.
    @Test mutating func offscreensKeepNothingOfWhatTheirLayersBackgroundHides() {
        let ctx = CGContext(data: nil, width: 8, height: 6, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                            bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
        ctx.setFillColor(CGColor(red: 0, green: 0.6, blue: 0.2, alpha: 0.5)); ctx.fill(CGRect(x: 0, y: 0, width: 8, height: 6))
        let picture = ctx.makeImage()!
        var subs: [LayerSnapshot] = []
        for i in 0..<24 {
            let x = Double(i % 6) * 32 + 3.3, y = Double(i / 6) * 48 + 5.6
            subs.append(snapshots.layer(CGRect(x: x, y: y, width: 25.5 + Double(i % 3), height: 31.25),
                                        i % 5 == 0 ? [snapshots.layer(CGRect(x: 4, y: 4, width: 30, height: 8)) {
                                            $0.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.6)
                                        }] : [], mask: i % 7 == 3 ? snapshots.layer(CGRect(x: 2, y: 2, width: 20, height: 20)) { $0.cornerRadius = 10 } : nil) {
                $0.backgroundColor = CGColor(red: Double(i % 4) / 3, green: 0.4, blue: 0.7, alpha: 1)
                $0.cornerRadius = [0, 3, 9, 12.5][i % 4]
                if i % 6 == 1 { $0.maskedCorners = 0b0101 }
                if i % 8 == 2 { $0.allowsEdgeAntialiasing = true; $0.edgeAntialiasingMask = 0b0011 }
                $0.shadowOpacity = i % 5 == 4 ? 0 : 0.7
                $0.shadowRadius = 3
                $0.shadowOffset = CGSize(width: 2, height: 3)
                if i % 3 == 0 { $0.borderWidth = 1.5; $0.borderColor = CGColor(red: 1, green: 1, blue: 0, alpha: 0.8) }
                if i % 4 == 1 { $0.contents = .discrete(.init(picture)) }
                if i % 5 == 0 { $0.opacity = 0.6 }
                if i % 9 == 5 { $0.transform = Transform3D.scale(1.5, 0.8, 1) }
            })
        }
        let root = snapshots.layer(CGRect(x: 0, y: 0, width: 200, height: 200), subs) {
            $0.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1)
        }
        defer { OwnedTarget.keptPoison.store(0xFFFF_00FF, ordering: .relaxed) }
        for scale in [1.0, 2.0] {
            let size = PixelBox(x0: 0, y0: 0, x1: Int(200 * scale), y1: Int(200 * scale))
            func draw(_ poison: UInt32, threads: Int) -> [UInt32] {
                OwnedTarget.keptPoison.store(poison, ordering: .relaxed)
                let t = OwnedTarget(box: size)
                let c = Compositor()
                c.threads = threads
                c.render(root, at: 0, into: t.target, base: Compositor.base(scale: scale, origin: .zero))
                return Array(UnsafeBufferPointer(start: t.target.pixels, count: size.x1 * size.y1))
            }
            for threads in [1, 2] {
                let loud = draw(0xFFFF_00FF, threads: threads), zeroed = draw(0, threads: threads)
                #expect(zip(loud, zeroed).filter { $0 != $1 }.count == 0, "scale \(scale), \(threads) workers")
            }
        }
    }
}
