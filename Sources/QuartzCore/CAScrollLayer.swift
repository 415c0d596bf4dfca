import CoreGraphics
import Foundation
import LayerRender

/// How a scroll layer may scroll.
public struct CAScrollLayerScrollMode: RawRepresentable, Hashable, Sendable {
    /// The raw value, as Apple defines it.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apple's `none` (raw value "none"): no scrolling.
    public static let none = CAScrollLayerScrollMode(rawValue: "none")
    /// Apple's `vertically` (raw value "vertically").
    public static let vertically = CAScrollLayerScrollMode(rawValue: "vertically")
    /// Apple's `horizontally` (raw value "horizontally").
    public static let horizontally = CAScrollLayerScrollMode(rawValue: "horizontally")
    /// Apple's `both` (raw value "both"), the default.
    public static let both = CAScrollLayerScrollMode(rawValue: "both")
}

/// Apple's `kCAScrollNone` ("none").
public let kCAScrollNone = "none"
/// Apple's `kCAScrollVertically` ("vertically").
public let kCAScrollVertically = "vertically"
/// Apple's `kCAScrollHorizontally` ("horizontally").
public let kCAScrollHorizontally = "horizontally"
/// Apple's `kCAScrollBoth` ("both").
public let kCAScrollBoth = "both"

/// A layer that shows part of its sublayers and scrolls over them: Core Animation's CAScrollLayer.
///
/// Scrolling moves `bounds.origin` (points, the scroll layer's own space), so sublayers move the
/// other way; the layer clips to its bounds (`masksToBounds` is true by default). Nothing limits
/// how far it scrolls, as on Apple systems: the caller knows the content's extent.
open class CAScrollLayer: CALayer {
    /// Which directions `scroll(to:)` may move (default both).
    open var scrollMode: CAScrollLayerScrollMode {
        get { self[CAScrollLayer.scrollModeProperty] }
        set { self[CAScrollLayer.scrollModeProperty] = newValue }
    }
    var scrollModeValue = CAScrollLayerScrollMode.both

    /// Creates a scroll layer (clipping to its bounds).
    public override init() { super.init() }

    /// Creates a shadow copy of `layer`, its scroll mode included.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAScrollLayer { scrollModeValue = other.scrollModeValue }
    }

    /// Apple's archiving initialiser (archives are not supported on Linux: a default layer).
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// Scrolls so that `p` (this layer's coordinates) is at the top-left of the bounds, along the
    /// directions `scrollMode` allows. Non-finite points are ignored (counted).
    open func scroll(to p: CGPoint) {
        guard p.x.isFinite, p.y.isFinite else { rejectNonFinite(); return }
        var origin = bounds.origin
        if scrollMode == .horizontally || scrollMode == .both { origin.x = p.x }
        if scrollMode == .vertically || scrollMode == .both { origin.y = p.y }
        if origin != bounds.origin { bounds.origin = origin }
    }

    /// Scrolls by the least amount that shows `r` (this layer's coordinates); a rect larger than
    /// the bounds shows its top-left part.
    open func scroll(to r: CGRect) {
        guard r.isFiniteRect else { rejectNonFinite(); return }
        let b = bounds
        func axis(_ lo: CGFloat, _ hi: CGFloat, _ blo: CGFloat, _ size: CGFloat) -> CGFloat {
            if hi - lo > size || lo < blo { return lo }
            if hi > blo + size { return hi - size }
            return blo
        }
        scroll(to: CGPoint(x: axis(r.minX, r.maxX, b.minX, b.width), y: axis(r.minY, r.maxY, b.minY, b.height)))
    }

    // MARK: Engine hooks

    override class var keyTable: [String: LayerKey] { scrollKeys }
    override class var frameworkDefaults: [String: Any] { scrollDefaults }

    override func presentationInstance() -> CALayer { CAScrollLayer(layer: self) }

    nonisolated(unsafe) static let scrollDefaults: [String: Any] = builtInDefaults.merging([   // immutable after init; `Any` values keep it from being Sendable
        "masksToBounds": true, "scrollMode": CAScrollLayerScrollMode.both,
    ]) { $1 }

    /// The one property of its own, declared as CALayer's are (LayerProperty.swift).
    static let scrollModeProperty = LayerProperty<CAScrollLayer, CAScrollLayerScrollMode>(
        "scrollMode", \.scrollModeValue, \.scrollMode, Coerce.raw)

    nonisolated(unsafe) static let scrollKeys = LayerKey.table([scrollModeProperty.erased], over: builtInKeys)   // immutable after init; closures keep it from being Sendable
}

extension CALayer {
    /// The closest ancestor scroll layer (not the receiver itself).
    var enclosingScrollLayer: CAScrollLayer? {
        var l = superlayer
        while let layer = l {
            if let s = layer as? CAScrollLayer { return s }
            l = layer.superlayer
        }
        return nil
    }

    /// Scrolls the closest ancestor scroll layer so that `p` (this layer's coordinates) is at its
    /// top-left. Does nothing without a scroll layer above.
    public func scroll(_ p: CGPoint) {
        guard let s = enclosingScrollLayer else { return }
        s.scroll(to: s.convert(p, from: self))
    }

    /// Scrolls the closest ancestor scroll layer by the least amount that shows `r` (this layer's coordinates).
    public func scrollRectToVisible(_ r: CGRect) {
        guard let s = enclosingScrollLayer else { return }
        s.scroll(to: s.convert(r, from: self))
    }

    /// The part of the bounds not clipped by the closest ancestor scroll layer, in this layer's
    /// coordinates (the bounds when there is none; `.null` when scrolled out of view).
    public var visibleRect: CGRect {
        guard let s = enclosingScrollLayer else { return bounds }
        return bounds.intersection(convert(s.bounds, from: s))
    }
}
