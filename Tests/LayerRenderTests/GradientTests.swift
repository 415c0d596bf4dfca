// The gradient kernel's shortcuts against its general path. A homography with every entry
// doubled is the same map (w = 2 divides out exactly: doubling and halving are exact in binary
// floating point) but goes through the per-pixel projection, so the two must give the same bits.
import CoreGraphics
import Foundation
@testable import LayerRender
import Testing

@Suite struct GradientTests {
    func paint(_ inverse: Homography, geometry: GradientGeometry, alpha: Float, radius: CGFloat = 6) -> [UInt32] {
        // Opaque red → translucent green → opaque blue from 3/4 on: stored and blended entries.
        let ramp = GradientRamp(stops: [(0, 1, 0, 0, 1), (0.5, 0.1, 0.9, 0.2, 0.5), (0.75, 0, 0, 1, 1), (1, 0, 0, 1, 1)])
        let bounds = CGRect(x: 0, y: 0, width: 40, height: 30)
        var pixels = (0..<(64 * 48)).map { UInt32(0xFF10_3050) &+ UInt32($0 % 5) }
        pixels.withUnsafeMutableBufferPointer { buf in
            let target = RenderTarget(pixels: buf.baseAddress!, width: 64, height: 48, stride: 64)
            let world = inverse.inverse!
            let box = Compositor.box(of: bounds, world: world, limit: PixelBox(x0: 0, y0: 0, x1: 64, y1: 48))
            Raster.gradient(target, box: box, inverse: inverse, pixel: 1, shape: RoundedRect(rect: bounds, radius: radius, mask: 15),
                            geometry: geometry, ramp: ramp, alpha: alpha, antialias: true, clips: [])
        }
        return pixels
    }

    @Test func rowsOfAVerticalGradientEqualThePerPixelPath() {
        // An unturned layer at a fractional place; the default vertical axis (0.5, 0) → (0.5, 1).
        let bounds = CGRect(x: 0, y: 0, width: 40, height: 30)
        let vertical = GradientGeometry(type: "axial", start: CGPoint(x: 0.5, y: 0), end: CGPoint(x: 0.5, y: 1), bounds: bounds)!
        let slanted = GradientGeometry(type: "axial", start: CGPoint(x: 0.2, y: 0), end: CGPoint(x: 0.6, y: 1), bounds: bounds)!
        let (tx, ty) = (-7.3, -5.6)
        let affine = Homography(m: (1, 0, 0, 0, 1, 0, tx, ty, 1))
        // Turned by 0.2 rad: rows are no longer constant, the shortcut must not apply.
        let (c, s) = (cos(0.2), sin(0.2))
        let turned = Homography(m: (c, -s, 0, s, c, 0, tx * c + ty * s, -tx * s + ty * c, 1))
        for map in [affine, turned] {
            let m = map.m
            let doubled = Homography(m: (2 * m.0, 2 * m.1, 0, 2 * m.3, 2 * m.4, 0, 2 * m.6, 2 * m.7, 2))
            // Unrounded, the unturned map takes the aligned spans (solved once over the box) and
            // the vertical gradient their one-colour rows: its fractional edges must match too.
            for geometry in [vertical, slanted] {
                for alpha: Float in [1, 0.6] {
                    for radius: CGFloat in [6, 0] {
                        let fast = paint(map, geometry: geometry, alpha: alpha, radius: radius)
                        let general = paint(doubled, geometry: geometry, alpha: alpha, radius: radius)
                        #expect(zip(fast, general).filter { $0 != $1 }.count == 0, "alpha \(alpha), radius \(radius)")
                        #expect(Set(fast).count > 20, "a ramp is drawn")
                    }
                }
            }
        }
        // Along a row of the vertical gradient's opaque part, every inside pixel is the same.
        let rows = paint(affine, geometry: vertical, alpha: 1)
        let row31: [UInt32] = (14..<40).map { rows[31 * 64 + $0] }
        #expect(Set(row31).count == 1)
    }
}
