// The ImageIO module: Apple's image-source and image-destination names over the
// CoreGraphics module's PNG/JPEG codecs. Reads PNG and JPEG, writes PNG.
@_exported import CoreGraphics
import Foundation

/// The PNG type identifier (`public.png`).
public var kUTTypePNG: CFString { "public.png" }
/// The JPEG type identifier (`public.jpeg`).
public var kUTTypeJPEG: CFString { "public.jpeg" }

/// A source of encoded images (one image per PNG or JPEG file).
public final class CGImageSource: @unchecked Sendable {   // immutable after init
    let data: Data
    let kind: ImageCodec.Kind?
    init(data: Data) { self.data = data; self.kind = ImageCodec.sniff(data) }
}

/// The state of an image source.
public enum CGImageSourceStatus: Int32, Sendable {
    case statusUnexpectedEOF = -5, statusInvalidData = -4, statusUnknownType = -3
    case statusReadingHeader = -2, statusIncomplete = -1, statusComplete = 0
}

/// An image source over a file; nil when the file cannot be read.
public func CGImageSourceCreateWithURL(_ url: CFURL, _ options: CFDictionary?) -> CGImageSource? {
    guard let u = url as URL?, let d = try? Data(contentsOf: u) else { return nil }
    return CGImageSource(data: d)
}

/// An image source over bytes in memory.
public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? {
    CGImageSource(data: Data(copying: data))
}

/// The number of images in the source: 1 for a recognised PNG or JPEG, else 0.
public func CGImageSourceGetCount(_ isrc: CGImageSource) -> Int { isrc.kind == nil ? 0 : 1 }

/// The source's type identifier, or nil when unrecognised.
public func CGImageSourceGetType(_ isrc: CGImageSource) -> CFString? {
    isrc.kind.map { NSString(string: $0.rawValue) }
}

/// Complete for a recognised type, else `statusUnknownType`.
public func CGImageSourceGetStatus(_ isrc: CGImageSource) -> CGImageSourceStatus {
    isrc.kind == nil ? .statusUnknownType : .statusComplete
}

/// Decodes image `index`; nil for an index other than 0 or a corrupt, truncated or too-large image.
public func CGImageSourceCreateImageAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CGImage? {
    guard index == 0 else { return nil }
    return ImageCodec.decode(isrc.data)
}

/// A destination that encodes images (PNG only) to a file or a data object.
public final class CGImageDestination: @unchecked Sendable {   // used from one thread, as Apple's
    let url: URL?
    let sink: NSMutableData?
    var image: CGImage?
    var finalized = false
    init(url: URL?, sink: NSMutableData?) { self.url = url; self.sink = sink }
}

/// The type identifiers destinations can write.
public func CGImageDestinationCopyTypeIdentifiers() -> CFArray { [kUTTypePNG] as NSArray }

/// A PNG destination writing to `url`; nil for any other type.
public func CGImageDestinationCreateWithURL(_ url: CFURL, _ type: CFString, _ count: Int,
                                            _ options: CFDictionary?) -> CGImageDestination? {
    guard String(describing: type) == "public.png", count >= 1, let u = url as URL? else { return nil }
    return CGImageDestination(url: u, sink: nil)
}

/// A PNG destination appending to `data`; nil for any other type.
public func CGImageDestinationCreateWithData(_ data: CFMutableData, _ type: CFString, _ count: Int,
                                             _ options: CFDictionary?) -> CGImageDestination? {
    guard String(describing: type) == "public.png", count >= 1 else { return nil }
    return CGImageDestination(url: nil, sink: data)
}

/// Sets the image to write (a PNG holds one; a later call replaces it).
public func CGImageDestinationAddImage(_ idst: CGImageDestination, _ image: CGImage, _ properties: CFDictionary?) {
    idst.image = image
}

/// Encodes and writes the image; false when there is none, it was already finalised, or writing failed.
public func CGImageDestinationFinalize(_ idst: CGImageDestination) -> Bool {
    guard !idst.finalized, let image = idst.image, let png = ImageCodec.encodePNG(image) else { return false }
    idst.finalized = true
    if let sink = idst.sink { sink.append(png); return true }
    guard let url = idst.url else { return false }
    return (try? png.write(to: url)) != nil
}
