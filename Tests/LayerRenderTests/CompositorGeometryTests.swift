// The compositor's layer → superlayer map (CALayer's geometry) for a layer without a transform
// of its own — two translations, taken as one — against the product of the two, entry by entry.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct CompositorGeometryTests {
    @Test func anUntransformedLayersMapIsItsTwoTranslations() {
        var seed: UInt32 = 0x6E0_0001
        func unit() -> CGFloat { seed = seed &* 1_664_525 &+ 1_013_904_223; return CGFloat(seed >> 8) / 16_777_216 }
        var wrong = 0
        for _ in 0..<2_000 {
            var s = LayerState()
            s.bounds = CGRect(x: (unit() - 0.5) * 50, y: (unit() - 0.5) * 50, width: unit() * 300, height: unit() * 300)
            s.position = CGPoint(x: (unit() - 0.5) * 2_000, y: (unit() - 0.5) * 2_000)
            s.anchorPoint = CGPoint(x: unit() * 1.5 - 0.25, y: unit() * 1.5 - 0.25)
            s.zPosition = (unit() - 0.5) * 40
            s.anchorPointZ = (unit() - 0.5) * 10
            let b = s.bounds
            let a = CGPoint(x: b.minX + s.anchorPoint.x * b.width, y: b.minY + s.anchorPoint.y * b.height)
            let product = Transform3D.translation(-a.x, -a.y, -s.anchorPointZ)
                .concatenating(.translation(s.position.x, s.position.y, s.zPosition))
            let map = Compositor.localTransform(s, parentSublayer: nil)
            if map != product { wrong += 1 }
        }
        #expect(wrong == 0)
    }
}
