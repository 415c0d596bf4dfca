import CoreGraphics
import Foundation

// How property setters report a change: the refusal of non-finite values, and the hook that
// display, commits and actions hang on. (Not overridable, so not in the class body.)
extension CALayer {
    /// Called after every property change; the hook that display, commits and actions hang on.
    /// `runsAction` is false for what the framework itself changes (a backing store drawn by
    /// `display()`, which Apple shows without the implicit fade that setting `contents` runs).
    func didChange(_ key: String, runsAction: Bool = true) {
        guard modelLayer == nil else { return }   // presentation copies are inert
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
        markSnapshotDirty()
        if let root = liveRoot {
            TransactionState.current.touch(root)
            if runsAction { runAction(forKey: key) }
        }
    }

    /// Counts a non-finite value that a setter refused.
    func rejectNonFinite() { CGDiagnostics.record(.nonFiniteGeometry) }
}
