import CoreGraphics
import Foundation

/// The corners of a rect carried through a map — the ones that land in front of the viewer —
/// kept inline: every layer of every frame needs them, so they are not an array.
///
/// Corners go round the rect (minX-minY, maxX-minY, maxX-maxY, minX-maxY), so `signedArea`
/// tells which way the mapped rect faces.
struct Quad {
    private var points: (CGPoint, CGPoint, CGPoint, CGPoint) = (.zero, .zero, .zero, .zero)
    /// How many corners landed (4 unless some went behind the viewer).
    private(set) var count = 0

    /// `r`'s corners mapped forward through `world` (pixels, for a layer-space rect).
    init(_ r: CGRect, through world: Homography) {
        add(world.apply(CGPoint(x: r.minX, y: r.minY)))
        add(world.apply(CGPoint(x: r.maxX, y: r.minY)))
        add(world.apply(CGPoint(x: r.maxX, y: r.maxY)))
        add(world.apply(CGPoint(x: r.minX, y: r.maxY)))
    }

    /// `box`'s corners mapped back through `inverse` (layer space, for a pixel box).
    init(_ box: PixelBox, back inverse: Homography) {
        let x0 = CGFloat(box.x0), y0 = CGFloat(box.y0), x1 = CGFloat(box.x1), y1 = CGFloat(box.y1)
        add(inverse.project(x0, y0))
        add(inverse.project(x1, y0))
        add(inverse.project(x1, y1))
        add(inverse.project(x0, y1))
    }

    private mutating func add(_ point: CGPoint?) {
        guard let p = point else { return }
        switch count {
        case 0: points.0 = p
        case 1: points.1 = p
        case 2: points.2 = p
        default: points.3 = p
        }
        count += 1
    }

    subscript(i: Int) -> CGPoint {
        switch i {
        case 0: return points.0
        case 1: return points.1
        case 2: return points.2
        default: return points.3
        }
    }

    /// All four corners landed.
    var isComplete: Bool { count == 4 }

    /// Shoelace area of the landed corners (negative: the rect faces away).
    var signedArea: CGFloat {
        var a: CGFloat = 0
        for i in 0..<count { let p = self[i], q = self[(i + 1) % count]; a += p.x * q.y - q.x * p.y }
        return a / 2
    }

    /// The smallest rect holding the landed corners (null when none did).
    var bounds: CGRect {
        guard count > 0 else { return .null }
        var x0 = self[0].x, x1 = self[0].x, y0 = self[0].y, y1 = self[0].y
        for i in 1..<count { let q = self[i]; x0 = min(x0, q.x); x1 = max(x1, q.x); y0 = min(y0, q.y); y1 = max(y1, q.y) }
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The size of one pixel in layer units near the corners' centre (finite differences of `inverse`).
    func pixelSize(_ inverse: Homography) -> CGFloat {
        guard count > 0 else { return 1 }
        // Summed left to right from 0.
        var sx: CGFloat = 0, sy: CGFloat = 0
        for i in 0..<count { sx += self[i].x; sy += self[i].y }
        let c = CGPoint(x: sx / CGFloat(count), y: sy / CGFloat(count))
        guard let p = inverse.project(c.x, c.y), let px = inverse.project(c.x + 1, c.y),
              let py = inverse.project(c.x, c.y + 1) else { return 1 }
        let ax = px.x - p.x, ay = px.y - p.y, bx = py.x - p.x, by = py.y - p.y
        let area = abs(ax * by - ay * bx)
        return area > 0 && area.isFinite ? area.squareRoot() : 1
    }
}
