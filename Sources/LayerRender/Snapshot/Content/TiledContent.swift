import CoreGraphics
import Foundation

/// One tile of a CATiledLayer: level of detail and grid position.
package struct TileKey: Hashable, Sendable {
    /// 0 is the level drawn at 2^levelsOfDetailBias pixels per point; each level above halves it.
    package var level: Int
    package var column: Int, row: Int
    package init(level: Int, column: Int, row: Int) { self.level = level; self.column = column; self.row = row }
}

/// A drawn tile: its picture, where it lies in layer space and when it arrived (for the fade).
package struct Tile: @unchecked Sendable {   // a tile's image is immutable once drawn
    package let image: CGImage
    package let rect: CGRect
    package let arrival: Double
    package init(image: CGImage, rect: CGRect, arrival: Double) { self.image = image; self.rect = rect; self.arrival = arrival }
}

/// The committed state of a CATiledLayer: tile geometry and the tiles drawn so far.
package struct TiledContent: Equatable, Sendable {
    /// Tile size in pixels.
    package var tileSize = CGSize(width: 256, height: 256)
    package var levelsOfDetail = 1
    package var levelsOfDetailBias = 0
    package var fadeDuration: Double = 0.25
    package var tiles: [TileKey: Tile] = [:]
    /// Bumped whenever tiles change (cheap equality for the snapshot).
    package var version = 0

    package init() {}

    package static func == (a: TiledContent, b: TiledContent) -> Bool {
        a.tileSize == b.tileSize && a.levelsOfDetail == b.levelsOfDetail && a.levelsOfDetailBias == b.levelsOfDetailBias
            && a.fadeDuration == b.fadeDuration && a.version == b.version
    }

    /// Levels are clamped to [1, 16]; the bias to [0, 15].
    var levels: Int { min(max(levelsOfDetail, 1), 16) }
    var bias: Int { min(max(levelsOfDetailBias, 0), 15) }

    /// Pixels per point at `level`.
    package func scale(_ level: Int) -> CGFloat { pow(2, CGFloat(bias - level)) }

    /// The level whose density is the least that is at least `density` pixels per point (the
    /// sharpest level when none is dense enough).
    package func level(forDensity density: CGFloat) -> Int {
        var best = 0
        for l in 0..<levels where scale(l) >= density - 1e-9 { best = l }
        return best
    }

    /// A tile's rectangle in layer space (points), within `bounds`.
    package func rect(_ key: TileKey, bounds: CGRect) -> CGRect {
        let s = scale(key.level)
        let w = max(tileSize.width, 1) / s, h = max(tileSize.height, 1) / s
        return CGRect(x: bounds.minX + CGFloat(key.column) * w, y: bounds.minY + CGFloat(key.row) * h, width: w, height: h)
            .intersection(bounds)
    }

    /// The tiles of `level` that overlap `area` (layer space), at most `limit` of them.
    package func keys(level: Int, covering area: CGRect, bounds: CGRect, limit: Int = 4096) -> [TileKey] {
        let a = area.intersection(bounds)
        guard !a.isNull, !a.isEmpty, a.isFiniteRect else { return [] }
        let s = scale(level)
        let w = max(tileSize.width, 1) / s, h = max(tileSize.height, 1) / s
        let c0 = CGClampToInt(Double(((a.minX - bounds.minX) / w).rounded(.down)), in: 0...(1 << 24))
        let c1 = CGClampToInt(Double(((a.maxX - bounds.minX) / w).rounded(.up)), in: 0...(1 << 24))
        let r0 = CGClampToInt(Double(((a.minY - bounds.minY) / h).rounded(.down)), in: 0...(1 << 24))
        let r1 = CGClampToInt(Double(((a.maxY - bounds.minY) / h).rounded(.up)), in: 0...(1 << 24))
        var out: [TileKey] = []
        for r in r0..<max(r0, r1) {
            for c in c0..<max(c0, c1) {
                if out.count >= limit { return out }
                out.append(TileKey(level: level, column: c, row: r))
            }
        }
        return out
    }
}
