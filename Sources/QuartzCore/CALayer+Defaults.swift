import CoreGraphics
import Foundation

// Default values, shadow copies and the action search.
extension CALayer {
    /// Apple's default for every built-in property that has one (documented or measured).
    nonisolated(unsafe) static let builtInDefaults: [String: Any] = [   // immutable after init; `Any` values keep it from being Sendable
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
    nonisolated(unsafe) private static var overridesByClass: [ObjectIdentifier: [(String, Any?)]] = [:]   // under overridesLock only

    /// Applies the defaults a subclass's `defaultValue(forKey:)` changes. Worked out once per class.
    func applyClassDefaults() {
        let cls = type(of: self)
        if cls == CALayer.self { return }
        let id = ObjectIdentifier(cls)
        CALayer.overridesLock.lock()
        var overrides = CALayer.overridesByClass[id]
        CALayer.overridesLock.unlock()
        if overrides == nil {
            let found = cls.frameworkDefaults.compactMap { key, frameworkValue -> (String, Any?)? in
                // Compare with what a new layer's storage already holds: CALayer's values for its own
                // keys (a framework subclass may change those too), the subclass's for its keys.
                let base = CALayer.builtInDefaults[key] ?? frameworkValue
                let mine = cls.defaultValue(forKey: key)
                return valuesEqual(mine, base) ? nil : (key, mine)
            }
            overrides = found
            CALayer.overridesLock.lock()
            CALayer.overridesByClass[id] = found
            CALayer.overridesLock.unlock()
        }
        let keys = cls.keyTable
        for (key, value) in overrides! { _ = keys[key]?.set(self, value) }
        needsLayoutFlag = false
        needsDisplayFlag = false
        cyclePending = false
    }

    /// Copies every model property (not the tree) from `other`.
    func copyProperties(from o: CALayer) {
        storage = o.storage
        customValues = o.customValues
        delegate = o.delegate
        layoutManager = o.layoutManager
    }

    /// Apple's search: delegate → `actions` → `style["actions"]` → the class default → the built-in
    /// implicit animation for animatable keys.
    /// NSNull anywhere ends the search and is returned.
    func searchAction(forKey event: String) -> (any CAAction)? {
        if let d = delegate, let a = d.action(for: self, forKey: event) { return a }
        if let a = storage.actions?[event] { return a }
        if let styleActions = storage.style?["actions"] as? [String: any CAAction], let a = styleActions[event] { return a }
        if let a = type(of: self).defaultAction(forKey: event) { return a }
        return builtInAction(forKey: event)
    }
}
