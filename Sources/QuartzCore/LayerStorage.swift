import CoreGraphics
import Foundation

/// The stored model values of a CALayer, read and written through its public properties.
///
/// One value type, so that a shadow copy (`init(layer:)`, presentation layers) copies every
/// property in one assignment and a new property cannot be forgotten in the copy.
struct LayerStorage {
    var bounds = CGRect.zero
    var position = CGPoint.zero
    var zPosition: CGFloat = 0
    var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    var anchorPointZ: CGFloat = 0
    var transform = CATransform3DIdentity
    var sublayerTransform = CATransform3DIdentity
    var isGeometryFlipped = false
    /// Cached `CATransform3DIsIdentity(transform)`: geometry walks test it for every layer.
    var transformIsIdentity = true
    /// Cached `CATransform3DIsIdentity(sublayerTransform)`.
    var sublayerTransformIsIdentity = true

    var contents: Any? = nil
    var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1)
    var contentsGravity = CALayerContentsGravity.resize
    var contentsScale: CGFloat = 1
    var contentsFormat = CALayerContentsFormat.RGBA8Uint
    var minificationFilter = CALayerContentsFilter.linear
    var minificationFilterBias: Float = 0
    var magnificationFilter = CALayerContentsFilter.linear
    var isOpaque = false

    var opacity: Float = 1
    var isHidden = false
    var masksToBounds = false
    var isDoubleSided = true
    var cornerRadius: CGFloat = 0
    var maskedCorners = CACornerMask(rawValue: 15)
    var cornerCurve = CALayerCornerCurve.circular
    var borderWidth: CGFloat = 0
    var borderColor: CGColor? = CGColor.black
    var backgroundColor: CGColor? = nil
    var shadowOpacity: Float = 0
    var shadowRadius: CGFloat = 3
    var shadowOffset = CGSize(width: 0, height: -3)
    var shadowColor: CGColor? = CGColor.black
    var shadowPath: CGPath? = nil
    var allowsGroupOpacity = true
    var allowsEdgeAntialiasing = false
    var edgeAntialiasingMask = CAEdgeAntialiasingMask(rawValue: 15)
    var shouldRasterize = false
    var rasterizationScale: CGFloat = 1
    var filters: [Any]? = nil
    var compositingFilter: Any? = nil
    var backgroundFilters: [Any]? = nil
    var style: [AnyHashable: Any]? = nil
    var name: String? = nil
    var actions: [String: any CAAction]? = nil
    var needsDisplayOnBoundsChange = false
    var drawsAsynchronously = false

    var beginTime: CFTimeInterval = 0
    var duration: CFTimeInterval = .infinity
    var speed: Float = 1
    var timeOffset: CFTimeInterval = 0
    var repeatCount: Float = 0
    var repeatDuration: CFTimeInterval = 0
    var autoreverses = false
    var fillMode = CAMediaTimingFillMode.removed
}
