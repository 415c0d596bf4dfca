import Foundation

/// A source of bytes for images: held in memory (Linux keeps every provider's data resident).
public final class CGDataProvider: @unchecked Sendable {   // immutable after init
    let bytes: Data

    /// A provider over a copy of `data`.
    public init?(data: CFData) { bytes = Data(copying: data) }

    /// A provider over the contents of a file URL; nil when it cannot be read.
    public init?(url: CFURL) {
        guard let u = url as URL?, let d = try? Data(contentsOf: u) else { return nil }
        bytes = d
    }

    /// A provider reading a file by path (Apple's `CGDataProvider(filename:)`).
    public init?(filename: UnsafePointer<CChar>) {
        guard let d = FileManager.default.contents(atPath: String(cString: filename)) else { return nil }
        bytes = d
    }

    /// A provider over `bytes`, kept as they are (no copy: `Data` is a value).
    package init(bytes: Data) { self.bytes = bytes }

    /// The provider's bytes.
    public var data: CFData? { bytes as NSData }
}

extension Data {
    /// A copy of `data`'s bytes in one block move. Foundation on Linux builds `Data(referencing:)`
    /// and `as Data` byte by byte through NSData's iterator, which costs a frame-sized image
    /// a fifth of a second; this is a memcpy.
    package init(copying data: NSData) {
        self = data.length == 0 ? Data() : Data(bytes: data.bytes, count: data.length)
    }
}
