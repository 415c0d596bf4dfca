import CGSupport
import CoreGraphics
import Foundation

// Stage: prepare (the list it produces). Written by the damage walk (Compositor+Damage.swift,
// Compositor+Prepare.swift), once per frame; read by every band painter at once, never changed
// while they paint (Compositor+DisplayList.swift).

/// One frame's layers in painting order, in device pixels: what every band paints, without
/// walking the tree or evaluating a layer again.
///
/// A plain layer (drawn straight into its parent's pixels) is one `.layer` item, and a `.border`
/// item after its sublayers' items when it has both. A layer that needs an offscreen group —
/// group opacity, a shadow, a mask, `shouldRasterize`, a transition, a replicator or transform
/// layer — is one `.group` item, painted with its subtree by the recursive painter.
/// Valid for one tree, frame time and base map (`Compositor.listValid`).
struct DisplayList {
    private(set) var items: [DisplayItem] = []
    /// Per item, where it may paint: what bands cull by without reaching into the item.
    private(set) var extents: [Extent] = []
    /// Per item, the pixels it leaves opaque whatever lay under them (within its limit): what
    /// the groups before it need not paint.
    private(set) var covers: [OpaqueCover] = []
    /// Per item, the most pixels painting it charges to a band's budget (`Compositor.spend`);
    /// `Int.max` when its subtree could charge any number.
    private(set) var charges: [Int] = []
    /// The solid items (`DisplayItem.solid`), in list order, as the bands' C loop paints them.
    private(set) var solids: [cgs_solid] = []
    /// Per item, its index in `solids` (-1: not a solid item): consecutive solid items are
    /// consecutive there, and a band paints such a run in one call.
    private(set) var solidIndex: [Int32] = []
    /// What the items inherit from their superlayers, shared by siblings. Appended to, never
    /// changed: `extents` keeps a copy of each item's context's limit.
    var contexts: [DisplayContext] = []
    /// Layers left out for being deeper than the compositor's `maxDepth`.
    var skippedForDepth = 0
    /// How many items are groups.
    private(set) var groups = 0
    /// The most pixels any item after the first leaves opaque in one box (its solid rect or a
    /// box of its cover, within its limit). An occluder covers a quarter of its band
    /// (`Compositor.occluder`): a band whose quarter is larger than this has none, and its
    /// items are not looked at for one.
    private(set) var largestCover = 0
    /// Counts the lists written: a list of another generation holds other items.
    private(set) var generation = 0

    /// Where an item may paint (device pixels): its context's limit, and within it the pixels
    /// it can touch (a plain item's box, a leaf group's box with its shadow; the sublayers of
    /// any other group may reach past its own box, so the whole limit).
    struct Extent {
        let limit: PixelBox
        let touched: PixelBox
    }

    /// Adds `item`, whose context is already in `contexts`, what it covers and what painting it
    /// may charge to a band's budget (nil: a plain layer's box, or nothing for a border).
    mutating func append(_ item: DisplayItem, cover: OpaqueCover = .none, charge: Int? = nil) {
        let limit = contexts[Int(item.context)].limit
        let touched = item.geometry == nil && !item.leaf ? limit : item.box.intersection(limit)
        extents.append(Extent(limit: limit, touched: touched))
        let covered = cover.intersection(limit)
        covers.append(covered)
        charges.append(charge ?? (item.kind == .layer ? touched.area : 0))
        if item.solid, item.kind != .group, let g = item.geometry, let rect = g.solid {
            solidIndex.append(Int32(solids.count))
            solids.append(rect.item(limit: limit, touched: touched, clip: g.box.intersection(limit), body: item.kind == .layer,
                                    ring: item.kind == .border || item.bordered))
        } else {
            solidIndex.append(-1)
        }
        if !items.isEmpty {
            largestCover = max(largestCover, covered.rows.area, covered.columns.area, item.solidCover.intersection(limit).area)
        }
        items.append(item)
        if item.geometry == nil { groups += 1 }
    }

    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        extents.removeAll(keepingCapacity: true)
        covers.removeAll(keepingCapacity: true)
        charges.removeAll(keepingCapacity: true)
        solids.removeAll(keepingCapacity: true)
        solidIndex.removeAll(keepingCapacity: true)
        contexts.removeAll(keepingCapacity: true)
        skippedForDepth = 0
        groups = 0
        largestCover = 0
        generation &+= 1
    }
}

/// What a layer inherits from its superlayers when it is painted (device pixels): kept per
/// context in the display list, and carried by the recursive painter (`Compositor.Context`).
struct DisplayContext {
    /// The superlayer's local time (seconds).
    var parentTime: Double
    /// The superlayer's layer space → device pixels.
    var parentWorld: Homography
    /// The superlayer's sublayerTransform, placed about its anchor (nil: identity).
    var parentSublayer: Transform3D?
    var flipped: Bool
    /// The rounded shapes of the masksToBounds superlayers.
    var clips: [ClipShape]
    /// Product of the superlayers' opacities.
    var alpha: Double
    /// The pixels the masksToBounds superlayers leave (the frame without them).
    var limit: PixelBox
    var depth: Int
}

/// One thing a band paints.
struct DisplayItem {
    enum Kind: UInt8 {
        /// A plain layer's background, contents and content (and its border without sublayers).
        case layer
        /// A plain layer's border, after its sublayers.
        case border
        /// A layer and its subtree, painted by the recursive painter (an offscreen group).
        case group
    }
    var kind: Kind
    /// Index of what it inherits in `DisplayList.contexts`.
    var context: Int32
    /// Draws the border at the end of the `.layer` item (no sublayers come between).
    var bordered = false
    /// Painted as its geometry's solid rect (`ItemGeometry.solid`): its context adds no alpha
    /// and no rounded clip.
    var solid = false
    /// A group without sublayers: it paints within its own box (its shadow included).
    var leaf = false
    /// The layer's state, place and box of this frame (from the damage walk).
    let footprint: Compositor.Footprint
    /// The pixels the layer can touch (its footprint's box): what bands cull by, without
    /// reaching into the footprint.
    let box: PixelBox
    /// The layer's local time (seconds).
    var local: Double
    /// Where it is drawn (nil for groups).
    var geometry: ItemGeometry?

    /// The pixels a solid layer's item stores opaque words over, whatever lay under them: its
    /// rect, when it has a background (empty for any other item).
    var solidCover: PixelBox {
        guard solid, kind == .layer, let rect = geometry?.solid, rect.fill != nil else { return .empty }
        return rect.rect
    }
}

/// A plain layer's geometry in device pixels, worked out once per footprint.
struct ItemGeometry {
    /// Device pixels → layer space.
    var inverse: Homography
    /// One device pixel in layer units.
    var pixel: CGFloat
    /// The pixels its bounds touch, within the frame.
    var box: PixelBox
    /// Its bounds rounded by cornerRadius, with its sharp edges.
    var shape: RoundedRect
    /// Its background and border as stored words on whole pixels, when that is all it paints.
    var solid: SolidRect?
}
