// The calling thread's name and stack, for the band workers (WorkerPool.swift) and their tests:
// glibc's extensions, which Swift's Glibc module does not bring in.
#define _GNU_SOURCE
#include <pthread.h>
#include "cgsupport.h"

void cgs_name_thread(const char *name) { pthread_setname_np(pthread_self(), name); }

long cgs_thread_stack_bytes(void) {
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
    size_t size = 0;
    pthread_attr_getstacksize(&attributes, &size);
    pthread_attr_destroy(&attributes);
    return (long)size;
}
