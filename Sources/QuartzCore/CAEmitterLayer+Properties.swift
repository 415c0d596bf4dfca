import CoreGraphics
import Foundation

// CAEmitterLayer's properties, each declared once (LayerProperty.swift); the multipliers are
// kept as Doubles and the shape and modes as raw strings by the engine (the declarations convert).
extension CAEmitterLayer {
    enum EmitterProperties {
        typealias P<V> = LayerProperty<CAEmitterLayer, V>
        static let emitterCells = P<[CAEmitterCell]?>("emitterCells", \.cellObjects, \.emitterCells, Coerce.object)
        static let birthRate = P<Float>("birthRate", double: \.emitter.birthRate, \.birthRate, animatable: true)
        static let lifetime = P<Float>("lifetime", double: \.emitter.lifetime, \.lifetime, animatable: true)
        static let velocity = P<Float>("velocity", double: \.emitter.velocity, \.velocity, animatable: true)
        static let scale = P<Float>("scale", double: \.emitter.scale, \.scale, animatable: true)
        static let spin = P<Float>("spin", double: \.emitter.spin, \.spin, animatable: true)
        static let emitterPosition = P<CGPoint>("emitterPosition", \.emitter.position, \.emitterPosition, Coerce.point, animatable: true,
                                                accepts: Accepts.finite)
        static let emitterZPosition = P<CGFloat>("emitterZPosition", \.emitter.zPosition, \.emitterZPosition, Coerce.cgFloat,
                                                 animatable: true, accepts: Accepts.finite)
        static let emitterSize = P<CGSize>("emitterSize", \.emitter.size, \.emitterSize, Coerce.size, animatable: true,
                                           accepts: Accepts.finite)
        static let emitterDepth = P<CGFloat>("emitterDepth", \.emitter.depth, \.emitterDepth, Coerce.cgFloat, animatable: true,
                                            accepts: Accepts.finite)
        static let emitterShape = P<CAEmitterLayerEmitterShape>("emitterShape", raw: \.emitter.shape, \.emitterShape)
        static let emitterMode = P<CAEmitterLayerEmitterMode>("emitterMode", raw: \.emitter.mode, \.emitterMode)
        static let renderMode = P<CAEmitterLayerRenderMode>("renderMode", raw: \.emitter.renderMode, \.renderMode)
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
