import CoreGraphics
import Foundation

/// Where `contentsGravity` places contents of a natural size in the bounds (layer coordinates;
/// gravity names are Core Animation's, with "top" at the maximum y as Apple defines them).
enum ContentsLayout {
    static func rect(gravity: String, bounds b: CGRect, natural n: CGSize) -> CGRect {
        func placed(_ x: CGFloat, _ y: CGFloat) -> CGRect { CGRect(x: x, y: y, width: n.width, height: n.height) }
        switch gravity {
        case "resize": return b
        case "resizeAspect", "resizeAspectFill":
            guard n.width > 0, n.height > 0 else { return b }
            let fit = gravity == "resizeAspect"
            let k = fit ? min(b.width / n.width, b.height / n.height) : max(b.width / n.width, b.height / n.height)
            let w = n.width * k, h = n.height * k
            return CGRect(x: b.midX - w / 2, y: b.midY - h / 2, width: w, height: h)
        case "top": return placed(b.midX - n.width / 2, b.maxY - n.height)
        case "bottom": return placed(b.midX - n.width / 2, b.minY)
        case "left": return placed(b.minX, b.midY - n.height / 2)
        case "right": return placed(b.maxX - n.width, b.midY - n.height / 2)
        case "topLeft": return placed(b.minX, b.maxY - n.height)
        case "topRight": return placed(b.maxX - n.width, b.maxY - n.height)
        case "bottomLeft": return placed(b.minX, b.minY)
        case "bottomRight": return placed(b.maxX - n.width, b.minY)
        default: return placed(b.midX - n.width / 2, b.midY - n.height / 2)   // center, and unknown names
        }
    }
}

extension ContentsLayout {
    /// The pieces of a nine-slice: `center` (unit rect of the source) stretches, the margins keep
    /// their natural size (source pixels / `scale`), shrinking in proportion when the destination is
    /// too small. The unit `center` (Apple's default) gives one piece: plain scaling.
    static func nineSlice(dest: CGRect, source: CGRect, center c: CGRect, scale: CGFloat) -> [(CGRect, CGRect)] {
        let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
        guard c.isFiniteRect, c != unit, c.width >= 0, c.height >= 0 else { return [(dest, source)] }
        func cuts(_ s0: CGFloat, _ len: CGFloat, _ c0: CGFloat, _ cl: CGFloat, _ d0: CGFloat, _ dl: CGFloat) -> ([CGFloat], [CGFloat]) {
            let a = min(max(c0, 0), 1) * len, b = min(max(c0 + cl, 0), 1) * len
            var m0 = a / scale, m1 = (len - b) / scale
            if m0 + m1 > dl, m0 + m1 > 0 { let k = dl / (m0 + m1); m0 *= k; m1 *= k }
            return ([s0, s0 + a, s0 + b, s0 + len], [d0, d0 + m0, d0 + dl - m1, d0 + dl])
        }
        let (sx, dx) = cuts(source.minX, source.width, c.minX, c.width, dest.minX, dest.width)
        let (sy, dy) = cuts(source.minY, source.height, c.minY, c.height, dest.minY, dest.height)
        var pieces: [(CGRect, CGRect)] = []
        for j in 0..<3 {
            for i in 0..<3 {
                let d = CGRect(x: dx[i], y: dy[j], width: dx[i + 1] - dx[i], height: dy[j + 1] - dy[j])
                let s = CGRect(x: sx[i], y: sy[j], width: sx[i + 1] - sx[i], height: sy[j + 1] - sy[j])
                if d.width > 0, d.height > 0, s.width > 0, s.height > 0 { pieces.append((d, s)) }
            }
        }
        return pieces
    }
}
