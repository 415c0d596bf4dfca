// The documented budgets (docs/ARCHITECTURE.md, "Limits and budgets"), each checked with the
// worst input of its class: the work is cut as documented, counted as `.budgetExceeded`, and the
// call returns.
// - Dashes: "a pattern that would cut a path into more than CGPath.maxDashes dashes draws the
//   path undashed".
// - Path elements: "an element past CGPath.maxElements is refused; addPath of a path that would
//   pass it is refused whole".
// - Replicators: "copies across nesting stay within ReplicatorContent.maxInstances; copies of an
//   emitter within 16".
// - Offscreens: "one compositor's groups (opacity, masks, shadows, rasterised layers) hold at
//   most 512 MiB of offscreen pixels at once; past it a group is painted in place" (each
//   renderer has its own: OffscreenBudgetTests).
// - Nested transactions cost memory in proportion to the animations they add, not to depth ×
//   animations; the outermost completion block still waits for every animation added inside.
// - CGPath.contains answers from a flattening kept until the path changes.
// - Painted pixels: "one band paints at most Compositor.paintBudget pixels a frame (layer boxes,
//   offscreens, tinted replicator copies); past it the band's remaining layers are skipped".
import LayerRender
@testable import QuartzCore
import TestSupport
import Testing

@Suite struct BudgetTests {
    func budgetCount() -> Int { CGDiagnostics.count(.budgetExceeded) }

    @Test func aDashPatternOfTinyLengthsDrawsTheLineUndashed() throws {
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 0, y: 10))
        line.addLine(to: CGPoint(x: 1000, y: 10))
        let before = budgetCount()
        let dashed = line.copy(dashingWithPhase: 0, lengths: [1e-9, 1e-9])
        #expect(dashed == line)
        #expect(budgetCount() > before)
        // Through a context (cairo's dasher): stroked solid.
        let ctx = try #require(CGContext(data: nil, width: 100, height: 20, bitsPerComponent: 8, bytesPerRow: 0,
                                         space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue))
        ctx.setLineWidth(4)
        ctx.setLineDash(phase: 0, lengths: [1e-9, 1e-9])
        ctx.addPath(line)
        ctx.strokePath()
        let image = try #require(ctx.makeImage())
        #expect((0..<100).allSatisfy { image.premultipliedPixel(x: $0, y: 10) == 0xFF00_0000 })
        // An ordinary pattern still dashes.
        #expect(line.copy(dashingWithPhase: 0, lengths: [10, 10]).ops.count > 50)
    }

    @Test func aNaNPointDoesNotHideTheRestOfThePathFromTheDashBudget() {
        // Found by fuzzing: a curve whose flattening overflowed to NaN points made the path's
        // length NaN, the budget let it through, and the 1e300-long line after it was then cut
        // into 6-point dashes without end (before this, the test hangs).
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        // Finite control points whose flattening overflows (3 × 1e308 is ∞, and ∞ − ∞ NaN).
        path.addCurve(to: CGPoint(x: 10, y: 0), control1: CGPoint(x: 1e308, y: 1e308), control2: CGPoint(x: -1e308, y: -1e308))
        path.addLine(to: CGPoint(x: 1e300, y: 0))
        let before = budgetCount()
        let dashed = path.copy(dashingWithPhase: 0, lengths: [6, 6])
        #expect(dashed.ops.count == path.ops.count)   // drawn undashed
        #expect(budgetCount() > before)
        // An infinite length is over any budget.
        #expect(CGPath.exceedsDashBudget(length: .infinity, lengths: [1, 1]))
    }

    @Test func aDashOf1e308InAnOddPatternStrokesAsOneLongDash() throws {
        // Found by fuzzing: an odd pattern repeats doubled, 1e308 twice is ∞, and cairo's dasher
        // never ended. Dashes are shortened to CGPath.maxDashLength, longer than any path drawn:
        // the 80-point line below is one dash, drawn solid.
        let ctx = try #require(CGContext(data: nil, width: 100, height: 20, bitsPerComponent: 8, bytesPerRow: 0,
                                         space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue))
        ctx.setLineWidth(4)
        ctx.setLineDash(phase: 0, lengths: [1e308, 11, 14])
        ctx.move(to: CGPoint(x: 10, y: 10))
        ctx.addLine(to: CGPoint(x: 90, y: 10))
        ctx.strokePath()
        let image = try #require(ctx.makeImage())
        #expect((10..<90).allSatisfy { image.premultipliedPixel(x: $0, y: 10) == 0xFF00_0000 })
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 10, y: 10))
        line.addLine(to: CGPoint(x: 90, y: 10))
        #expect(line.copy(dashingWithPhase: 0, lengths: [1e308, 11, 14]).ops.count == 2)
    }

    @Test func aPathThatKeepsAddingItselfStopsAtTheElementBudget() {
        let path = CGMutablePath()
        path.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        let before = budgetCount()
        for _ in 0..<40 { path.addPath(path.copy()!, transform: CGAffineTransform(translationX: 1, y: 0)) }
        #expect(path.ops.count <= CGPath.maxElements && path.ops.count > CGPath.maxElements / 2)
        #expect(budgetCount() > before)
        path.addLine(to: .zero)
        #expect(path.ops.count <= CGPath.maxElements)
    }

    @Test func nestedReplicatorsShareOneInstanceBudget() {
        let before = budgetCount()
        let image = renderTree(40, 40) { root in
            var parent = root
            for _ in 0..<3 {
                let r = CAReplicatorLayer()
                r.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
                r.instanceCount = 10_000
                r.instanceTransform = CATransform3DMakeTranslation(0.001, 0, 0)
                parent.addSublayer(r)
                parent = r
            }
            let dot = CALayer()
            dot.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
            dot.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            parent.addSublayer(dot)
        }
        #expect(image.premultipliedPixel(x: 1, y: 1) == 0xFFFF_0000)
        #expect(budgetCount() > before)
    }

    /// A renderer of `root` (w × h points, one band) whose compositor may paint `budget` pixels a frame.
    func budgetRenderer(_ root: CALayer, budget: Int) -> CARenderer {
        let r = CARenderer()
        r.bounds = root.bounds
        r.layer = root
        r.compositor.threads = 1
        r.compositor.paintBudget = budget
        return r
    }

    func frame(_ r: CARenderer, at t: Double) -> CGImage? {
        r.beginFrame(atTime: t, timeStamp: nil)
        r.render()
        r.endFrame()
        return r.makeImage()
    }

    @Test func layersPastTheBandsPixelBudgetAreSkippedInPaintOrder() throws {
        // Root 100 × 100 and five opaque 100 × 100 squares on it, each a colour of its own:
        // with room for three boxes, the root and the first two squares are painted. (Each is
        // turned a quarter turn about its centre, the same pixels: an opaque layer drawn by a
        // scale and a shift would hide the ones below it, which are then painted only around
        // it and cost little of the budget — tested below.)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.backgroundColor = CGColor(gray: 1, alpha: 1)
        let colours: [UInt32] = [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FF00, 0xFF00_FFFF]
        var squares: [CALayer] = []
        for c in colours {
            let l = CALayer()
            squares.append(l)
            l.cornerRadius = 0.5
            l.frame = root.bounds
            l.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
            l.backgroundColor = CGColor(red: CGFloat(c >> 16 & 255) / 255, green: CGFloat(c >> 8 & 255) / 255,
                                        blue: CGFloat(c & 255) / 255, alpha: 1)
            root.addSublayer(l)
        }
        let r = budgetRenderer(root, budget: 30_000)
        let before = budgetCount()
        let first = try #require(frame(r, at: 0))
        #expect(first.premultipliedPixel(x: 50, y: 50) == colours[1])
        #expect(budgetCount() > before)
        // Each frame has the whole budget again: the next frame, repainted whole, is the same.
        r.compositor.invalidateDamage()
        let second = try #require(frame(r, at: 1))
        #expect(second.premultipliedPixel(x: 50, y: 50) == colours[1])
        // With the default budget every square is painted.
        r.compositor.paintBudget = Compositor.maxPaintPixels
        r.compositor.invalidateDamage()
        #expect(try #require(frame(r, at: 2)).premultipliedPixel(x: 50, y: 50) == colours[4])
        // Unturned: the top square hides the rest, so the budget of three boxes shows it.
        CATransaction.begin(); CATransaction.setDisableActions(true)
        for l in squares { l.transform = CATransform3DIdentity }
        CATransaction.commit()
        r.compositor.paintBudget = 30_000
        r.compositor.invalidateDamage()
        #expect(try #require(frame(r, at: 3)).premultipliedPixel(x: 50, y: 50) == colours[4])
    }

    /// Solid layers (opaque colours on whole pixels, painted a run at a time by one C call)
    /// keep the rule: painted in order while the band's budget pays for each box, the first it
    /// would not pay for and every one after it skipped, counted once.
    @Test func solidLayersPastTheBandsPixelBudgetAreSkippedInPaintOrder() throws {
        // Root 100 × 100 (10,000 pixels) and ten bordered 10 × 10 squares side by side (100 each).
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.backgroundColor = CGColor(gray: 1, alpha: 1)
        for i in 0..<10 {
            let l = CALayer()
            l.frame = CGRect(x: CGFloat(i) * 10, y: 0, width: 10, height: 10)
            l.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            l.borderWidth = 1
            l.borderColor = CGColor(gray: 0, alpha: 1)
            root.addSublayer(l)
        }
        for (budget, painted) in [(10_300, 3), (10_299, 2), (10_000, 0), (Compositor.maxPaintPixels, 10)] {
            let r = budgetRenderer(root, budget: budget)
            let before = budgetCount()
            let image = try #require(frame(r, at: 0))
            for i in 0..<10 {
                #expect(image.premultipliedPixel(x: i * 10 + 5, y: 5) == (i < painted ? 0xFFFF_0000 : 0xFFFF_FFFF), "budget \(budget), square \(i)")
                #expect(image.premultipliedPixel(x: i * 10, y: 5) == (i < painted ? 0xFF00_0000 : 0xFFFF_FFFF), "budget \(budget), square \(i)'s border")
            }
            // (The count is the process's: other tests running at once may raise it, so only a rise is checked.)
            if painted < 10 { #expect(budgetCount() > before, "budget \(budget)") }
            #expect(r.compositor.paintedLayers == 1 + painted && r.compositor.culledLayers == 10 - painted, "budget \(budget)")
        }
    }

    @Test func tenThousandTintedCopiesOfAGiantRasterizedLayerStayWithinThePixelBudget() throws {
        // Found by fuzzing: a replicator's 10,000 tinted copies of a rasterized layer whose
        // bitmap is 4,096² pixels painted 10,000 offscreens of that size (minutes a frame).
        // With a budget of 2²² pixels the frame is cut after the first copies and returns.
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        let outer = CAReplicatorLayer()
        outer.frame = root.bounds
        outer.instanceCount = 100
        outer.instanceColor = CGColor(red: 1, green: 0.5, blue: 0.5, alpha: 1)
        outer.instanceRedOffset = -0.001
        let inner = CAReplicatorLayer()
        inner.frame = root.bounds
        inner.instanceCount = 100
        inner.instanceColor = CGColor(red: 0.5, green: 1, blue: 1, alpha: 1)
        let giant = CALayer()
        giant.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        giant.shouldRasterize = true
        giant.rasterizationScale = 64   // a 4,096² bitmap
        let square = CALayer()
        square.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        square.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        giant.addSublayer(square)
        inner.addSublayer(giant)
        outer.addSublayer(inner)
        root.addSublayer(outer)
        let r = budgetRenderer(root, budget: 1 << 22)
        let before = budgetCount()
        _ = try #require(frame(r, at: 0))
        #expect(budgetCount() > before)
        #expect(r.compositor.paintedLayers < 100)
    }

    @Test func wideShadowsOfManyCopiesAreChargedByTheirBlurPlanes() throws {
        // Found by fuzzing: 360 replicator copies of a 6 × 6 layer whose shadow radius reaches
        // 448 pixels each way blurred a plane of about 900² pixels per copy (half a minute a
        // frame under AddressSanitizer), while the budget was charged only the copies' small
        // offscreens. The planes are charged now: the frame is cut after the first copies.
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 48, height: 48)
        let copies = CAReplicatorLayer()
        copies.frame = root.bounds
        copies.instanceCount = 360
        copies.instanceTransform = CATransform3DMakeTranslation(0.1, 0, 0)
        let dot = CALayer()
        dot.frame = CGRect(x: 20, y: 20, width: 6, height: 6)
        dot.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        dot.shadowOpacity = 1
        dot.shadowRadius = 1_000   // σ clamped to ShadowBlur.maxSigma
        copies.addSublayer(dot)
        root.addSublayer(copies)
        let r = budgetRenderer(root, budget: 1 << 22)
        let before = budgetCount()
        let image = try #require(frame(r, at: 0))
        #expect(budgetCount() > before)
        #expect(r.compositor.paintedLayers < 10)
        // The copies painted before the budget ran out are there.
        #expect(image.premultipliedPixel(x: 22, y: 22) != 0)
    }

    @Test func containsAnswersForTheCurrentPathAfterItChanges() {
        let path = CGMutablePath()
        path.addEllipse(in: CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(path.contains(CGPoint(x: 50, y: 50)) && !path.contains(CGPoint(x: 150, y: 50)))
        path.addRect(CGRect(x: 120, y: 40, width: 60, height: 20))
        #expect(path.contains(CGPoint(x: 150, y: 50)))
        path.move(to: CGPoint(x: 0, y: 0))   // a change that keeps the element count's parity
        #expect(path.contains(CGPoint(x: 150, y: 50)) && path.contains(CGPoint(x: 50, y: 50)))
    }

    @Test func deeplyNestedGroupsStayWithinTheOffscreenBudget() {
        // 600 levels of groups a band's size each: about 600 MiB for a band of 256 rows × 1,024
        // columns alone, past the 512 MiB budget however the bands are shared out (a worker
        // that starts late may find both bands taken by the other, one after the other).
        let before = budgetCount()
        let image = renderTree(1024, 512) { root in
            var parent = root
            for _ in 0..<600 {
                let l = CALayer()
                l.frame = CGRect(x: 0, y: 0, width: 1024, height: 512)
                l.opacity = 0.999
                l.allowsGroupOpacity = true
                let dot = CALayer()
                dot.frame = CGRect(x: 0, y: 0, width: 2, height: 2)
                dot.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
                l.addSublayer(dot)
                parent.addSublayer(l)
                parent = l
            }
        }
        #expect(budgetCount() > before)
        // Still drawn: the innermost squares show through 600 levels of 0.999 opacity.
        let p = image.premultipliedPixel(x: 1, y: 1)
        #expect(p & 0xFF > 0x80 && (p >> 16) & 0xFF < 0x80)
    }

    @Test func tenThousandNestedTransactionsEachAddingAnAnimation() {
        let d = FrameDriver(10, 10)
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        d.change(at: 100) { CATransaction.setDisableActions(true); d.root.addSublayer(l) }
        d.frame(at: 100)
        var completed = 0
        MediaClock.override = 100
        CATransaction.begin()
        CATransaction.setCompletionBlock { completed += 1 }
        for i in 0..<10_000 {
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            l.setValue(CGFloat(i % 7), forKey: "zPosition")
            let a = CABasicAnimation(keyPath: "cornerRadius")
            a.toValue = 4
            a.duration = 1
            l.add(a, forKey: "r\(i % 16)")
        }
        for _ in 0..<10_000 { CATransaction.commit() }
        CATransaction.commit()
        MediaClock.override = nil
        d.frame(at: 100.5)
        #expect(completed == 0)
        d.frame(at: 101.2)
        #expect(completed == 1)
    }
}
