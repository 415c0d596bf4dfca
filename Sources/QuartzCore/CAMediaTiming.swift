import CoreGraphics
import Foundation

/// The hierarchical timing model shared by layers and animations.
///
/// Local time = (parent time − `beginTime`) × `speed` + `timeOffset`, in seconds.
/// A layer's `duration` defaults to ∞; an animation's to 0 (the transaction's duration when added).
public protocol CAMediaTiming {
    /// When the object starts, in its parent's time (seconds).
    var beginTime: CFTimeInterval { get set }
    /// The length of one repetition in local time (seconds).
    var duration: CFTimeInterval { get set }
    /// How fast local time runs relative to the parent's (1 = same; 0 pauses; negative reverses).
    var speed: Float { get set }
    /// An additional offset into local time (seconds).
    var timeOffset: CFTimeInterval { get set }
    /// How many times to repeat (fractional allowed; `.infinity` forever).
    var repeatCount: Float { get set }
    /// How long to repeat, in local time (seconds).
    var repeatDuration: CFTimeInterval { get set }
    /// Whether each repetition plays forward then backward.
    var autoreverses: Bool { get set }
    /// What is shown outside the active duration.
    var fillMode: CAMediaTimingFillMode { get set }
}

/// Something a layer runs in response to an event key (a property change, `onOrderIn`…).
public protocol CAAction: AnyObject {
    /// Runs the action for `event` on `anObject` (a CALayer).
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

extension NSNull: CAAction {
    /// NSNull as an action does nothing; returned from the action search it stops the search.
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

/// The object a layer asks for drawing, display, layout and actions.
///
/// Linux has no `@objc optional`; every requirement has a default implementation here. The
/// defaults tell the layer they were not implemented (Apple's rules depend on whether a
/// delegate implements `display(_:)` or `draw(_:in:)`), so implementing one is exactly like Apple.
public protocol CALayerDelegate: NSObjectProtocol {
    /// Updates the layer's contents itself (instead of a backing store + drawing).
    func display(_ layer: CALayer)
    /// Draws the layer's contents into `ctx` (pre-flipped: origin top-left, y down, points).
    func draw(_ layer: CALayer, in ctx: CGContext)
    /// Called before `draw(_:in:)` when the backing store is about to be drawn.
    func layerWillDraw(_ layer: CALayer)
    /// Lays out the layer's sublayers.
    func layoutSublayers(of layer: CALayer)
    /// The action for `event` on `layer`; nil to continue the search, NSNull to stop it.
    func action(for layer: CALayer, forKey event: String) -> (any CAAction)?
}

extension CALayerDelegate {
    /// Default: not implemented (the layer draws a backing store instead).
    public func display(_ layer: CALayer) { layer.delegateProbe.insert(.displayNotImplemented) }
    /// Default: not implemented (nothing is drawn).
    public func draw(_ layer: CALayer, in ctx: CGContext) { if layer.probing { layer.delegateProbe.insert(.drawNotImplemented) } }
    /// Default: does nothing.
    public func layerWillDraw(_ layer: CALayer) {}
    /// Default: not implemented (the layout manager lays out).
    public func layoutSublayers(of layer: CALayer) { layer.delegateProbe.insert(.layoutNotImplemented) }
    /// Default: no action (the search continues).
    public func action(for layer: CALayer, forKey event: String) -> (any CAAction)? { nil }
}

/// Lays out a layer's sublayers (Apple's macOS `CALayoutManager`).
public protocol CALayoutManager: AnyObject {
    /// Lays out `layer`'s sublayers.
    func layoutSublayers(of layer: CALayer)
    /// The preferred size of `layer`, in its superlayer's units.
    func preferredSize(of layer: CALayer) -> CGSize
    /// Discards cached layout state for `layer`.
    func invalidateLayout(of layer: CALayer)
}

extension CALayoutManager {
    /// Default: the layer's bounds size.
    public func preferredSize(of layer: CALayer) -> CGSize { layer.bounds.size }
    /// Default: does nothing.
    public func invalidateLayout(of layer: CALayer) {}
}

/// Records which delegate defaults ran, so the layer can tell "implemented" from "not".
struct DelegateProbe: OptionSet {
    let rawValue: UInt8
    static let displayNotImplemented = DelegateProbe(rawValue: 1)
    static let drawNotImplemented = DelegateProbe(rawValue: 2)
    static let layoutNotImplemented = DelegateProbe(rawValue: 4)
    /// Set by `CALayer.draw(in:)`'s own implementation (i.e. a subclass did not override it).
    static let baseDrawRan = DelegateProbe(rawValue: 8)
}

extension CGDiagnostics.Kind {
    /// A layer-tree change that would create a cycle (a layer under itself, its ancestor as its mask).
    public static let layerCycle = CGDiagnostics.Kind(rawValue: "layerCycle")
    /// A key-value call named a key the layer cannot store a value of that type for.
    public static let invalidKeyValue = CGDiagnostics.Kind(rawValue: "invalidKeyValue")
}
