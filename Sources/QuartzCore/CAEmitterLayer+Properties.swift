import CoreGraphics
import Foundation

// CAEmitterLayer's properties, each declared once (LayerProperty.swift). The engine keeps the
// multipliers as Doubles and the shape, mode and render mode as raw strings: the computed
// properties below convert.
extension CAEmitterLayer {
    var storedBirthRate: Float { get { Float(emitter.birthRate) } set { emitter.birthRate = Double(newValue) } }
    var storedLifetime: Float { get { Float(emitter.lifetime) } set { emitter.lifetime = Double(newValue) } }
    var storedVelocity: Float { get { Float(emitter.velocity) } set { emitter.velocity = Double(newValue) } }
    var storedScale: Float { get { Float(emitter.scale) } set { emitter.scale = Double(newValue) } }
    var storedSpin: Float { get { Float(emitter.spin) } set { emitter.spin = Double(newValue) } }

    var storedShape: CAEmitterLayerEmitterShape {
        get { CAEmitterLayerEmitterShape(rawValue: emitter.shape) }
        set { emitter.shape = newValue.rawValue }
    }

    var storedMode: CAEmitterLayerEmitterMode {
        get { CAEmitterLayerEmitterMode(rawValue: emitter.mode) }
        set { emitter.mode = newValue.rawValue }
    }

    var storedRenderMode: CAEmitterLayerRenderMode {
        get { CAEmitterLayerRenderMode(rawValue: emitter.renderMode) }
        set { emitter.renderMode = newValue.rawValue }
    }

    enum EmitterProperties {
        typealias P<V> = LayerProperty<CAEmitterLayer, V>
        static let emitterCells = P<[CAEmitterCell]?>("emitterCells", \.cellObjects, \.emitterCells, Coerce.object)
        static let birthRate = P<Float>("birthRate", \.storedBirthRate, \.birthRate, Coerce.float, animatable: true, accepts: { $0.isFinite })
        static let lifetime = P<Float>("lifetime", \.storedLifetime, \.lifetime, Coerce.float, animatable: true, accepts: { $0.isFinite })
        static let velocity = P<Float>("velocity", \.storedVelocity, \.velocity, Coerce.float, animatable: true, accepts: { $0.isFinite })
        static let scale = P<Float>("scale", \.storedScale, \.scale, Coerce.float, animatable: true, accepts: { $0.isFinite })
        static let spin = P<Float>("spin", \.storedSpin, \.spin, Coerce.float, animatable: true, accepts: { $0.isFinite })
        static let emitterPosition = P<CGPoint>("emitterPosition", \.emitter.position, \.emitterPosition, Coerce.point, animatable: true,
                                                accepts: Accepts.finite)
        static let emitterZPosition = P<CGFloat>("emitterZPosition", \.emitter.zPosition, \.emitterZPosition, Coerce.cgFloat,
                                                 animatable: true, accepts: Accepts.finite)
        static let emitterSize = P<CGSize>("emitterSize", \.emitter.size, \.emitterSize, Coerce.size, animatable: true,
                                           accepts: Accepts.finite)
        static let emitterDepth = P<CGFloat>("emitterDepth", \.emitter.depth, \.emitterDepth, Coerce.cgFloat, accepts: Accepts.finite)
        static let emitterShape = P<CAEmitterLayerEmitterShape>("emitterShape", \.storedShape, \.emitterShape, Coerce.raw)
        static let emitterMode = P<CAEmitterLayerEmitterMode>("emitterMode", \.storedMode, \.emitterMode, Coerce.raw)
        static let renderMode = P<CAEmitterLayerRenderMode>("renderMode", \.storedRenderMode, \.renderMode, Coerce.raw)
        static let preservesDepth = P<Bool>("preservesDepth", \.emitter.preservesDepth, \.preservesDepth, Coerce.bool)
        static let seed = P<UInt32>("seed", \.emitter.seed, \.seed,
                                    { Coerce.double($0).map { UInt32(clamping: CGClampToInt($0, in: 0...Int(UInt32.max))) } })

        nonisolated(unsafe) static let all: [LayerKey] = [   // immutable after init; closures keep it from being Sendable
            emitterCells.erased, birthRate.erased, lifetime.erased, velocity.erased, scale.erased, spin.erased,
            emitterPosition.erased, emitterZPosition.erased, emitterSize.erased, emitterDepth.erased, emitterShape.erased,
            emitterMode.erased, renderMode.erased, preservesDepth.erased, seed.erased,
        ]
    }
}
