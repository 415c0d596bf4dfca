import Foundation

/// The project's fuzz targets: each takes any bytes and must return without crashing, hanging
/// or allocating beyond the documented budgets (docs/ARCHITECTURE.md, "Limits and budgets").
/// `make fuzz` runs them under libFuzzer with AddressSanitizer; `make test` replays their corpora.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// PNG and JPEG decoding through ImageIO, and the image drawn scaled into a context.
    case image
    /// Path building from an operation stream; fill, stroke, dash, `contains`, bounds.
    case path
    /// Layer-tree operations, transactions and animations, rendered at several times.
    case layers
    /// Attributed strings through Core Text lines and frames, and text layers.
    case text

    /// Runs the target on one input.
    public func run(_ data: [UInt8]) {
        switch self {
        case .image: ImageFuzz.run(data)
        case .path: PathFuzz.run(data)
        case .layers: LayerFuzz.run(data)
        case .text: TextFuzz.run(data)
        }
    }
}
