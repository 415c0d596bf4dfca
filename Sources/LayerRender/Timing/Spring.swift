import CoreGraphics
import Foundation

/// A damped harmonic oscillator moving from 0 to 1: the progress curve of a spring animation.
///
/// Displacement x(t) from the target starts at 1 with velocity −initialVelocity (an initial
/// velocity of 1 covers the whole distance in one second), and obeys m·x″ + c·x′ + k·x = 0.
/// Progress is 1 − x(t), in seconds of local time (springs ignore timing functions).
package struct Spring: Equatable, Sendable {
    package var mass: Double
    package var stiffness: Double
    package var damping: Double
    package var initialVelocity: Double
    package var allowsOverdamping: Bool

    /// |x| below which the spring counts as settled.
    package static let restThreshold = 0.001

    package init(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double, allowsOverdamping: Bool) {
        self.mass = mass > 0 && mass.isFinite ? mass : 1
        self.stiffness = stiffness > 0 && stiffness.isFinite ? stiffness : 100
        self.damping = damping >= 0 && damping.isFinite ? damping : 10
        self.initialVelocity = initialVelocity.isFinite ? initialVelocity : 0
        self.allowsOverdamping = allowsOverdamping
    }

    var omega0: Double { (stiffness / mass).squareRoot() }
    /// The damping ratio ζ; clamped to 1 unless overdamping is allowed.
    var zeta: Double {
        let z = damping / (2 * (stiffness * mass).squareRoot())
        return allowsOverdamping ? z : min(z, 1)
    }

    /// Displacement from the target at time t (seconds).
    package func displacement(at t: Double) -> Double {
        let w0 = omega0, z = zeta, v = -initialVelocity
        if z < 1 {
            let wd = w0 * (1 - z * z).squareRoot()
            let b = (v + z * w0) / wd
            return exp(-z * w0 * t) * (cos(wd * t) + b * sin(wd * t))
        }
        if z == 1 {
            return (1 + (v + w0) * t) * exp(-w0 * t)
        }
        let s = (z * z - 1).squareRoot()
        let r1 = -w0 * (z - s), r2 = -w0 * (z + s)
        let c2 = (v - r1) / (r2 - r1), c1 = 1 - c2
        return c1 * exp(r1 * t) + c2 * exp(r2 * t)
    }

    /// Progress toward the target at time t (1 = arrived; may overshoot).
    package func progress(at t: Double) -> Double { 1 - displacement(at: max(t, 0)) }

    /// How long until the spring counts as at rest (seconds), by the rule that matches Apple's
    /// documented values (damping 5: "approximately 2.85 seconds"; damping 15: "just over 1
    /// second", for mass 1 and stiffness 100; Apple does not publish its rule): the time for the
    /// decay e^(−ζω0 t) to bring the amplitude the initial velocity adds down to `restThreshold`,
    /// plus an eighth of the damped period. |x| is within the threshold from then on.
    package var settlingDuration: Double {
        let w0 = omega0, z = zeta, v = -initialVelocity
        if z < 1 {
            let wd = w0 * (1 - z * z).squareRoot()
            let amplitude = (1 + (v / wd) * (v / wd)).squareRoot()
            return max(0, log(amplitude / Spring.restThreshold) / (z * w0) + .pi / (4 * wd))
        }
        // Critically and over-damped motion is monotonic after at most one crossing: step to rest.
        var t = 0.0
        let step = 1.0 / 240
        var calm = 0.0
        while t < 600 {
            if abs(displacement(at: t)) < Spring.restThreshold { calm += step } else { calm = 0 }
            if calm >= 0.1 { return t - calm + step }
            t += step
        }
        return t
    }

    /// Apple's perceptual parameters (iOS 17): duration and bounce in [−1, 1].
    package static func perceptual(duration: Double, bounce: Double) -> (stiffness: Double, damping: Double) {
        let d = duration > 0 && duration.isFinite ? duration : 0.5
        let b = bounce.isFinite ? min(max(bounce, -1), 1) : 0
        let stiffness = pow(2 * .pi / d, 2)
        let damping = b >= 0 ? (1 - b) * 4 * .pi / d : 4 * .pi / (d * (1 + b))
        return (stiffness, damping)
    }
}
