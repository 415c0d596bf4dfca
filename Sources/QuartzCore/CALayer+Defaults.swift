import CoreGraphics
import Foundation

// Default values, shadow copies and the action search.
extension CALayer {
    /// Apple's default for every built-in property that has one (documented or measured).
    nonisolated(unsafe) static let builtInDefaults: [String: Any] = [
        "bounds": CGRect.zero, "position": CGPoint.zero, "zPosition": CGFloat(0),
        "anchorPoint": CGPoint(x: 0.5, y: 0.5), "anchorPointZ": CGFloat(0),
        "transform": CATransform3DIdentity, "sublayerTransform": CATransform3DIdentity,
        "geometryFlipped": false, "contentsRect": CGRect(x: 0, y: 0, width: 1, height: 1),
        "contentsCenter": CGRect(x: 0, y: 0, width: 1, height: 1), "contentsGravity": CALayerContentsGravity.resize,
        "contentsScale": CGFloat(1), "contentsFormat": CALayerContentsFormat.RGBA8Uint,
        "minificationFilter": CALayerContentsFilter.linear, "minificationFilterBias": Float(0),
        "magnificationFilter": CALayerContentsFilter.linear, "opaque": false,
        "opacity": Float(1), "hidden": false, "masksToBounds": false, "doubleSided": true,
        "cornerRadius": CGFloat(0), "maskedCorners": CACornerMask(rawValue: 15), "cornerCurve": CALayerCornerCurve.circular,
        "borderWidth": CGFloat(0), "borderColor": CGColor.black, "shadowOpacity": Float(0),
        "shadowRadius": CGFloat(3), "shadowOffset": CGSize(width: 0, height: -3), "shadowColor": CGColor.black,
        "allowsGroupOpacity": true, "allowsEdgeAntialiasing": false,
        "edgeAntialiasingMask": CAEdgeAntialiasingMask(rawValue: 15), "shouldRasterize": false,
        "rasterizationScale": CGFloat(1), "needsDisplayOnBoundsChange": false, "drawsAsynchronously": false,
        "beginTime": CFTimeInterval(0), "duration": CFTimeInterval.infinity, "speed": Float(1),
        "timeOffset": CFTimeInterval(0), "repeatCount": Float(0), "repeatDuration": CFTimeInterval(0),
        "autoreverses": false, "fillMode": CAMediaTimingFillMode.removed,
    ]

    private static let overridesLock = NSLock()
    nonisolated(unsafe) private static var overridesByClass: [ObjectIdentifier: [(String, Any?)]] = [:]

    /// Applies the defaults a subclass's `defaultValue(forKey:)` changes. Worked out once per class.
    func applyClassDefaults() {
        let cls = type(of: self)
        if cls == CALayer.self { return }
        let id = ObjectIdentifier(cls)
        CALayer.overridesLock.lock()
        var overrides = CALayer.overridesByClass[id]
        CALayer.overridesLock.unlock()
        if overrides == nil {
            let found = CALayer.builtInDefaults.compactMap { key, base -> (String, Any?)? in
                let mine = cls.defaultValue(forKey: key)
                return valuesEqual(mine, base) ? nil : (key, mine)
            }
            overrides = found
            CALayer.overridesLock.lock()
            CALayer.overridesByClass[id] = found
            CALayer.overridesLock.unlock()
        }
        for (key, value) in overrides! { _ = CALayer.builtInKeys[key]?.set(self, value) }
        needsLayoutFlag = false
        needsDisplayFlag = false
    }

    /// Copies every model property (not the tree) from `other`.
    func copyProperties(from o: CALayer) {
        _bounds = o._bounds; _position = o._position; _zPosition = o._zPosition
        _anchorPoint = o._anchorPoint; _anchorPointZ = o._anchorPointZ
        _transform = o._transform; _sublayerTransform = o._sublayerTransform
        transformIsIdentity = o.transformIsIdentity; sublayerTransformIsIdentity = o.sublayerTransformIsIdentity
        _isGeometryFlipped = o._isGeometryFlipped
        _contents = o._contents; _contentsRect = o._contentsRect; _contentsCenter = o._contentsCenter
        _contentsGravity = o._contentsGravity; _contentsScale = o._contentsScale; _contentsFormat = o._contentsFormat
        _minificationFilter = o._minificationFilter; _minificationFilterBias = o._minificationFilterBias
        _magnificationFilter = o._magnificationFilter; _isOpaque = o._isOpaque
        _opacity = o._opacity; _isHidden = o._isHidden; _masksToBounds = o._masksToBounds
        _isDoubleSided = o._isDoubleSided; _cornerRadius = o._cornerRadius; _maskedCorners = o._maskedCorners
        _cornerCurve = o._cornerCurve; _borderWidth = o._borderWidth; _borderColor = o._borderColor
        _backgroundColor = o._backgroundColor; _shadowOpacity = o._shadowOpacity; _shadowRadius = o._shadowRadius
        _shadowOffset = o._shadowOffset; _shadowColor = o._shadowColor; _shadowPath = o._shadowPath
        _allowsGroupOpacity = o._allowsGroupOpacity; _allowsEdgeAntialiasing = o._allowsEdgeAntialiasing
        _edgeAntialiasingMask = o._edgeAntialiasingMask; _shouldRasterize = o._shouldRasterize
        _rasterizationScale = o._rasterizationScale; _filters = o._filters; _compositingFilter = o._compositingFilter
        _backgroundFilters = o._backgroundFilters; _style = o._style; _name = o._name; _actions = o._actions
        _needsDisplayOnBoundsChange = o._needsDisplayOnBoundsChange; _drawsAsynchronously = o._drawsAsynchronously
        _beginTime = o._beginTime; _duration = o._duration; _speed = o._speed; _timeOffset = o._timeOffset
        _repeatCount = o._repeatCount; _repeatDuration = o._repeatDuration; _autoreverses = o._autoreverses
        _fillMode = o._fillMode
        customValues = o.customValues
        delegate = o.delegate
        layoutManager = o.layoutManager
    }

    /// Apple's search: delegate → `actions` → `style["actions"]` → the class default → the built-in
    /// implicit animation for animatable keys.
    /// NSNull anywhere ends the search and is returned.
    func searchAction(forKey event: String) -> (any CAAction)? {
        if let d = delegate, let a = d.action(for: self, forKey: event) { return a }
        if let a = _actions?[event] { return a }
        if let styleActions = _style?["actions"] as? [String: any CAAction], let a = styleActions[event] { return a }
        if let a = type(of: self).defaultAction(forKey: event) { return a }
        return builtInAction(forKey: event)
    }
}
