// swift-tools-version:6.0
import PackageDescription

// Module names mirror Apple's so that Apple code ports by changing nothing but the build.
// Layering (one direction only): CoreGraphics → QuartzCore → X11Host → samples.
let package = Package(
    name: "CoreAnimationLinux",
    products: [
        .library(name: "CoreGraphics", targets: ["CoreGraphics"]),
        .library(name: "ImageIO", targets: ["ImageIO"]),
        .library(name: "CoreText", targets: ["CoreText"]),
        .library(name: "QuartzCore", targets: ["QuartzCore"]),
        .library(name: "X11Host", targets: ["X11Host"]),
        .executable(name: "samples", targets: ["samples"]),
    ],
    targets: [
        // cairo + Pango (system libraries, via pkg-config).
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "pangocairo",
                       providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        // Dumb C helpers that cannot be written in Swift (libjpeg's setjmp error handling, two
        // Swift runtime entry points the compiler reserves, a cache prefetch hint).
        .target(name: "CGSupport", path: "Sources/CGSupport", linkerSettings: [.linkedLibrary("jpeg")]),
        // Swift Testing declares a cross-import overlay for a module named CoreGraphics;
        // this empty module makes `import Testing` work beside ours (see docs/ARCHITECTURE.md).
        .target(name: "_Testing_CoreGraphics", path: "Sources/_Testing_CoreGraphics"),
        .target(name: "CoreGraphics", dependencies: ["CCairo", "CGSupport", "_Testing_CoreGraphics"],
                path: "Sources/CoreGraphics"),
        .target(name: "ImageIO", dependencies: ["CoreGraphics"], path: "Sources/ImageIO"),
        // Core Text's subset that layer code draws text with, on Pango.
        .target(name: "CoreText", dependencies: ["CoreGraphics", "CCairo"], path: "Sources/CoreText"),
        // The render engine: snapshot types, timing maths, interpolation and the compositor.
        // Package-internal API; it never imports QuartzCore.
        .target(name: "LayerRender", dependencies: ["CoreGraphics", "CGSupport"], path: "Sources/LayerRender"),
        .target(name: "QuartzCore", dependencies: ["CoreGraphics", "CoreText", "LayerRender", "CGSupport"], path: "Sources/QuartzCore"),
        .target(name: "CX11", path: "Sources/CX11",
                linkerSettings: [.linkedLibrary("X11"), .linkedLibrary("Xext"), .linkedLibrary("Xpresent"),
                                 .linkedLibrary("Xfixes")]),
        .target(name: "X11Host", dependencies: ["QuartzCore", "LayerRender", "CX11"], path: "Sources/X11Host"),
        // Fuzz targets (library) and their driver: libFuzzer's under `make fuzz`, a corpus replayer
        // in a plain build.
        .target(name: "FuzzTargets", dependencies: ["QuartzCore", "ImageIO", "CoreText"], path: "Sources/FuzzTargets"),
        .executableTarget(name: "fuzz", dependencies: ["FuzzTargets"], path: "Fuzz", exclude: ["Corpus", "lsan.supp"]),
        .executableTarget(name: "samples", dependencies: ["QuartzCore", "X11Host", "ImageIO"], path: "samples"),
        // The README's examples, built by `make test` (X11HostTests' ReadmeTests check they match it and run them).
        .executableTarget(name: "ReadmeWindow", dependencies: ["X11Host"], path: "Examples/ReadmeWindow"),
        .executableTarget(name: "ReadmeLayers", dependencies: ["X11Host"], path: "Examples/ReadmeLayers"),
        .executableTarget(name: "ReadmeDrawing", dependencies: ["CoreGraphics", "ImageIO"], path: "Examples/ReadmeDrawing"),
        // `make bench`: release-build benchmarks (never run as tests).
        .executableTarget(name: "bench", dependencies: ["QuartzCore", "LayerRender", "X11Host"], path: "Benchmarks/bench"),
        .target(name: "TestSupport", dependencies: ["CoreGraphics"], path: "Tests/TestSupport"),
        .testTarget(name: "CoreGraphicsTests", dependencies: ["CoreGraphics", "ImageIO", "TestSupport"],
                    path: "Tests/CoreGraphicsTests", exclude: ["Goldens", "Fixtures"]),
        .testTarget(name: "QuartzCoreTests", dependencies: ["QuartzCore", "TestSupport"], path: "Tests/QuartzCoreTests",
                    exclude: ["Goldens"]),
        .testTarget(name: "X11HostTests", dependencies: ["X11Host", "TestSupport", "CX11"], path: "Tests/X11HostTests"),
        .testTarget(name: "CoreTextTests", dependencies: ["CoreText", "QuartzCore", "TestSupport"], path: "Tests/CoreTextTests"),
        .testTarget(name: "LayerRenderTests", dependencies: ["LayerRender"], path: "Tests/LayerRenderTests"),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets", "TestSupport"], path: "Tests/FuzzTargetsTests",
                    exclude: ["Regressions"]),
    ],
    swiftLanguageModes: [.v6]
)
