// Two Swift runtime entry points that ClassLayout.swift needs and Swift code may not name
// directly (the compiler reserves their symbols). They use the C calling convention.
#include "cgsupport.h"

extern void *swift_allocObject(const void *metadata, size_t size, size_t alignMask);
extern void *swift_weakCopyInit(void *dest, void *src);

void *cgs_alloc_object(const void *metadata, size_t size, size_t align_mask) {
    return swift_allocObject(metadata, size, align_mask);
}

void cgs_weak_copy_init(void *dest, void *src) { swift_weakCopyInit(dest, src); }
