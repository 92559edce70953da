/*
 * A consumer of the C exchange API (DLPack 1.2, a capsule since 1.3), in
 * plain C: the Python objects are opaque pointers here, and the caller
 * holds the GIL, since the producer's functions touch them.
 */
#include <stdio.h>

#include "dlpack_sum.h"

/* Sums a float64 array through its producer's table: no capsule, no
 * __dlpack__ call.  -1: the producer failed, with a Python exception
 * set. */
int exchange_sum(const DLPackExchangeAPI *api, void *py_object,
                 double *out) {
  if (api->header.version.major != DLPACK_MAJOR_VERSION)
    return SUM_UNKNOWN_MAJOR;
  DLManagedTensorVersioned *m = NULL;
  if (api->managed_tensor_from_py_object_no_sync(py_object, &m) != 0)
    return -1;
  return dlpack_sum(m, out); /* calls the producer's deleter */
}

/* Where the allocator's SetError callback puts the producer's words: the
 * allocator reports through it so that it needs no Python API. */
typedef struct {
  char kind[32];
  char message[200];
} error_box;

static void set_error(void *ctx, const char *kind, const char *message) {
  error_box *box = (error_box *)ctx;
  snprintf(box->kind, sizeof box->kind, "%s", kind);
  snprintf(box->message, sizeof box->message, "%s", message);
}

/* A new array of the producer's own type holding 0, 1, ..., n - 1 as
 * float64, filled from C: the producer allocates it, this code writes it,
 * and the producer wraps it as one of its Python objects.  On failure,
 * `why` holds "kind: message" and *out_py_object is untouched. */
int exchange_arange(const DLPackExchangeAPI *api, int64_t n,
                    void **out_py_object, char *why, size_t why_size) {
  if (api->header.version.major != DLPACK_MAJOR_VERSION)
    return SUM_UNKNOWN_MAJOR;
  int64_t shape[1] = {n};
  /* only its device, ndim, dtype and shape are read */
  DLTensor prototype = {0};
  prototype.device.device_type = kDLCPU;
  prototype.ndim = 1;
  prototype.dtype.code = kDLFloat;
  prototype.dtype.bits = 64;
  prototype.dtype.lanes = 1;
  prototype.shape = shape;

  error_box box = {"", ""};
  DLManagedTensorVersioned *m = NULL;
  if (api->managed_tensor_allocator(&prototype, &m, &box, set_error)) {
    snprintf(why, why_size, "%s: %s", box.kind, box.message);
    return -1;
  }
  DLTensor *t = &m->dl_tensor;
  double *data = (double *)((char *)t->data + t->byte_offset);
  int64_t step = t->strides ? t->strides[0] : 1;
  for (int64_t i = 0; i < n; i++) data[i * step] = (double)i;
  /* The producer takes the managed tensor over, on failure too. */
  if (api->managed_tensor_to_py_object_no_sync(m, out_py_object) != 0) {
    snprintf(why, why_size, "(a Python exception is set)");
    return -1;
  }
  return 0;
}
