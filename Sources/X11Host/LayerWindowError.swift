import CX11
import Foundation

/// Why a `LayerWindow` could not open, or what it had to give up (shared memory), with the X
/// call that failed and the X error code when the server sent one.
public struct LayerWindowError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Reason: Equatable, Sendable {
        /// No X server could be reached at the display name (`$DISPLAY` unset, server down, access refused).
        case noDisplay
        /// The screen's default visual is not 24- or 32-bit TrueColor.
        case unsupportedVisual
        /// The server refused to create the window.
        case windowNotCreated
        /// No image buffer could be made for the window's pixels (out of memory).
        case noImageBuffers
        /// MIT-SHM was refused; the window fell back to XPutImage (not fatal: reported by `sharedMemoryFallback`).
        case sharedMemoryRefused
    }

    /// What went wrong.
    public var reason: Reason
    /// The X (or system) call that failed, such as `XOpenDisplay` or `XShmAttach`.
    public var request: String
    /// The X protocol error code the server sent (0 when the failure was not a protocol error).
    public var code: Int
    /// The display name that was tried, and any further detail.
    public var detail: String

    /// One line naming the reason, the call, the code and the detail.
    public var description: String {
        let what: String
        switch reason {
        case .noDisplay: what = "cannot open the X display"
        case .unsupportedVisual: what = "the screen's visual is not 24- or 32-bit TrueColor"
        case .windowNotCreated: what = "the X server did not create the window"
        case .noImageBuffers: what = "no image buffer could be allocated"
        case .sharedMemoryRefused: what = "MIT-SHM refused; using XPutImage"
        }
        return "\(what) (\(request)\(code != 0 ? ", X error \(code)" : "")\(detail.isEmpty ? "" : ": \(detail)"))"
    }
}

/// An X protocol error the window's connection received, kept with its request (Xlib reports
/// them asynchronously; `LayerWindow.protocolErrors` holds the last 64).
public struct XProtocolError: Equatable, CustomStringConvertible, Sendable {
    /// The error code (3 BadWindow, 10 BadAccess, …).
    public var code: Int
    /// Xlib's name for the code.
    public var codeName: String
    /// The major opcode of the failed request.
    public var requestCode: Int
    /// The request's name (`X_PutImage`, `MIT-SHM`…), or its number when unknown.
    public var requestName: String
    /// The minor opcode (extension requests).
    public var minorCode: Int
    /// The resource id the request named.
    public var resource: UInt
    /// The request's sequence number.
    public var serial: UInt

    /// One line: name, request and resource.
    public var description: String {
        "\(codeName) (code \(code)) in \(requestName) (\(requestCode).\(minorCode)), resource 0x\(String(resource, radix: 16))"
    }

    /// Takes the errors recorded for `display` from the shim's ring, with their names.
    static func take(from display: OpaquePointer) -> [XProtocolError] {
        var raw = [cx11_error](repeating: cx11_error(), count: 64)
        let n = Int(raw.withUnsafeMutableBufferPointer { cx11_take_errors(display, $0.baseAddress, 64) })
        return raw.prefix(n).map { e in
            XProtocolError(code: Int(e.error_code), codeName: text { cx11_error_text(display, e.error_code, $0, $1) },
                           requestCode: Int(e.request_code),
                           requestName: text { cx11_request_name(display, e.request_code, $0, $1) },
                           minorCode: Int(e.minor_code), resource: UInt(e.resource), serial: UInt(e.serial))
        }
    }

    private static func text(_ fill: (UnsafeMutablePointer<CChar>, Int32) -> Void) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        buffer.withUnsafeMutableBufferPointer { fill($0.baseAddress!, 127) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
