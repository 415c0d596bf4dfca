// The QuartzCore module: Core Animation's public API (CALayer, CAAnimation, CATransaction…).
// `import QuartzCore` alone gives CoreGraphics and Foundation too, as on Apple systems.
@_exported import CoreGraphics
@_exported import CoreText
