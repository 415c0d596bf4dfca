// The X11Host module: the live window (Xlib + MIT-SHM), run-loop driver and events.
// It is the only module that talks to X. Filled by the X11 host issue.
@_exported import QuartzCore
import CX11

/// Facts about the X11 host build.
public enum X11HostInfo {
    /// The C shim's API version this module was built against.
    public static var shimVersion: Int { Int(cx11_shim_version()) }
}
