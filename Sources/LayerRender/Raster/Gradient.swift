import CGSupport
import CoreGraphics
import Foundation

// CAGradientLayer's pixels: each pixel centre is mapped back into layer space (so gradients stay
// exact under perspective), turned into a ramp parameter t by the gradient's geometry, and painted
// with the ramp's colour at t through the layer's rounded-rect coverage.

/// A colour ramp sampled at `size` positions over t ∈ [0, 1]; premultiplied, components in [0, 255].
///
/// Colours are interpolated with straight alpha and premultiplied afterwards, as Core Graphics
/// gradients do (so clear → white passes through grey, as on Apple systems). 1,024 samples keep
/// the step between neighbours under a quarter of an 8-bit level.
struct GradientRamp {
    static let size = 1024
    /// The samples' memory, shared by copies of the ramp (its painters read it through pointers).
    private let storage: Storage
    /// `size` premultiplied colours (r, g, b, a), components in [0, 255].
    var table: UnsafePointer<SIMD4<Float>> { UnsafePointer(storage.table) }
    /// The opaque entries as stored pixels (0 for translucent entries, which must be blended).
    var words: UnsafePointer<UInt32> { UnsafePointer(storage.words) }

    private final class Storage {
        let table = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: GradientRamp.size)
        let words = UnsafeMutablePointer<UInt32>.allocate(capacity: GradientRamp.size)
        deinit { table.deallocate(); words.deallocate() }
    }

    init(stops: [(position: Float, r: Float, g: Float, b: Float, a: Float)]) {
        storage = Storage()
        let table = storage.table, words = storage.words
        for i in 0..<GradientRamp.size {
            let t = Float(i) / Float(GradientRamp.size - 1)
            // Before the first stop and after the last, their colours extend (no stops: clear).
            var lo = stops.first ?? (0, 0, 0, 0, 0), hi = lo, f: Float = 0
            if let last = stops.last, t >= last.position {
                lo = last; hi = lo
            } else if stops.count > 1, t > lo.position {
                var k = 0
                while stops[k + 1].position <= t { k += 1 }
                lo = stops[k]; hi = stops[k + 1]
                f = (t - lo.position) / (hi.position - lo.position)
            }
            let alpha = lo.a + (hi.a - lo.a) * f
            let r = lo.r + (hi.r - lo.r) * f, g = lo.g + (hi.g - lo.g) * f, b = lo.b + (hi.b - lo.b) * f
            let c = SIMD4(r * alpha, g * alpha, b * alpha, alpha) * 255
            (table + i).initialize(to: c)
            (words + i).initialize(to: c.w == 255 ? 255 << 24 | UInt32(c.x + 0.5) << 16 | UInt32(c.y + 0.5) << 8 | UInt32(c.z + 0.5) : 0)
        }
    }
}

/// Where a gradient's parameter t comes from, in layer space (points).
enum GradientGeometry {
    /// t = projection on the start → end axis (direction scaled by 1 / |end − start|²).
    case axial(origin: CGPoint, axis: CGVector)
    /// t = elliptic distance from the centre, 1 on the ellipse of radii (rx, ry).
    case radial(center: CGPoint, rx: CGFloat, ry: CGFloat)
    /// t = angle from the start direction, turning from +x towards +y, as a fraction of a turn.
    case conic(center: CGPoint, angle: CGFloat)

    /// The geometry of a gradient layer's start and end points (unit space) over `bounds`;
    /// nil when degenerate (start = end, or a zero radius).
    init?(type: String, start: CGPoint, end: CGPoint, bounds b: CGRect) {
        let s = CGPoint(x: b.minX + start.x * b.width, y: b.minY + start.y * b.height)
        let e = CGPoint(x: b.minX + end.x * b.width, y: b.minY + end.y * b.height)
        let dx = e.x - s.x, dy = e.y - s.y
        switch type {
        case "radial":
            guard abs(dx) > 0, abs(dy) > 0, dx.isFinite, dy.isFinite else { return nil }
            self = .radial(center: s, rx: abs(dx), ry: abs(dy))
        case "conic":
            guard dx != 0 || dy != 0, dx.isFinite, dy.isFinite else { return nil }
            self = .conic(center: s, angle: atan2(dy, dx))
        default:
            let len2 = dx * dx + dy * dy
            guard len2 > 0, len2.isFinite else { return nil }
            self = .axial(origin: s, axis: CGVector(dx: dx / len2, dy: dy / len2))
        }
    }

    @inline(__always)
    func parameter(_ p: CGPoint) -> Float {
        switch self {
        case let .axial(o, v): return Float((p.x - o.x) * v.dx + (p.y - o.y) * v.dy)
        case let .radial(c, rx, ry):
            let u = (p.x - c.x) / rx, v = (p.y - c.y) / ry
            return Float((u * u + v * v).squareRoot())
        case let .conic(c, a0):
            var a = atan2(p.y - c.y, p.x - c.x) - a0
            if a < 0 { a += 2 * .pi }
            if a >= 2 * .pi { a -= 2 * .pi }
            return Float(a / (2 * .pi))
        }
    }
}

/// A gradient layer's pixels over `shape` (the layer's rounded bounds) times `alpha` through
/// `clips`, painted onto `target` a row at a time; what does not change from row to row is worked
/// out once. A class: calls on the struct copied its 230 bytes each row.
final class GradientPaint {
    let target: RenderTarget
    let inverse: Homography
    let geometry: GradientGeometry
    let ramp: GradientRamp
    let alpha: Float
    let plan: CoverPlan
    /// The common case, an axial gradient through an affine map: its origin and scaled axis.
    private let axial: (o: CGPoint, v: CGVector)?
    /// The default CAGradientLayer (a vertical axis) on an unturned layer: along a row, qy does
    /// not change (m.1 = 0) and qx is weighted by v.dx = 0, which adds ±0 to the same sum (finite
    /// qx), so every pixel of the row gets the first one's ramp entry.
    private let rowConstant: Bool

    init(target: RenderTarget, box: PixelBox, inverse: Homography, pixel: CGFloat, shape: RoundedRect, geometry: GradientGeometry,
         ramp: GradientRamp, alpha: Float, antialias: Bool, clips: [ClipShape]) {
        self.target = target; self.inverse = inverse; self.geometry = geometry; self.ramp = ramp; self.alpha = alpha
        plan = CoverPlan(box: box, inverse: inverse, pixel: pixel, shape: shape, hole: nil, antialias: antialias, clips: clips)
        let m = inverse.m
        if m.2 == 0, m.5 == 0, m.8 == 1, case let .axial(o, v) = geometry { axial = (o, v) } else { axial = nil }
        rowConstant = axial.map { $0.v.dx == 0 } == true && m.1 == 0 && m.0.isFinite && m.3.isFinite && m.6.isFinite
    }

    /// Paints columns `lo ..< hi` of row `y`.
    func row(_ y: Int, _ lo: Int, _ hi: Int) {
        guard alpha > 0 else { return }
        let target = target, inverse = inverse, geometry = geometry, alpha = alpha
        let axial = axial, rowConstant = rowConstant
        let lut = ramp.table, words = ramp.words
        @inline(__always) func index(_ q: CGPoint) -> Int { GradientPaint.index(geometry.parameter(q)) }
        @inline(__always) func paint(_ y: Int, _ x: Int, _ cov: Float) {
            guard let q = inverse.project(CGFloat(x) + 0.5, CGFloat(y) + 0.5) else { return }
            let c = lut[index(q)]
            if c.w > 0 { Raster.blend(target.row(y) + x, c.x, c.y, c.z, c.w, cov * alpha) }
        }
        // Fully covered runs at alpha 1 store opaque ramp entries directly (what `blend`
        // computes for them) and blend the translucent ones.
        let stores = alpha == 1
        @inline(__always) func fill(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ i: Int) {
            if stores && words[i] != 0 { row[x] = words[i]; return }
            let c = lut[i]
            if c.w > 0 { Raster.blend(row + x, c.x, c.y, c.z, c.w, 1 * alpha) }
        }
        @inline(__always) func index(_ o: CGPoint, _ v: CGVector, _ x: Int, _ cy: CGFloat) -> Int {
            GradientPaint.index(inverse, o, v, x, cy)
        }
        // A full run of a row-constant gradient: one ramp entry, stored when it is opaque.
        @inline(__always) func fillConstant(_ o: CGPoint, _ v: CGVector, _ y: Int, _ xs: Range<Int>) {
            let i = index(o, v, xs.lowerBound, CGFloat(y) + 0.5), row = target.row(y)
            if stores && words[i] != 0 {
                cgs_fill_u32(row + xs.lowerBound, words[i], xs.count)
            } else {
                for x in xs { fill(row, x, i) }
            }
        }
        // The default CAGradientLayer on an unturned, unrounded layer (S5's stars): the
        // row's spans come straight from the plan and its full run is one colour, without
        // the general walk's closures.
        if rowConstant, let (o, v) = axial, let (outer, full) = plan.alignedColumns(y, lo, hi) {
            if outer.isEmpty { return }
            let f = full.clamped(to: outer)
            if f.isEmpty { plan.edges(y, outer, paint); return }
            if outer.lowerBound < f.lowerBound { plan.edges(y, outer.lowerBound..<f.lowerBound, paint) }
            fillConstant(o, v, y, f)
            if f.upperBound < outer.upperBound { plan.edges(y, f.upperBound..<outer.upperBound, paint) }
            return
        }
        plan.row(y, lo, hi, full: { y, xs in
            let row = target.row(y), cy = CGFloat(y) + 0.5
            if let (o, v) = axial {
                if rowConstant { fillConstant(o, v, y, xs); return }
                for x in xs { fill(row, x, index(o, v, x, cy)) }
                return
            }
            for x in xs {
                guard let q = inverse.project(CGFloat(x) + 0.5, cy) else { continue }
                fill(row, x, index(q))
            }
        }, edge: paint)
    }
}

extension GradientPaint {
    /// The ramp entry of parameter `t` (clamped to [0, 1]; NaN gives the first entry).
    @inline(__always)
    static func index(_ t: Float) -> Int {
        // t·(size − 1) + 0.5 lies in [0.5, size − 0.5]: the truncation needs no range check.
        t.isNaN ? 0 : Int(cgs_truncate_f32(min(max(t, 0), 1) * Float(GradientRamp.size - 1) + 0.5))
    }

    /// The ramp entry of pixel (x, row centre `cy`) of an axial gradient through the affine
    /// `inverse` map: the map and the parameter written out, the same sums in the same order
    /// as `Homography.project` and `GradientGeometry.parameter`, without their branches.
    @inline(__always)
    static func index(_ inverse: Homography, _ o: CGPoint, _ v: CGVector, _ x: Int, _ cy: CGFloat) -> Int {
        let m = inverse.m, px = CGFloat(x) + 0.5
        let qx = px * m.0 + cy * m.3 + m.6, qy = px * m.1 + cy * m.4 + m.7
        return index(Float((qx - o.x) * v.dx + (qy - o.y) * v.dy))
    }

    /// Whether `constantRow` describes every row: the default vertical gradient on an unturned,
    /// unrounded layer without clips, painted at all.
    var hasConstantRows: Bool { rowConstant && alpha > 0 && plan.isAligned }

    /// Asks for the ramp entries rows `ys` read (a paint with constant rows): each row reads one,
    /// mostly from a new cache line, and the ramps of many layers do not stay in cache between
    /// frames — asked for together, the misses overlap instead of stalling one row at a time.
    func prefetchRamp(rows ys: Range<Int>) {
        guard hasConstantRows, !ys.isEmpty, case let .axial(o, v) = geometry else { return }
        let a = GradientPaint.index(inverse, o, v, 0, CGFloat(ys.lowerBound) + 0.5)
        let b = GradientPaint.index(inverse, o, v, 0, CGFloat(ys.upperBound - 1) + 0.5)
        // 16 words to a 64-byte line.
        for i in stride(from: min(a, b) & ~15, through: max(a, b), by: 16) { cgs_prefetch(ramp.words + i) }
    }

    /// For a paint with constant rows, over rows `ys` and columns `lo ..< hi` (the box's or
    /// fewer): the rows and columns where coverage can be above 0 (`outer`), and those where it
    /// is exactly 1 (`full`, within the former's columns, its rows not necessarily within the
    /// former's); nil for other paints. `word(row:at:)` gives each row's colour there.
    func constantRows(_ ys: Range<Int>, _ lo: Int, _ hi: Int)
        -> (outerRows: Range<Int>, fullRows: Range<Int>, outer: Range<Int>, full: Range<Int>)? {
        guard hasConstantRows, case .axial = geometry, let r = plan.alignedRows(ys, lo, hi) else { return nil }
        return (r.outerRows, r.fullRows, r.outer, r.full.clamped(to: r.outer))
    }

    /// For a paint with constant rows, the word `row` paints onto a clear pixel in row `y`'s
    /// columns of full coverage, the first of which is `x` (0: nothing): every column of the row
    /// has the first one's ramp entry (see `rowConstant`).
    @inline(__always)
    func word(row y: Int, at x: Int) -> UInt32 {
        guard case let .axial(o, v) = geometry else { return 0 }
        let i = GradientPaint.index(inverse, o, v, x, CGFloat(y) + 0.5)
        if alpha == 1 && ramp.words[i] != 0 { return ramp.words[i] }
        // What `fill` blends onto a clear pixel.
        var word: UInt32 = 0
        let c = ramp.table[i]
        if c.w > 0 { Raster.blend(&word, c.x, c.y, c.z, c.w, 1 * alpha) }
        return word
    }
}

extension Raster {
    /// Paints a gradient over `shape` (the layer's rounded bounds) times `alpha`, through `clips`;
    /// with `rows`, only those columns of each row (the others would be thrown away by a mask).
    static func gradient(_ target: RenderTarget, box: PixelBox, inverse: Homography, pixel: CGFloat, shape: RoundedRect,
                         geometry: GradientGeometry, ramp: GradientRamp, alpha: Float, antialias: Bool, clips: [ClipShape],
                         rows: MaskPlane.Rows? = nil) {
        guard !box.isEmpty, alpha > 0 else { return }
        let paint = GradientPaint(target: target, box: box, inverse: inverse, pixel: pixel, shape: shape, geometry: geometry,
                                  ramp: ramp, alpha: alpha, antialias: antialias, clips: clips)
        MaskPlane.Rows.visit(box, rows) { paint.row($0, $1, $2) }
    }
}
