import CoreGraphics
import Foundation

/// The committed properties of a CAEmitterLayer (points, seconds, radians; Apple's defaults).
package struct EmitterContent: Equatable, Sendable {
    package var cells: [EmitterCellModel] = []
    package var birthRate: Double = 1
    package var lifetime: Double = 1
    package var velocity: Double = 1
    package var scale: Double = 1
    package var spin: Double = 1
    package var position = CGPoint.zero
    package var zPosition: CGFloat = 0
    package var size = CGSize.zero
    package var depth: CGFloat = 0
    /// "point", "line", "rectangle", "cuboid", "circle" or "sphere".
    package var shape = "point"
    /// "points", "outline", "surface" or "volume".
    package var mode = "volume"
    /// "unordered", "oldestFirst", "oldestLast", "backToFront" or "additive".
    package var renderMode = "unordered"
    package var preservesDepth = false
    package var seed: UInt32 = 0
    /// Media time (layer-local seconds) at which emission began.
    package var startTime: Double = 0

    package init() {}

    /// Whether particles can be on screen: some enabled cell has a positive birth rate.
    package var isActive: Bool {
        func any(_ cells: [EmitterCellModel]) -> Bool { cells.contains { $0.isEnabled && $0.birthRate > 0 } }
        return birthRate > 0 && lifetime > 0 && any(cells)
    }

    func value(forKey key: String) -> AnimatableValue? {
        switch key {
        case "birthRate": return .number(birthRate)
        case "lifetime": return .number(lifetime)
        case "velocity": return .number(velocity)
        case "scale": return .number(scale)
        case "spin": return .number(spin)
        case "emitterPosition": return .point(position)
        case "emitterZPosition": return .number(Double(zPosition))
        case "emitterSize": return .size(size)
        case "emitterDepth": return .number(Double(depth))
        default: return nil
        }
    }

    mutating func set(_ key: String, _ v: AnimatableValue) -> Bool {
        func number() -> Double? { if case .number(let d) = v, d.isFinite { return d } else { return nil } }
        switch key {
        case "birthRate": if let d = number() { birthRate = d }
        case "lifetime": if let d = number() { lifetime = d }
        case "velocity": if let d = number() { velocity = d }
        case "scale": if let d = number() { scale = d }
        case "spin": if let d = number() { spin = d }
        case "emitterPosition": if case .point(let p) = v { position = p }
        case "emitterZPosition": if let d = number() { zPosition = CGFloat(d) }
        case "emitterSize": if case .size(let s) = v { size = s }
        case "emitterDepth": if let d = number() { depth = CGFloat(d) }
        default: return false
        }
        return true
    }

    /// The cell value at a key path below `emitterCells` ("name.birthRate", "name.sub.velocity").
    func cellValue(_ path: ArraySlice<String>) -> AnimatableValue? {
        guard let name = path.first, let i = cells.firstIndex(where: { $0.name == name }) else { return nil }
        return cells[i].value(path.dropFirst())
    }

    /// Sets a cell value at a key path below `emitterCells`; false when no cell has that name.
    mutating func setCellValue(_ path: ArraySlice<String>, _ v: AnimatableValue) -> Bool {
        guard let name = path.first, let i = cells.firstIndex(where: { $0.name == name }) else { return false }
        return cells[i].set(path.dropFirst(), v)
    }
}

/// The committed properties of a CAEmitterCell (Apple's defaults: nothing emitted).
package struct EmitterCellModel: Equatable, Sendable {
    package var name: String?
    package var isEnabled = true
    package var birthRate: Double = 0
    package var lifetime: Double = 0, lifetimeRange: Double = 0
    package var emissionLatitude: Double = 0, emissionLongitude: Double = 0, emissionRange: Double = 0
    package var velocity: Double = 0, velocityRange: Double = 0
    package var acceleration = (x: 0.0, y: 0.0, z: 0.0)
    package var scale: Double = 1, scaleRange: Double = 0, scaleSpeed: Double = 0
    package var spin: Double = 0, spinRange: Double = 0
    /// Straight RGBA in [0, 1].
    package var color = (r: 1.0, g: 1.0, b: 1.0, a: 1.0)
    package var colorRange = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
    package var colorSpeed = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
    package var contents: CGImage?
    package var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    package var contentsScale: CGFloat = 1
    package var cells: [EmitterCellModel] = []
    /// The cell's own timing (beginTime, duration, speed…), in its emitter's (or parent particle's)
    /// time; duration 0 means for ever.
    package var timing = MediaTiming()

    /// Whether the cell emits at `time` seconds after its emitter (or parent particle) began.
    func emits(at time: Double) -> Bool {
        var t = timing
        if t.duration == 0 { t.duration = .infinity }
        if case .active = t.phase(at: time) { return true }
        return false
    }

    package init() {}

    package static func == (a: EmitterCellModel, b: EmitterCellModel) -> Bool {
        a.name == b.name && a.isEnabled == b.isEnabled && a.birthRate == b.birthRate && a.lifetime == b.lifetime
            && a.lifetimeRange == b.lifetimeRange && a.emissionLatitude == b.emissionLatitude
            && a.emissionLongitude == b.emissionLongitude && a.emissionRange == b.emissionRange && a.velocity == b.velocity
            && a.velocityRange == b.velocityRange && a.acceleration == b.acceleration && a.scale == b.scale
            && a.scaleRange == b.scaleRange && a.scaleSpeed == b.scaleSpeed && a.spin == b.spin && a.spinRange == b.spinRange
            && a.color == b.color && a.colorRange == b.colorRange && a.colorSpeed == b.colorSpeed && a.contents === b.contents
            && a.contentsRect == b.contentsRect && a.contentsScale == b.contentsScale && a.cells == b.cells && a.timing == b.timing
    }

    func value(_ path: ArraySlice<String>) -> AnimatableValue? {
        guard let key = path.first else { return nil }
        if path.count > 1 {
            guard key == "emitterCells" || cells.contains(where: { $0.name == key }) else { return nil }
            let rest = key == "emitterCells" ? path.dropFirst() : path
            guard let name = rest.first, let c = cells.first(where: { $0.name == name }) else { return nil }
            return c.value(rest.dropFirst())
        }
        switch key {
        case "birthRate": return .number(birthRate)
        case "lifetime": return .number(lifetime)
        case "velocity": return .number(velocity)
        case "velocityRange": return .number(velocityRange)
        case "scale": return .number(scale)
        case "scaleSpeed": return .number(scaleSpeed)
        case "spin": return .number(spin)
        case "emissionLongitude": return .number(emissionLongitude)
        case "emissionRange": return .number(emissionRange)
        case "alphaSpeed": return .number(colorSpeed.a)
        case "color": return .color(r: color.r, g: color.g, b: color.b, a: color.a)
        default: return nil
        }
    }

    mutating func set(_ path: ArraySlice<String>, _ v: AnimatableValue) -> Bool {
        guard let key = path.first else { return false }
        if path.count > 1 {
            let rest = key == "emitterCells" ? path.dropFirst() : path
            guard let name = rest.first, let i = cells.firstIndex(where: { $0.name == name }) else { return false }
            return cells[i].set(rest.dropFirst(), v)
        }
        func number() -> Double? { if case .number(let d) = v, d.isFinite { return d } else { return nil } }
        switch key {
        case "birthRate": if let d = number() { birthRate = d }
        case "lifetime": if let d = number() { lifetime = d }
        case "velocity": if let d = number() { velocity = d }
        case "velocityRange": if let d = number() { velocityRange = d }
        case "scale": if let d = number() { scale = d }
        case "scaleSpeed": if let d = number() { scaleSpeed = d }
        case "spin": if let d = number() { spin = d }
        case "emissionLongitude": if let d = number() { emissionLongitude = d }
        case "emissionRange": if let d = number() { emissionRange = d }
        case "alphaSpeed": if let d = number() { colorSpeed.a = d }
        case "color": if case let .color(r, g, b, a) = v { color = (r, g, b, a) }
        default: return false
        }
        return true
    }
}
