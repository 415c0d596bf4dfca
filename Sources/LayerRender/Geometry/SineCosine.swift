import Foundation

/// Sine and cosine of one angle at once, for the particle simulation (several angles per particle,
/// tens of thousands of particles per frame).
///
/// The angle is reduced to r in [−π/4, π/4] by the nearest multiple k of π/2 (π/2 split in three
/// parts so the reduction is exact to double precision), then sin r and cos r come from their Taylor
/// series to r¹⁷ and r¹⁶: the first neglected terms are below 5·10⁻¹⁷ there, so results are within
/// a couple of ulps of the exact values (tested against the C library). Beyond |x| = 2²⁰ the C
/// library's reduction is used.
enum SineCosine {
    static func of(_ x: Double) -> (sin: Double, cos: Double) {
        guard abs(x) < 1_048_576 else { return (sin(x), cos(x)) }
        let k = (x * (2 / Double.pi)).rounded(.toNearestOrEven)
        // π/2 = p1 + p2 + p3, p1 and p2 with 33 significant bits: k·p1 and k·p2 are exact for |k| < 2²⁰.
        let r = ((x - k * 1.5707963267341256) - k * 6.077100506303966e-11) - k * 2.0222662487959506e-21
        let r2 = r * r
        // Horner forms of r − r³/3! + … − r¹⁷/17! and 1 − r²/2! + … + r¹⁶/16!.
        var s = -1.0 / 355_687_428_096_000
        s = s * r2 + 1.0 / 1_307_674_368_000
        s = s * r2 - 1.0 / 6_227_020_800
        s = s * r2 + 1.0 / 39_916_800
        s = s * r2 - 1.0 / 362_880
        s = s * r2 + 1.0 / 5040
        s = s * r2 - 1.0 / 120
        s = s * r2 + 1.0 / 6
        let sine = r - r * r2 * s
        var c = 1.0 / 20_922_789_888_000
        c = c * r2 - 1.0 / 87_178_291_200
        c = c * r2 + 1.0 / 479_001_600
        c = c * r2 - 1.0 / 3_628_800
        c = c * r2 + 1.0 / 40320
        c = c * r2 - 1.0 / 720
        c = c * r2 + 1.0 / 24
        c = c * r2 - 0.5
        let cosine = 1 + r2 * c
        switch Int(k) & 3 {
        case 0: return (sine, cosine)
        case 1: return (cosine, -sine)
        case 2: return (-sine, -cosine)
        default: return (-cosine, sine)
        }
    }
}
