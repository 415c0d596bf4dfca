import CoreGraphics
import Foundation

// The damage walk's records (Compositor+Damage.swift): a footprint per layer, kept from frame to
// frame, and what a layer inherits from its superlayer, shared by siblings and kept while it
// does not change. Read by the prepare stage and the band painters; written only by the walk.

extension Compositor {
    /// A layer's record of one frame: its presentation state, where it is and the pixels it can
    /// touch. A class, so that carrying an unchanged footprint into the next frame costs one retain.
    final class Footprint {
        let snapshot: LayerSnapshot
        /// The presentation state, kept at a fixed address: passed on as `statePointer.pointee`
        /// it is lent in place, where a stored property was copied for each item a band painted
        /// (retaining each of its references — on objects such as a colour every layer shares,
        /// from every worker at once).
        private(set) var statePointer: UnsafeMutablePointer<LayerState>
        var state: LayerState { unsafeAddress { UnsafePointer(statePointer) } }
        /// Where the layer is and what it and its sublayers inherit, worked out from the state.
        var place: Place
        /// The layer's local time when this footprint was taken (seconds).
        var time: Double = 0
        /// The damage walk that last found the layer in the tree (`Compositor.footprintWalk`).
        var walk = 0
        /// Its display item geometry, once worked out (Compositor+Prepare.swift).
        var geometry: ItemGeometry?
        var hasGeometry = false
        /// A second state of the same snapshot (an earlier frame's): the next frame of an
        /// animated layer is evaluated in it by resetting only the animated fields.
        var spare: UnsafeMutablePointer<LayerState>?

        /// Takes ownership of `state` (initialised, allocated for one).
        init(snapshot: LayerSnapshot, state: UnsafeMutablePointer<LayerState>, place: Place) {
            self.snapshot = snapshot; statePointer = state; self.place = place
        }

        /// Takes the next frame's state of the same snapshot (owned) and its place; the state it
        /// held becomes its spare. Its display geometry is worked out again.
        func update(state: UnsafeMutablePointer<LayerState>, place: Place) {
            if let spare { Footprint.free(spare) }
            spare = statePointer
            statePointer = state
            self.place = place
            // (Written only when there is one: clearing the optional copies a whole empty geometry.)
            if hasGeometry {
                geometry = nil
                hasGeometry = false
            }
        }

        deinit {
            Footprint.free(statePointer)
            if let spare { Footprint.free(spare) }
        }

        private static func free(_ p: UnsafeMutablePointer<LayerState>) {
            p.deinitialize(count: 1)
            p.deallocate()
        }

        /// Layer space → device pixels.
        var world: Homography { place.world }
        /// What the layer inherits from its superlayer.
        var inherited: Inherited { place.inherited }
        /// The pixels the layer can touch (device space).
        var box: PixelBox { place.box }
        var transitioning: Bool { place.transitioning }
        var visible: Bool { place.visible }
        /// What its sublayers inherit (nil when it has none).
        var sublayers: Inherited? { place.sublayers }
    }

    /// A footprint's values apart from its state: the layer's map to pixels, what it inherits,
    /// the pixels it can touch, and what its sublayers and mask inherit from it.
    struct Place {
        var inherited: Inherited
        /// Layer space → device pixels.
        var world: Homography
        /// The pixels it can touch (device space; empty when it draws nothing of its own).
        var box: PixelBox
        var transitioning: Bool
        var visible: Bool
        /// The opacity its sublayers and mask inherit: its superlayers' product times its own.
        var childAlpha: Double
        /// How far its own and its superlayers' shadows carry its sublayers' pixels.
        var childSpread: Spread
        /// What its sublayers inherit (nil when it has none, or is not visible). Kept from the
        /// last frame when equal, so that its sublayers find the very object they inherited.
        var sublayers: Inherited?
    }

    /// What a layer inherits from its superlayer in the damage walk (device space). Shared by the
    /// sublayers of one layer, and kept from frame to frame while its values do not change: a
    /// footprint that inherited this very object last frame inherits the same (one comparison
    /// of addresses instead of maps, clips and boxes).
    final class Inherited {
        /// The superlayer's plane → device pixels (a transform layer passes on its own superlayer's).
        let world: Homography
        /// The superlayer's sublayerTransform, placed about its anchor.
        let sublayer: BoxedTransform
        /// The 3D chain of transform layers above, not yet flattened.
        let transform3D: BoxedTransform
        /// The product of the superlayers' opacities.
        let alpha: Double
        /// The pixels the masksToBounds superlayers leave (device space).
        let clip: PixelBox
        /// How far the superlayers' shadows carry the layer's pixels.
        let spread: Spread
        /// Under a replicator that draws several instances: drawn elsewhere too.
        let replicated: Bool
        /// Device → device maps from the first copy to the others, when the replicator's
        /// instance transforms are flat (nil under a replicator: anywhere in the clip).
        let instances: [Homography]?
        /// The clip at the replicator whose copies these are (inner clips move with the copies).
        let replicatorClip: PixelBox
        /// Under a replicator whose delayed copies animate, or whose own settings changed this
        /// frame: the layer's box is damaged.
        let delayed: Bool

        init(world: Homography, sublayer: BoxedTransform = .none, transform3D: BoxedTransform = .none, alpha: Double,
             clip: PixelBox, spread: Spread, replicated: Bool = false, instances: [Homography]? = nil,
             replicatorClip: PixelBox = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0), delayed: Bool = false) {
            self.world = world; self.sublayer = sublayer; self.transform3D = transform3D; self.alpha = alpha
            self.clip = clip; self.spread = spread; self.replicated = replicated; self.instances = instances
            self.replicatorClip = replicatorClip; self.delayed = delayed
        }

        /// The same values (the same object, or equal field by field).
        func same(as o: Inherited) -> Bool {
            self === o || (world == o.world && sublayer == o.sublayer && transform3D == o.transform3D && alpha == o.alpha
                && clip == o.clip && spread == o.spread && replicated == o.replicated && instances == o.instances
                && replicatorClip == o.replicatorClip && delayed == o.delayed)
        }

        /// `self`, or `last` when it holds the same values (so that the sublayers that inherited
        /// `last` find the same object).
        func keeping(_ last: Inherited?) -> Inherited {
            if let last, last.same(as: self) { return last }
            return self
        }
    }

    /// How far ancestors' shadows can carry a layer's pixels (pixels, each side).
    struct Spread: Equatable {
        var left = 0, top = 0, right = 0, bottom = 0
        func grow(_ b: PixelBox, within frame: PixelBox) -> PixelBox {
            guard !b.isEmpty, self != Spread() else { return b }
            return PixelBox(x0: b.x0 - left, y0: b.y0 - top, x1: b.x1 + right, y1: b.y1 + bottom).intersection(frame)
        }
    }
}
