import CoreGraphics
import Foundation

// CALayer's stored properties, each declared once (LayerProperty.swift): the public properties
// in CALayer.swift read and write through these, key-value coding and the implicit-action test
// read the table built from them. Apple's defaults are the initial values of `LayerStorage`.
extension CALayer {
    enum Properties {
        typealias P<L: CALayer, V> = LayerProperty<L, V>

        static let bounds = P("bounds", \CALayer.storage.bounds, \.bounds, Coerce.rect, animatable: true, accepts: Accepts.finite,
                              didStore: { l, old in l.boundsDidChange(from: old) })
        static let position = P("position", \CALayer.storage.position, \.position, Coerce.point, animatable: true, accepts: Accepts.finite)
        static let zPosition = P("zPosition", \CALayer.storage.zPosition, \.zPosition, Coerce.cgFloat, animatable: true, accepts: Accepts.finite)
        static let anchorPoint = P("anchorPoint", \CALayer.storage.anchorPoint, \.anchorPoint, Coerce.point, animatable: true,
                                   accepts: Accepts.finite)
        static let anchorPointZ = P("anchorPointZ", \CALayer.storage.anchorPointZ, \.anchorPointZ, Coerce.cgFloat, animatable: true,
                                    accepts: Accepts.finite)
        // Geometry walks test the identity of every layer's transforms: cached at the store.
        static let transform = P("transform", \CALayer.storage.transform, \.transform, Coerce.transform, animatable: true,
                                 accepts: Accepts.finite,
                                 didStore: { l, _ in l.storage.transformIsIdentity = CATransform3DIsIdentity(l.storage.transform) })
        static let sublayerTransform = P("sublayerTransform", \CALayer.storage.sublayerTransform, \.sublayerTransform, Coerce.transform,
                                         animatable: true, accepts: Accepts.finite, didStore: { l, _ in
                                             l.storage.sublayerTransformIsIdentity = CATransform3DIsIdentity(l.storage.sublayerTransform)
                                         })
        static let geometryFlipped = P("geometryFlipped", \CALayer.storage.isGeometryFlipped, \.isGeometryFlipped, Coerce.bool)

        static let contents = P("contents", \CALayer.storage.contents, \.contents, Coerce.object)
        static let contentsRect = P("contentsRect", \CALayer.storage.contentsRect, \.contentsRect, Coerce.rect, animatable: true,
                                    accepts: Accepts.finite)
        static let contentsCenter = P("contentsCenter", \CALayer.storage.contentsCenter, \.contentsCenter, Coerce.rect, animatable: true,
                                      accepts: Accepts.finite)
        static let contentsGravity = P("contentsGravity", \CALayer.storage.contentsGravity, \.contentsGravity, Coerce.raw,
                                       adjust: { CALayerContentsGravity.all.contains($0) ? $0 : .center })
        static let contentsScale = P("contentsScale", \CALayer.storage.contentsScale, \.contentsScale, Coerce.cgFloat, animatable: true,
                                     accepts: Accepts.positive)
        static let contentsFormat = P("contentsFormat", \CALayer.storage.contentsFormat, \.contentsFormat, Coerce.raw)
        static let minificationFilter = P("minificationFilter", \CALayer.storage.minificationFilter, \.minificationFilter, Coerce.raw)
        static let minificationFilterBias = P("minificationFilterBias", \CALayer.storage.minificationFilterBias, \.minificationFilterBias,
                                              Coerce.float, animatable: true, accepts: Accepts.number)
        static let magnificationFilter = P("magnificationFilter", \CALayer.storage.magnificationFilter, \.magnificationFilter, Coerce.raw)
        static let opaque = P("opaque", \CALayer.storage.isOpaque, \.isOpaque, Coerce.bool)
        static let needsDisplayOnBoundsChange = P("needsDisplayOnBoundsChange", \CALayer.storage.needsDisplayOnBoundsChange,
                                                  \.needsDisplayOnBoundsChange, Coerce.bool)
        static let drawsAsynchronously = P("drawsAsynchronously", \CALayer.storage.drawsAsynchronously, \.drawsAsynchronously, Coerce.bool)

        static let opacity = P("opacity", \CALayer.storage.opacity, \.opacity, Coerce.float, animatable: true, accepts: { $0.isFinite })
        static let hidden = P("hidden", \CALayer.storage.isHidden, \.isHidden, Coerce.bool)
        static let masksToBounds = P("masksToBounds", \CALayer.storage.masksToBounds, \.masksToBounds, Coerce.bool)
        static let doubleSided = P("doubleSided", \CALayer.storage.isDoubleSided, \.isDoubleSided, Coerce.bool)
        static let cornerRadius = P("cornerRadius", \CALayer.storage.cornerRadius, \.cornerRadius, Coerce.cgFloat, animatable: true,
                                    accepts: Accepts.finite)
        static let maskedCorners = P("maskedCorners", \CALayer.storage.maskedCorners, \.maskedCorners, Coerce.options)
        static let cornerCurve = P("cornerCurve", \CALayer.storage.cornerCurve, \.cornerCurve, Coerce.raw)
        static let borderWidth = P("borderWidth", \CALayer.storage.borderWidth, \.borderWidth, Coerce.cgFloat, animatable: true,
                                   accepts: Accepts.finite)
        static let borderColor = P("borderColor", \CALayer.storage.borderColor, \.borderColor, Coerce.color, animatable: true)
        static let backgroundColor = P("backgroundColor", \CALayer.storage.backgroundColor, \.backgroundColor, Coerce.color, animatable: true)
        static let shadowOpacity = P("shadowOpacity", \CALayer.storage.shadowOpacity, \.shadowOpacity, Coerce.float, animatable: true,
                                     accepts: Accepts.number)
        static let shadowRadius = P("shadowRadius", \CALayer.storage.shadowRadius, \.shadowRadius, Coerce.cgFloat, animatable: true,
                                    accepts: Accepts.finite)
        static let shadowOffset = P("shadowOffset", \CALayer.storage.shadowOffset, \.shadowOffset, Coerce.size, animatable: true,
                                    accepts: Accepts.finite)
        static let shadowColor = P("shadowColor", \CALayer.storage.shadowColor, \.shadowColor, Coerce.color, animatable: true)
        static let shadowPath = P("shadowPath", \CALayer.storage.shadowPath, \.shadowPath, Coerce.object, animatable: true)
        static let allowsGroupOpacity = P("allowsGroupOpacity", \CALayer.storage.allowsGroupOpacity, \.allowsGroupOpacity, Coerce.bool)
        static let allowsEdgeAntialiasing = P("allowsEdgeAntialiasing", \CALayer.storage.allowsEdgeAntialiasing, \.allowsEdgeAntialiasing,
                                              Coerce.bool)
        static let edgeAntialiasingMask = P("edgeAntialiasingMask", \CALayer.storage.edgeAntialiasingMask, \.edgeAntialiasingMask,
                                            Coerce.options)
        static let shouldRasterize = P("shouldRasterize", \CALayer.storage.shouldRasterize, \.shouldRasterize, Coerce.bool)
        static let rasterizationScale = P("rasterizationScale", \CALayer.storage.rasterizationScale, \.rasterizationScale, Coerce.cgFloat,
                                          animatable: true, accepts: Accepts.positive)
        static let filters = P("filters", \CALayer.storage.filters, \.filters, Coerce.object)
        static let compositingFilter = P("compositingFilter", \CALayer.storage.compositingFilter, \.compositingFilter, Coerce.object)
        static let backgroundFilters = P("backgroundFilters", \CALayer.storage.backgroundFilters, \.backgroundFilters, Coerce.object)
        static let style = P("style", \CALayer.storage.style, \.style, Coerce.object)
        static let name = P("name", \CALayer.storage.name, \.name, Coerce.object)
        static let actions = P("actions", \CALayer.storage.actions, \.actions, Coerce.object)

        static let beginTime = P("beginTime", \CALayer.storage.beginTime, \.beginTime, Coerce.double, accepts: Accepts.number)
        static let duration = P("duration", \CALayer.storage.duration, \.duration, Coerce.double, accepts: Accepts.number)
        static let speed = P("speed", \CALayer.storage.speed, \.speed, Coerce.float, accepts: Accepts.number)
        static let timeOffset = P("timeOffset", \CALayer.storage.timeOffset, \.timeOffset, Coerce.double, accepts: Accepts.number)
        static let repeatCount = P("repeatCount", \CALayer.storage.repeatCount, \.repeatCount, Coerce.float, accepts: Accepts.number)
        static let repeatDuration = P("repeatDuration", \CALayer.storage.repeatDuration, \.repeatDuration, Coerce.double,
                                      accepts: Accepts.number)
        static let autoreverses = P("autoreverses", \CALayer.storage.autoreverses, \.autoreverses, Coerce.bool)
        static let fillMode = P("fillMode", \CALayer.storage.fillMode, \.fillMode, Coerce.raw)

        /// Every declaration, for the key table.
        nonisolated(unsafe) static let all: [LayerKey] = [   // immutable after init; closures keep it from being Sendable
            bounds.erased, position.erased, zPosition.erased, anchorPoint.erased, anchorPointZ.erased, transform.erased,
            sublayerTransform.erased, geometryFlipped.erased, contents.erased, contentsRect.erased, contentsCenter.erased,
            contentsGravity.erased, contentsScale.erased, contentsFormat.erased, minificationFilter.erased,
            minificationFilterBias.erased, magnificationFilter.erased, opaque.erased, needsDisplayOnBoundsChange.erased,
            drawsAsynchronously.erased, opacity.erased, hidden.erased, masksToBounds.erased, doubleSided.erased,
            cornerRadius.erased, maskedCorners.erased, cornerCurve.erased, borderWidth.erased, borderColor.erased,
            backgroundColor.erased, shadowOpacity.erased, shadowRadius.erased, shadowOffset.erased, shadowColor.erased,
            shadowPath.erased, allowsGroupOpacity.erased, allowsEdgeAntialiasing.erased, edgeAntialiasingMask.erased,
            shouldRasterize.erased, rasterizationScale.erased, filters.erased, compositingFilter.erased,
            backgroundFilters.erased, style.erased, name.erased, actions.erased, beginTime.erased, duration.erased,
            speed.erased, timeOffset.erased, repeatCount.erased, repeatDuration.erased, autoreverses.erased, fillMode.erased,
        ]
    }
}
