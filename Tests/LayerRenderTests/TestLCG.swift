// The tests' pseudo-random numbers: the canonical scenes' 32-bit LCG (Numerical Recipes
// constants), so that every run of a test sees the same inputs.
import CoreGraphics

struct TestLCG {
    var s: UInt32

    init(seed: UInt32) { s = seed }

    mutating func next() -> UInt32 {
        s = s &* 1_664_525 &+ 1_013_904_223
        return s
    }

    /// A number in [0, 1).
    mutating func unit() -> CGFloat { CGFloat(next() >> 8) / 16_777_216 }

    /// A premultiplied pixel word 0xAARRGGBB: opaque, or of a random alpha with every channel at most it.
    mutating func premultipliedWord(opaque: Bool) -> UInt32 {
        let a: UInt32 = opaque ? 255 : next() >> 24
        let c = { (v: UInt32) in v % (a + 1) }
        let r = next()
        return a << 24 | c(r >> 16 & 255) << 16 | c(r >> 8 & 255) << 8 | c(r & 255)
    }
}
