import CoreGraphics
import Foundation
import LayerRender

/// A rectangle of content in a tree: Core Animation's CALayer.
///
/// Geometry follows iOS: a layer's own coordinate space has its origin at the top-left of
/// `bounds` with y down (unless `isGeometryFlipped`); `position` is where the `anchorPoint`
/// (unit coordinates of `bounds`) sits in the superlayer's space; units are points.
///
/// Thread-safe as Apple documents Core Animation: every public member runs under the layer tree
/// lock (LayerTreeLock.swift), so layers may be changed from any thread, each change joining that
/// thread's transaction; a thread without a run loop commits its own (`CATransaction.commit()`
/// or `flush()`). Not declared `Sendable` (subclasses would have to restate it; Apple's is not
/// either): hand layers to other threads as Apple code does.
///
/// File layout: Swift cannot override members declared in extensions, so every member a
/// subclass may override (Apple's open API) is declared here; the work is done by internal
/// helpers in `CALayer+*.swift`, and the stored values in `LayerStorage`. Each stored property is
/// declared once (`CALayer.Properties`, a `LayerProperty`): the accessors here read and write
/// through that declaration, with one idiom for every setter (refuse what the declaration does
/// not accept, counted; store; report the change), and key-value coding reads the same table.
open class CALayer: NSObject, CAMediaTiming {
    // MARK: Stored model state (read through the public properties)

    /// Every model property's value (see LayerStorage.swift).
    var storage = LayerStorage()

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
    /// This layer or one below it (sublayers, mask) may be flagged for layout or display: the
    /// commit's layout and display walks skip subtrees without it (CALayer+Layout.swift).
    var cyclePending = false
    var delegateProbe: DelegateProbe = []
    /// Set while `display()` draws the backing store (under the layer lock): only then do
    /// `draw(in:)` and the delegate's default `draw(_:in:)` record into `delegateProbe`. A tiled
    /// layer's tiles are drawn on several threads at once, never through `display()`, and must
    /// not write the layer's fields.
    var probing = false
    /// For instances of app-defined subclasses: their custom properties' watch (CALayer+CustomProperties.swift).
    var appState: AppLayerState?

    /// Creates a layer with Apple's default property values.
    public override init() {
        super.init()
        applyClassDefaults()
        watchIfAppDefined()
    }

    /// Creates a shadow copy of `layer` (used for presentation layers): every property is
    /// copied; the tree (superlayer, sublayers, mask) is not. Subclasses override it to copy
    /// their own properties and must call super.
    public init(layer: Any) {
        super.init()
        if let other = layer as? CALayer { copyProperties(from: other) }
        watchIfAppDefined()
    }

    /// Apple's archiving initialiser; archives are not supported on Linux, so this creates a
    /// default layer (subclasses that call `super.init(coder:)` keep working).
    public required init?(coder: NSCoder) {
        super.init()
        applyClassDefaults()
        watchIfAppDefined()
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
    open var bounds: CGRect { get { self[Properties.bounds] } set { self[Properties.bounds] = newValue } }

    /// Where the anchor point sits, in the superlayer's coordinate space (points).
    open var position: CGPoint { get { self[Properties.position] } set { self[Properties.position] = newValue } }

    /// Position on the z axis (points); a higher value draws and hit-tests in front of siblings.
    open var zPosition: CGFloat { get { self[Properties.zPosition] } set { self[Properties.zPosition] = newValue } }

    /// The point of `bounds`, in unit coordinates, that `position` places and transforms pivot about.
    open var anchorPoint: CGPoint { get { self[Properties.anchorPoint] } set { self[Properties.anchorPoint] = newValue } }

    /// The anchor's z coordinate (points).
    open var anchorPointZ: CGFloat { get { self[Properties.anchorPointZ] } set { self[Properties.anchorPointZ] = newValue } }

    /// The transform applied about the anchor point, relative to the superlayer.
    open var transform: CATransform3D { get { self[Properties.transform] } set { self[Properties.transform] = newValue } }

    /// A transform applied to sublayers, about this layer's anchor point (perspective lives here).
    open var sublayerTransform: CATransform3D {
        get { self[Properties.sublayerTransform] } set { self[Properties.sublayerTransform] = newValue }
    }

    /// Whether this layer's geometry (and its sublayers') is flipped vertically relative to its superlayer.
    open var isGeometryFlipped: Bool {
        get { self[Properties.geometryFlipped] } set { self[Properties.geometryFlipped] = newValue }
    }

    // MARK: Contents

    /// What the layer shows: a CGImage (other values are kept but draw nothing).
    open var contents: Any? { get { self[Properties.contents] } set { self[Properties.contents] = newValue } }

    /// The part of `contents` to show, in unit coordinates of the image.
    open var contentsRect: CGRect { get { self[Properties.contentsRect] } set { self[Properties.contentsRect] = newValue } }

    /// The stretchable middle of `contents` (unit coordinates) for nine-slice scaling.
    open var contentsCenter: CGRect { get { self[Properties.contentsCenter] } set { self[Properties.contentsCenter] = newValue } }

    /// Pixels of `contents` per point (and of backing stores made by `display()`).
    open var contentsScale: CGFloat { get { self[Properties.contentsScale] } set { self[Properties.contentsScale] = newValue } }

    /// The pixel format of backing stores made by `display()`.
    open var contentsFormat: CALayerContentsFormat {
        get { self[Properties.contentsFormat] } set { self[Properties.contentsFormat] = newValue }
    }

    /// How contents are resampled when shrunk.
    open var minificationFilter: CALayerContentsFilter {
        get { self[Properties.minificationFilter] } set { self[Properties.minificationFilter] = newValue }
    }

    /// The level-of-detail bias of trilinear minification.
    open var minificationFilterBias: Float {
        get { self[Properties.minificationFilterBias] } set { self[Properties.minificationFilterBias] = newValue }
    }

    /// How contents are resampled when enlarged.
    open var magnificationFilter: CALayerContentsFilter {
        get { self[Properties.magnificationFilter] } set { self[Properties.magnificationFilter] = newValue }
    }

    /// A promise that the layer's backing store is fully opaque.
    open var isOpaque: Bool { get { self[Properties.opaque] } set { self[Properties.opaque] = newValue } }

    /// Whether a bounds change marks the layer as needing display.
    open var needsDisplayOnBoundsChange: Bool {
        get { self[Properties.needsDisplayOnBoundsChange] } set { self[Properties.needsDisplayOnBoundsChange] = newValue }
    }

    /// Accepted; drawing is synchronous here.
    open var drawsAsynchronously: Bool {
        get { self[Properties.drawsAsynchronously] } set { self[Properties.drawsAsynchronously] = newValue }
    }

    /// How `contents` is placed in `bounds`; an unknown value reads back as `center`.
    open var contentsGravity: CALayerContentsGravity {
        get { self[Properties.contentsGravity] } set { self[Properties.contentsGravity] = newValue }
    }

    // MARK: Style

    /// The layer's opacity in [0, 1] (values outside are clamped when drawn).
    open var opacity: Float { get { self[Properties.opacity] } set { self[Properties.opacity] = newValue } }

    /// Whether the layer (and its subtree) is not drawn and not hit-tested.
    open var isHidden: Bool { get { self[Properties.hidden] } set { self[Properties.hidden] = newValue } }

    /// Whether sublayers and contents are clipped to `bounds` (and `cornerRadius`).
    open var masksToBounds: Bool { get { self[Properties.masksToBounds] } set { self[Properties.masksToBounds] = newValue } }

    /// Whether the layer is drawn when facing away from the viewer.
    open var isDoubleSided: Bool { get { self[Properties.doubleSided] } set { self[Properties.doubleSided] = newValue } }

    /// The radius of rounded corners (points).
    open var cornerRadius: CGFloat { get { self[Properties.cornerRadius] } set { self[Properties.cornerRadius] = newValue } }

    /// Which corners `cornerRadius` rounds.
    open var maskedCorners: CACornerMask {
        get { self[Properties.maskedCorners] } set { self[Properties.maskedCorners] = newValue }
    }

    /// The shape of rounded corners.
    open var cornerCurve: CALayerCornerCurve {
        get { self[Properties.cornerCurve] } set { self[Properties.cornerCurve] = newValue }
    }

    /// The width of the border drawn inside `bounds` (points).
    open var borderWidth: CGFloat { get { self[Properties.borderWidth] } set { self[Properties.borderWidth] = newValue } }

    /// The border colour (opaque black by default).
    open var borderColor: CGColor? { get { self[Properties.borderColor] } set { self[Properties.borderColor] = newValue } }

    /// The colour filling `bounds` (and corners) behind contents.
    open var backgroundColor: CGColor? {
        get { self[Properties.backgroundColor] } set { self[Properties.backgroundColor] = newValue }
    }

    /// The shadow's opacity in [0, 1]; 0 (the default) draws no shadow.
    open var shadowOpacity: Float { get { self[Properties.shadowOpacity] } set { self[Properties.shadowOpacity] = newValue } }

    /// The shadow's blur radius (points).
    open var shadowRadius: CGFloat { get { self[Properties.shadowRadius] } set { self[Properties.shadowRadius] = newValue } }

    /// The shadow's offset (points; (0, −3) by default).
    open var shadowOffset: CGSize { get { self[Properties.shadowOffset] } set { self[Properties.shadowOffset] = newValue } }

    /// The shadow's colour (opaque black by default).
    open var shadowColor: CGColor? { get { self[Properties.shadowColor] } set { self[Properties.shadowColor] = newValue } }

    /// The shadow's shape in layer coordinates; nil uses the layer's alpha.
    open var shadowPath: CGPath? { get { self[Properties.shadowPath] } set { self[Properties.shadowPath] = newValue } }

    /// Whether a translucent subtree is composited as one image.
    open var allowsGroupOpacity: Bool {
        get { self[Properties.allowsGroupOpacity] } set { self[Properties.allowsGroupOpacity] = newValue }
    }

    /// Whether edges are anti-aliased when the layer is transformed.
    open var allowsEdgeAntialiasing: Bool {
        get { self[Properties.allowsEdgeAntialiasing] } set { self[Properties.allowsEdgeAntialiasing] = newValue }
    }

    /// Which edges are anti-aliased.
    open var edgeAntialiasingMask: CAEdgeAntialiasingMask {
        get { self[Properties.edgeAntialiasingMask] } set { self[Properties.edgeAntialiasingMask] = newValue }
    }

    /// Whether the subtree is drawn once into a cached bitmap and reused.
    open var shouldRasterize: Bool {
        get { self[Properties.shouldRasterize] } set { self[Properties.shouldRasterize] = newValue }
    }

    /// Pixels per point of the rasterized bitmap.
    open var rasterizationScale: CGFloat {
        get { self[Properties.rasterizationScale] } set { self[Properties.rasterizationScale] = newValue }
    }

    /// Filters applied to the layer and its subtree (stored; filter objects are not available on Linux).
    open var filters: [Any]? { get { self[Properties.filters] } set { self[Properties.filters] = newValue } }

    /// The filter compositing the layer with what is behind it (stored).
    open var compositingFilter: Any? {
        get { self[Properties.compositingFilter] } set { self[Properties.compositingFilter] = newValue }
    }

    /// Filters applied to what is behind the layer (stored).
    open var backgroundFilters: [Any]? {
        get { self[Properties.backgroundFilters] } set { self[Properties.backgroundFilters] = newValue }
    }

    /// Default values for keys the layer does not set, including `actions`.
    open var style: [AnyHashable: Any]? { get { self[Properties.style] } set { self[Properties.style] = newValue } }

    /// A name for debugging and lookup.
    open var name: String? { get { self[Properties.name] } set { self[Properties.name] = newValue } }

    /// Actions by key, consulted after the delegate.
    open var actions: [String: any CAAction]? { get { self[Properties.actions] } set { self[Properties.actions] = newValue } }

    // MARK: Timing

    /// When the layer's timeline starts, in its superlayer's time (seconds).
    open var beginTime: CFTimeInterval { get { self[Properties.beginTime] } set { self[Properties.beginTime] = newValue } }

    /// The length of the layer's timeline (seconds; ∞ by default).
    open var duration: CFTimeInterval { get { self[Properties.duration] } set { self[Properties.duration] = newValue } }

    /// How fast the layer's time runs relative to its superlayer's (1 = same, 0 = paused).
    open var speed: Float { get { self[Properties.speed] } set { self[Properties.speed] = newValue } }

    /// An offset added to the layer's local time (seconds).
    open var timeOffset: CFTimeInterval { get { self[Properties.timeOffset] } set { self[Properties.timeOffset] = newValue } }

    /// How many times the timeline repeats.
    open var repeatCount: Float { get { self[Properties.repeatCount] } set { self[Properties.repeatCount] = newValue } }

    /// How long the timeline repeats (seconds).
    open var repeatDuration: CFTimeInterval {
        get { self[Properties.repeatDuration] } set { self[Properties.repeatDuration] = newValue }
    }

    /// Whether each repetition plays forward then backward.
    open var autoreverses: Bool { get { self[Properties.autoreverses] } set { self[Properties.autoreverses] = newValue } }

    /// What the timeline shows outside its active duration.
    open var fillMode: CAMediaTimingFillMode { get { self[Properties.fillMode] } set { self[Properties.fillMode] = newValue } }

    // MARK: Tree (implemented in CALayer+Hierarchy.swift)

    /// The layer this one is a sublayer (or the mask) of.
    open var superlayer: CALayer? { _superlayer }

    /// The sublayers, back to front; nil when there are none (as Apple). Assigning replaces them all.
    open var sublayers: [CALayer]? {
        get { locked { children.isEmpty ? nil : children } }
        set { locked { replaceAllSublayers(with: newValue ?? []) } }
    }

    /// Appends `layer` as the frontmost sublayer, removing it from its old superlayer first.
    open func addSublayer(_ layer: CALayer) { locked { insertChild(layer, at: children.count) } }

    /// Inserts `layer` at `idx` among the sublayers (clamped to the end).
    open func insertSublayer(_ layer: CALayer, at idx: UInt32) { locked { insertChild(layer, at: Int(idx)) } }

    /// Inserts `layer` just below `sibling` (at the back when `sibling` is nil or not a sublayer).
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        locked { insertChild(layer, at: sibling.flatMap { indexOfChild($0) } ?? 0) }
    }

    /// Inserts `layer` just above `sibling` (at the front when `sibling` is nil or not a sublayer).
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        locked { insertChild(layer, at: sibling.flatMap { indexOfChild($0).map { $0 + 1 } } ?? children.count) }
    }

    /// Replaces the sublayer `oldLayer` by `newLayer` at the same index; ignored when `oldLayer` is not a sublayer.
    open func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) { locked { replaceChild(oldLayer, with: newLayer) } }

    /// Detaches the layer from its superlayer (or from the layer it masks).
    open func removeFromSuperlayer() { locked { detachFromParent() } }

    /// A layer whose alpha masks this one; its superlayer becomes this layer but it is not a sublayer.
    open var mask: CALayer? {
        get { locked { _mask } }
        set { locked { setMaskLayer(newValue) } }
    }

    // MARK: Geometry (implemented in CALayer+Geometry.swift)

    /// The layer's rectangle in its superlayer's space: derived from bounds, position, anchor point
    /// and transform (the bounding box under a transform). Setting it keeps `bounds.origin`.
    open var frame: CGRect {
        get { locked { computedFrame } }
        set { locked { applyFrame(newValue) } }
    }

    /// The transform as an affine transform (its affine part).
    open func affineTransform() -> CGAffineTransform { locked { CATransform3DGetAffineTransform(transform) } }

    /// Sets the transform from an affine transform.
    open func setAffineTransform(_ m: CGAffineTransform) { locked { transform = CATransform3DMakeAffineTransform(m) } }

    /// Whether contents are flipped when drawn: true when an odd number of layers from here to the
    /// root are `isGeometryFlipped`.
    open func contentsAreFlipped() -> Bool { locked { flipParity } }

    /// Converts `p` from `l`'s coordinate space (nil: the space the root layer sits in) to this layer's.
    open func convert(_ p: CGPoint, from l: CALayer?) -> CGPoint { locked { convertPoint(p, from: l) } }

    /// Converts `p` from this layer's coordinate space to `l`'s (nil: the root layer's superlayer space).
    open func convert(_ p: CGPoint, to l: CALayer?) -> CGPoint { locked { convertPoint(p, to: l) } }

    /// Converts a rect from `l`'s space to this layer's (the bounding box of the mapped corners).
    open func convert(_ r: CGRect, from l: CALayer?) -> CGRect { locked { convertRect(r, from: l) } }

    /// Converts a rect from this layer's space to `l`'s (the bounding box of the mapped corners).
    open func convert(_ r: CGRect, to l: CALayer?) -> CGRect { locked { convertRect(r, to: l) } }

    /// Converts a time from `l`'s local time (nil: absolute media time) to this layer's (seconds).
    open func convertTime(_ t: CFTimeInterval, from l: CALayer?) -> CFTimeInterval { locked { convertTimeImpl(t, from: l) } }

    /// Converts a time from this layer's local time to `l`'s (nil: absolute media time), in seconds.
    open func convertTime(_ t: CFTimeInterval, to l: CALayer?) -> CFTimeInterval { locked { convertTimeImpl(t, to: l) } }

    // MARK: Hit testing (implemented in CALayer+HitTest.swift)

    /// The farthest descendant (or self) under `p`, given in the **superlayer's** space; nil when none.
    /// Front-most first: later siblings and higher `zPosition` win; hidden layers are skipped and
    /// `masksToBounds` clips descendants.
    open func hitTest(_ p: CGPoint) -> CALayer? { locked { hitTestImpl(p) } }

    /// Whether `p` (in this layer's space) is inside `bounds` (half-open: max edges excluded).
    open func contains(_ p: CGPoint) -> Bool {
        let b = bounds.standardized
        return p.x >= b.minX && p.x < b.maxX && p.y >= b.minY && p.y < b.maxY
    }

    // MARK: Key-value coding (implemented in CALayer+KeyValueCoding.swift)

    /// The value of a property or custom key, boxed as its real Swift type (a CGFloat as CGFloat).
    open func value(forKey key: String) -> Any? { locked { builtInValue(forKey: key) } }

    /// Sets a property (converting numbers and values to the property's type) or stores a custom key.
    open func setValue(_ value: Any?, forKey key: String) { locked { setBuiltInValue(value, forKey: key) } }

    /// The value at a dotted key path, including Apple's sub-keys (`position.x`, `transform.rotation.z`…).
    open func value(forKeyPath keyPath: String) -> Any? { locked { valueAtPath(keyPath) } }

    /// Sets the value at a dotted key path, including Apple's sub-keys.
    open func setValue(_ value: Any?, forKeyPath keyPath: String) { locked { setValueAtPath(value, keyPath) } }

    // MARK: Layout (implemented in CALayer+Layout.swift)

    /// Marks the layer as needing `layoutSublayers()` before the next display.
    open func setNeedsLayout() { locked { needsLayoutFlag = true; cycleDidChange() } }

    /// Whether the layer is marked as needing layout.
    open func needsLayout() -> Bool { locked { needsLayoutFlag } }

    /// Lays out now if needed: from the topmost ancestor that needs layout down through its subtree.
    open func layoutIfNeeded() { locked { layoutIfNeededImpl() } }

    /// Lays out sublayers: the delegate's `layoutSublayers(of:)` when implemented, else the layout manager's.
    open func layoutSublayers() { layoutSublayersImpl() }

    /// The preferred size in the superlayer's space: the layout manager's answer, else `bounds.size`.
    open func preferredFrameSize() -> CGSize { layoutManager?.preferredSize(of: self) ?? bounds.size }

    // MARK: Display (implemented in CALayer+Display.swift)

    /// Marks the whole layer as needing `display()`.
    open func setNeedsDisplay() { locked { needsDisplayFlag = true; cycleDidChange() } }

    /// Marks part of the layer (layer coordinates) as needing display; the whole layer is redrawn.
    open func setNeedsDisplay(_ r: CGRect) { locked { needsDisplayFlag = true; cycleDidChange() } }

    /// Whether the layer is marked as needing display.
    open func needsDisplay() -> Bool { locked { needsDisplayFlag } }

    /// Displays now if marked.
    open func displayIfNeeded() { locked { if needsDisplayFlag { display() } } }

    /// Updates `contents`: the delegate's `display(_:)` when implemented; otherwise a backing store of
    /// `bounds.size × contentsScale` pixels is drawn with `draw(in:)`.
    open func display() { displayImpl() }

    /// Draws the layer's contents into `ctx` (origin top-left, y down, points); calls the delegate's
    /// `draw(_:in:)`.
    open func draw(in ctx: CGContext) {
        if probing { delegateProbe.insert(.baseDrawRan) }
        delegate?.draw(self, in: ctx)
    }

    // MARK: Rendering (implemented in CALayer+Render.swift)

    /// Draws the layer tree into `ctx` from model values (no animations): the receiver's own
    /// position and transform are ignored, its sublayers' honoured; 3D transforms are drawn too.
    open func render(in ctx: CGContext) { locked { renderImpl(in: ctx) } }

    // MARK: Actions

    /// The action for `event`: delegate → `actions` → `style["actions"]` → `defaultAction(forKey:)`;
    /// NSNull anywhere stops the search (and is returned).
    open func action(forKey event: String) -> (any CAAction)? {
        // Apple: "If any of the above steps returns an instance of NSNull, it is converted to nil."
        let found = searchAction(forKey: event)
        return found is NSNull ? nil : found
    }

    // MARK: Animations (implemented in CALayer+Animations.swift)

    /// Adds a copy of `anim` under `key` (replacing an animation with the same key). A zero or
    /// negative duration takes the transaction's; invalid keyframe timing rejects the animation.
    open func add(_ anim: CAAnimation, forKey key: String?) { locked { addAnimation(anim, forKey: key) } }

    /// The layer's copy of the animation under `key`.
    open func animation(forKey key: String) -> CAAnimation? {
        locked { animationEntries.first { $0.key == key }?.animation }
    }

    /// The keys of the layer's animations in the order added; nil when there are none.
    open func animationKeys() -> [String]? {
        let keys = locked { animationEntries.compactMap(\.key) }
        return keys.isEmpty ? nil : keys
    }

    /// Removes the animation under `key` (its delegate hears `finished: false`).
    open func removeAnimation(forKey key: String) { locked { removeAnimations { $0.key == key } } }

    /// Removes every animation.
    open func removeAllAnimations() { locked { removeAnimations { _ in true } } }

    // MARK: Model and presentation (implemented in CALayer+Presentation.swift)

    /// A copy holding the values on screen now (committed values with animations applied); nil until
    /// the layer has been committed in a hosted tree. Its sublayers, superlayer and mask are
    /// presentation layers too. The copy of an app-defined subclass is an instance of that
    /// subclass whose stored properties are copied from the model (as `init(layer:)` copies them on
    /// Apple systems; no initialiser runs) and whose custom properties hold their animated values.
    open func presentation() -> Self? { locked { makePresentation() as? Self } }

    /// The model layer: for a model layer, itself; for a presentation layer, the layer it presents.
    open func model() -> Self { locked { (modelLayer as? Self) ?? self } }

    // MARK: Class-level behaviour

    /// The default value of `key`: Apple's default for built-in properties, nil for other keys.
    open class func defaultValue(forKey key: String) -> Any? { frameworkDefaults[key] }

    /// Whether changing `key` makes the layer redraw; false for every key on a plain CALayer.
    open class func needsDisplay(forKey key: String) -> Bool { false }

    /// The class-wide action for `event`; nil for every key on a plain CALayer.
    open class func defaultAction(forKey event: String) -> (any CAAction)? { nil }

    /// Whether `key`'s value would be archived; true for every key.
    open func shouldArchiveValue(forKey key: String) -> Bool { locked { true } }

    // MARK: Engine hooks (overridden by framework subclasses in this module)

    /// How key-value coding reaches this framework class's properties.
    class var keyTable: [String: LayerKey] { builtInKeys }

    /// Apple's defaults for this framework class's properties.
    class var frameworkDefaults: [String: Any] { builtInDefaults }

    /// Whether changing `key` on a live layer animates implicitly (from the key's declaration).
    class func isImplicitlyAnimatable(_ key: String) -> Bool { keyTable[key]?.animatable ?? false }

    /// The committed values of this layer for a snapshot.
    func makeState() -> LayerState { baseState() }

    /// Writes presentation values (committed + animated) into this presentation copy.
    func applyPresentationState(_ state: LayerState) { applyBaseState(state) }

    /// A new instance of the nearest framework class, copying this layer's properties.
    func presentationInstance() -> CALayer { CALayer(layer: self) }
}
