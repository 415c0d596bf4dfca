// Apple: CALayer is key-value coding compliant for all its properties and Apple's structure
// sub-keys (position.x, bounds.size.width, transform.rotation.z, transform.scale, …), and stores
// values for keys it does not define. On Linux values come back as their real Swift types.
import QuartzCore
import Testing

@Suite struct CALayerKeyValueCodingTests {
    @Test func valuesComeBackAsTheirRealSwiftTypes() {
        let l = CALayer()
        l.cornerRadius = 4
        #expect(l.value(forKey: "cornerRadius") as? CGFloat == 4)
        #expect(l.value(forKey: "opacity") as? Float == 1)
        #expect(l.value(forKey: "anchorPoint") as? CGPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(l.value(forKey: "hidden") as? Bool == false)
        #expect(l.value(forKey: "isHidden") as? Bool == false)
        #expect(l.value(forKey: "contentsGravity") as? CALayerContentsGravity == .resize)
        #expect(l.value(forKey: "borderColor") as? CGColor == CGColor.black)
        #expect(l.value(forKey: "duration") as? CFTimeInterval == .infinity)
    }

    @Test func settersConvertNumbersAndRawStrings() {
        let l = CALayer()
        l.setValue(NSNumber(value: 0.25), forKey: "opacity")
        l.setValue(3, forKey: "cornerRadius")
        l.setValue(2.5 as Double, forKey: "borderWidth")
        l.setValue(true, forKey: "masksToBounds")
        l.setValue("resizeAspect", forKey: "contentsGravity")
        l.setValue(CGRect(x: 0, y: 0, width: 10, height: 20), forKey: "bounds")
        l.setValue(5, forKey: "maskedCorners")
        #expect(l.opacity == 0.25 && l.cornerRadius == 3 && l.borderWidth == 2.5 && l.masksToBounds)
        #expect(l.contentsGravity == .resizeAspect && l.bounds.size == CGSize(width: 10, height: 20))
        #expect(l.maskedCorners == [.layerMinXMinYCorner, .layerMinXMaxYCorner])
        l.setValue(nil, forKey: "backgroundColor")
        #expect(l.backgroundColor == nil)
    }

    @Test func wronglyTypedValuesAreIgnoredAndCounted() {
        let l = CALayer()
        let before = CGDiagnostics.count(.invalidKeyValue)
        l.setValue("not a number", forKey: "opacity")
        l.setValue(CGPoint.zero, forKey: "bounds")
        l.setValue(nil, forKey: "position")
        #expect(l.opacity == 1 && l.bounds == .zero && l.position == .zero)
        #expect(CGDiagnostics.count(.invalidKeyValue) == before + 3)
    }

    @Test func structureSubKeys() {
        let l = CALayer()
        l.setValue(12, forKeyPath: "position.x")
        l.setValue(7, forKeyPath: "bounds.size.width")
        l.setValue(3, forKeyPath: "bounds.origin.y")
        l.setValue(-6, forKeyPath: "shadowOffset.height")
        #expect(l.position == CGPoint(x: 12, y: 0))
        #expect(l.bounds == CGRect(x: 0, y: 3, width: 7, height: 0))
        #expect(l.shadowOffset == CGSize(width: 0, height: -6))
        #expect(l.value(forKeyPath: "position.x") as? CGFloat == 12)
        #expect(l.value(forKeyPath: "bounds.size") as? CGSize == CGSize(width: 7, height: 0))
        #expect(l.value(forKeyPath: "bounds.origin.y") as? CGFloat == 3)
        #expect(l.value(forKeyPath: "position.z") == nil)
    }

    @Test func transformSubKeys() {
        let l = CALayer()
        l.setValue(CGFloat.pi / 2, forKeyPath: "transform.rotation.z")
        #expect(abs(l.transform.m12 - 1) < 1e-12 && abs(l.transform.m11) < 1e-12)
        #expect(abs((l.value(forKeyPath: "transform.rotation.z") as! CGFloat) - .pi / 2) < 1e-12)
        #expect(abs((l.value(forKeyPath: "transform.rotation") as! CGFloat) - .pi / 2) < 1e-12)
        l.setValue(2, forKeyPath: "transform.scale")
        #expect(abs((l.value(forKeyPath: "transform.scale.x") as! CGFloat) - 2) < 1e-12)
        #expect(abs((l.value(forKeyPath: "transform.rotation.z") as! CGFloat) - .pi / 2) < 1e-12)   // kept
        l.setValue(30, forKeyPath: "transform.translation.x")
        #expect(l.transform.m41 == 30)
        #expect(l.value(forKeyPath: "transform.translation") as? CGSize == CGSize(width: 30, height: 0))
        l.setValue(0.3, forKeyPath: "transform.rotation.x")
        #expect(abs((l.value(forKeyPath: "transform.rotation.x") as! CGFloat) - 0.3) < 1e-12)
        #expect(abs((l.value(forKeyPath: "transform.rotation.z") as! CGFloat) - .pi / 2) < 1e-9)
    }

    @Test func customKeysAreStoredAndDefaulted() {
        final class Custom: CALayer {
            override class func defaultValue(forKey key: String) -> Any? {
                key == "progress" ? CGFloat(0.5) : super.defaultValue(forKey: key)
            }
            override class func needsDisplay(forKey key: String) -> Bool {
                key == "progress" || super.needsDisplay(forKey: key)
            }
        }
        let l = Custom()
        #expect(l.value(forKey: "progress") as? CGFloat == 0.5)
        #expect(!l.needsDisplay())
        l.setValue(CGFloat(0.9), forKey: "progress")
        #expect(l.value(forKey: "progress") as? CGFloat == 0.9)
        #expect(l.needsDisplay())
        l.setValue(nil, forKey: "progress")
        #expect(l.value(forKey: "progress") as? CGFloat == 0.5)
        #expect(CALayer().value(forKey: "anything") == nil)
    }

    @Test func keyPathsReachIntoSublayerObjects() {
        let l = CALayer(), m = CALayer()
        l.mask = m
        l.setValue(9, forKeyPath: "mask.position.y")
        #expect(m.position.y == 9)
        #expect(l.value(forKeyPath: "mask.position.y") as? CGFloat == 9)
    }
}
