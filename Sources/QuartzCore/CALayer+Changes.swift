import CoreGraphics
import Foundation

// How property setters report a change: the refusal of non-finite values, and the hook that
// display, commits and actions hang on. (Not overridable, so not in the class body.)
extension CALayer {
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

    /// Counts a non-finite value that a setter refused.
    func rejectNonFinite() { CGDiagnostics.record(.nonFiniteGeometry) }

    /// A setter's common path: refuse (and count) a non-finite value, else store it and report `key` changed.
    func setChecked(_ isFinite: Bool, _ key: String, _ store: () -> Void) {
        guard isFinite else { rejectNonFinite(); return }
        store()
        didChange(key)
    }
}
