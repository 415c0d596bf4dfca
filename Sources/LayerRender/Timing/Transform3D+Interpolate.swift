import CoreGraphics
import Foundation

// Transform interpolation by decomposition, so that rotations turn instead of collapsing
// through a degenerate matrix. The decomposition is the unmatrix algorithm of the CSS
// Transforms spec (translation, scale, skew, perspective, quaternion), adapted to row vectors;
// quaternions are blended with slerp along the shorter arc.
extension Transform3D {
    package struct Decomposed: Equatable, Sendable {
        package var translation: (CGFloat, CGFloat, CGFloat)
        package var scale: (CGFloat, CGFloat, CGFloat)
        package var skew: (CGFloat, CGFloat, CGFloat)       // xy, xz, yz
        package var perspective: (CGFloat, CGFloat, CGFloat, CGFloat)
        package var quaternion: (CGFloat, CGFloat, CGFloat, CGFloat)  // x, y, z, w

        package static func == (a: Decomposed, b: Decomposed) -> Bool {
            a.translation == b.translation && a.scale == b.scale && a.skew == b.skew
                && a.perspective == b.perspective && a.quaternion == b.quaternion
        }
    }

    /// The decomposition, or nil for a singular matrix (such matrices interpolate entry-wise).
    package var decomposed: Decomposed? {
        guard m44 != 0 else { return nil }
        var m = [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]]
        for i in 0..<4 { for j in 0..<4 { m[i][j] /= m44 } }
        // Perspective: solve row-vector form; with m14 = m24 = m34 = 0 there is none.
        var persp: (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 1)
        if m[0][3] != 0 || m[1][3] != 0 || m[2][3] != 0 {
            var pm = m
            for i in 0..<3 { pm[i][3] = 0 }
            pm[3][3] = 1
            let pt = Transform3D(entries: pm.flatMap { $0 })
            let inv = pt.inverse
            guard let inv else { return nil }
            // rhs (column 4) · inverse-transpose, written for row vectors.
            let r = [m[0][3], m[1][3], m[2][3], m[3][3]]
            let it = inv.entries
            persp = (r[0] * it[0] + r[1] * it[1] + r[2] * it[2] + r[3] * it[3],
                     r[0] * it[4] + r[1] * it[5] + r[2] * it[6] + r[3] * it[7],
                     r[0] * it[8] + r[1] * it[9] + r[2] * it[10] + r[3] * it[11],
                     r[0] * it[12] + r[1] * it[13] + r[2] * it[14] + r[3] * it[15])
        }
        let translation = (m[3][0], m[3][1], m[3][2])
        var row = [[m[0][0], m[0][1], m[0][2]], [m[1][0], m[1][1], m[1][2]], [m[2][0], m[2][1], m[2][2]]]
        func length(_ v: [CGFloat]) -> CGFloat { (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot() }
        func dot(_ a: [CGFloat], _ b: [CGFloat]) -> CGFloat { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
        func combine(_ a: [CGFloat], _ b: [CGFloat], _ sa: CGFloat, _ sb: CGFloat) -> [CGFloat] {
            [a[0] * sa + b[0] * sb, a[1] * sa + b[1] * sb, a[2] * sa + b[2] * sb]
        }
        var sx = length(row[0])
        guard sx != 0 else { return nil }
        row[0] = row[0].map { $0 / sx }
        var skewXY = dot(row[0], row[1])
        row[1] = combine(row[1], row[0], 1, -skewXY)
        var sy = length(row[1])
        guard sy != 0 else { return nil }
        row[1] = row[1].map { $0 / sy }
        skewXY /= sy
        var skewXZ = dot(row[0], row[2])
        row[2] = combine(row[2], row[0], 1, -skewXZ)
        var skewYZ = dot(row[1], row[2])
        row[2] = combine(row[2], row[1], 1, -skewYZ)
        var sz = length(row[2])
        guard sz != 0 else { return nil }
        row[2] = row[2].map { $0 / sz }
        skewXZ /= sz; skewYZ /= sz
        // A negative determinant means a flip: negate everything.
        let cross = [row[1][1] * row[2][2] - row[1][2] * row[2][1], row[1][2] * row[2][0] - row[1][0] * row[2][2],
                     row[1][0] * row[2][1] - row[1][1] * row[2][0]]
        if dot(row[0], cross) < 0 {
            sx = -sx; sy = -sy; sz = -sz
            row = row.map { $0.map { -$0 } }
        }
        // Quaternion of the rotation rows (row-vector matrix = transpose of the column form).
        var qx = 0.5 * max(1 + row[0][0] - row[1][1] - row[2][2], 0).squareRoot()
        var qy = 0.5 * max(1 - row[0][0] + row[1][1] - row[2][2], 0).squareRoot()
        var qz = 0.5 * max(1 - row[0][0] - row[1][1] + row[2][2], 0).squareRoot()
        let qw = 0.5 * max(1 + row[0][0] + row[1][1] + row[2][2], 0).squareRoot()
        if row[1][2] > row[2][1] { qx = -qx }
        if row[2][0] > row[0][2] { qy = -qy }
        if row[0][1] > row[1][0] { qz = -qz }
        // Row-vector rotation rows are the transpose: flip the axis sign back.
        return Decomposed(translation: translation, scale: (sx, sy, sz), skew: (skewXY, skewXZ, skewYZ),
                          perspective: persp, quaternion: (-qx, -qy, -qz, qw))
    }

    /// The matrix a decomposition describes.
    package init(_ d: Decomposed) {
        var m = Transform3D.identity
        m.m14 = d.perspective.0; m.m24 = d.perspective.1; m.m34 = d.perspective.2; m.m44 = d.perspective.3
        m = Transform3D.translation(d.translation.0, d.translation.1, d.translation.2).concatenating(m)
        let (x, y, z, w) = d.quaternion
        var rot = Transform3D.identity
        rot.m11 = 1 - 2 * (y * y + z * z); rot.m12 = 2 * (x * y + z * w); rot.m13 = 2 * (x * z - y * w)
        rot.m21 = 2 * (x * y - z * w); rot.m22 = 1 - 2 * (x * x + z * z); rot.m23 = 2 * (y * z + x * w)
        rot.m31 = 2 * (x * z + y * w); rot.m32 = 2 * (y * z - x * w); rot.m33 = 1 - 2 * (x * x + y * y)
        var skew = Transform3D.identity
        if d.skew.2 != 0 { var t = Transform3D.identity; t.m32 = d.skew.2; skew = t.concatenating(skew) }
        if d.skew.1 != 0 { var t = Transform3D.identity; t.m31 = d.skew.1; skew = t.concatenating(skew) }
        if d.skew.0 != 0 { var t = Transform3D.identity; t.m21 = d.skew.0; skew = t.concatenating(skew) }
        let scale = Transform3D.scale(d.scale.0, d.scale.1, d.scale.2)
        // Row vectors: scale, then skew, then rotate, then translate + perspective.
        self = scale.concatenating(skew).concatenating(rot).concatenating(m)
    }

    /// The transform `f` of the way from `self` to `to` (0 → self, 1 → to), by decomposition.
    package func interpolated(to other: Transform3D, _ f: CGFloat) -> Transform3D {
        if f == 0 { return self }
        if f == 1 { return other }
        guard let a = decomposed, let b = other.decomposed else {
            let ea = entries, eb = other.entries
            return Transform3D(entries: (0..<16).map { ea[$0] + (eb[$0] - ea[$0]) * f })
        }
        func mix(_ x: CGFloat, _ y: CGFloat) -> CGFloat { x + (y - x) * f }
        var q1 = a.quaternion, q2 = b.quaternion
        var dot = q1.0 * q2.0 + q1.1 * q2.1 + q1.2 * q2.2 + q1.3 * q2.3
        if dot < 0 { q2 = (-q2.0, -q2.1, -q2.2, -q2.3); dot = -dot }
        var wa = 1 - f, wb = f
        if dot < 0.9999 {
            let theta = acos(min(dot, 1)), s = sin(theta)
            wa = sin((1 - f) * theta) / s
            wb = sin(f * theta) / s
        }
        q1 = (q1.0 * wa + q2.0 * wb, q1.1 * wa + q2.1 * wb, q1.2 * wa + q2.2 * wb, q1.3 * wa + q2.3 * wb)
        let d = Decomposed(
            translation: (mix(a.translation.0, b.translation.0), mix(a.translation.1, b.translation.1), mix(a.translation.2, b.translation.2)),
            scale: (mix(a.scale.0, b.scale.0), mix(a.scale.1, b.scale.1), mix(a.scale.2, b.scale.2)),
            skew: (mix(a.skew.0, b.skew.0), mix(a.skew.1, b.skew.1), mix(a.skew.2, b.skew.2)),
            perspective: (mix(a.perspective.0, b.perspective.0), mix(a.perspective.1, b.perspective.1),
                          mix(a.perspective.2, b.perspective.2), mix(a.perspective.3, b.perspective.3)),
            quaternion: q1)
        return Transform3D(d)
    }

    /// The inverse, or nil when singular.
    package var inverse: Transform3D? {
        let m = entries
        var inv = [CGFloat](repeating: 0, count: 16)
        inv[0] = m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] + m[9] * m[7] * m[14] + m[13] * m[6] * m[11] - m[13] * m[7] * m[10]
        inv[4] = -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] - m[8] * m[7] * m[14] - m[12] * m[6] * m[11] + m[12] * m[7] * m[10]
        inv[8] = m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] + m[8] * m[7] * m[13] + m[12] * m[5] * m[11] - m[12] * m[7] * m[9]
        inv[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] - m[8] * m[6] * m[13] - m[12] * m[5] * m[10] + m[12] * m[6] * m[9]
        inv[1] = -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] - m[9] * m[3] * m[14] - m[13] * m[2] * m[11] + m[13] * m[3] * m[10]
        inv[5] = m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] + m[8] * m[3] * m[14] + m[12] * m[2] * m[11] - m[12] * m[3] * m[10]
        inv[9] = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] - m[8] * m[3] * m[13] - m[12] * m[1] * m[11] + m[12] * m[3] * m[9]
        inv[13] = m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] + m[8] * m[2] * m[13] + m[12] * m[1] * m[10] - m[12] * m[2] * m[9]
        inv[2] = m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] + m[13] * m[2] * m[7] - m[13] * m[3] * m[6]
        inv[6] = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] - m[4] * m[3] * m[14] - m[12] * m[2] * m[7] + m[12] * m[3] * m[6]
        inv[10] = m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] + m[4] * m[3] * m[13] + m[12] * m[1] * m[7] - m[12] * m[3] * m[5]
        inv[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] - m[4] * m[2] * m[13] - m[12] * m[1] * m[6] + m[12] * m[2] * m[5]
        inv[3] = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] - m[5] * m[3] * m[10] - m[9] * m[2] * m[7] + m[9] * m[3] * m[6]
        inv[7] = m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] + m[8] * m[2] * m[7] - m[8] * m[3] * m[6]
        inv[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] - m[8] * m[1] * m[7] + m[8] * m[3] * m[5]
        inv[15] = m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] + m[8] * m[1] * m[6] - m[8] * m[2] * m[5]
        let det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12]
        guard det != 0, det.isFinite else { return nil }
        return Transform3D(entries: inv.map { $0 / det })
    }
}
