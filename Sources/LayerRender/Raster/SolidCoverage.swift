import CGSupport
import CoreGraphics
import Foundation

// CAShapeLayer's fill and stroke colours through the rasteriser's coverage, in integers: the
// colour's word scaled by each pixel's coverage byte (`Raster.coverageByte`), then composited
// source-over (`Raster.compositePixel` at opacity 1) — a shape mask's multiply and composite,
// with the colour in place of the masked layer. Opaque colours, by far the most common, run
// whole spans of touched cells through one C kernel (`cgs_cover_opaque_span`: the same sums,
// bytes and integer steps four pixels at a time); runs of full coverage are stored whole.

/// Paints a premultiplied colour onto a target at the coverage a rasteriser hands over, times the
/// coverage of `clips` at each pixel centre.
struct SolidCoverage: CoverageConsumer {
    let target: RenderTarget
    let clips: [ClipShape]
    private let clipped: Bool
    /// The colour as a premultiplied word (its Float channels rounded, as blending it at full
    /// coverage onto nothing rounds them), and whether it is opaque.
    private let word: UInt32
    private let opaque: Bool
    private var y = 0
    private var row: UnsafeMutablePointer<UInt32>
    /// The rasteriser's box (frame pixels, inside the target): the rows and columns asked for ahead.
    private let box: PixelBox

    /// Paints `color` onto `target` through `clips` (frame pixels) within `box`.
    init(target: RenderTarget, color: PremultipliedColor, clips: [ClipShape], box: PixelBox) {
        self.target = target; self.clips = clips; self.box = box
        clipped = !clips.isEmpty
        var word: UInt32 = 0
        Raster.blend(&word, color.r, color.g, color.b, color.a, 1)
        self.word = word
        opaque = word >> 24 == 255
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
        if clipped, cov > 0 { cov *= Float(Raster.clipCoverage(clips, CGFloat(x) + 0.5, CGFloat(y) + 0.5)) }
        let k = UInt32(Raster.coverageByte(cov))
        if k != 0 { Raster.compositePixel(Raster.scaled(word, by: k), row + x, 1, copies: true) }
    }

    @inline(__always)
    mutating func quad(_ x: Int, _ coverage: SIMD4<Float>) {
        if clipped {
            for i in 0..<4 { put(x + i, coverage[i]) }
        } else if opaque {
            cgs_cover_opaque_u32x4(row + x, coverage, word)
        } else {
            Raster.over4(row + x, Raster.scale(SIMD4(repeating: word), by: Raster.coverageBytes(coverage)))
        }
    }

    @inline(__always)
    mutating func span(_ x: Int, _ cells: UnsafeMutablePointer<Float>, _ count: Int, _ sum: Float) -> Float {
        guard opaque, !clipped else { return quads(x, cells, count, sum) }
        return cgs_cover_opaque_span(row + x, cells, count, sum, PathRasterizer.full, word)
    }

    @inline(__always)
    mutating func pixel(_ x: Int, _ coverage: Float) { put(x, coverage) }

    @inline(__always)
    mutating func run(_ xs: Range<Int>, _ coverage: Float) {
        if coverage == 1 && opaque && !clipped {
            cgs_fill_u32(row + xs.lowerBound, word, xs.count)
            return
        }
        for x in xs { put(x, coverage) }
    }
}
