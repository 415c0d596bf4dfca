import CoreGraphics
import Foundation
import LayerRender

/// A layer whose sublayers keep their 3D positions instead of being flattened into its plane:
/// Core Animation's CATransformLayer.
///
/// It draws nothing itself: background, contents, border, mask, masksToBounds, filters and shadow
/// are ignored, and its opacity applies to each sublayer separately (no group), as Apple documents.
/// Its sublayers (and theirs, through nested transform layers) are flattened once, into the plane
/// of the nearest ordinary ancestor, and drawn back to front by the depth of their centres
/// (painter's order: crossing planes are not split). `hitTest(_:)` never returns the transform
/// layer itself; its sublayers are hit through the same 3D chain, nearest first.
open class CATransformLayer: CALayer {
    /// Creates a transform layer.
    public override init() { super.init() }

    /// Creates a shadow copy of `layer`.
    public override init(layer: Any) { super.init(layer: layer) }

    /// Apple's archiving initialiser (archives are not supported on Linux: a default layer).
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    override func makeState() -> LayerState {
        var s = baseState()
        s.content = .transformLayer
        return s
    }

    override func presentationInstance() -> CALayer { CATransformLayer(layer: self) }
}
