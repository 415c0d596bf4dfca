import CoreGraphics
import Foundation
import LayerRender

/// Groups layer-tree changes into atomic updates and sets how implicit animations run.
///
/// Transactions are per thread and nest: `begin()` starts one that inherits the enclosing
/// one's values; only the outermost `commit()` publishes. Changing a hosted (live) layer with no
/// transaction open starts an implicit one, committed by `flush()` or by the host's next tick
/// (the end of the run-loop turn). Commit runs layout and display for dirty layers, resolves the
/// begin times of animations added, and publishes an immutable snapshot to the host.
///
/// Completion blocks run once, on the thread that drives the transaction system (the main
/// thread under the X11 host), at the first flush or frame after every animation added in the
/// transaction has finished — or at the next one when there were none. An unbalanced `commit()`
/// is ignored (counted as `.invalidDrawingState`).
open class CATransaction: NSObject {
    /// Starts a transaction nested in the current one.
    open class func begin() {
        LayerTreeLock.run {
            let state = TransactionState.current
            state.reportCustomPropertyChanges()   // changes made before belong to the enclosing transaction
            state.begin(implicit: false)
        }
    }

    /// Ends the current transaction; the outermost commit publishes the changes.
    open class func commit() { LayerTreeLock.run { TransactionState.current.commit() } }

    /// Commits an open implicit transaction now and delivers due callbacks (headless code's run-loop turn).
    open class func flush() { LayerTreeLock.run { TransactionState.current.flush(at: MediaClock.now()) } }

    /// The duration of implicit animations (0.25 s unless set).
    open class func animationDuration() -> CFTimeInterval {
        Coerce.double(value(forKey: kCATransactionAnimationDuration)) ?? 0.25
    }
    /// Sets the duration of implicit animations; NaN is ignored (counted).
    open class func setAnimationDuration(_ dur: CFTimeInterval) {
        guard !dur.isNaN else { CGDiagnostics.record(.nonFiniteGeometry); return }
        setValue(dur, forKey: kCATransactionAnimationDuration)
    }

    /// The timing function of implicit animations (nil unless set: the default curve is used).
    open class func animationTimingFunction() -> CAMediaTimingFunction? {
        value(forKey: kCATransactionAnimationTimingFunction) as? CAMediaTimingFunction
    }
    /// Sets the timing function of implicit animations.
    open class func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        setValue(function, forKey: kCATransactionAnimationTimingFunction)
    }

    /// Whether property changes skip their actions (false unless set).
    open class func disableActions() -> Bool { Coerce.bool(value(forKey: kCATransactionDisableActions)) ?? false }
    /// Turns actions off (or on) for the current transaction.
    open class func setDisableActions(_ flag: Bool) { setValue(flag, forKey: kCATransactionDisableActions) }

    /// The most recently set completion block of the current transaction.
    open class func completionBlock() -> (() -> Void)? { TransactionState.current.top?.completions.last }
    /// Adds a completion block to the current transaction (a second call adds another).
    open class func setCompletionBlock(_ block: (() -> Void)?) {
        let state = TransactionState.current
        state.ensureOpen()
        if let block { state.stack[state.stack.count - 1].completions.append(block) }
    }

    /// A value of the current transaction (including arbitrary keys). The standard keys answer
    /// with their current values even where none was set (Apple's measured behaviour):
    /// `animationDuration` 0.25, `disableActions` false, `animationTimingFunction` and
    /// `completionBlock` nil until set.
    open class func value(forKey key: String) -> Any? {
        let top = TransactionState.current.top
        if key == kCATransactionCompletionBlock { return top?.completions.last }
        if let v = top?.values[key] { return v }
        switch key {
        case kCATransactionAnimationDuration: return CFTimeInterval(0.25)
        case kCATransactionDisableActions: return false
        default: return nil
        }
    }

    /// Sets a value in the current transaction, opening an implicit one if needed
    /// (`kCATransactionCompletionBlock` adds a completion block, as `setCompletionBlock` does).
    open class func setValue(_ anObject: Any?, forKey key: String) {
        if key == kCATransactionCompletionBlock { setCompletionBlock(anObject as? () -> Void); return }
        LayerTreeLock.run { setTransactionValue(anObject, forKey: key) }
    }

    private class func setTransactionValue(_ anObject: Any?, forKey key: String) {
        let state = TransactionState.current
        state.reportCustomPropertyChanges()   // changes made before take the values in force then
        state.ensureOpen()
        state.stack[state.stack.count - 1].values[key] = anObject
    }

    /// Takes the layer tree lock (recursive; see LayerTreeLock): values read until `unlock()`
    /// are consistent with each other.
    open class func lock() { LayerTreeLock.lock.lock() }
    /// Releases the layer tree lock.
    open class func unlock() { LayerTreeLock.lock.unlock() }
}

/// The transaction key of the implicit animations' duration (a CFTimeInterval).
public let kCATransactionAnimationDuration = "animationDuration"
/// The transaction key that turns actions off (a Bool).
public let kCATransactionDisableActions = "disableActions"
/// The transaction key of the implicit animations' timing function (a CAMediaTimingFunction).
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
/// The transaction key of the completion block (a `() -> Void`).
public let kCATransactionCompletionBlock = "completionBlock"
