import CoreGraphics
import Foundation

/// Core Animation's timing model for one object (a layer or an animation), in seconds.
///
/// Rules (Apple's documented model):
/// 1. Elapsed active time: e = (parent − beginTime) × speed.
/// 2. The object is active for 0 ≤ e < activeDuration; outside, `fill` decides whether it holds
///    its first (backwards) or last (forwards) value or has no effect.
/// 3. Local time = e + timeOffset, wrapped into the active duration (an offset starts the
///    timeline part-way and plays the skipped part at the end).
/// 4. Each repetition lasts `duration` (2 × duration when `autoreverses`: forward then back);
///    the active duration is `repeatDuration`, or `repeatCount` × that, whichever is set — and the
///    shorter when both are (Apple leaves that case undefined).
package struct MediaTiming: Equatable, Sendable {
    package enum Fill: Equatable, Sendable { case removed, forwards, backwards, both }

    package var beginTime: Double = 0
    package var duration: Double = 0
    package var speed: Double = 1
    package var timeOffset: Double = 0
    package var repeatCount: Double = 0
    package var repeatDuration: Double = 0
    package var autoreverses = false
    package var fill = Fill.removed

    package init() {}

    /// The length of one repetition including its reverse half.
    package var cycle: Double { autoreverses ? 2 * duration : duration }

    /// How long the object is active, in its local time.
    package var activeDuration: Double {
        let byCount = repeatCount > 0 ? repeatCount * cycle : .infinity
        let byDuration = repeatDuration > 0 ? repeatDuration : .infinity
        if repeatCount <= 0 && repeatDuration <= 0 { return cycle }
        return min(byCount, byDuration)
    }

    /// A layer's local time for a parent time: (t − beginTime) × speed + timeOffset (no folding).
    package func layerLocalTime(_ parent: Double) -> Double { (parent - beginTime) * speed + timeOffset }

    /// Where a timed object is at a parent time.
    package enum Phase: Equatable, Sendable {
        /// No effect (before the start without backwards fill, or after the end without forwards fill).
        case inactive
        /// Showing the value at `time` within the current repetition (0…duration), of repetition `iteration`.
        case active(time: Double, iteration: Int)
        /// Holding a value after the end (forwards fill): same fields.
        case filling(time: Double, iteration: Int)
    }

    /// True once the object's active duration has elapsed at `parent` (for removal and callbacks).
    package func isFinished(at parent: Double) -> Bool {
        let d = activeDuration
        guard d.isFinite else { return false }
        return (parent - beginTime) * speed >= d && speed != 0
    }

    /// The phase at a parent time.
    package func phase(at parent: Double) -> Phase {
        let d = activeDuration
        var e = (parent - beginTime) * speed
        var after = false
        if e < 0 {
            guard fill == .backwards || fill == .both else { return .inactive }
            e = 0
        } else if d.isFinite && e >= d {
            guard fill == .forwards || fill == .both else { return .inactive }
            e = d
            after = true
        }
        var t = e + timeOffset
        if d.isFinite && d > 0 && timeOffset != 0 {
            t = t.truncatingRemainder(dividingBy: d)
            if t < 0 { t += d }
            if after && t == 0 { t = d }
        }
        let (time, iteration) = fold(t, atEnd: after || (d.isFinite && t >= d))
        return after ? .filling(time: time, iteration: iteration) : .active(time: time, iteration: iteration)
    }

    /// Maps local time to (time within one repetition, repetition index). At the very end the
    /// left limit is taken, so a whole number of repetitions ends on the last value.
    private func fold(_ t: Double, atEnd: Bool) -> (Double, Int) {
        guard duration > 0 else { return (0, 0) }
        let c = cycle
        // Non-finite times (infinite speeds and offsets) fold to repetition 0, counted.
        var iteration = CGClampToInt((t / c).rounded(.down), in: -1_000_000_000...1_000_000_000)
        if atEnd && t > 0 && t == Double(iteration) * c { iteration -= 1 }
        var within = t - Double(iteration) * c
        if autoreverses && within > duration { within = 2 * duration - within }
        return (min(max(within, 0), duration), iteration)
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
