#include "cx11.h"

int cx11_shim_version(void) { return 1; }
