import CoreGraphics
import Foundation
import LayerRender

/// One kind of particle an emitter layer emits: Core Animation's CAEmitterCell.
///
/// Rates are per second, angles in radians (longitude turns from +x towards +y, the way y runs
/// down on screen), speeds in points per second, colour speeds in units per second. A cell's
/// values are read when its emitter layer commits: change a cell already in use through the
/// layer's key paths (`emitterCells.<name>.birthRate`), which also animate.
open class CAEmitterCell: NSObject, CAMediaTiming {
    /// Values stored under keys that are not properties (Linux key-value coding).
    private var customValues: [String: Any] = [:]

    /// Creates a cell that emits nothing (Apple's defaults: birth rate and lifetime 0).
    public required override init() { super.init() }

    /// A cell (Apple's class factory).
    open class func emitterCell() -> Self { self.init() }

    /// The name used in key paths of the emitter layer.
    open var name: String?
    /// Whether the cell emits (default true).
    open var isEnabled = true
    /// Particles per second, times the layer's birthRate (default 0).
    open var birthRate: Float = 0
    /// Seconds each particle lives, times the layer's lifetime (default 0).
    open var lifetime: Float = 0
    /// Random spread of the lifetime, ± seconds.
    open var lifetimeRange: Float = 0
    /// The emission direction's tilt out of the layer's plane, radians (moves particles in depth).
    open var emissionLatitude: CGFloat = 0
    /// The emission direction in the x–y plane, radians from +x towards +y.
    open var emissionLongitude: CGFloat = 0
    /// Random spread of the emission direction, ± radians.
    open var emissionRange: CGFloat = 0
    /// Initial speed, points per second, times the layer's velocity.
    open var velocity: CGFloat = 0
    /// Random spread of the speed, ± points per second.
    open var velocityRange: CGFloat = 0
    /// Acceleration along x, points per second².
    open var xAcceleration: CGFloat = 0
    /// Acceleration along y, points per second².
    open var yAcceleration: CGFloat = 0
    /// Acceleration along z, points per second² (moves particles in depth).
    open var zAcceleration: CGFloat = 0
    /// Scale of the contents (default 1), times the layer's scale.
    open var scale: CGFloat = 1
    /// Random spread of the scale, ±.
    open var scaleRange: CGFloat = 0
    /// Change of scale per second.
    open var scaleSpeed: CGFloat = 0
    /// Rotation speed, radians per second, times the layer's spin.
    open var spin: CGFloat = 0
    /// Random spread of the rotation speed, ± radians per second.
    open var spinRange: CGFloat = 0
    /// Colour multiplying the contents (default opaque white).
    open var color: CGColor? = CGColor.white
    /// Random spread of each colour channel, ±.
    open var redRange: Float = 0
    /// Random spread of green, ±.
    open var greenRange: Float = 0
    /// Random spread of blue, ±.
    open var blueRange: Float = 0
    /// Random spread of alpha, ±.
    open var alphaRange: Float = 0
    /// Change of red per second.
    open var redSpeed: Float = 0
    /// Change of green per second.
    open var greenSpeed: Float = 0
    /// Change of blue per second.
    open var blueSpeed: Float = 0
    /// Change of alpha per second.
    open var alphaSpeed: Float = 0
    /// The particle's picture (a CGImage); particles without contents are not drawn.
    open var contents: Any?
    /// The part of the contents drawn (unit rect).
    open var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// Pixels of the contents per point (default 1).
    open var contentsScale: CGFloat = 1
    /// Filter when particles are drawn smaller (stored; particles are drawn bilinear).
    open var minificationFilter = "linear"
    /// Filter when particles are drawn larger (stored; particles are drawn bilinear).
    open var magnificationFilter = "linear"
    /// Bias of the minification filter (stored).
    open var minificationFilterBias: Float = 0
    /// Cells emitted by each particle of this cell.
    open var emitterCells: [CAEmitterCell]?
    /// Extra style values (stored).
    open var style: [AnyHashable: Any]?

    // CAMediaTiming: the cell's emission window, in its emitter's time (duration 0: for ever).
    open var beginTime: CFTimeInterval = 0
    open var duration: CFTimeInterval = 0
    open var speed: Float = 1
    open var timeOffset: CFTimeInterval = 0
    open var repeatCount: Float = 0
    open var repeatDuration: CFTimeInterval = 0
    open var autoreverses = false
    open var fillMode: CAMediaTimingFillMode = .removed

    /// Apple's default for `key` (nil for keys without one).
    open class func defaultValue(forKey key: String) -> Any? { CAEmitterCell().value(forKey: key) }

    /// Whether `key`'s value would be archived; true for every key.
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    /// The value of a property by name, or a custom value.
    open func value(forKey key: String) -> Any? {
        switch key {
        case "name": return name
        case "enabled", "isEnabled": return isEnabled
        case "birthRate": return birthRate
        case "lifetime": return lifetime
        case "lifetimeRange": return lifetimeRange
        case "emissionLatitude": return emissionLatitude
        case "emissionLongitude": return emissionLongitude
        case "emissionRange": return emissionRange
        case "velocity": return velocity
        case "velocityRange": return velocityRange
        case "xAcceleration": return xAcceleration
        case "yAcceleration": return yAcceleration
        case "zAcceleration": return zAcceleration
        case "scale": return scale
        case "scaleRange": return scaleRange
        case "scaleSpeed": return scaleSpeed
        case "spin": return spin
        case "spinRange": return spinRange
        case "color": return color
        case "alphaSpeed": return alphaSpeed
        case "contents": return contents
        case "emitterCells": return emitterCells
        default: return customValues[key]
        }
    }

    /// Sets a property by name (numbers of any type are converted; unusable values are ignored
    /// and counted), or a custom value.
    open func setValue(_ value: Any?, forKey key: String) {
        func number() -> Double? { Coerce.double(value) }
        var ok = true
        switch key {
        case "name": name = value as? String
        case "enabled", "isEnabled": if let b = Coerce.bool(value) { isEnabled = b } else { ok = false }
        case "birthRate": if let d = number() { birthRate = Float(d) } else { ok = false }
        case "lifetime": if let d = number() { lifetime = Float(d) } else { ok = false }
        case "velocity": if let d = number() { velocity = CGFloat(d) } else { ok = false }
        case "velocityRange": if let d = number() { velocityRange = CGFloat(d) } else { ok = false }
        case "scale": if let d = number() { scale = CGFloat(d) } else { ok = false }
        case "scaleSpeed": if let d = number() { scaleSpeed = CGFloat(d) } else { ok = false }
        case "spin": if let d = number() { spin = CGFloat(d) } else { ok = false }
        case "emissionLongitude": if let d = number() { emissionLongitude = CGFloat(d) } else { ok = false }
        case "emissionRange": if let d = number() { emissionRange = CGFloat(d) } else { ok = false }
        case "alphaSpeed": if let d = number() { alphaSpeed = Float(d) } else { ok = false }
        case "color": if let c = Coerce.color(value) { color = c } else { ok = false }
        case "contents": contents = value
        case "emitterCells": emitterCells = value as? [CAEmitterCell]
        default: customValues[key] = value
        }
        if !ok { CGDiagnostics.record(.invalidKeyValue) }
    }

    /// The cell found by following names (`["fire", "spark"]`), this cell first.
    func cell(at names: ArraySlice<String>) -> CAEmitterCell? {
        guard let first = names.first else { return self }
        return emitterCells?.first { $0.name == first }?.cell(at: names.dropFirst())
    }

    /// The engine's form of this cell and its nested cells (non-finite values become 0; counted).
    func model(depth: Int = 0) -> EmitterCellModel {
        var m = EmitterCellModel()
        func f(_ x: Float) -> Double { x.isFinite ? Double(x) : { CGDiagnostics.record(.nonFiniteGeometry); return 0 }() }
        func g(_ x: CGFloat) -> Double { x.isFinite ? Double(x) : { CGDiagnostics.record(.nonFiniteGeometry); return 0 }() }
        m.name = name; m.isEnabled = isEnabled
        m.birthRate = f(birthRate); m.lifetime = f(lifetime); m.lifetimeRange = f(lifetimeRange)
        m.emissionLatitude = g(emissionLatitude); m.emissionLongitude = g(emissionLongitude); m.emissionRange = g(emissionRange)
        m.velocity = g(velocity); m.velocityRange = g(velocityRange)
        m.acceleration = (g(xAcceleration), g(yAcceleration), g(zAcceleration))
        m.scale = g(scale); m.scaleRange = g(scaleRange); m.scaleSpeed = g(scaleSpeed)
        m.spin = g(spin); m.spinRange = g(spinRange)
        let c = (color ?? .white).rgba
        m.color = (Double(c.r), Double(c.g), Double(c.b), Double(c.a))
        m.colorRange = (f(redRange), f(greenRange), f(blueRange), f(alphaRange))
        m.colorSpeed = (f(redSpeed), f(greenSpeed), f(blueSpeed), f(alphaSpeed))
        m.contents = contents as? CGImage
        m.contentsRect = contentsRect.isFiniteRect ? contentsRect : CGRect(x: 0, y: 0, width: 1, height: 1)
        m.contentsScale = contentsScale.isFinite && contentsScale > 0 ? contentsScale : 1
        var t = MediaTiming()
        t.beginTime = beginTime.isFinite ? beginTime : 0
        t.duration = duration.isFinite && duration >= 0 ? duration : 0
        t.speed = speed.isFinite ? Double(speed) : 1
        t.timeOffset = timeOffset.isFinite ? timeOffset : 0
        t.repeatCount = repeatCount.isFinite || repeatCount == .infinity ? Double(repeatCount) : 0
        t.repeatDuration = repeatDuration.isFinite ? repeatDuration : 0
        t.autoreverses = autoreverses
        m.timing = t
        // Nesting is cut at 8 levels (deeper cells are ignored: counted).
        if depth < 8 {
            m.cells = (emitterCells ?? []).map { $0.model(depth: depth + 1) }
        } else if !(emitterCells ?? []).isEmpty {
            CGDiagnostics.record(.invalidParameter)
        }
        return m
    }
}
