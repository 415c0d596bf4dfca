import CoreGraphics
import Foundation
import LayerRender
import Synchronization

/// Something that hosts a layer tree and receives its committed snapshots: a `CARenderer`, or a
/// window of the X11 host. Hosting makes a tree live (implicit animations, presentation layers).
protocol LayerHost: AnyObject {
    /// Receives the snapshot of the hosted tree made by a commit.
    func publish(_ root: LayerSnapshot?)
}

/// One animation held by a layer, with its frozen engine model (rebuilt when it changes).
final class AnimationEntry {
    let key: String?
    let animation: CAAnimation
    var model: AnimationModel?
    /// For transitions: the layer's committed snapshot when the transition was added.
    var transitionFrom: LayerSnapshot?
    init(key: String?, animation: CAAnimation) { self.key = key; self.animation = animation }
}

extension CALayer {
    private static let lastID = Atomic<UInt64>(0)

    /// A new identity, unique in the process (layers are made on any thread).
    static func nextLayerID() -> UInt64 { lastID.add(1, ordering: .relaxed).newValue }

    /// The root of this layer's tree when it is hosted, else nil. O(1): kept up to date by
    /// `setHostRoot(_:)` whenever a subtree joins or leaves a hosted tree.
    var liveRoot: CALayer? { hostRootRef }

    /// Records `root` (or nil) as the hosted root of this layer's whole subtree, masks included.
    /// O(subtree) when it changes, O(1) when it does not (adding a fresh layer stays cheap).
    func setHostRoot(_ root: CALayer?) {
        guard hostRootRef !== root else { return }
        var stack: [CALayer] = [self]
        while let l = stack.popLast() {
            guard l.hostRootRef !== root || l === self else { continue }
            l.hostRootRef = root
            // An app layer joining a hosted tree is watched by the thread that hosts it.
            if root != nil, l.appState != nil { TransactionState.current.watch(l) }
            stack.append(contentsOf: l.children)
            if let m = l._mask { stack.append(m) }
        }
    }

    /// Marks this layer's values as changed and its ancestors' subtrees (stopping at one already marked).
    func markSnapshotDirty() {
        snapshotDirty = true
        markSubtreeDirty()
    }

    func markSubtreeDirty() {
        var l: CALayer? = self
        while let c = l, !c.subtreeDirty || c === self {
            c.subtreeDirty = true
            l = c._superlayer
        }
    }
}
