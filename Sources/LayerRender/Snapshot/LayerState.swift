import CoreGraphics
import Foundation

/// The committed values of one layer: what a renderer draws (after animations are applied).
///
/// Units and spaces are those of CALayer (points; bounds in the layer's own space, position in
/// the superlayer's). Colours are CGColors (nil = none). Properties of the content layer classes are in
/// `content`; custom keys in `custom`.
package struct LayerState: Equatable, Sendable {
    package var bounds = CGRect.zero
    package var position = CGPoint.zero
    package var zPosition: CGFloat = 0
    package var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    package var anchorPointZ: CGFloat = 0
    package var transform = Transform3D.identity
    package var sublayerTransform = Transform3D.identity
    package var isGeometryFlipped = false
    package var contents = AnimatableValue.none
    package var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    package var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1)
    package var contentsGravity = "resize"
    package var contentsScale: CGFloat = 1
    package var minificationFilter = "linear"
    package var magnificationFilter = "linear"
    package var minificationFilterBias: Double = 0
    package var isOpaque = false
    package var opacity: Double = 1
    package var isHidden = false
    package var masksToBounds = false
    package var isDoubleSided = true
    package var cornerRadius: CGFloat = 0
    package var maskedCorners: UInt = 15
    package var cornerCurve = "circular"
    package var borderWidth: CGFloat = 0
    package var borderColor: CGColor? = CGColor.black
    package var backgroundColor: CGColor? = nil
    package var shadowOpacity: Double = 0
    package var shadowRadius: CGFloat = 3
    package var shadowOffset = CGSize(width: 0, height: -3)
    package var shadowColor: CGColor? = CGColor.black
    package var shadowPath: CGPath? = nil
    package var allowsGroupOpacity = true
    package var allowsEdgeAntialiasing = false
    package var edgeAntialiasingMask: UInt32 = 15
    package var shouldRasterize = false
    package var rasterizationScale: CGFloat = 1
    package var timing: MediaTiming = {
        var t = MediaTiming()
        t.duration = .infinity
        return t
    }()
    /// What a content layer class draws from its own properties (shape, text, gradient).
    package var content: LayerContent?
    package var custom: [String: AnimatableValue] = [:]

    package init() {}

    /// Whether two states lent in place are equal. Taken `inout` because that passes them by
    /// address: `a.pointee == b.pointee` on pointers copied both whole (retaining every reference)
    /// before comparing.
    package static func same(_ a: inout LayerState, _ b: inout LayerState) -> Bool { a == b }

    /// The contents as an image, when they are one. On a state lent by pointer, read
    /// `pointee.contents.image` instead: a member of the whole state called through a pointer had
    /// the state copied first (every reference in it retained).
    package var contentsImage: CGImage? { contents.image }
}

extension LayerState: AnimationTarget {
    package func animatableValue(at keyPath: [String]) -> AnimatableValue? {
        animatableValue(at: keyPath, field: keyPath.first.flatMap(Field.init(key:)))
    }

    package mutating func setAnimatableValue(_ value: AnimatableValue, at keyPath: [String]) {
        setAnimatableValue(value, at: keyPath, field: keyPath.first.flatMap(Field.init(key:)))
    }

    package func animatableNumber(at slot: NumberSlot) -> Double? { number(at: slot) }

    package mutating func setAnimatableNumber(_ value: Double, at slot: NumberSlot) { setNumber(value, at: slot) }

    package func animatableValue(at keyPath: [String], field: Field?) -> AnimatableValue? {
        let top: AnimatableValue
        if let field {
            top = value(of: field)
        } else {
            if keyPath.first == "emitterCells", case .emitter(let e)? = content { return e.cellValue(keyPath.dropFirst()) }
            guard let first = keyPath.first, let v = content?.value(forKey: first) ?? custom[first] else { return nil }
            top = v
        }
        return keyPath.count == 1 ? top : top.value(atSubPath: keyPath.dropFirst())
    }

    package mutating func setAnimatableValue(_ value: AnimatableValue, at keyPath: [String], field: Field?) {
        if let field {
            if keyPath.count == 1 { set(field, value); return }
            guard let updated = self.value(of: field).setting(keyPath.dropFirst(), to: value) else { return }
            set(field, updated)
            return
        }
        if keyPath.first == "emitterCells", case .emitter(var e)? = content {
            if e.setCellValue(keyPath.dropFirst(), value) { content = .emitter(e) }
            return
        }
        guard let first = keyPath.first else { return }
        var updated = value
        if keyPath.count > 1 {
            guard let top = content?.value(forKey: first) ?? custom[first], let v = top.setting(keyPath.dropFirst(), to: value) else { return }
            updated = v
        }
        if content?.set(first, updated) == true { return }
        if custom[first] != nil { custom[first] = updated }
    }

    /// A colour as an engine value (`.none` for nil).
    package static func color(_ c: CGColor?) -> AnimatableValue {
        guard let c else { return .none }
        let v = c.rgba
        return .color(r: Double(v.r), g: Double(v.g), b: Double(v.b), a: Double(v.a))
    }

    /// An engine value as a colour: `.some(nil)` for `.none`, nil when it is not a colour.
    static func cgColor(_ v: AnimatableValue) -> CGColor?? {
        switch v {
        case .none: return .some(nil)
        case let .color(r, g, b, a):
            func unit(_ x: Double) -> CGFloat { CGFloat(min(max(x, 0), 1)) }
            return .some(CGColor(red: unit(r), green: unit(g), blue: unit(b), alpha: unit(a)))
        default: return nil
        }
    }
}
