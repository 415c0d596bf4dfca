import CoreGraphics
import Foundation

// Stage: snapshot. Reads: nothing (QuartzCore builds it at each commit). Produces: the immutable
// tree every later stage reads. Later stages may not change it; they never see a CALayer.

/// One layer of an immutable committed tree: what renderers read instead of live CALayers.
///
/// Published at each commit. Layers that did not change since the previous commit (and
/// whose subtrees did not) are shared between consecutive snapshots.
package final class LayerSnapshot: @unchecked Sendable {   // immutable: a commit builds it, renderers only read it
    /// A stable identity of the model layer across commits.
    package let id: UInt64
    package let state: LayerState
    package let sublayers: [LayerSnapshot]
    package let mask: LayerSnapshot?
    /// Animations in the order they were added, with their keys.
    package let animations: [(key: String, model: AnimationModel)]
    /// Whether nothing in this subtree (mask included) changes with time alone: no animations,
    /// no emitters, no tiled layers (whose tiles arrive and fade in). A renderer that painted
    /// this very tree needs no damage walk to know that nothing changed.
    package let isStill: Bool
    /// Levels in this subtree (1 for a leaf; a mask counts as a level below its layer).
    package let height: Int
    /// The state fields the animations write, when every one of them writes fields only (nil
    /// when some animation writes a class-content or custom key, or there are no animations):
    /// a frame may then evaluate the layer by resetting just these fields.
    package let animatedFields: [LayerState.Field]?
    /// The kind of the state's class content (nil: none). Fixed for the snapshot — animations
    /// change the content's properties, never its kind — so that a frame tells layers apart
    /// without reading the content (matching it through a pointer copies its payload).
    package let contentKind: LayerContent.Kind?
    /// Whether the layer can show `contents`: it has some, or an animation may write them.
    package let mayShowContents: Bool

    package init(id: UInt64, state: LayerState, sublayers: [LayerSnapshot], mask: LayerSnapshot?,
                 animations: [(key: String, model: AnimationModel)]) {
        self.id = id; self.state = state; self.sublayers = sublayers; self.mask = mask; self.animations = animations
        contentKind = state.content?.kind
        let timeless = contentKind != .emitter && contentKind != .tiled
        isStill = timeless && animations.isEmpty && (mask?.isStill ?? true) && sublayers.allSatisfy(\.isStill)
        height = 1 + max(mask?.height ?? 0, sublayers.reduce(0) { max($0, $1.height) })
        var fields: [LayerState.Field]? = animations.isEmpty ? nil : []
        for (_, model) in animations { fields = model.fields.flatMap { f in fields.map { $0 + f } } }
        animatedFields = fields
        let animatesContents = !animations.isEmpty && (fields?.contains(.contents) ?? true)
        mayShowContents = state.contents != .none || animatesContents
    }

    /// Whether its content can change its pixels by time alone (particles, tiles fading in).
    package var hasTimedContent: Bool { contentKind == .emitter || contentKind == .tiled }

    /// The layer's local time for its superlayer's time.
    package func localTime(fromParent t: Double) -> Double { state.timing.layerLocalTime(t) }

    /// The state with every animation applied at the layer's local time `t`.
    package func presentationState(atLocalTime t: Double) -> LayerState {
        guard !animations.isEmpty else { return state }
        var s = state
        applyAnimations(to: &s, atLocalTime: t)
        return s
    }

    /// Applies the animations, in the order they were added, to `state` at local time `t` (seconds).
    package func applyAnimations(to state: inout LayerState, atLocalTime t: Double) {
        for (_, model) in animations { model.apply(to: &state, at: t) }
    }

    /// True when some animation still changes the picture after local time `t` (so a renderer needs
    /// another frame). Animations that hold a final value (forwards fill) need none.
    package func isAnimating(atLocalTime t: Double) -> Bool {
        animations.contains { !$0.model.isFinished(at: t) }
    }
}
