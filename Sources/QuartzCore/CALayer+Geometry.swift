import CoreGraphics
import Foundation
import LayerRender

// Geometry: the layer → superlayer map, frame, conversions between layers, and time conversion.
//
// A point p in a layer's space reaches its superlayer's space through (row vectors)
//   [flip about bounds.midY if isGeometryFlipped] · T(−anchor, −anchorPointZ) · transform
//   · T(position, zPosition) · [superlayer's sublayerTransform about its anchor]
// and is then flattened into the superlayer's plane (x/w, y/w), as Core Animation does.
extension CALayer {
    /// The anchor point in this layer's own coordinates (points).
    var anchorInBounds: CGPoint {
        CGPoint(x: storage.bounds.minX + storage.anchorPoint.x * storage.bounds.width, y: storage.bounds.minY + storage.anchorPoint.y * storage.bounds.height)
    }

    /// The 4×4 map from this layer's space to its superlayer's, excluding the superlayer's sublayerTransform.
    var transformToSuperlayerFrame: CATransform3D {
        let a = anchorInBounds
        var m = CATransform3DMakeTranslation(-a.x, -a.y, -storage.anchorPointZ)
        if storage.isGeometryFlipped {
            m = CATransform3DMakeScale(1, -1, 1).concatenating(CATransform3DMakeTranslation(0, 2 * storage.bounds.midY, 0)).concatenating(m)
        }
        if !storage.transformIsIdentity { m = m.concatenating(storage.transform) }
        return m.concatenating(CATransform3DMakeTranslation(storage.position.x, storage.position.y, storage.zPosition))
    }

    /// The map from this layer's space to its superlayer's, including the superlayer's sublayerTransform.
    var transformToSuperlayer: CATransform3D {
        var m = transformToSuperlayerFrame
        if let parent = _superlayer, !isMaskLayer, !parent.storage.sublayerTransformIsIdentity {
            let pa = parent.anchorInBounds
            m = m.concatenating(CATransform3DMakeTranslation(-pa.x, -pa.y, 0))
                .concatenating(parent.storage.sublayerTransform)
                .concatenating(CATransform3DMakeTranslation(pa.x, pa.y, 0))
        }
        return m
    }

    /// True when the layer only translates into its superlayer (the common case, kept cheap).
    var isPlainTranslation: Bool {
        !storage.isGeometryFlipped && storage.transformIsIdentity
            && (isMaskLayer || _superlayer.map { $0.storage.sublayerTransformIsIdentity } ?? true)
    }

    /// `pointFromSuperlayer` for a caller that already knows the superlayer's sublayerTransform is identity.
    func pointFromParent(_ p: CGPoint, parentSublayerIdentity: Bool) -> CGPoint? {
        if parentSublayerIdentity && !storage.isGeometryFlipped && storage.transformIsIdentity {
            let a = anchorInBounds
            return CGPoint(x: p.x - storage.position.x + a.x, y: p.y - storage.position.y + a.y)
        }
        return homographyToSuperlayer.unproject(p)
    }

    /// The flattened map into the superlayer's plane.
    var homographyToSuperlayer: Homography {
        if isPlainTranslation {
            let a = anchorInBounds
            return Homography(m: (1, 0, 0, 0, 1, 0, storage.position.x - a.x, storage.position.y - a.y, 1))
        }
        return Homography(transformToSuperlayer.engine)
    }

    /// The flattened map from this layer's space to the space its root layer sits in. O(depth), iterative.
    var homographyToRootSpace: Homography {
        var h = homographyToSuperlayer
        var l = _superlayer
        while let p = l {
            h = h.concatenating(p.homographyToSuperlayer)
            l = p._superlayer
        }
        return h
    }

    var flipParity: Bool {
        var flipped = false
        var l: CALayer? = self
        while let c = l {
            if c.storage.isGeometryFlipped { flipped.toggle() }
            l = c._superlayer
        }
        return flipped
    }

    /// A point from the superlayer's space into this layer's, or nil when it is not on the layer's plane.
    func pointFromSuperlayer(_ p: CGPoint) -> CGPoint? {
        if isPlainTranslation {
            let a = anchorInBounds
            return CGPoint(x: p.x - storage.position.x + a.x, y: p.y - storage.position.y + a.y)
        }
        return homographyToSuperlayer.unproject(p)
    }

    // MARK: Frame

    var computedFrame: CGRect {
        if storage.transformIsIdentity && !storage.isGeometryFlipped {
            return CGRect(x: storage.position.x - storage.anchorPoint.x * storage.bounds.width, y: storage.position.y - storage.anchorPoint.y * storage.bounds.height,
                          width: storage.bounds.width, height: storage.bounds.height)
        }
        let h = Homography(transformToSuperlayerFrame.engine)
        let b = storage.bounds
        let corners = [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY),
                       CGPoint(x: b.minX, y: b.maxY), CGPoint(x: b.maxX, y: b.maxY)].compactMap { h.apply($0) }
        return boundingBox(corners)
    }

    /// Sets bounds.size and position so that `frame` reads back `f`; bounds.origin is kept.
    /// Under a transform, the size is solved from the affine part; when that is singular the size is kept.
    func applyFrame(_ f: CGRect) {
        guard f.isFiniteRect else { return rejectNonFinite() }
        let r = f.standardized
        let t = CATransform3DGetAffineTransform(storage.transform)
        var size = r.size
        if !CATransform3DIsIdentity(storage.transform) {
            // The bounding box of a w × h rect under t is (|a|w + |c|h, |b|w + |d|h).
            let a = abs(t.a), b = abs(t.b), c = abs(t.c), d = abs(t.d)
            let det = a * d - c * b
            if abs(det) > 1e-12 {
                size = CGSize(width: (d * r.width - c * r.height) / det, height: (a * r.height - b * r.width) / det)
                if size.width < 0 || size.height < 0 { size = storage.bounds.size }
            } else {
                size = storage.bounds.size
            }
        }
        bounds = CGRect(origin: storage.bounds.origin, size: size)
        // Place the anchor so the transformed rect's bounding box starts at f.origin.
        let ax = storage.anchorPoint.x * size.width, ay = storage.anchorPoint.y * size.height
        let corners = [CGPoint(x: -ax, y: -ay), CGPoint(x: size.width - ax, y: -ay),
                       CGPoint(x: -ax, y: size.height - ay), CGPoint(x: size.width - ax, y: size.height - ay)]
            .map { $0.applying(CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: 0, ty: 0)) }
        let box = boundingBox(corners)
        position = CGPoint(x: r.minX - box.minX, y: r.minY - box.minY)
    }

    func boundingBox(_ points: [CGPoint]) -> CGRect {
        guard let first = points.first else { return .null }
        var x0 = first.x, y0 = first.y, x1 = first.x, y1 = first.y
        for p in points.dropFirst() { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    // MARK: Conversion between layers

    /// `nil` stands for the space the root layer of `self`'s tree sits in.
    func convertPoint(_ p: CGPoint, from l: CALayer?) -> CGPoint {
        let inRoot = l.map { $0.homographyToRootSpace.apply(p) } ?? p
        guard let q = inRoot, let r = homographyToRootSpace.unproject(q) else { return CGPoint(x: CGFloat.nan, y: .nan) }
        return r
    }

    func convertPoint(_ p: CGPoint, to l: CALayer?) -> CGPoint {
        guard let inRoot = homographyToRootSpace.apply(p) else { return CGPoint(x: CGFloat.nan, y: .nan) }
        guard let target = l else { return inRoot }
        return target.homographyToRootSpace.unproject(inRoot) ?? CGPoint(x: CGFloat.nan, y: .nan)
    }

    func convertRect(_ r: CGRect, from l: CALayer?) -> CGRect {
        corners(of: r).map { convertPoint($0, from: l) }.withBox(self)
    }

    func convertRect(_ r: CGRect, to l: CALayer?) -> CGRect {
        corners(of: r).map { convertPoint($0, to: l) }.withBox(self)
    }

    private func corners(of r: CGRect) -> [CGPoint] {
        let s = r.standardized
        return [CGPoint(x: s.minX, y: s.minY), CGPoint(x: s.maxX, y: s.minY),
                CGPoint(x: s.minX, y: s.maxY), CGPoint(x: s.maxX, y: s.maxY)]
    }

    // MARK: Time

    /// This layer's local time for a time in its superlayer's timeline: (t − beginTime) × speed + timeOffset.
    func localTime(fromParent t: CFTimeInterval) -> CFTimeInterval {
        (t - storage.beginTime) * CFTimeInterval(storage.speed) + storage.timeOffset
    }

    /// The superlayer-timeline time of a local time; a paused layer (speed 0) maps everything to beginTime.
    func parentTime(fromLocal t: CFTimeInterval) -> CFTimeInterval {
        storage.speed == 0 ? storage.beginTime : (t - storage.timeOffset) / CFTimeInterval(storage.speed) + storage.beginTime
    }

    func convertTimeImpl(_ t: CFTimeInterval, from l: CALayer?) -> CFTimeInterval {
        var absolute = t
        var up = l
        while let c = up { absolute = c.parentTime(fromLocal: absolute); up = c._superlayer }
        var chain: [CALayer] = []
        var l2: CALayer? = self
        while let c = l2 { chain.append(c); l2 = c._superlayer }
        for c in chain.reversed() { absolute = c.localTime(fromParent: absolute) }
        return absolute
    }

    func convertTimeImpl(_ t: CFTimeInterval, to l: CALayer?) -> CFTimeInterval {
        var absolute = t
        var up: CALayer? = self
        while let c = up { absolute = c.parentTime(fromLocal: absolute); up = c._superlayer }
        guard let target = l else { return absolute }
        return target.convertTimeImpl(absolute, from: nil)
    }
}

private extension Array where Element == CGPoint {
    /// The bounding box of the points, or `.null` when any is not finite.
    func withBox(_ layer: CALayer) -> CGRect {
        guard allSatisfy(\.isFinite) else { return .null }
        return layer.boundingBox(self)
    }
}
