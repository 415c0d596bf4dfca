import CoreGraphics
import Foundation
import LayerRender

// CAReplicatorLayer's properties, each declared once (LayerProperty.swift). The engine keeps
// the transform, the colour and the offsets in its own types: the computed properties below
// convert.
extension CAReplicatorLayer {
    var storedInstanceTransform: CATransform3D {
        get { CATransform3D(replicator.instanceTransform) }
        set { replicator.instanceTransform = newValue.engine }
    }

    /// The colour as given (nil reads back nil), and the factors the engine multiplies by.
    var storedInstanceColor: CGColor? {
        get { colorValue }
        set {
            colorValue = newValue
            let c = (newValue ?? .white).rgba
            replicator.instanceColor = (Double(c.r), Double(c.g), Double(c.b), Double(c.a))
        }
    }

    var storedRedOffset: Float {
        get { Float(replicator.offsets.r) }
        set { replicator.offsets.r = Double(newValue) }
    }

    var storedGreenOffset: Float {
        get { Float(replicator.offsets.g) }
        set { replicator.offsets.g = Double(newValue) }
    }

    var storedBlueOffset: Float {
        get { Float(replicator.offsets.b) }
        set { replicator.offsets.b = Double(newValue) }
    }

    var storedAlphaOffset: Float {
        get { Float(replicator.offsets.a) }
        set { replicator.offsets.a = Double(newValue) }
    }

    enum ReplicatorProperties {
        typealias P<V> = LayerProperty<CAReplicatorLayer, V>
        // Stored as given; the copies drawn are bounded when painting (counted here when over).
        static let instanceCount = P<Int>("instanceCount", \.replicator.instanceCount, \.instanceCount,
                                          { Coerce.double($0).map { CGClampToInt($0, in: Int(Int32.min)...Int(Int32.max)) } },
                                          didStore: { l, _ in
                                              if l.replicator.instanceCount > ReplicatorContent.maxInstances {
                                                  CGDiagnostics.record(.invalidParameter)
                                              }
                                          })
        static let instanceDelay = P<CFTimeInterval>("instanceDelay", \.replicator.instanceDelay, \.instanceDelay, Coerce.double,
                                                     animatable: true, accepts: { $0.isFinite })
        static let instanceTransform = P<CATransform3D>("instanceTransform", \.storedInstanceTransform, \.instanceTransform,
                                                        Coerce.transform, animatable: true)
        static let preservesDepth = P<Bool>("preservesDepth", \.replicator.preservesDepth, \.preservesDepth, Coerce.bool)
        static let instanceColor = P<CGColor?>("instanceColor", \.storedInstanceColor, \.instanceColor, Coerce.color, animatable: true)
        static let instanceRedOffset = P<Float>("instanceRedOffset", \.storedRedOffset, \.instanceRedOffset, Coerce.float,
                                                animatable: true, accepts: { $0.isFinite })
        static let instanceGreenOffset = P<Float>("instanceGreenOffset", \.storedGreenOffset, \.instanceGreenOffset, Coerce.float,
                                                  animatable: true, accepts: { $0.isFinite })
        static let instanceBlueOffset = P<Float>("instanceBlueOffset", \.storedBlueOffset, \.instanceBlueOffset, Coerce.float,
                                                 animatable: true, accepts: { $0.isFinite })
        static let instanceAlphaOffset = P<Float>("instanceAlphaOffset", \.storedAlphaOffset, \.instanceAlphaOffset, Coerce.float,
                                                  animatable: true, accepts: { $0.isFinite })

        nonisolated(unsafe) static let all: [LayerKey] = [   // immutable after init; closures keep it from being Sendable
            instanceCount.erased, instanceDelay.erased, instanceTransform.erased, preservesDepth.erased, instanceColor.erased,
            instanceRedOffset.erased, instanceGreenOffset.erased, instanceBlueOffset.erased, instanceAlphaOffset.erased,
        ]
    }
}
