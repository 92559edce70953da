/*
 * A DLPack consumer in plain C: adds up a float64 tensor it takes over.
 * Every rule it follows is the DLPack 1.3 header's (csrc/dlpack.h).
 */
#include "dlpack_sum.h"

#include <stddef.h>

/* Hands the tensor back to its producer.  The header lets the deleter be
 * NULL when the producer has nothing to free. */
static void release(DLManagedTensorVersioned *m) {
  if (m->deleter) m->deleter(m);
}

/* Sums the elements of `t`, which has passed the checks below. */
static double sum_elements(const DLTensor *t) {
  int64_t size = 1;
  for (int32_t d = 0; d < t->ndim; d++) size *= t->shape[d];
  if (size == 0) return 0.0; /* no element: data, strides mean nothing */

  /* Strides count elements (not bytes).  Since 1.2 they are never NULL
   * when ndim > 0; before, NULL meant compact row-major: build those. */
  int64_t compact[SUM_MAX_DIMS];
  const int64_t *strides = t->strides;
  if (!strides) {
    int64_t step = 1;
    for (int32_t d = t->ndim - 1; d >= 0; d--) {
      compact[d] = step;
      step *= t->shape[d];
    }
    strides = compact;
  }

  /* Element 0 is at data + byte_offset; strides may be negative or 0. */
  const char *base = (const char *)t->data + t->byte_offset;
  const double *first = (const double *)base;
  int64_t index[SUM_MAX_DIMS] = {0};
  double total = 0.0;
  for (int64_t n = 0; n < size; n++) {
    int64_t at = 0;
    for (int32_t d = 0; d < t->ndim; d++) at += index[d] * strides[d];
    total += first[at];
    /* the next index, the last dimension fastest */
    for (int32_t d = t->ndim - 1; d >= 0; d--) {
      if (++index[d] < t->shape[d]) break;
      index[d] = 0;
    }
  }
  return total;
}

int dlpack_sum(DLManagedTensorVersioned *m, double *out) {
  /* The version first: past the prefix (version, manager_ctx, deleter,
   * flags) another major version may lay the struct out differently, but
   * the deleter is where it always was, and must be called. */
  if (m->version.major != DLPACK_MAJOR_VERSION) {
    release(m);
    return SUM_UNKNOWN_MAJOR;
  }
  const DLTensor *t = &m->dl_tensor;
  int status = SUM_OK;
  DLDeviceType where = t->device.device_type;
  DLDataType type = t->dtype;
  if (where != kDLCPU && where != kDLCUDAHost && where != kDLROCMHost &&
      where != kDLCUDAManaged)
    status = SUM_NOT_ON_CPU;
  else if (type.code != kDLFloat || type.bits != 64 || type.lanes != 1)
    status = SUM_NOT_FLOAT64;
  else if (t->ndim < 0 || t->ndim > SUM_MAX_DIMS)
    status = SUM_TOO_MANY_DIMS;
  else
    *out = sum_elements(t);
  release(m); /* done reading: the producer may free the memory now */
  return status;
}
