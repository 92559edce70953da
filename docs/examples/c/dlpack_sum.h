/*
 * A DLPack consumer in plain C: no Python.h, only the DLPack header.
 *
 * dlpack_sum() takes over a DLManagedTensorVersioned (from a capsule or
 * from a producer's C exchange API), adds up its float64 elements and
 * calls the producer's deleter: exactly once, on every path, refusals
 * included.
 */
#ifndef DLPACK_SUM_H
#define DLPACK_SUM_H

#include "dlpack.h"

/* What dlpack_sum() returns. */
enum {
  SUM_OK = 0,
  SUM_UNKNOWN_MAJOR = 1, /* a DLPack major version it cannot read */
  SUM_NOT_ON_CPU = 2,    /* memory the CPU cannot address */
  SUM_NOT_FLOAT64 = 3,   /* any dtype but (kDLFloat, 64, 1) */
  SUM_TOO_MANY_DIMS = 4, /* more dimensions than SUM_MAX_DIMS */
};
#define SUM_MAX_DIMS 32

int dlpack_sum(DLManagedTensorVersioned *m, double *out);

#endif
