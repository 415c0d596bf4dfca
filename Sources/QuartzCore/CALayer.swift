import CoreGraphics
import Foundation
import LayerRender

/// A rectangle of content in a tree: Core Animation's CALayer.
///
/// Geometry follows iOS: a layer's own coordinate space has its origin at the top-left of
/// `bounds` with y down (unless `isGeometryFlipped`); `position` is where the `anchorPoint`
/// (unit coordinates of `bounds`) sits in the superlayer's space; units are points.
///
/// Like Apple's, CALayer is not actor-isolated and not `Sendable`: use each tree from one
/// thread at a time. Nothing in it blocks.
///
/// File layout: Swift cannot override members declared in extensions, so every member a
/// subclass may override (Apple's open API) is declared here; the work is done by internal
/// helpers in `CALayer+*.swift`. Property setters reject NaN/infinite values (the old value is
/// kept, the rejection counted) and report each accepted change through `didChange(_:)`.
open class CALayer: NSObject, CAMediaTiming {
    // MARK: Stored model state (read through the public properties)

    var _bounds = CGRect.zero
    var _position = CGPoint.zero
    var _zPosition: CGFloat = 0
    var _anchorPoint = CGPoint(x: 0.5, y: 0.5)
    var _anchorPointZ: CGFloat = 0
    var _transform = CATransform3DIdentity
    var _sublayerTransform = CATransform3DIdentity
    var _isGeometryFlipped = false
    /// Cached `CATransform3DIsIdentity(_transform)`: geometry walks test it for every layer.
    var transformIsIdentity = true
    /// Cached `CATransform3DIsIdentity(_sublayerTransform)`.
    var sublayerTransformIsIdentity = true

    var _contents: Any? = nil
    var _contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    var _contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1)
    var _contentsGravity = CALayerContentsGravity.resize
    var _contentsScale: CGFloat = 1
    var _contentsFormat = CALayerContentsFormat.RGBA8Uint
    var _minificationFilter = CALayerContentsFilter.linear
    var _minificationFilterBias: Float = 0
    var _magnificationFilter = CALayerContentsFilter.linear
    var _isOpaque = false

    var _opacity: Float = 1
    var _isHidden = false
    var _masksToBounds = false
    var _isDoubleSided = true
    var _cornerRadius: CGFloat = 0
    var _maskedCorners = CACornerMask(rawValue: 15)
    var _cornerCurve = CALayerCornerCurve.circular
    var _borderWidth: CGFloat = 0
    var _borderColor: CGColor? = CGColor.black
    var _backgroundColor: CGColor? = nil
    var _shadowOpacity: Float = 0
    var _shadowRadius: CGFloat = 3
    var _shadowOffset = CGSize(width: 0, height: -3)
    var _shadowColor: CGColor? = CGColor.black
    var _shadowPath: CGPath? = nil
    var _allowsGroupOpacity = true
    var _allowsEdgeAntialiasing = false
    var _edgeAntialiasingMask = CAEdgeAntialiasingMask(rawValue: 15)
    var _shouldRasterize = false
    var _rasterizationScale: CGFloat = 1
    var _filters: [Any]? = nil
    var _compositingFilter: Any? = nil
    var _backgroundFilters: [Any]? = nil
    var _style: [AnyHashable: Any]? = nil
    var _name: String? = nil
    var _actions: [String: any CAAction]? = nil
    var _needsDisplayOnBoundsChange = false
    var _drawsAsynchronously = false

    var _beginTime: CFTimeInterval = 0
    var _duration: CFTimeInterval = .infinity
    var _speed: Float = 1
    var _timeOffset: CFTimeInterval = 0
    var _repeatCount: Float = 0
    var _repeatDuration: CFTimeInterval = 0
    var _autoreverses = false
    var _fillMode = CAMediaTimingFillMode.removed

    /// Values stored under keys that are not built-in properties (Linux key-value coding).
    var customValues: [String: Any] = [:]

    // MARK: Tree

    /// The sublayers, back to front; empty (read as nil through `sublayers`).
    var children: [CALayer] = []
    /// Where this layer last was in its superlayer's `children`: a hint that keeps removal O(1).
    var indexHint = 0
    weak var _superlayer: CALayer?
    var _mask: CALayer?
    /// True when this layer is some layer's mask (its `_superlayer` is the masked layer).
    var isMaskLayer = false

    /// The delegate; held weakly, as on Apple systems.
    open weak var delegate: (any CALayerDelegate)?
    /// The object that lays out sublayers when the delegate does not.
    open var layoutManager: (any CALayoutManager)?

    // MARK: Animation and commit state

    /// Animations in the order added (implemented in CALayer+Animations.swift).
    var animationEntries: [AnimationEntry] = []
    /// A stable identity across commits (snapshots refer to layers by it).
    let layerID: UInt64 = CALayer.nextLayerID()
    /// The renderer or window hosting this layer's tree, set on the root only.
    weak var host: (any LayerHost)? {
        didSet { setHostRoot(host == nil ? nil : self) }
    }
    /// The hosted root of this layer's tree (see `liveRoot`); weak, the host retains the root.
    weak var hostRootRef: CALayer?
    /// This layer's snapshot in the last commit that included it.
    var committed: LayerSnapshot?
    /// This layer's own values changed since `committed` was made.
    var snapshotDirty = true
    /// Something in this layer's subtree (or its sublayer list) changed since `committed`.
    var subtreeDirty = true
    /// For presentation copies: the model layer they show.
    var modelLayer: CALayer?

    // MARK: Cycle flags

    var needsLayoutFlag = false
    var needsDisplayFlag = false
    var delegateProbe: DelegateProbe = []

    /// Creates a layer with Apple's default property values.
    public override init() {
        super.init()
        applyClassDefaults()
    }

    /// Creates a shadow copy of `layer` (used for presentation layers): every property is
    /// copied; the tree (superlayer, sublayers, mask) is not. Subclasses override it to copy
    /// their own properties and must call super.
    public init(layer: Any) {
        super.init()
        guard let other = layer as? CALayer else { return }
        copyProperties(from: other)
    }

    /// Apple's archiving initialiser; archives are not supported on Linux, so this creates a
    /// default layer (subclasses that call `super.init(coder:)` keep working).
    public required init?(coder: NSCoder) {
        super.init()
        applyClassDefaults()
    }

    deinit {
        // Release deep trees iteratively: a 100,000-deep chain must not recurse in deinit.
        var pending = children
        children = []
        while var layer = pending.popLast() {
            if isKnownUniquelyReferenced(&layer) {
                pending.append(contentsOf: layer.children)
                layer.children = []
                if let m = layer._mask { pending.append(m); layer._mask = nil }
            }
        }
    }

    // MARK: Geometry

    /// The layer's own rectangle in its coordinate space (points); origin scrolls contents, size is the extent.
    open var bounds: CGRect {
        get { _bounds }
        set {
            guard newValue.isFiniteRect else { return rejectNonFinite() }
            let old = _bounds
            _bounds = newValue
            boundsDidChange(from: old)
            didChange("bounds")
        }
    }

    /// Where the anchor point sits, in the superlayer's coordinate space (points).
    open var position: CGPoint {
        get { _position }
        set { guard newValue.isFinite else { return rejectNonFinite() }; _position = newValue; didChange("position") }
    }

    /// Position on the z axis (points); a higher value draws and hit-tests in front of siblings.
    open var zPosition: CGFloat {
        get { _zPosition }
        set { guard newValue.isFinite else { return rejectNonFinite() }; _zPosition = newValue; didChange("zPosition") }
    }

    /// The point of `bounds`, in unit coordinates, that `position` places and transforms pivot about.
    open var anchorPoint: CGPoint {
        get { _anchorPoint }
        set { guard newValue.isFinite else { return rejectNonFinite() }; _anchorPoint = newValue; didChange("anchorPoint") }
    }

    /// The anchor's z coordinate (points).
    open var anchorPointZ: CGFloat {
        get { _anchorPointZ }
        set {
            guard newValue.isFinite else { return rejectNonFinite() }
            _anchorPointZ = newValue
            didChange("anchorPointZ")
        }
    }

    /// The transform applied about the anchor point, relative to the superlayer.
    open var transform: CATransform3D {
        get { _transform }
        set {
            guard newValue.isFinite else { return rejectNonFinite() }
            _transform = newValue
            transformIsIdentity = CATransform3DIsIdentity(newValue)
            didChange("transform")
        }
    }

    /// A transform applied to sublayers, about this layer's anchor point (perspective lives here).
    open var sublayerTransform: CATransform3D {
        get { _sublayerTransform }
        set {
            guard newValue.isFinite else { return rejectNonFinite() }
            _sublayerTransform = newValue
            sublayerTransformIsIdentity = CATransform3DIsIdentity(newValue)
            didChange("sublayerTransform")
        }
    }

    /// Whether this layer's geometry (and its sublayers') is flipped vertically relative to its superlayer.
    open var isGeometryFlipped: Bool {
        get { _isGeometryFlipped }
        set { _isGeometryFlipped = newValue; didChange("geometryFlipped") }
    }

    // MARK: Contents

    /// What the layer shows: a CGImage (other values are kept but draw nothing).
    open var contents: Any? {
        get { _contents }
        set { _contents = newValue; didChange("contents") }
    }

    /// The part of `contents` to show, in unit coordinates of the image.
    open var contentsRect: CGRect {
        get { _contentsRect }
        set {
            guard newValue.isFiniteRect else { return rejectNonFinite() }
            _contentsRect = newValue
            didChange("contentsRect")
        }
    }

    /// The stretchable middle of `contents` (unit coordinates) for nine-slice scaling.
    open var contentsCenter: CGRect {
        get { _contentsCenter }
        set {
            guard newValue.isFiniteRect else { return rejectNonFinite() }
            _contentsCenter = newValue
            didChange("contentsCenter")
        }
    }

    /// Pixels of `contents` per point (and of backing stores made by `display()`).
    open var contentsScale: CGFloat {
        get { _contentsScale }
        set {
            guard newValue.isFinite, newValue > 0 else { return rejectNonFinite() }
            _contentsScale = newValue
            didChange("contentsScale")
        }
    }

    /// The pixel format of backing stores made by `display()`.
    open var contentsFormat: CALayerContentsFormat {
        get { _contentsFormat }
        set { _contentsFormat = newValue; didChange("contentsFormat") }
    }

    /// How contents are resampled when shrunk.
    open var minificationFilter: CALayerContentsFilter {
        get { _minificationFilter }
        set { _minificationFilter = newValue; didChange("minificationFilter") }
    }

    /// The level-of-detail bias of trilinear minification.
    open var minificationFilterBias: Float {
        get { _minificationFilterBias }
        set {
            guard !newValue.isNaN else { return rejectNonFinite() }
            _minificationFilterBias = newValue
            didChange("minificationFilterBias")
        }
    }

    /// How contents are resampled when enlarged.
    open var magnificationFilter: CALayerContentsFilter {
        get { _magnificationFilter }
        set { _magnificationFilter = newValue; didChange("magnificationFilter") }
    }

    /// A promise that the layer's backing store is fully opaque.
    open var isOpaque: Bool {
        get { _isOpaque }
        set { _isOpaque = newValue; didChange("opaque") }
    }

    /// Whether a bounds change marks the layer as needing display.
    open var needsDisplayOnBoundsChange: Bool {
        get { _needsDisplayOnBoundsChange }
        set { _needsDisplayOnBoundsChange = newValue; didChange("needsDisplayOnBoundsChange") }
    }

    /// Accepted; drawing is synchronous here.
    open var drawsAsynchronously: Bool {
        get { _drawsAsynchronously }
        set { _drawsAsynchronously = newValue; didChange("drawsAsynchronously") }
    }

    /// How `contents` is placed in `bounds`; an unknown value reads back as `center`.
    open var contentsGravity: CALayerContentsGravity {
        get { _contentsGravity }
        set {
            _contentsGravity = CALayerContentsGravity.all.contains(newValue) ? newValue : .center
            didChange("contentsGravity")
        }
    }

    // MARK: Style

    /// The layer's opacity in [0, 1] (values outside are clamped when drawn).
    open var opacity: Float {
        get { _opacity }
        set { guard !newValue.isNaN else { return rejectNonFinite() }; _opacity = newValue; didChange("opacity") }
    }

    /// Whether the layer (and its subtree) is not drawn and not hit-tested.
    open var isHidden: Bool {
        get { _isHidden }
        set { _isHidden = newValue; didChange("hidden") }
    }

    /// Whether sublayers and contents are clipped to `bounds` (and `cornerRadius`).
    open var masksToBounds: Bool {
        get { _masksToBounds }
        set { _masksToBounds = newValue; didChange("masksToBounds") }
    }

    /// Whether the layer is drawn when facing away from the viewer.
    open var isDoubleSided: Bool {
        get { _isDoubleSided }
        set { _isDoubleSided = newValue; didChange("doubleSided") }
    }

    /// The radius of rounded corners (points).
    open var cornerRadius: CGFloat {
        get { _cornerRadius }
        set {
            guard newValue.isFinite else { return rejectNonFinite() }
            _cornerRadius = newValue
            didChange("cornerRadius")
        }
    }

    /// Which corners `cornerRadius` rounds.
    open var maskedCorners: CACornerMask {
        get { _maskedCorners }
        set { _maskedCorners = newValue; didChange("maskedCorners") }
    }

    /// The shape of rounded corners.
    open var cornerCurve: CALayerCornerCurve {
        get { _cornerCurve }
        set { _cornerCurve = newValue; didChange("cornerCurve") }
    }

    /// The width of the border drawn inside `bounds` (points).
    open var borderWidth: CGFloat {
        get { _borderWidth }
        set { guard newValue.isFinite else { return rejectNonFinite() }; _borderWidth = newValue; didChange("borderWidth") }
    }

    /// The border colour (opaque black by default).
    open var borderColor: CGColor? {
        get { _borderColor }
        set { _borderColor = newValue; didChange("borderColor") }
    }

    /// The colour filling `bounds` (and corners) behind contents.
    open var backgroundColor: CGColor? {
        get { _backgroundColor }
        set { _backgroundColor = newValue; didChange("backgroundColor") }
    }

    /// The shadow's opacity in [0, 1]; 0 (the default) draws no shadow.
    open var shadowOpacity: Float {
        get { _shadowOpacity }
        set {
            guard !newValue.isNaN else { return rejectNonFinite() }
            _shadowOpacity = newValue
            didChange("shadowOpacity")
        }
    }

    /// The shadow's blur radius (points).
    open var shadowRadius: CGFloat {
        get { _shadowRadius }
        set {
            guard newValue.isFinite else { return rejectNonFinite() }
            _shadowRadius = newValue
            didChange("shadowRadius")
        }
    }

    /// The shadow's offset (points; (0, −3) by default).
    open var shadowOffset: CGSize {
        get { _shadowOffset }
        set {
            guard newValue.isFinite else { return rejectNonFinite() }
            _shadowOffset = newValue
            didChange("shadowOffset")
        }
    }

    /// The shadow's colour (opaque black by default).
    open var shadowColor: CGColor? {
        get { _shadowColor }
        set { _shadowColor = newValue; didChange("shadowColor") }
    }

    /// The shadow's shape in layer coordinates; nil uses the layer's alpha.
    open var shadowPath: CGPath? {
        get { _shadowPath }
        set { _shadowPath = newValue; didChange("shadowPath") }
    }

    /// Whether a translucent subtree is composited as one image.
    open var allowsGroupOpacity: Bool {
        get { _allowsGroupOpacity }
        set { _allowsGroupOpacity = newValue; didChange("allowsGroupOpacity") }
    }

    /// Whether edges are anti-aliased when the layer is transformed.
    open var allowsEdgeAntialiasing: Bool {
        get { _allowsEdgeAntialiasing }
        set { _allowsEdgeAntialiasing = newValue; didChange("allowsEdgeAntialiasing") }
    }

    /// Which edges are anti-aliased.
    open var edgeAntialiasingMask: CAEdgeAntialiasingMask {
        get { _edgeAntialiasingMask }
        set { _edgeAntialiasingMask = newValue; didChange("edgeAntialiasingMask") }
    }

    /// Whether the subtree is drawn once into a cached bitmap and reused.
    open var shouldRasterize: Bool {
        get { _shouldRasterize }
        set { _shouldRasterize = newValue; didChange("shouldRasterize") }
    }

    /// Pixels per point of the rasterized bitmap.
    open var rasterizationScale: CGFloat {
        get { _rasterizationScale }
        set {
            guard newValue.isFinite, newValue > 0 else { return rejectNonFinite() }
            _rasterizationScale = newValue
            didChange("rasterizationScale")
        }
    }

    /// Filters applied to the layer and its subtree (stored; filter objects are not available on Linux).
    open var filters: [Any]? {
        get { _filters }
        set { _filters = newValue; didChange("filters") }
    }

    /// The filter compositing the layer with what is behind it (stored).
    open var compositingFilter: Any? {
        get { _compositingFilter }
        set { _compositingFilter = newValue; didChange("compositingFilter") }
    }

    /// Filters applied to what is behind the layer (stored).
    open var backgroundFilters: [Any]? {
        get { _backgroundFilters }
        set { _backgroundFilters = newValue; didChange("backgroundFilters") }
    }

    /// Default values for keys the layer does not set, including `actions`.
    open var style: [AnyHashable: Any]? {
        get { _style }
        set { _style = newValue; didChange("style") }
    }

    /// A name for debugging and lookup.
    open var name: String? {
        get { _name }
        set { _name = newValue; didChange("name") }
    }

    /// Actions by key, consulted after the delegate.
    open var actions: [String: any CAAction]? {
        get { _actions }
        set { _actions = newValue; didChange("actions") }
    }

    // MARK: Timing

    /// When the layer's timeline starts, in its superlayer's time (seconds).
    open var beginTime: CFTimeInterval {
        get { _beginTime }
        set { guard !newValue.isNaN else { return rejectNonFinite() }; _beginTime = newValue; didChange("beginTime") }
    }

    /// The length of the layer's timeline (seconds; ∞ by default).
    open var duration: CFTimeInterval {
        get { _duration }
        set { guard !newValue.isNaN else { return rejectNonFinite() }; _duration = newValue; didChange("duration") }
    }

    /// How fast the layer's time runs relative to its superlayer's (1 = same, 0 = paused).
    open var speed: Float {
        get { _speed }
        set { guard !newValue.isNaN else { return rejectNonFinite() }; _speed = newValue; didChange("speed") }
    }

    /// An offset added to the layer's local time (seconds).
    open var timeOffset: CFTimeInterval {
        get { _timeOffset }
        set { guard !newValue.isNaN else { return rejectNonFinite() }; _timeOffset = newValue; didChange("timeOffset") }
    }

    /// How many times the timeline repeats.
    open var repeatCount: Float {
        get { _repeatCount }
        set { guard !newValue.isNaN else { return rejectNonFinite() }; _repeatCount = newValue; didChange("repeatCount") }
    }

    /// How long the timeline repeats (seconds).
    open var repeatDuration: CFTimeInterval {
        get { _repeatDuration }
        set {
            guard !newValue.isNaN else { return rejectNonFinite() }
            _repeatDuration = newValue
            didChange("repeatDuration")
        }
    }

    /// Whether each repetition plays forward then backward.
    open var autoreverses: Bool {
        get { _autoreverses }
        set { _autoreverses = newValue; didChange("autoreverses") }
    }

    /// What the timeline shows outside its active duration.
    open var fillMode: CAMediaTimingFillMode {
        get { _fillMode }
        set { _fillMode = newValue; didChange("fillMode") }
    }

    // MARK: Tree (implemented in CALayer+Hierarchy.swift)

    /// The layer this one is a sublayer (or the mask) of.
    open var superlayer: CALayer? { _superlayer }

    /// The sublayers, back to front; nil when there are none (as Apple). Assigning replaces them all.
    open var sublayers: [CALayer]? {
        get { children.isEmpty ? nil : children }
        set { replaceAllSublayers(with: newValue ?? []) }
    }

    /// Appends `layer` as the frontmost sublayer, removing it from its old superlayer first.
    open func addSublayer(_ layer: CALayer) { insertChild(layer, at: children.count) }

    /// Inserts `layer` at `idx` among the sublayers (clamped to the end).
    open func insertSublayer(_ layer: CALayer, at idx: UInt32) { insertChild(layer, at: Int(idx)) }

    /// Inserts `layer` just below `sibling` (at the back when `sibling` is nil or not a sublayer).
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        insertChild(layer, at: sibling.flatMap { indexOfChild($0) } ?? 0)
    }

    /// Inserts `layer` just above `sibling` (at the front when `sibling` is nil or not a sublayer).
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        insertChild(layer, at: sibling.flatMap { indexOfChild($0).map { $0 + 1 } } ?? children.count)
    }

    /// Replaces the sublayer `oldLayer` by `newLayer` at the same index; ignored when `oldLayer` is not a sublayer.
    open func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) { replaceChild(oldLayer, with: newLayer) }

    /// Detaches the layer from its superlayer (or from the layer it masks).
    open func removeFromSuperlayer() { detachFromParent() }

    /// A layer whose alpha masks this one; its superlayer becomes this layer but it is not a sublayer.
    open var mask: CALayer? {
        get { _mask }
        set { setMaskLayer(newValue) }
    }

    // MARK: Geometry (implemented in CALayer+Geometry.swift)

    /// The layer's rectangle in its superlayer's space: derived from bounds, position, anchor point
    /// and transform (the bounding box under a transform). Setting it keeps `bounds.origin`.
    open var frame: CGRect {
        get { computedFrame }
        set { applyFrame(newValue) }
    }

    /// The transform as an affine transform (its affine part).
    open func affineTransform() -> CGAffineTransform { CATransform3DGetAffineTransform(transform) }

    /// Sets the transform from an affine transform.
    open func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3DMakeAffineTransform(m) }

    /// Whether contents are flipped when drawn: true when an odd number of layers from here to the
    /// root are `isGeometryFlipped`.
    open func contentsAreFlipped() -> Bool { flipParity }

    /// Converts `p` from `l`'s coordinate space (nil: the space the root layer sits in) to this layer's.
    open func convert(_ p: CGPoint, from l: CALayer?) -> CGPoint { convertPoint(p, from: l) }

    /// Converts `p` from this layer's coordinate space to `l`'s (nil: the root layer's superlayer space).
    open func convert(_ p: CGPoint, to l: CALayer?) -> CGPoint { convertPoint(p, to: l) }

    /// Converts a rect from `l`'s space to this layer's (the bounding box of the mapped corners).
    open func convert(_ r: CGRect, from l: CALayer?) -> CGRect { convertRect(r, from: l) }

    /// Converts a rect from this layer's space to `l`'s (the bounding box of the mapped corners).
    open func convert(_ r: CGRect, to l: CALayer?) -> CGRect { convertRect(r, to: l) }

    /// Converts a time from `l`'s local time (nil: absolute media time) to this layer's (seconds).
    open func convertTime(_ t: CFTimeInterval, from l: CALayer?) -> CFTimeInterval { convertTimeImpl(t, from: l) }

    /// Converts a time from this layer's local time to `l`'s (nil: absolute media time), in seconds.
    open func convertTime(_ t: CFTimeInterval, to l: CALayer?) -> CFTimeInterval { convertTimeImpl(t, to: l) }

    // MARK: Hit testing (implemented in CALayer+HitTest.swift)

    /// The farthest descendant (or self) under `p`, given in the **superlayer's** space; nil when none.
    /// Front-most first: later siblings and higher `zPosition` win; hidden layers are skipped and
    /// `masksToBounds` clips descendants.
    open func hitTest(_ p: CGPoint) -> CALayer? { hitTestImpl(p) }

    /// Whether `p` (in this layer's space) is inside `bounds` (half-open: max edges excluded).
    open func contains(_ p: CGPoint) -> Bool {
        let b = bounds.standardized
        return p.x >= b.minX && p.x < b.maxX && p.y >= b.minY && p.y < b.maxY
    }

    // MARK: Key-value coding (implemented in CALayer+KeyValueCoding.swift)

    /// The value of a property or custom key, boxed as its real Swift type (a CGFloat as CGFloat).
    open func value(forKey key: String) -> Any? { builtInValue(forKey: key) }

    /// Sets a property (converting numbers and values to the property's type) or stores a custom key.
    open func setValue(_ value: Any?, forKey key: String) { setBuiltInValue(value, forKey: key) }

    /// The value at a dotted key path, including Apple's sub-keys (`position.x`, `transform.rotation.z`…).
    open func value(forKeyPath keyPath: String) -> Any? { valueAtPath(keyPath) }

    /// Sets the value at a dotted key path, including Apple's sub-keys.
    open func setValue(_ value: Any?, forKeyPath keyPath: String) { setValueAtPath(value, keyPath) }

    // MARK: Layout (implemented in CALayer+Layout.swift)

    /// Marks the layer as needing `layoutSublayers()` before the next display.
    open func setNeedsLayout() { needsLayoutFlag = true }

    /// Whether the layer is marked as needing layout.
    open func needsLayout() -> Bool { needsLayoutFlag }

    /// Lays out now if needed: from the topmost ancestor that needs layout down through its subtree.
    open func layoutIfNeeded() { layoutIfNeededImpl() }

    /// Lays out sublayers: the delegate's `layoutSublayers(of:)` when implemented, else the layout manager's.
    open func layoutSublayers() { layoutSublayersImpl() }

    /// The preferred size in the superlayer's space: the layout manager's answer, else `bounds.size`.
    open func preferredFrameSize() -> CGSize { layoutManager?.preferredSize(of: self) ?? bounds.size }

    // MARK: Display (implemented in CALayer+Display.swift)

    /// Marks the whole layer as needing `display()`.
    open func setNeedsDisplay() { needsDisplayFlag = true }

    /// Marks part of the layer (layer coordinates) as needing display; the whole layer is redrawn.
    open func setNeedsDisplay(_ r: CGRect) { needsDisplayFlag = true }

    /// Whether the layer is marked as needing display.
    open func needsDisplay() -> Bool { needsDisplayFlag }

    /// Displays now if marked.
    open func displayIfNeeded() { if needsDisplayFlag { display() } }

    /// Updates `contents`: the delegate's `display(_:)` when implemented; otherwise a backing store of
    /// `bounds.size × contentsScale` pixels is drawn with `draw(in:)`.
    open func display() { displayImpl() }

    /// Draws the layer's contents into `ctx` (origin top-left, y down, points); calls the delegate's
    /// `draw(_:in:)`.
    open func draw(in ctx: CGContext) {
        delegateProbe.insert(.baseDrawRan)
        delegate?.draw(self, in: ctx)
    }

    // MARK: Rendering (implemented in CALayer+Render.swift)

    /// Draws the layer tree into `ctx` from model values (no animations): the receiver's own
    /// position and transform are ignored, its sublayers' honoured; 3D transforms are drawn too.
    open func render(in ctx: CGContext) { renderImpl(in: ctx) }

    // MARK: Actions

    /// The action for `event`: delegate → `actions` → `style["actions"]` → `defaultAction(forKey:)`;
    /// NSNull anywhere stops the search (and is returned).
    open func action(forKey event: String) -> (any CAAction)? { searchAction(forKey: event) }

    // MARK: Animations (implemented in CALayer+Animations.swift)

    /// Adds a copy of `anim` under `key` (replacing an animation with the same key). A zero or
    /// negative duration takes the transaction's; invalid keyframe timing rejects the animation.
    open func add(_ anim: CAAnimation, forKey key: String?) { addAnimation(anim, forKey: key) }

    /// The layer's copy of the animation under `key`.
    open func animation(forKey key: String) -> CAAnimation? {
        animationEntries.first { $0.key == key }?.animation
    }

    /// The keys of the layer's animations in the order added; nil when there are none.
    open func animationKeys() -> [String]? {
        let keys = animationEntries.compactMap(\.key)
        return keys.isEmpty ? nil : keys
    }

    /// Removes the animation under `key` (its delegate hears `finished: false`).
    open func removeAnimation(forKey key: String) { removeAnimations { $0.key == key } }

    /// Removes every animation.
    open func removeAllAnimations() { removeAnimations { _ in true } }

    // MARK: Model and presentation (implemented in CALayer+Presentation.swift)

    /// A copy holding the values on screen now (committed values with animations applied); nil until
    /// the layer has been committed in a hosted tree. Its sublayers, superlayer and mask are
    /// presentation layers too. Linux: nil for app-defined subclasses (Swift cannot construct an
    /// instance of a subclass through a non-required initialiser); their presentation values are
    /// reachable through the presentation tree of a framework-class ancestor.
    open func presentation() -> Self? { makePresentation() as? Self }

    /// The model layer: for a model layer, itself; for a presentation layer, the layer it presents.
    open func model() -> Self { (modelLayer as? Self) ?? self }

    // MARK: Class-level behaviour

    /// The default value of `key`: Apple's default for built-in properties, nil for other keys.
    open class func defaultValue(forKey key: String) -> Any? { CALayer.builtInDefaults[key] }

    /// Whether changing `key` makes the layer redraw; false for every key on a plain CALayer.
    open class func needsDisplay(forKey key: String) -> Bool { false }

    /// The class-wide action for `event`; nil for every key on a plain CALayer.
    open class func defaultAction(forKey event: String) -> (any CAAction)? { nil }

    /// Whether `key`'s value would be archived; true for every key.
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    /// Called after every property change; the hook that layout, display and (later) actions use.
    func didChange(_ key: String) {
        guard modelLayer == nil else { return }   // presentation copies are inert
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
        markSnapshotDirty()
        if let root = liveRoot {
            TransactionState.current.touch(root)
            runAction(forKey: key)
        }
    }

    // MARK: Engine hooks (overridden by framework subclasses in this module)

    /// The committed values of this layer for a snapshot.
    func makeState() -> LayerState { baseState() }

    /// Writes presentation values (committed + animated) into this presentation copy.
    func applyPresentationState(_ state: LayerState) { applyBaseState(state) }

    /// A new instance of the nearest framework class, copying this layer's properties.
    func presentationInstance() -> CALayer { CALayer(layer: self) }

    /// Counts a non-finite value that a setter refused.
    func rejectNonFinite() { CGDiagnostics.record(.nonFiniteGeometry) }
}
