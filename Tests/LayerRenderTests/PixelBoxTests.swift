// PixelBox(covering:limit:): the pixels a real box touches are ⌊min⌋ … ⌈max⌉, clamped to the
// limit, whatever the box (fractions either side of zero, exact integers, far outside).
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct PixelBoxTests {
    @Test func coveringIsTheFloorAndCeilingClampedToTheLimit() {
        let limit = PixelBox(x0: -3, y0: 2, x1: 40, y1: 30)
        let values: [Double] = [-1e12, -7.5, -3, -2.999, -0.5, -0.0, 0, 0.25, 1, 1.5, 2, 9.999_999, 10, 29.5, 30, 39.01, 40, 41.2, 1e12]
        for a in values {
            for b in values where b >= a {
                let r = CGRect(x: a, y: a, width: b - a, height: b - a)
                let box = PixelBox(covering: r, limit: limit)
                let lo = Double(r.minX), hi = Double(r.maxX)   // a and b up to rounding
                // Clamped to the limit's own range, below 0 too (a replicated layer's limit is
                // unbounded, and its first copy may lie at negative coordinates).
                func clamp(_ v: Int, _ lo: Int, _ hi: Int) -> Int { min(max(v, lo), max(lo, hi)) }
                let x0 = clamp(Int(Foundation.floor(max(lo, -1e9))), limit.x0, limit.x1)
                let x1 = clamp(Int(Foundation.ceil(min(hi, 1e9))), limit.x0, limit.x1)
                let y0 = clamp(Int(Foundation.floor(max(lo, -1e9))), limit.y0, limit.y1)
                let y1 = clamp(Int(Foundation.ceil(min(hi, 1e9))), limit.y0, limit.y1)
                #expect(box == PixelBox(x0: x0, y0: y0, x1: x1, y1: y1), "\(a)…\(b)")
            }
        }
        #expect(PixelBox(covering: CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1), limit: limit).isEmpty)
        #expect(PixelBox(covering: CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 1), limit: limit).isEmpty)
    }
}
