import CoreGraphics
import Foundation
import LayerRender
import Synchronization

/// Something that hosts a layer tree and receives its committed snapshots: a `CARenderer`, or a
/// window of the X11 host. Hosting makes a tree live (implicit animations, presentation layers).
protocol LayerHost: AnyObject {
    /// Receives the snapshot of the hosted tree made by a commit.
    func publish(_ root: LayerSnapshot)
}

/// One animation held by a layer, with its frozen engine model (rebuilt when it changes).
final class AnimationEntry {
    let key: String?
    let animation: CAAnimation
    var model: AnimationModel?
    init(key: String?, animation: CAAnimation) { self.key = key; self.animation = animation }
}

extension CALayer {
    private static let idLock = NSLock()
    nonisolated(unsafe) private static var lastID: UInt64 = 0

    static func nextLayerID() -> UInt64 {
        idLock.lock(); defer { idLock.unlock() }
        lastID += 1
        return lastID
    }

    /// How many layers are hosting roots right now; while zero, no tree is live and the walk is skipped.
    static let hostedRootCount = Atomic<Int>(0)

    /// The root of this layer's tree when it is hosted, else nil. O(depth) while any tree is hosted.
    var liveRoot: CALayer? {
        if CALayer.hostedRootCount.load(ordering: .relaxed) == 0 { return nil }
        var l: CALayer = self
        while let p = l._superlayer { l = p }
        return l.host == nil ? nil : l
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
