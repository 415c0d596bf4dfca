import CGSupport
import CoreGraphics
import Foundation

// CAShapeLayer's fill and stroke colours through the rasteriser's coverage: four pixels at a time
// where edges touched them (one blend in vector lanes, which at coverage 0 leaves a pixel as it
// is and at 1 stores an opaque colour's word, as the pixel-by-pixel path does), runs of one
// coverage stored or blended whole. The same pixels as blending each pixel on its own.

/// Paints a premultiplied colour onto a target at the coverage a rasteriser hands over, times the
/// coverage of `clips` at each pixel centre.
struct SolidCoverage: CoverageConsumer {
    let target: RenderTarget
    let clips: [ClipShape]
    private let clipped: Bool
    /// The colour's channels (premultiplied, [0, 255]), and each repeated in four lanes.
    private let r, g, b, a: Float
    private let r4, g4, b4, a4: SIMD4<Float>
    private let opaque: Bool
    /// What an opaque colour at full coverage stores, whatever it covers (the blend keeps none of
    /// the pixel): worked out once.
    private let solid: UInt32
    private var y = 0
    private var row: UnsafeMutablePointer<UInt32>
    /// The rasteriser's box (frame pixels, inside the target): the rows and columns asked for ahead.
    private let box: PixelBox

    /// Paints `color` onto `target` through `clips` (frame pixels) within `box`.
    init(target: RenderTarget, color: PremultipliedColor, clips: [ClipShape], box: PixelBox) {
        self.target = target; self.clips = clips; self.box = box
        clipped = !clips.isEmpty
        r = color.r; g = color.g; b = color.b; a = color.a
        r4 = SIMD4(repeating: r); g4 = SIMD4(repeating: g); b4 = SIMD4(repeating: b); a4 = SIMD4(repeating: a)
        opaque = color.a == 255
        var word: UInt32 = 0
        if opaque { Raster.blend(&word, r, g, b, a, 1) }
        solid = word
        row = target.pixels
    }

    mutating func begin(row y: Int) {
        self.y = y
        row = target.row(y)
        // An outline's pixels outside the shape are cold (last written by whatever lies below,
        // often the whole frame's background) and each blend waits on its load: every line of
        // the box's row three below is asked for (outlines move little from row to row).
        if y + 3 < box.y1 { target.prefetch(row: y + 3, box.x0..<max(box.x1, box.x0)) }
    }

    @inline(__always)
    private func put(_ x: Int, _ coverage: Float) {
        var cov = coverage
        if cov == 0 { return }
        if clipped { cov *= Float(Raster.clipCoverage(clips, CGFloat(x) + 0.5, CGFloat(y) + 0.5)) }
        if cov == 1 && opaque { row[x] = solid; return }
        if cov > 0 { Raster.blend(row + x, r, g, b, a, cov) }
    }

    @inline(__always)
    mutating func quad(_ x: Int, _ coverage: SIMD4<Float>) {
        if clipped {
            for i in 0..<4 { put(x + i, coverage[i]) }
            return
        }
        // Inside a stroke or beside an edge, whole groups are often covered or empty.
        if opaque, coverage == SIMD4(repeating: 1) {
            cgs_store_u32x4(row + x, SIMD4(repeating: solid))
            return
        }
        if coverage == .zero { return }
        Raster.blend4(row + x, b: b4, g: g4, r: r4, a: a4, coverage)
    }

    @inline(__always)
    mutating func pixel(_ x: Int, _ coverage: Float) { put(x, coverage) }

    @inline(__always)
    mutating func run(_ xs: Range<Int>, _ coverage: Float) {
        if coverage == 1 && opaque && !clipped {
            (row + xs.lowerBound).update(repeating: solid, count: xs.count)
            return
        }
        for x in xs { put(x, coverage) }
    }
}
