import CoreGraphics
import Foundation

// The layer properties an animation can write, named once when the animation is committed, so
// that a frame can reset, compare or copy just the properties a layer's animations touch instead
// of the whole state (about a kilobyte, with a retain for every reference in it).
extension LayerState {
    /// A property of `LayerState` by the top-level key an animation names (key path "position.x"
    /// writes `.position`). Class-content and custom keys have none.
    package enum Field: Sendable {
        case bounds, position, zPosition, anchorPoint, anchorPointZ, transform, sublayerTransform
        case contents, contentsRect, contentsCenter, contentsScale, minificationFilterBias
        case opacity, hidden, masksToBounds, doubleSided, cornerRadius, borderWidth, borderColor, backgroundColor
        case shadowOpacity, shadowRadius, shadowOffset, shadowColor, shadowPath, rasterizationScale

        /// The field for a key path's first component, as `animatableValue(at:)` reads it (nil: not a field).
        package init?(key: String) {
            switch key {
            case "bounds": self = .bounds
            case "position": self = .position
            case "zPosition": self = .zPosition
            case "anchorPoint": self = .anchorPoint
            case "anchorPointZ": self = .anchorPointZ
            case "transform": self = .transform
            case "sublayerTransform": self = .sublayerTransform
            case "contents": self = .contents
            case "contentsRect": self = .contentsRect
            case "contentsCenter": self = .contentsCenter
            case "contentsScale": self = .contentsScale
            case "minificationFilterBias": self = .minificationFilterBias
            case "opacity": self = .opacity
            case "hidden", "isHidden": self = .hidden
            case "masksToBounds": self = .masksToBounds
            case "doubleSided", "isDoubleSided": self = .doubleSided
            case "cornerRadius": self = .cornerRadius
            case "borderWidth": self = .borderWidth
            case "borderColor": self = .borderColor
            case "backgroundColor": self = .backgroundColor
            case "shadowOpacity": self = .shadowOpacity
            case "shadowRadius": self = .shadowRadius
            case "shadowOffset": self = .shadowOffset
            case "shadowColor": self = .shadowColor
            case "shadowPath": self = .shadowPath
            case "rasterizationScale": self = .rasterizationScale
            default: return nil
            }
        }
    }

    /// The value of field `f`, as animations read it.
    func value(of f: Field) -> AnimatableValue {
        func n(_ v: CGFloat) -> AnimatableValue { .number(Double(v)) }
        switch f {
        case .bounds: return .rect(bounds)
        case .position: return .point(position)
        case .zPosition: return n(zPosition)
        case .anchorPoint: return .point(anchorPoint)
        case .anchorPointZ: return n(anchorPointZ)
        case .transform: return .transform(transform)
        case .sublayerTransform: return .transform(sublayerTransform)
        case .contents: return contents
        case .contentsRect: return .rect(contentsRect)
        case .contentsCenter: return .rect(contentsCenter)
        case .contentsScale: return n(contentsScale)
        case .minificationFilterBias: return .number(minificationFilterBias)
        case .opacity: return .number(opacity)
        case .hidden: return .discrete(.init(isHidden))
        case .masksToBounds: return .discrete(.init(masksToBounds))
        case .doubleSided: return .discrete(.init(isDoubleSided))
        case .cornerRadius: return n(cornerRadius)
        case .borderWidth: return n(borderWidth)
        case .borderColor: return LayerState.color(borderColor)
        case .backgroundColor: return LayerState.color(backgroundColor)
        case .shadowOpacity: return .number(shadowOpacity)
        case .shadowRadius: return n(shadowRadius)
        case .shadowOffset: return .size(shadowOffset)
        case .shadowColor: return LayerState.color(shadowColor)
        case .shadowPath: return shadowPath.map { .path($0.ops) } ?? AnimatableValue.none
        case .rasterizationScale: return n(rasterizationScale)
        }
    }

    /// Sets field `f` to an animation's value (ignored when the value is not of the field's type).
    mutating func set(_ f: Field, _ v: AnimatableValue) {
        func number() -> CGFloat? { if case .number(let d) = v { return CGFloat(d) } else { return nil } }
        func flag() -> Bool? { if case .discrete(let d) = v { return d.value as? Bool } else { return nil } }
        switch f {
        case .bounds: if case .rect(let r) = v { bounds = r }
        case .position: if case .point(let p) = v { position = p }
        case .zPosition: if let x = number() { zPosition = x }
        case .anchorPoint: if case .point(let p) = v { anchorPoint = p }
        case .anchorPointZ: if let x = number() { anchorPointZ = x }
        case .transform: if case .transform(let t) = v { transform = t }
        case .sublayerTransform: if case .transform(let t) = v { sublayerTransform = t }
        case .contents: contents = v
        case .contentsRect: if case .rect(let r) = v { contentsRect = r }
        case .contentsCenter: if case .rect(let r) = v { contentsCenter = r }
        case .contentsScale: if let x = number() { contentsScale = x }
        case .minificationFilterBias: if let x = number() { minificationFilterBias = Double(x) }
        case .opacity: if let x = number() { opacity = Double(x) }
        case .hidden: if let b = flag() { isHidden = b }
        case .masksToBounds: if let b = flag() { masksToBounds = b }
        case .doubleSided: if let b = flag() { isDoubleSided = b }
        case .cornerRadius: if let x = number() { cornerRadius = x }
        case .borderWidth: if let x = number() { borderWidth = x }
        case .borderColor: borderColor = LayerState.cgColor(v) ?? borderColor
        case .backgroundColor: backgroundColor = LayerState.cgColor(v) ?? backgroundColor
        case .shadowOpacity: if let x = number() { shadowOpacity = Double(x) }
        case .shadowRadius: if let x = number() { shadowRadius = x }
        case .shadowOffset: if case .size(let s) = v { shadowOffset = s }
        case .shadowColor: shadowColor = LayerState.cgColor(v) ?? shadowColor
        case .shadowPath:
            if case .path(let ops) = v { shadowPath = CGPath.make(ops) } else if v == .none { shadowPath = nil }
        case .rasterizationScale: if let x = number() { rasterizationScale = x }
        }
    }

    /// Whether field `f` is equal in `a` and `b`. Static, on addresses: a member called on a
    /// pointee copies the whole state first.
    package static func same(_ f: Field, _ a: UnsafePointer<LayerState>, _ b: UnsafePointer<LayerState>) -> Bool {
        switch f {
        case .bounds: return a.pointee.bounds == b.pointee.bounds
        case .position: return a.pointee.position == b.pointee.position
        case .zPosition: return a.pointee.zPosition == b.pointee.zPosition
        case .anchorPoint: return a.pointee.anchorPoint == b.pointee.anchorPoint
        case .anchorPointZ: return a.pointee.anchorPointZ == b.pointee.anchorPointZ
        case .transform: return a.pointee.transform == b.pointee.transform
        case .sublayerTransform: return a.pointee.sublayerTransform == b.pointee.sublayerTransform
        case .contents: return a.pointee.contents == b.pointee.contents
        case .contentsRect: return a.pointee.contentsRect == b.pointee.contentsRect
        case .contentsCenter: return a.pointee.contentsCenter == b.pointee.contentsCenter
        case .contentsScale: return a.pointee.contentsScale == b.pointee.contentsScale
        case .minificationFilterBias: return a.pointee.minificationFilterBias == b.pointee.minificationFilterBias
        case .opacity: return a.pointee.opacity == b.pointee.opacity
        case .hidden: return a.pointee.isHidden == b.pointee.isHidden
        case .masksToBounds: return a.pointee.masksToBounds == b.pointee.masksToBounds
        case .doubleSided: return a.pointee.isDoubleSided == b.pointee.isDoubleSided
        case .cornerRadius: return a.pointee.cornerRadius == b.pointee.cornerRadius
        case .borderWidth: return a.pointee.borderWidth == b.pointee.borderWidth
        case .borderColor: return a.pointee.borderColor == b.pointee.borderColor
        case .backgroundColor: return a.pointee.backgroundColor == b.pointee.backgroundColor
        case .shadowOpacity: return a.pointee.shadowOpacity == b.pointee.shadowOpacity
        case .shadowRadius: return a.pointee.shadowRadius == b.pointee.shadowRadius
        case .shadowOffset: return a.pointee.shadowOffset == b.pointee.shadowOffset
        case .shadowColor: return a.pointee.shadowColor == b.pointee.shadowColor
        case .shadowPath: return a.pointee.shadowPath == b.pointee.shadowPath
        case .rasterizationScale: return a.pointee.rasterizationScale == b.pointee.rasterizationScale
        }
    }
}

extension LayerSnapshot {
    /// Sets field `f` of `to` back to its committed value. (`to` by address: a member called on
    /// a pointee copies the whole state first.)
    package func reset(_ f: LayerState.Field, in to: UnsafeMutablePointer<LayerState>) {
        switch f {
        case .bounds: to.pointee.bounds = state.bounds
        case .position: to.pointee.position = state.position
        case .zPosition: to.pointee.zPosition = state.zPosition
        case .anchorPoint: to.pointee.anchorPoint = state.anchorPoint
        case .anchorPointZ: to.pointee.anchorPointZ = state.anchorPointZ
        case .transform: to.pointee.transform = state.transform
        case .sublayerTransform: to.pointee.sublayerTransform = state.sublayerTransform
        case .contents: to.pointee.contents = state.contents
        case .contentsRect: to.pointee.contentsRect = state.contentsRect
        case .contentsCenter: to.pointee.contentsCenter = state.contentsCenter
        case .contentsScale: to.pointee.contentsScale = state.contentsScale
        case .minificationFilterBias: to.pointee.minificationFilterBias = state.minificationFilterBias
        case .opacity: to.pointee.opacity = state.opacity
        case .hidden: to.pointee.isHidden = state.isHidden
        case .masksToBounds: to.pointee.masksToBounds = state.masksToBounds
        case .doubleSided: to.pointee.isDoubleSided = state.isDoubleSided
        case .cornerRadius: to.pointee.cornerRadius = state.cornerRadius
        case .borderWidth: to.pointee.borderWidth = state.borderWidth
        case .borderColor: to.pointee.borderColor = state.borderColor
        case .backgroundColor: to.pointee.backgroundColor = state.backgroundColor
        case .shadowOpacity: to.pointee.shadowOpacity = state.shadowOpacity
        case .shadowRadius: to.pointee.shadowRadius = state.shadowRadius
        case .shadowOffset: to.pointee.shadowOffset = state.shadowOffset
        case .shadowColor: to.pointee.shadowColor = state.shadowColor
        case .shadowPath: to.pointee.shadowPath = state.shadowPath
        case .rasterizationScale: to.pointee.rasterizationScale = state.rasterizationScale
        }
    }
}
