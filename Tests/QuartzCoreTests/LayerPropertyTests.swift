// Every built-in property is declared once (LayerProperty) and read from that declaration by its
// accessors, key-value coding and the implicit-action search. Checked against Apple's rules:
// - "The CALayer and CAAnimation classes are key-value coding compliant container classes"
//   (Core Animation Programming Guide, Key-Value Coding Extensions): every property reads and
//   sets through `value(forKey:)`/`setValue(_:forKey:)` under its key.
// - The properties Apple's reference marks "Animatable" run an implicit animation when changed
//   on a layer in a rendered tree; the others change at once.
// - A setter given a value the property cannot hold (NaN for a geometric value) keeps the old
//   value, for every such property alike (this project's rule for bad input, counted).
import CoreGraphics
import Foundation
@testable import QuartzCore
import Testing

@Suite(.serialized) struct LayerPropertyTests {
    /// A new layer of each framework class (by index, so test arguments stay plain values).
    static func make(_ i: Int) -> CALayer {
        [CALayer(), CAShapeLayer(), CATextLayer(), CAGradientLayer(), CAReplicatorLayer(), CAEmitterLayer(), CAScrollLayer(),
         CATiledLayer()][i]
    }

    /// Keys that are not stored values (tree links, the derived frame).
    static let notStored: Set<String> = ["superlayer", "sublayers", "mask", "frame"]

    @Test func aNilPropertyReadsBackAsNil() {
        // Apple's value(forKey:) returns nil for a nil object property, not a box around nil.
        let layer = CALayer()
        for key in ["mask", "contents", "backgroundColor", "shadowPath", "name", "actions", "filters"] {
            #expect(layer.value(forKey: key) == nil, "\(key)")
        }
        #expect(CAShapeLayer().value(forKey: "path") == nil)
    }

    @Test(arguments: 0..<8) func everyKeyReadsBackWhatItSetsThroughKeyValueCoding(_ i: Int) {
        let layer = Self.make(i)
        let cls = type(of: layer)
        for key in cls.keyTable.keys.sorted() where !Self.notStored.contains(key) {
            let value = layer.value(forKey: key)
            layer.setValue(value, forKey: key)
            let back = layer.value(forKey: key)
            #expect((back == nil && value == nil) || valuesEqual(back, value), "\(cls).\(key)")
        }
    }

    /// Apple's reference, "Animatable" on each property page, for the keys of the subclasses
    /// and a sample of CALayer's own (animatable and not).
    static let documented: [(Int, animatable: [String], not: [String])] = [
        (0, ["opacity", "position", "bounds", "transform", "backgroundColor", "cornerRadius", "borderWidth", "shadowOpacity",
                        "zPosition", "anchorPoint", "anchorPointZ", "sublayerTransform", "shadowPath"],
         ["name", "speed", "geometryFlipped", "contentsGravity", "allowsEdgeAntialiasing"]),
        (1, ["path", "fillColor", "strokeColor", "strokeStart", "strokeEnd", "lineWidth", "miterLimit", "lineDashPhase"],
         ["fillRule", "lineCap", "lineJoin", "lineDashPattern"]),
        (2, ["fontSize", "foregroundColor"], ["string", "font", "wrapped", "truncationMode", "alignmentMode"]),
        (3, ["colors", "locations", "startPoint", "endPoint"], ["type"]),
        (4, ["instanceDelay", "instanceTransform", "instanceColor", "instanceRedOffset", "instanceGreenOffset",
                                  "instanceBlueOffset", "instanceAlphaOffset"], ["instanceCount", "preservesDepth"]),
        (5, ["birthRate", "lifetime", "velocity", "scale", "spin", "emitterPosition", "emitterZPosition", "emitterSize", "emitterDepth"],
         ["emitterShape", "emitterMode", "renderMode", "preservesDepth", "seed"]),
    ]

    @Test func theKeysAppleMarksAnimatableAnimateImplicitlyAndTheOthersDoNot() {
        for (i, animatable, not) in Self.documented {
            let renderer = CARenderer()
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
            renderer.layer = root
            let layer = Self.make(i)
            let cls = type(of: layer)
            root.addSublayer(layer)
            CATransaction.flush()
            // Keys whose default is nil first get a value of their type (from nil, nothing interpolates).
            let samples: [String: Any] = ["path": CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 5), transform: nil),
                                          "strokeColor": CGColor(gray: 0, alpha: 1), "locations": [NSNumber(value: 0), NSNumber(value: 1)],
                                          "colors": [CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 1)],
                                          "shadowPath": CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 5), transform: nil),
                                          "backgroundColor": CGColor(gray: 0.5, alpha: 1)]
            for key in animatable + not {
                if layer.value(forKey: key) == nil, let sample = samples[key] {
                    CATransaction.begin()
                    CATransaction.setDisableActions(true)
                    layer.setValue(sample, forKey: key)
                    CATransaction.commit()
                }
                CATransaction.begin()
                layer.setValue(layer.value(forKey: key), forKey: key)
                CATransaction.commit()
                let animates = layer.animation(forKey: key) != nil
                #expect(animates == animatable.contains(key), "\(cls).\(key): \(animates ? "animates" : "does not animate")")
            }
            renderer.layer = nil
        }
    }

    @Test func everyGeometricSetterKeepsItsValueWhenGivenNaN() {
        let layer = CAShapeLayer()
        let cgFloatKeys = ["zPosition", "anchorPointZ", "cornerRadius", "borderWidth", "shadowRadius", "contentsScale",
                           "rasterizationScale", "lineWidth", "miterLimit", "strokeStart", "strokeEnd", "lineDashPhase"]
        for key in cgFloatKeys {
            let before = layer.value(forKey: key) as? CGFloat
            layer.setValue(CGFloat.nan, forKey: key)
            #expect(layer.value(forKey: key) as? CGFloat == before, "\(key)")
        }
        for key in ["opacity", "shadowOpacity", "speed", "repeatCount"] {
            let before = layer.value(forKey: key) as? Float
            layer.setValue(Float.nan, forKey: key)
            #expect(layer.value(forKey: key) as? Float == before, "\(key)")
        }
        let position = layer.position
        layer.position = CGPoint(x: CGFloat.nan, y: 0)
        #expect(layer.position == position)
        let bounds = layer.bounds
        layer.bounds = CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 1)
        #expect(layer.bounds == bounds)
    }
}
