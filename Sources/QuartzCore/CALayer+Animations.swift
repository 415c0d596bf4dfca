import CoreGraphics
import Foundation
import LayerRender

// Adding and removing animations, and the actions that add them implicitly.
extension CALayer {
    func addAnimation(_ anim: CAAnimation, forKey key: String?) {
        guard modelLayer == nil else { return }
        let copy = anim.copy() as! CAAnimation
        if !(copy.duration > 0) { copy.duration = CATransaction.animationDuration() }
        if copy is CAKeyframeAnimation, copy.makeModel() == nil {
            CGDiagnostics.record(.invalidParameter)   // keyTimes of the wrong count, order or range
            return
        }
        // No from, to or by: from what the render tree shows now (the change being committed
        // is not in it yet) to the model value.
        if let basic = copy as? CABasicAnimation, basic.fromValue == nil, basic.toValue == nil, basic.byValue == nil,
           let path = basic.keyPath, let shown = renderTreeValue(forKeyPath: path) {
            basic.renderTreeFrom = shown
        }
        if let key { removeAnimations { $0.key == key } }
        let entry = AnimationEntry(key: key, animation: copy)
        if copy is CATransition { entry.transitionFrom = committed }
        animationEntries.append(entry)
        markSnapshotDirty()
        let state = TransactionState.current
        state.animationAdded(copy, to: self)
        if let root = liveRoot { state.touch(root) }
    }

    func removeAnimations(where predicate: (AnimationEntry) -> Bool) {
        let removed = animationEntries.filter(predicate)
        guard !removed.isEmpty else { return }
        animationEntries.removeAll(where: predicate)
        markSnapshotDirty()
        if let root = liveRoot { TransactionState.current.touch(root) }
        for entry in removed { TransactionState.current.animationRemoved(entry.animation) }
    }

    /// Drops a finished animation (isRemovedOnCompletion) without a "not finished" callback.
    func removeAnimationRecord(_ animation: CAAnimation) {
        guard animationEntries.contains(where: { $0.animation === animation }) else { return }
        animationEntries.removeAll { $0.animation === animation }
        markSnapshotDirty()
        if let root = liveRoot { TransactionState.current.touch(root) }
    }

    /// Forgets frozen models so the next snapshot refreezes them (after begin times are resolved).
    func invalidateAnimationModels() {
        for entry in animationEntries { entry.model = nil }
        markSnapshotDirty()
    }

    /// The frozen models of the layer's animations, in the order added.
    func animationModels() -> [(key: String, model: AnimationModel)] {
        animationEntries.compactMap { entry in
            if entry.model == nil {
                entry.model = entry.animation.makeModel()
                if let m = entry.model, case .transition(var t) = m.kind {
                    t.from = entry.transitionFrom
                    entry.model = AnimationModel(keyPath: "", timing: m.timing, timingFunction: m.timingFunction,
                                                 isAdditive: false, isCumulative: false, valueFunction: nil, kind: .transition(t))
                }
            }
            return entry.model.map { (entry.key ?? "", $0) }
        }
    }

    // MARK: Actions

    /// The action found after `defaultAction(forKey:)`: Apple's built-in implicit animation —
    /// a basic animation for animatable keys, a fade for `contents`.
    func builtInAction(forKey event: String) -> (any CAAction)? {
        if event == "contents" {
            let fade = CATransition()
            fade.isImplicitDefault = true
            return fade
        }
        guard type(of: self).isImplicitlyAnimatable(event) else { return nil }
        let basic = CABasicAnimation(keyPath: event)
        basic.isImplicitDefault = true
        return basic
    }

    /// Runs the action for a property change of a live layer, unless actions are disabled.
    func runAction(forKey key: String) {
        guard !CATransaction.disableActions(), let action = action(forKey: key), !(action is NSNull) else { return }
        if let anim = action as? CAAnimation, anim.isImplicitDefault {
            // Built-in actions start from what is on screen; a layer not yet on screen does not animate.
            guard committed != nil else { return }
            if let basic = anim as? CABasicAnimation {
                guard let from = presentationValue(forKeyPath: key) else { return }
                basic.fromValue = from
            }
            anim.duration = CATransaction.animationDuration()
            anim.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
            add(anim, forKey: key == "contents" ? kCATransition : key)
            return
        }
        action.run(forKey: key, object: self, arguments: nil)
    }

    /// Runs `onOrderIn`/`onOrderOut` for a layer entering or leaving a live tree.
    func runOrderAction(_ key: String) {
        guard modelLayer == nil, !CATransaction.disableActions(), let action = action(forKey: key),
              !(action is NSNull) else { return }
        action.run(forKey: key, object: self, arguments: nil)
    }
}

extension CAAnimation {
    private static let implicitKey = "__CAImplicitDefault"
    /// Marks the animations that Core Animation itself supplies as implicit actions.
    var isImplicitDefault: Bool {
        get { customValues[CAAnimation.implicitKey] as? Bool ?? false }
        set { customValues[CAAnimation.implicitKey] = newValue }
    }
}
