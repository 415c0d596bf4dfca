import QuartzCore
import X11Host

// The gallery arrives with the X11 host issue; until then `make run` says so.
print("samples: the gallery is not built yet (X11 host shim v\(X11HostInfo.shimVersion)).")
