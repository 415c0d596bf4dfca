#ifndef CX11_H
#define CX11_H
// C shim over Xlib and MIT-SHM (filled by the X11 host issue). Prefixed `cx11_`; dumb by design.
#include <stdint.h>

/// Version of the shim API, for Swift to check it was built against this header.
int cx11_shim_version(void);

#endif
