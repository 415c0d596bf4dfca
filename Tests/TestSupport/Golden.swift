import CoreGraphics
import Foundation
import Testing

/// How far a rendering may differ from its golden image. Exact unless a test says why.
public struct GoldenTolerance: Sendable {
    /// Largest allowed difference of any channel (0–255).
    public var maxChannelDelta: Int = 0
    /// How many pixels may differ by more than zero.
    public var maxDifferingPixels: Int = 0
    /// No difference allowed.
    public static let exact = GoldenTolerance()
    /// A tolerance; every use must say why at the call site.
    public init(maxChannelDelta: Int, maxDifferingPixels: Int) {
        self.maxChannelDelta = maxChannelDelta; self.maxDifferingPixels = maxDifferingPixels
    }
    init() {}
}

/// Golden-image comparison: renders are compared pixel by pixel with `Goldens/<name>.png` beside
/// the calling test file (e.g. `Tests/CoreGraphicsTests/Goldens/`).
///
/// - Exact by default; a tolerance must be passed explicitly and justified at the call site.
/// - On mismatch, `failures/<name>/{expected,actual,diff}.png` are written at the package root
///   and the failure message names the folder.
/// - `RECORD_GOLDENS=1` rewrites the goldens. A golden that does not exist yet is recorded and
///   the test still fails once, so that a person looks at it before it is trusted.
public enum Golden {
    /// The package's root folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The path of executable product `name` of the build these tests run from: beside the test
    /// executable (`.build/debug`, or `.build-asan`/`.build-tsan` for the sanitizer runs).
    public static func builtProduct(_ name: String) -> String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The gallery executable of the build these tests run from.
    public static let samplesBinary = builtProduct("samples")

    /// Compares `image` with the golden `name`.
    public static func check(_ name: String, _ image: CGImage, tolerance: GoldenTolerance = .exact,
                             file: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) {
        let goldenDir = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("Goldens")
        guard let png = ImageCodec.encodePNG(image), let actual = ImageCodec.decode(png) else {
            Issue.record("could not encode \(name)", sourceLocation: sourceLocation); return
        }
        let url = goldenDir.appendingPathComponent("\(name).png")
        let record = ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1"
        guard !record, let data = try? Data(contentsOf: url), let expected = ImageCodec.decode(data) else {
            try? FileManager.default.createDirectory(at: goldenDir, withIntermediateDirectories: true)
            try? png.write(to: url)
            if !record {
                Issue.record("recorded new golden \(url.path); look at it, then rerun", sourceLocation: sourceLocation)
            }
            return
        }
        guard expected.width == actual.width, expected.height == actual.height else {
            Issue.record("\(name): size \(actual.width)×\(actual.height), golden \(expected.width)×\(expected.height)",
                         sourceLocation: sourceLocation)
            writeFailure(name, expected: data, actual: png, diff: nil)
            return
        }
        var worst = 0, differing = 0
        var diffPixels = [UInt32](repeating: 0xFF00_0000, count: actual.width * actual.height)
        for y in 0..<actual.height {
            for x in 0..<actual.width {
                let a = actual.premultipliedPixel(x: x, y: y), e = expected.premultipliedPixel(x: x, y: y)
                var d = 0
                for shift in stride(from: 0, through: 24, by: 8) {
                    d = max(d, abs(Int((a >> UInt32(shift)) & 255) - Int((e >> UInt32(shift)) & 255)))
                }
                if d > 0 {
                    differing += 1
                    diffPixels[y * actual.width + x] = 0xFF00_0000 | UInt32(min(255, 64 + d * 4)) << 16
                }
                worst = max(worst, d)
            }
        }
        if worst > tolerance.maxChannelDelta || differing > tolerance.maxDifferingPixels {
            let diff = diffImage(diffPixels, width: actual.width, height: actual.height)
            let folder = writeFailure(name, expected: data, actual: png, diff: diff)
            Issue.record("\(name): \(differing) pixels differ, largest channel delta \(worst); see \(folder.path)",
                         sourceLocation: sourceLocation)
        }
    }

    /// Compares a context's pixels with the golden `name`.
    public static func check(_ name: String, _ context: CGContext, tolerance: GoldenTolerance = .exact,
                             file: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let image = context.makeImage() else {
            Issue.record("makeImage failed for \(name)", sourceLocation: sourceLocation); return
        }
        check(name, image, tolerance: tolerance, file: file, sourceLocation: sourceLocation)
    }

    private static func diffImage(_ pixels: [UInt32], width: Int, height: Int) -> Data? {
        let bytes = pixels.withUnsafeBytes { Data($0) }
        let image = CGImage(width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: width * 4,
                            space: CGColorSpaceCreateDeviceRGB(),
                            bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue
                                                     | CGBitmapInfo.byteOrder32Little.rawValue),
                            provider: CGDataProvider(data: bytes as NSData)!, decode: nil,
                            shouldInterpolate: false, intent: .defaultIntent)
        return image.flatMap(ImageCodec.encodePNG)
    }

    @discardableResult
    private static func writeFailure(_ name: String, expected: Data, actual: Data, diff: Data?) -> URL {
        let folder = packageRoot.appendingPathComponent("failures/\(name)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? expected.write(to: folder.appendingPathComponent("expected.png"))
        try? actual.write(to: folder.appendingPathComponent("actual.png"))
        if let diff { try? diff.write(to: folder.appendingPathComponent("diff.png")) }
        return folder
    }
}

/// A premultiplied BGRA bitmap context (the native layout), cleared to transparent.
public func makeContext(_ width: Int, _ height: Int) -> CGContext {
    CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
              space: CGColorSpaceCreateDeviceRGB(),
              bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
}

/// Premultiplied 0xAARRGGBB at (x, y), origin top-left, of a native context.
public func pixel(_ ctx: CGContext, _ x: Int, _ y: Int) -> UInt32 {
    (ctx.data! + y * ctx.bytesPerRow).assumingMemoryBound(to: UInt32.self)[x]
}

/// How many pixels of a native context satisfy `predicate`.
public func countPixels(_ ctx: CGContext, where predicate: (UInt32) -> Bool) -> Int {
    var n = 0
    for y in 0..<ctx.height { for x in 0..<ctx.width where predicate(pixel(ctx, x, y)) { n += 1 } }
    return n
}

/// Whether the suite runs under a sanitizer (`make asan`, `make tsan` set CA_SANITIZER): tests
/// that measure frame timing are off then — a sanitizer slows every frame several times over,
/// and the timing is the product's only without it.
public enum Sanitizers {
    public static let active = ProcessInfo.processInfo.environment["CA_SANITIZER"] != nil
}
