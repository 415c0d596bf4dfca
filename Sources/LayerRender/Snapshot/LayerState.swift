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
        if keyPath.first == "emitterCells", case .emitter(let e)? = content { return e.cellValue(keyPath.dropFirst()) }
        guard let first = keyPath.first, let top = topValue(first) else { return nil }
        return keyPath.count == 1 ? top : top.value(atSubPath: keyPath.dropFirst())
    }

    package mutating func setAnimatableValue(_ value: AnimatableValue, at keyPath: [String]) {
        if keyPath.first == "emitterCells", case .emitter(var e)? = content {
            if e.setCellValue(keyPath.dropFirst(), value) { content = .emitter(e) }
            return
        }
        guard let first = keyPath.first else { return }
        if keyPath.count == 1 { setTop(first, value); return }
        guard let top = topValue(first), let updated = top.setting(keyPath.dropFirst(), to: value) else { return }
        setTop(first, updated)
    }

    private func topValue(_ key: String) -> AnimatableValue? {
        func n(_ v: CGFloat) -> AnimatableValue { .number(Double(v)) }
        switch key {
        case "bounds": return .rect(bounds)
        case "position": return .point(position)
        case "zPosition": return n(zPosition)
        case "anchorPoint": return .point(anchorPoint)
        case "anchorPointZ": return n(anchorPointZ)
        case "transform": return .transform(transform)
        case "sublayerTransform": return .transform(sublayerTransform)
        case "contents": return contents
        case "contentsRect": return .rect(contentsRect)
        case "contentsCenter": return .rect(contentsCenter)
        case "contentsScale": return n(contentsScale)
        case "minificationFilterBias": return .number(minificationFilterBias)
        case "opacity": return .number(opacity)
        case "hidden", "isHidden": return .discrete(.init(isHidden))
        case "masksToBounds": return .discrete(.init(masksToBounds))
        case "doubleSided", "isDoubleSided": return .discrete(.init(isDoubleSided))
        case "cornerRadius": return n(cornerRadius)
        case "borderWidth": return n(borderWidth)
        case "borderColor": return LayerState.color(borderColor)
        case "backgroundColor": return LayerState.color(backgroundColor)
        case "shadowOpacity": return .number(shadowOpacity)
        case "shadowRadius": return n(shadowRadius)
        case "shadowOffset": return .size(shadowOffset)
        case "shadowColor": return LayerState.color(shadowColor)
        case "shadowPath": return shadowPath.map { .path($0.ops) } ?? AnimatableValue.none
        case "rasterizationScale": return n(rasterizationScale)
        default: return content?.value(forKey: key) ?? custom[key]
        }
    }

    private mutating func setTop(_ key: String, _ v: AnimatableValue) {
        func number() -> CGFloat? { if case .number(let d) = v { return CGFloat(d) } else { return nil } }
        func flag() -> Bool? { if case .discrete(let d) = v { return d.value as? Bool } else { return nil } }
        switch key {
        case "bounds": if case .rect(let r) = v { bounds = r }
        case "position": if case .point(let p) = v { position = p }
        case "zPosition": if let x = number() { zPosition = x }
        case "anchorPoint": if case .point(let p) = v { anchorPoint = p }
        case "anchorPointZ": if let x = number() { anchorPointZ = x }
        case "transform": if case .transform(let t) = v { transform = t }
        case "sublayerTransform": if case .transform(let t) = v { sublayerTransform = t }
        case "contents": contents = v
        case "contentsRect": if case .rect(let r) = v { contentsRect = r }
        case "contentsCenter": if case .rect(let r) = v { contentsCenter = r }
        case "contentsScale": if let x = number() { contentsScale = x }
        case "minificationFilterBias": if let x = number() { minificationFilterBias = Double(x) }
        case "opacity": if let x = number() { opacity = Double(x) }
        case "hidden", "isHidden": if let b = flag() { isHidden = b }
        case "masksToBounds": if let b = flag() { masksToBounds = b }
        case "doubleSided", "isDoubleSided": if let b = flag() { isDoubleSided = b }
        case "cornerRadius": if let x = number() { cornerRadius = x }
        case "borderWidth": if let x = number() { borderWidth = x }
        case "borderColor": borderColor = LayerState.cgColor(v) ?? borderColor
        case "backgroundColor": backgroundColor = LayerState.cgColor(v) ?? backgroundColor
        case "shadowOpacity": if let x = number() { shadowOpacity = Double(x) }
        case "shadowRadius": if let x = number() { shadowRadius = x }
        case "shadowOffset": if case .size(let s) = v { shadowOffset = s }
        case "shadowColor": shadowColor = LayerState.cgColor(v) ?? shadowColor
        case "shadowPath":
            if case .path(let ops) = v { shadowPath = CGPath.make(ops) } else if v == .none { shadowPath = nil }
        case "rasterizationScale": if let x = number() { rasterizationScale = x }
        default:
            if content?.set(key, v) == true { return }
            if custom[key] != nil { custom[key] = v }
        }
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
