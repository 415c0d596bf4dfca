import CoreGraphics
import Foundation
import LayerRender

// Custom properties of app-defined subclasses: Apple's pattern of a layer with its own property,
// `needsDisplay(forKey:)` true for it, an action that animates it from `presentation()`, and
// `draw(in:)` reading it.
//
// On Apple systems the setter of an `@NSManaged` property reports each change. A Swift stored
// property has no such hook, so the framework looks instead: at every transaction boundary
// (begin, commit, a transaction value set, flush) it compares the custom properties of the app
// layers this thread watches with what it last saw, and reports each change as a setter would
// have — display, snapshot, action — inside the transaction open then, with its duration and
// `disableActions`. While an animation of a key that needs display runs, each commit draws a
// presentation copy with the values of that moment (Apple draws its presentation layer) and the
// snapshot shows that drawing instead of the model's.
extension CALayer {
    /// Called by every initialiser: instances of app-defined classes are watched.
    func watchIfAppDefined() {
        guard let cls = AppLayerClass.of(type(of: self)) else { return }
        appState = AppLayerState(cls, seen: cls.properties.map { customPropertyValue($0) })
        TransactionState.current.watch(self)
    }

    /// The engine value of the custom property `f` now, when it can be compared with another.
    func customPropertyValue(_ f: StoredField) -> AnimatableValue? {
        guard let v = ValueBridge.animatable(ClassLayout.read(f, of: self)) else { return nil }
        // A value compared by identity must be an object: a boxed structure differs every time.
        if case .discrete(let d) = v, d.id == nil, !(type(of: d.value) is AnyClass) { return nil }
        return v
    }

    /// Reports every custom property changed since last looked at, as its setter would on Apple systems.
    func reportCustomPropertyChanges() {
        guard let state = appState, modelLayer == nil else { return }
        for (i, f) in state.cls.properties.enumerated() {
            let now = customPropertyValue(f)
            guard now != state.seen[i] else { continue }
            state.seen[i] = now
            didChange(f.name)
        }
    }

    // MARK: Key-value coding

    /// The custom property `key` of an app-defined class: `.some(value)` (possibly nil), or nil
    /// when the class declares no property of that name.
    func customProperty(forKey key: String) -> Any?? {
        guard let cls = appState?.cls ?? AppLayerClass.of(type(of: self)), let i = cls.property(named: key) else { return nil }
        return .some(ClassLayout.read(cls.properties[i], of: self))
    }

    /// Sets the custom property `key` through key-value coding (an `NSNumber` for a `CGFloat`, an
    /// `NSValue` for a `CGPoint`… converted as Apple's KVC does). A value the property's type cannot
    /// take is refused and counted. False when the class declares no property of that name.
    func setCustomProperty(_ value: Any?, forKey key: String) -> Bool {
        guard let cls = appState?.cls ?? AppLayerClass.of(type(of: self)), let i = cls.property(named: key) else { return false }
        let f = cls.properties[i]
        let fits = ClassLayout.write(value, to: f, of: self)
            || ClassLayout.write(Self.converted(value, like: ClassLayout.read(f, of: self)), to: f, of: self)
        guard fits else { CGDiagnostics.record(.invalidKeyValue); return true }
        appState?.seen[i] = customPropertyValue(f)
        didChange(key)
        return true
    }

    /// `value` in the Swift type of `template` where the engine knows both (numbers, structures, colours).
    private static func converted(_ value: Any?, like template: Any?) -> Any? {
        guard let v = ValueBridge.animatable(value) else { return value }
        switch v {
        case .none: return nil
        case .discrete: return value
        default: return ValueBridge.swiftValue(v, like: template)
        }
    }

    /// The committed values of the custom properties, for the snapshot (and the drawing shown
    /// for the current frame of an animation, in place of the model's contents).
    func addCustomProperties(to s: inout LayerState) {
        guard let state = appState else { return }
        for f in state.cls.properties {
            if let v = customPropertyValue(f), v != .none { s.custom[f.name] = v }
        }
        if let frame = state.animatedFrame { s.contents = frame.contents.map { .discrete(.init($0)) } ?? AnimatableValue.none }
    }

    // MARK: Presentation copies

    /// A presentation copy of an app-defined layer: an instance of its own class whose stored
    /// properties are copies of this layer's (no initialiser runs: Apple's `init(layer:)` copies
    /// them the same way), without tree, animations or host. Nil for framework classes.
    func appPresentationCopy() -> CALayer? {
        guard let cls = appState?.cls,
              let copy = cls.layout.clone(self, leavingNil: ["_superlayer", "host", "hostRootRef"]) else { return nil }
        copy.children = []
        copy._mask = nil
        copy.isMaskLayer = false
        copy.animationEntries = []
        copy.committed = nil
        copy.appState = nil
        copy.needsLayoutFlag = false
        copy.needsDisplayFlag = false
        copy.cyclePending = false
        return copy
    }

    /// Writes the presentation values of the custom properties into this presentation copy.
    func applyCustomProperties(_ s: LayerState) {
        guard let cls = AppLayerClass.of(type(of: self)) else { return }
        for f in cls.properties {
            guard let v = s.custom[f.name], let value = ValueBridge.swiftValue(v, like: ClassLayout.read(f, of: self)) else { continue }
            _ = ClassLayout.write(value, to: f, of: self)
        }
    }

    // MARK: Drawing in-between frames

    /// The keys of running animations whose change needs display (`needsDisplay(forKey:)`).
    func animatedKeysNeedingDisplay() -> Set<String> {
        var keys = Set<String>()
        var pending = animationEntries.map(\.animation)
        while let a = pending.popLast() {
            if let group = a as? CAAnimationGroup { pending.append(contentsOf: group.animations ?? []); continue }
            guard let path = (a as? CAPropertyAnimation)?.keyPath, let first = path.split(separator: ".").first else { continue }
            if type(of: self).needsDisplay(forKey: String(first)) { keys.insert(String(first)) }
        }
        return keys
    }

    /// Whether this frame's commit must draw this layer's presentation copy, or stop showing one.
    var needsAnimatedFrame: Bool {
        guard let state = appState, modelLayer == nil, liveRoot != nil else { return false }
        return state.animatedFrame != nil || !animatedKeysNeedingDisplay().isEmpty
    }

    /// Draws the presentation copy for media time `now` (seconds) when the animated values
    /// differ from the last drawing; drops the drawing once no such animation runs.
    func drawAnimatedFrame(at now: Double) {
        guard let state = appState, liveRoot != nil else { return }
        let keys = animatedKeysNeedingDisplay()
        guard !keys.isEmpty else {
            if state.animatedFrame != nil { state.animatedFrame = nil; markSnapshotDirty() }
            return
        }
        let own = LayerSnapshot(id: layerID, state: makeState(), sublayers: [], mask: nil, animations: animationModels())
        let shown = own.presentationState(atLocalTime: convertTime(now, from: nil))
        var values: [String: AnimatableValue] = [:]
        for k in keys { values[k] = shown.animatableValue(at: [k]) }
        if let frame = state.animatedFrame, frame.values == values { return }
        guard let copy = appPresentationCopy() else { return }
        copy.modelLayer = self
        copy.applyPresentationState(shown)
        copy.applyCustomProperties(shown)
        copy.displayImpl()
        state.animatedFrame = AppLayerState.AnimatedFrame(contents: copy.contents, values: values)
        markSnapshotDirty()
    }
}
