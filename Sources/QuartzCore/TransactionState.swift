import CoreGraphics
import Foundation
import LayerRender

/// One thread's transaction stack, the trees it must commit, and callbacks waiting on time.
final class TransactionState {
    struct Frame {
        var values: [String: Any] = [:]
        var completions: [() -> Void] = []
        /// Where this frame's animations start in `openRecords`: those added while it was open
        /// (for its completion blocks) are the records from there on when it commits.
        var firstRecord = 0
        var implicit: Bool
    }

    /// An animation a layer holds, tracked until it stops (for delegate callbacks and completions).
    final class AnimationRecord {
        weak var layer: CALayer?
        let animation: CAAnimation
        var started = false
        var stopped = false
        init(layer: CALayer, animation: CAAnimation) { self.layer = layer; self.animation = animation }

        /// Set once a commit has resolved the animation's begin time.
        var resolved = false

        /// The animation's phase at absolute time `now`, through its layer's time hierarchy
        /// (so pausing, scrubbing or reversing a layer pauses, scrubs or reverses its animations).
        func state(at now: Double) -> (started: Bool, finished: Bool) {
            guard let layer, resolved else { return (false, false) }
            let local = layer.convertTime(now, from: nil)
            let timing = animation.engineTiming
            let elapsed = (local - timing.beginTime) * timing.speed
            return (elapsed >= 0, timing.isFinished(at: local))
        }
    }

    struct PendingCompletion {
        var blocks: [() -> Void]
        var records: [AnimationRecord]
    }

    var stack: [Frame] = []
    /// Animations added while any frame is open, in order; one list for the whole stack, so that
    /// deep nesting costs memory in proportion to the animations, not to depth × animations.
    private var openRecords: [AnimationRecord] = []
    /// Roots of hosted trees changed in the open transaction.
    var touchedRoots: [ObjectIdentifier: CALayer] = [:]
    /// Animations added in the open outermost transaction, whose begin times commit resolves.
    var added: [AnimationRecord] = []
    /// Every animation being watched for start/stop.
    var watched: [AnimationRecord] = []
    /// The watched records by animation, so that a removal finds its record at once (a layer
    /// replacing its animations thousands of times in one transaction must not scan them all).
    private var watchedByAnimation: [ObjectIdentifier: AnimationRecord] = [:]
    var pendingCompletions: [PendingCompletion] = []
    /// Completions with no animations: they run at the next flush or frame, not in this one.
    var completionsForNextTurn: [[() -> Void]] = []
    var isCommitting = false
    /// Instances of app-defined layer classes this thread creates or hosts (their custom
    /// properties are looked at by this thread's transactions).
    private var appLayers: [ObjectIdentifier: WeakLayer] = [:]
    private var isLookingForChanges = false
    private struct WeakLayer { weak var layer: CALayer? }

    private static let key = "QuartzCore.TransactionState"
    private static let publishLock = NSLock()

    /// The calling thread's state.
    static var current: TransactionState {
        let dict = Thread.current.threadDictionary
        if let s = dict[key] as? TransactionState { return s }
        let s = TransactionState()
        dict[key] = s
        return s
    }

    var top: Frame? { stack.last }

    func begin(implicit: Bool) {
        var frame = Frame(implicit: implicit)
        frame.firstRecord = openRecords.count
        if let outer = stack.last { frame.values = outer.values }
        stack.append(frame)
    }

    /// Opens an implicit transaction when none is open.
    func ensureOpen() { if stack.isEmpty { begin(implicit: true) } }

    func commit() {
        reportCustomPropertyChanges()
        guard let frame = stack.popLast() else { CGDiagnostics.record(.invalidDrawingState); return }
        if !frame.completions.isEmpty {
            let records = Array(openRecords[min(frame.firstRecord, openRecords.count)...])
            if records.isEmpty {
                completionsForNextTurn.append(frame.completions)
            } else {
                pendingCompletions.append(PendingCompletion(blocks: frame.completions, records: records))
            }
        }
        if stack.isEmpty {
            openRecords = []
            publish()
        }
    }

    /// Commits an implicit transaction (explicit ones stay open) and runs time-based housekeeping.
    func flush(at now: Double) {
        housekeeping(at: now)
        reportCustomPropertyChanges()
        // Layers drawing in-between frames of an animation commit at every frame.
        for layer in liveAppLayers() where layer.needsAnimatedFrame { touch(layer.liveRoot!) }
        if stack.count == 1, stack[0].implicit { commit() } else if stack.isEmpty && !touchedRoots.isEmpty { publish() }
        // Animations committed just now report their start in this same turn.
        housekeeping(at: now, runNextTurnBlocks: false)
    }

    /// Records that a hosted tree changed; opens an implicit transaction if none is open.
    func touch(_ root: CALayer) {
        ensureOpen()
        touchedRoots[ObjectIdentifier(root)] = root
    }

    /// Watches an instance of an app-defined layer class from this thread.
    func watch(_ layer: CALayer) {
        if appLayers.count > 64, appLayers.count.isMultiple(of: 64) { appLayers = appLayers.filter { $0.value.layer != nil } }
        appLayers[ObjectIdentifier(layer)] = WeakLayer(layer: layer)
    }

    /// The watched app layers still alive.
    private func liveAppLayers() -> [CALayer] {
        appLayers.isEmpty ? [] : appLayers.values.compactMap(\.layer)
    }

    /// Reports the custom-property changes of the watched app layers (as Apple's setters would,
    /// in the transaction open now); not re-entered from the actions it runs.
    func reportCustomPropertyChanges() {
        guard !isLookingForChanges, !appLayers.isEmpty else { return }
        isLookingForChanges = true
        defer { isLookingForChanges = false }
        for layer in liveAppLayers() { layer.reportCustomPropertyChanges() }
    }

    func animationAdded(_ animation: CAAnimation, to layer: CALayer) {
        let record = AnimationRecord(layer: layer, animation: animation)
        added.append(record)
        watched.append(record)
        watchedByAnimation[ObjectIdentifier(animation)] = record
        if !stack.isEmpty { openRecords.append(record) }
    }

    /// Lays out, displays, resolves begin times and publishes snapshots of every touched tree.
    func publish() {
        LayerTreeLock.lock.lock()   // commits and every public layer member are serialised (LayerTreeLock)
        defer { LayerTreeLock.lock.unlock() }
        guard !isCommitting else { return }
        isCommitting = true
        defer { isCommitting = false }
        let now = MediaClock.now()
        // Layout and display may change more layers (and add actions): repeat until quiet, bounded.
        var rounds = 0
        repeat {
            let roots = Array(touchedRoots.values)
            for root in roots { root.layoutAndDisplayIfNeeded() }
            rounds += 1
        } while rounds < 4 && touchedRoots.values.contains(where: { $0.needsLayoutOrDisplayInTree })
        for record in added {
            guard let layer = record.layer else { continue }
            if record.animation.beginTime == 0 { record.animation.beginTime = layer.convertTime(now, from: nil) }
            record.resolved = true
            layer.invalidateAnimationModels()
        }
        added = []
        for layer in liveAppLayers() where layer.needsAnimatedFrame {
            layer.drawAnimatedFrame(at: now)
            if let root = layer.liveRoot { touchedRoots[ObjectIdentifier(root)] = root }
        }
        let roots = Array(touchedRoots.values)
        touchedRoots = [:]
        // Snapshot and publish as one step across threads: a later commit's snapshot is never
        // replaced by an earlier one that was published after it.
        TransactionState.publishLock.lock()
        for root in roots { root.host?.publish(root.makeSnapshot()) }
        TransactionState.publishLock.unlock()
    }

    /// Delivers animation callbacks, removes finished animations, and runs due completion blocks.
    func housekeeping(at now: Double, runNextTurnBlocks: Bool = true) {
        let ready = runNextTurnBlocks ? completionsForNextTurn : []
        if runNextTurnBlocks { completionsForNextTurn = [] }
        var stillWatched: [AnimationRecord] = []
        for record in watched {
            guard let layer = record.layer, !record.stopped else { continue }
            // Started and endless (repeated forever): time alone will never finish it, only its
            // removal (`animationRemoved`), so its time is not worked out again every frame.
            if record.started && !record.animation.engineTiming.activeDuration.isFinite {
                stillWatched.append(record)
                continue
            }
            let (started, finished) = record.state(at: now)
            if !record.started && (started || finished) {
                record.started = true
                record.animation.delegate?.animationDidStart(record.animation)
            }
            if record.started && finished {
                record.stopped = true
                if record.animation.isRemovedOnCompletion { layer.removeAnimationRecord(record.animation) }
                record.animation.delegate?.animationDidStop(record.animation, finished: true)
                continue
            }
            stillWatched.append(record)
        }
        if stillWatched.count != watched.count {
            watchedByAnimation = Dictionary(stillWatched.map { (ObjectIdentifier($0.animation), $0) }, uniquingKeysWith: { $1 })
        }
        watched = stillWatched
        // The blocks due are taken off the lists before any runs: a block that flushes again
        // (a nested housekeeping) must not see itself still pending.
        var due: [[() -> Void]] = ready
        var waiting: [PendingCompletion] = []
        for p in pendingCompletions {
            if p.records.allSatisfy({ $0.stopped || $0.layer == nil }) { due.append(p.blocks) } else { waiting.append(p) }
        }
        pendingCompletions = waiting
        for blocks in due { for b in blocks { b() } }
    }

    /// Called when an animation is removed before it finished.
    func animationRemoved(_ animation: CAAnimation) {
        guard let record = watchedByAnimation[ObjectIdentifier(animation)], !record.stopped else { return }
        record.stopped = true
        animation.delegate?.animationDidStop(animation, finished: false)
    }
}
