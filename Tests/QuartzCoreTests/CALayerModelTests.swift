// Apple (documented, or measured by public test suites): a new layer has sublayers == nil,
// model() returns itself, and these defaults: anchorPoint (0.5,0.5); opacity 1; shadowOpacity 0,
// shadowRadius 3, shadowOffset (0,−3); shadowColor and borderColor opaque black; contentsGravity
// resize; contentsRect and contentsCenter the unit rect; contentsScale 1; maskedCorners all four;
// isDoubleSided true; allowsGroupOpacity true. Constants carry Apple's raw strings.
import QuartzCore
import Testing

@Suite struct CALayerModelTests {
    @Test func newLayerHasAppleDefaults() {
        let l = CALayer()
        #expect(l.sublayers == nil && l.superlayer == nil && l.mask == nil)
        #expect(l.model() === l)
        #expect(l.anchorPoint == CGPoint(x: 0.5, y: 0.5) && l.opacity == 1)
        #expect(l.shadowOpacity == 0 && l.shadowRadius == 3 && l.shadowOffset == CGSize(width: 0, height: -3))
        #expect(l.shadowColor == CGColor.black && l.borderColor == CGColor.black && l.backgroundColor == nil)
        #expect(l.contentsGravity == .resize && l.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(l.contentsCenter == CGRect(x: 0, y: 0, width: 1, height: 1) && l.contentsScale == 1)
        #expect(l.maskedCorners.rawValue == 15 && l.isDoubleSided && l.allowsGroupOpacity)
        #expect(l.cornerCurve == .circular && l.minificationFilter == .linear && l.magnificationFilter == .linear)
        #expect(!l.isHidden && !l.masksToBounds && !l.isOpaque && !l.isGeometryFlipped && !l.shouldRasterize)
        #expect(l.rasterizationScale == 1 && l.edgeAntialiasingMask.rawValue == 15 && !l.allowsEdgeAntialiasing)
        #expect(CATransform3DIsIdentity(l.transform) && CATransform3DIsIdentity(l.sublayerTransform))
        #expect(l.duration == .infinity && l.speed == 1 && l.fillMode == .removed)
        #expect(!l.needsDisplay() && !l.needsLayout())
    }

    @Test func constantsCarryApplesRawValues() {
        #expect(CALayerContentsGravity.resize.rawValue == "resize")
        #expect(CALayerContentsGravity.resizeAspectFill.rawValue == "resizeAspectFill")
        #expect(CALayerContentsGravity.bottomLeft.rawValue == "bottomLeft")
        #expect(CALayerContentsFilter.trilinear.rawValue == "trilinear")
        #expect(CALayerCornerCurve.continuous.rawValue == "continuous")
        #expect(CAMediaTimingFillMode.forwards.rawValue == "forwards")
        #expect(CACornerMask.layerMaxXMaxYCorner.rawValue == 8)
        #expect(CALayerContentsGravity.all.count == 12)
    }

    @Test func unknownContentsGravityReadsBackAsCenter() {
        let l = CALayer()
        l.contentsGravity = CALayerContentsGravity(rawValue: "sideways")
        #expect(l.contentsGravity == .center)
        l.contentsGravity = .topRight
        #expect(l.contentsGravity == .topRight)
    }

    @Test func nonFiniteGeometryIsRejectedAndCounted() {
        let l = CALayer()
        l.position = CGPoint(x: 3, y: 4)
        let before = CGDiagnostics.count(.nonFiniteGeometry)
        l.position = CGPoint(x: CGFloat.nan, y: 0)
        l.bounds = CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 1)
        l.zPosition = .nan
        l.opacity = .nan
        var t = CATransform3DIdentity
        t.m11 = .nan
        l.transform = t
        l.frame = CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)
        #expect(l.position == CGPoint(x: 3, y: 4) && l.bounds == .zero && l.zPosition == 0 && l.opacity == 1)
        #expect(CATransform3DIsIdentity(l.transform))
        #expect(CGDiagnostics.count(.nonFiniteGeometry) == before + 6)
    }

    @Test func negativeSizesAreStoredAndStandardisedForUse() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: -10, height: 20)
        #expect(l.bounds.size.width == -10)
        #expect(l.contains(CGPoint(x: -5, y: 5)) && !l.contains(CGPoint(x: 5, y: 5)))
    }

    @Test func initWithLayerCopiesPropertiesButNotTheTree() {
        let a = CALayer()
        a.bounds = CGRect(x: 1, y: 2, width: 3, height: 4)
        a.opacity = 0.5
        a.name = "a"
        a.setValue(42, forKey: "custom")
        a.addSublayer(CALayer())
        let b = CALayer(layer: a)
        #expect(b.bounds == a.bounds && b.opacity == 0.5 && b.name == "a")
        #expect(b.value(forKey: "custom") as? Int == 42)
        #expect(b.sublayers == nil && b.superlayer == nil)
    }

    @Test func subclassDefaultValueOverridesApply() {
        final class Tinted: CALayer {
            override class func defaultValue(forKey key: String) -> Any? {
                key == "cornerRadius" ? CGFloat(8) : super.defaultValue(forKey: key)
            }
        }
        #expect(Tinted().cornerRadius == 8)
        #expect(CALayer().cornerRadius == 0)
        #expect(CALayer.defaultValue(forKey: "anchorPoint") as? CGPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(CALayer.defaultValue(forKey: "noSuchKey") == nil)
    }

    @Test func classPredicatesMatchApple() {
        #expect(!CALayer.needsDisplay(forKey: "bounds") && !CALayer.needsDisplay(forKey: "opacity"))
        #expect(CALayer.defaultAction(forKey: "opacity") == nil)
        #expect(CALayer().shouldArchiveValue(forKey: "position"))
    }

    @Test func usableFromNonisolatedCode() async {
        // CALayer is not actor-isolated: a detached task may build and read a tree of its own.
        let width = await Task.detached { () -> CGFloat in
            let l = CALayer()
            l.frame = CGRect(x: 0, y: 0, width: 12, height: 1)
            return l.bounds.width
        }.value
        #expect(width == 12)
    }
}
