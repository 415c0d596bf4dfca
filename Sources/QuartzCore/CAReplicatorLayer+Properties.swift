import CoreGraphics
import Foundation
import LayerRender

// CAReplicatorLayer's properties, each declared once (LayerProperty.swift). The engine keeps
// the transform and the colour in its own types: the computed properties below convert.
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
        static let instanceRedOffset = P<Float>("instanceRedOffset", double: \.replicator.offsets.r, \.instanceRedOffset, animatable: true)
        static let instanceGreenOffset = P<Float>("instanceGreenOffset", double: \.replicator.offsets.g, \.instanceGreenOffset, animatable: true)
        static let instanceBlueOffset = P<Float>("instanceBlueOffset", double: \.replicator.offsets.b, \.instanceBlueOffset, animatable: true)
        static let instanceAlphaOffset = P<Float>("instanceAlphaOffset", double: \.replicator.offsets.a, \.instanceAlphaOffset, animatable: true)

        nonisolated(unsafe) static let all: [LayerKey] = [   // immutable after init; closures keep it from being Sendable
            instanceCount.erased, instanceDelay.erased, instanceTransform.erased, preservesDepth.erased, instanceColor.erased,
            instanceRedOffset.erased, instanceGreenOffset.erased, instanceBlueOffset.erased, instanceAlphaOffset.erased,
        ]
    }
}
