/*
 * The DLPack core: what a DLPack producer and consumer do, in plain C.
 *
 * Export builds a managed tensor over an array; import validates a foreign
 * tensor field by field and adopts its memory.  Nothing here touches a
 * Python object, so all of it runs without the GIL, on any thread, and
 * during interpreter shutdown; capsules, the exchange-API table and the
 * Python errors are the bindings' (csrc/py/dlpack_*.c).  Errors leave as -1 or
 * NULL plus a message that names the field and its value, as the exchange
 * API's SetError reports them.
 *
 * Ownership in one picture:
 *
 *   export:  NDArray --handle--> ma_array --buf--> ma_buffer (refcount)
 *            capsule --> [DLManagedTensor(Versioned) | shape | strides]
 *                         manager_ctx = the ma_buffer, one reference
 *            The deleter drops that reference and frees the block.
 *
 *   import:  producer's managed tensor --(validated, then its capsule
 *            renamed used_* by the binding)--> adopted: a foreign ma_buffer
 *            whose release callback calls the producer's deleter, exactly
 *            once, when the last view dies.
 *
 * The order is the rule that keeps a refused tensor its producer's: validate
 * every field first (ma_dlpack_check), only then take the tensor over
 * (ma_dlpack_adopt), which always consumes it.
 */
#include "dlpack_core.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The message of a refusal; always -1, for `return refuse(...)`. */
static int refuse(ma_dlpack_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->text, sizeof err->text, fmt, ap);
  va_end(ap);
  return -1;
}

/* ---- devices ------------------------------------------------------------ */

const char *ma_dlpack_device_label(int32_t type) {
  switch (type) {
    case kDLCPU: return "CPU";
    case kDLCUDA: return "CUDA";
    case kDLCUDAHost: return "CUDAHost";
    case kDLOpenCL: return "OpenCL";
    case kDLVulkan: return "Vulkan";
    case kDLMetal: return "Metal";
    case kDLVPI: return "VPI";
    case kDLROCM: return "ROCM";
    case kDLROCMHost: return "ROCMHost";
    case kDLExtDev: return "ExtDev";
    case kDLCUDAManaged: return "CUDAManaged";
    case kDLOneAPI: return "OneAPI";
    case kDLWebGPU: return "WebGPU";
    case kDLHexagon: return "Hexagon";
    case kDLMAIA: return "MAIA";
    case kDLTrn: return "Trn";
  }
  return "unknown device type";
}

/* Memory the CPU can address directly: plain host memory, pinned host
 * memory and CUDA managed (unified) memory. */
int ma_dlpack_cpu_accessible(int32_t type) {
  return type == kDLCPU || type == kDLCUDAHost || type == kDLROCMHost || type == kDLCUDAManaged;
}

/* ======================================================================== */
/* Export                                                                   */
/* ======================================================================== */

/* The deleters: drop the managed tensor's buffer reference and free the one
 * block holding struct, shape and strides.  Releasing an owned buffer
 * touches no Python object, so they need no GIL; a foreign buffer's release
 * callback (ma_buffer_for_object, csrc/py/pyapi.c) takes the GIL itself when
 * it needs it. */
static void export_deleter_versioned(DLManagedTensorVersioned *self) {
  ma_buffer_release((ma_buffer *)self->manager_ctx);
  free(self);
}

static void export_deleter_legacy(DLManagedTensor *self) {
  ma_buffer_release((ma_buffer *)self->manager_ctx);
  free(self);
}

/* One allocation: the managed struct, then shape[ndim], then strides[ndim];
 * NULL when out of memory (no error set: callers without the GIL use it).
 * data points at element 0 and byte_offset is 0: older PyTorch, IREE and
 * cuda.core ignored byte_offset (docs/dlpack/pitfalls.md, "byte_offset
 * ignored"), and the header's 256-byte alignment rule is ignored by every
 * major producer.  A size-0
 * array keeps its (valid, non-NULL) pointer: some consumers reject NULL
 * (cccl#11605) while none rejects a pointer. */
void *ma_dlpack_managed_new(const ma_array *a, int versioned, uint64_t flags) {
  int nd = a->t.ndim;
  size_t head = versioned ? sizeof(DLManagedTensorVersioned) : sizeof(DLManagedTensor);
  char *block = (char *)malloc(head + 2 * (size_t)nd * sizeof(int64_t));
  if (!block) return NULL;
  int64_t *dims = (int64_t *)(block + head);
  if (nd) {
    memcpy(dims, a->t.shape, (size_t)nd * sizeof(int64_t));
    memcpy(dims + nd, a->t.strides, (size_t)nd * sizeof(int64_t));
  }
  DLTensor t = a->t;
  t.shape = dims;        /* for ndim 0 a valid pointer to no entries */
  t.strides = dims + nd; /* always filled: mandatory since DLPack 1.2 */
  t.byte_offset = 0;
  ma_buffer_retain(a->buf);
  if (versioned) {
    DLManagedTensorVersioned *m = (DLManagedTensorVersioned *)block;
    m->version.major = DLPACK_MAJOR_VERSION;
    m->version.minor = DLPACK_MINOR_VERSION;
    m->manager_ctx = a->buf;
    m->deleter = export_deleter_versioned;
    /* sub-byte elements are stored one per byte; DLPack assumes them packed
     * unless this flag says otherwise (dlpack.h, DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) */
    m->flags = flags | (ma_is_subbyte(a->t.dtype) ? DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED : 0);
    m->dl_tensor = t;
  } else {
    DLManagedTensor *m = (DLManagedTensor *)block;
    m->dl_tensor = t;
    m->manager_ctx = a->buf;
    m->deleter = export_deleter_legacy;
  }
  return block;
}

void ma_dlpack_managed_free(void *m, int versioned) {
  if (versioned)
    export_deleter_versioned((DLManagedTensorVersioned *)m);
  else
    export_deleter_legacy((DLManagedTensor *)m);
}

/* ======================================================================== */
/* Import                                                                   */
/* ======================================================================== */

/* Release callbacks of the foreign buffer over an imported tensor: call the
 * producer's deleter, exactly once (ma_buffer guarantees once).  The spec
 * requires producers' deleters to be callable without the GIL (NumPy's
 * takes it itself), so none is taken here. */
void ma_dlpack_release_versioned(void *ctx) {
  DLManagedTensorVersioned *m = (DLManagedTensorVersioned *)ctx;
  if (m->deleter) m->deleter(m);
}

void ma_dlpack_release_legacy(void *ctx) {
  DLManagedTensor *m = (DLManagedTensor *)ctx;
  if (m->deleter) m->deleter(m);
}

/* The byte offsets, from the first element, of the lowest element and of the
 * highest one that views of `t` can address: -1 if they overflow.  Sign by
 * sign, not with |stride| (negating INT64_MIN would itself overflow); axes
 * of length 0 have no element to reach.  Every stride, on whatever axis,
 * must also fit in bytes: minarray keeps strides in elements and reports
 * (and steps by) stride x itemsize, which has to be an int64. */
static int strided_span(const DLTensor *t, int64_t item, int64_t *lo, int64_t *hi) {
  *lo = *hi = 0;
  for (int i = 0; i < t->ndim; i++) {
    int64_t step;
    if (__builtin_mul_overflow(t->strides[i], item, &step)) return -1;
    if (t->shape[i] == 0) continue;
    if (__builtin_mul_overflow(t->strides[i], t->shape[i] - 1, &step) ||
        __builtin_add_overflow(step < 0 ? *lo : *hi, step, step < 0 ? lo : hi))
      return -1;
  }
  return __builtin_mul_overflow(*lo, item, lo) || __builtin_mul_overflow(*hi, item, hi) ? -1 : 0;
}

/* Whether every byte from first + lo to the end of the element at first + hi
 * has an address: the span may not wrap around the address space (the
 * kernels' pointer arithmetic would be undefined). */
static int span_fits(uintptr_t first, int64_t lo, int64_t hi, int64_t item) {
  uintptr_t end;
  return first >= (uintptr_t)0 - (uintptr_t)lo && !__builtin_add_overflow(first, (uintptr_t)hi + (uintptr_t)item, &end);
}

/* Where an empty tensor's element 0 is: data + byte_offset in integers (they
 * may not add up as pointers), NULL when data is NULL. */
static uintptr_t empty_first(const DLTensor *t) {
  return t->data ? (uintptr_t)t->data + (uintptr_t)t->byte_offset : 0;
}

/* An empty tensor is never read, but views and loops still compute element
 * addresses from its data pointer and strides, and those must not wrap the
 * address space either.  1: its own strides are safe; 0: they are not (or
 * NULL) but C-contiguous ones are; -1: not even those. */
static int empty_layout(const DLTensor *t, int64_t item) {
  uintptr_t first = empty_first(t);
  int64_t lo, hi;
  if (t->strides && strided_span(t, item, &lo, &hi) == 0 && span_fits(first, lo, hi, item)) return 1;
  /* C-contiguous strides reach (product of the non-zero dims - 1) elements,
   * which ma_nbytes bounded */
  int64_t n = 1;
  for (int i = 0; i < t->ndim; i++)
    if (t->shape[i]) n *= t->shape[i];
  return span_fits(first, 0, (n - 1) * item, item) ? 0 : -1;
}

int ma_dlpack_check(const DLTensor *t, int opts, size_t *nbytes, ma_dlpack_error *err) {
  int any_device = (opts & MA_CHECK_ANY_DEVICE) != 0;
  if (t->ndim < 0 || t->ndim > MA_MAXDIMS)
    return refuse(err, "DLPack tensor has ndim=%d; minarray supports 0 to %d dimensions", (int)t->ndim,
                  MA_MAXDIMS);
  int tid = ma_type_of(t->dtype);
  if (tid < 0 && t->dtype.lanes != 1)
    return refuse(err, "DLPack dtype (code %d, bits %d, lanes %d) is a vector type; minarray needs lanes=1",
                  (int)t->dtype.code, (int)t->dtype.bits, (int)t->dtype.lanes);
  if (tid < 0)
    return refuse(err,
                  "DLPack dtype (code %d, bits %d) has no minarray equivalent (supported: bool, int1/2/4/8-64, "
                  "uint1/2/4/8-64, float16, bfloat16, float32, float64, complex32/64/128, the float8, float6 "
                  "and float4 formats of DLPack 1.3)",
                  (int)t->dtype.code, (int)t->dtype.bits);
  if (ma_is_subbyte(t->dtype) && !(opts & (MA_CHECK_PADDED | MA_CHECK_PACKED)))
    return refuse(err,
                  "DLPack tensor of %d-bit elements is packed (several to a byte: its flags lack "
                  "IS_SUBBYTE_TYPE_PADDED, or it came in a legacy capsule, which cannot say it); "
                  "minarray stores them one per byte, so it can only import them as a copy "
                  "(copy=None or True unpacks them)",
                  (int)t->dtype.bits);
  if (ma_is_subbyte(t->dtype) && !(opts & MA_CHECK_PADDED) && !ma_dlpack_cpu_accessible(t->device.device_type))
    return refuse(err,
                  "DLPack tensor of packed %d-bit elements lives on %s:%d; minarray would have to unpack "
                  "them, and it cannot read that memory",
                  (int)t->dtype.bits, ma_dlpack_device_label(t->device.device_type), (int)t->device.device_id);
  if (any_device && strcmp(ma_dlpack_device_label(t->device.device_type), "unknown device type") == 0)
    return refuse(err, "the DLPack tensor names device type %d, which DLPack %d.%d does not define",
                  (int)t->device.device_type, DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
  if (!any_device && !ma_dlpack_cpu_accessible(t->device.device_type))
    return refuse(err,
                  "the DLPack tensor lives on %s:%d (device type %d); minarray arrays live on the CPU: "
                  "pass device='cpu' to ask the producer for a copy",
                  ma_dlpack_device_label(t->device.device_type), (int)t->device.device_id,
                  (int)t->device.device_type);
  if (t->ndim > 0 && !t->shape)
    return refuse(err, "DLPack tensor has ndim=%d but a NULL shape", (int)t->ndim);
  for (int i = 0; i < t->ndim; i++)
    if (t->shape[i] < 0)
      return refuse(err, "DLPack tensor has a negative dimension (shape[%d] = %lld)", i,
                    (long long)t->shape[i]);
  int64_t item = ma_type_size[tid];
  if (ma_nbytes(t->ndim, t->shape, (size_t)item, nbytes) != 0)
    return refuse(err, "DLPack tensor is too large: its size in bytes overflows");
  if (*nbytes == 0) {
    /* nothing is read: data and strides need not point at memory */
    if (empty_layout(t, item) >= 0) return 0;
    return refuse(err,
                  "empty DLPack tensor data (%p + byte_offset %llu) is so close to the end of the "
                  "address space that its element offsets would wrap around it",
                  t->data, (unsigned long long)t->byte_offset);
  }
  /* strides NULL means C-contiguous: within nbytes, already checked */
  int64_t lo = 0, hi = (int64_t)*nbytes - item;
  if (t->strides && strided_span(t, item, &lo, &hi) < 0)
    return refuse(err, "DLPack tensor strides overflow the address space");
  if (!t->data) return refuse(err, "DLPack tensor has a NULL data pointer but is not empty");
  if (t->byte_offset > (uint64_t)INT64_MAX) return refuse(err, "DLPack tensor byte_offset is out of range");
  uintptr_t first;
  if (__builtin_add_overflow((uintptr_t)t->data, (uintptr_t)t->byte_offset, &first) ||
      !span_fits(first, lo, hi, item))
    return refuse(err,
                  "DLPack tensor data (%p + byte_offset %llu) with its shape and strides reaches beyond "
                  "the address space",
                  t->data, (unsigned long long)t->byte_offset);
  if (first % (uintptr_t)ma_type_alignment(tid) && !(opts & MA_CHECK_UNALIGNED))
    return refuse(err, "DLPack tensor data (%p + byte_offset %llu) is not aligned to its %lld-byte elements",
                  t->data, (unsigned long long)t->byte_offset, (long long)item);
  return 0;
}

ma_array *ma_dlpack_adopt(const DLTensor *t, size_t nbytes, ma_release_fn release, void *ctx,
                          uint32_t flags, void *mem) {
  /* For an empty tensor the sum is done in integers (empty_first) */
  char *data = nbytes ? (char *)t->data + t->byte_offset : (char *)empty_first(t);
  ma_buffer *b = ma_buffer_foreign(data, nbytes, release, ctx);
  if (!b) {
    release(ctx);
    return NULL;
  }
  /* An empty tensor keeps its strides when the element offsets views
   * compute from them stay inside the address space, else it takes
   * C-contiguous ones (ma_check_tensor made sure those do). */
  const int64_t *strides = t->strides;
  if (nbytes == 0 && empty_layout(t, ma_type_size[ma_type_of(t->dtype)]) == 0) strides = NULL;
  ma_array *a = mem ? ma_array_init(mem, NULL, data, t->dtype, t->ndim, t->shape, strides, flags)
                   : ma_array_new(NULL, data, t->dtype, t->ndim, t->shape, strides, flags);
  if (!a) {
    ma_buffer_release(b); /* the only reference: the release runs */
    return NULL;
  }
  a->buf = b; /* the array takes over the buffer's one reference */
  a->t.device = t->device;
  return a;
}

ma_array *ma_dlpack_unpack(const ma_array *a) {
  int err = 0, nd = a->t.ndim, bits = a->t.dtype.bits;
  ma_array *out = ma_array_empty(a->t.dtype, nd, a->t.shape, 0, &err);
  if (!out) return NULL;
  int64_t n = ma_array_size(a), idx[MA_MAXDIMS] = {0}, e = 0; /* e: the element offset of idx */
  const uint8_t *src = (const uint8_t *)a->t.data;
  uint8_t *dst = (uint8_t *)out->t.data;
  const unsigned mask = (1u << bits) - 1;
  for (int64_t k = 0; k < n; k++) {
    /* e < 0 with negative strides: the byte is then the floor of bit / 8 */
    int64_t bit = e * bits, byte = bit >= 0 ? bit / 8 : -((7 - bit) / 8);
    unsigned shift = (unsigned)(bit - byte * 8), v = src[byte];
    if (shift + (unsigned)bits > 8) v |= (unsigned)src[byte + 1] << 8; /* a 6-bit element across bytes */
    dst[k] = (uint8_t)((v >> shift) & mask);
    /* the next index in C order, and its element offset */
    for (int d = nd - 1; d >= 0; d--) {
      e += a->t.strides[d];
      if (++idx[d] < a->t.shape[d]) break;
      e -= a->t.strides[d] * a->t.shape[d];
      idx[d] = 0;
    }
  }
  return out;
}

int ma_dlpack_aligned(const ma_array *a) {
  int tid = ma_type_of(a->t.dtype);
  return tid < 0 || (uintptr_t)a->t.data % (uintptr_t)ma_type_alignment(tid) == 0;
}

/* The copy=True import of misaligned data (the Array API: copy=True
 * "always copies", so what cannot be viewed in place can still be copied):
 * the kernels would load misaligned elements, so the bytes move first,
 * with memcpy, which has no alignment to respect. */
ma_array *ma_dlpack_realign(const ma_array *a) {
  int64_t item = ma_elsize(a->t.dtype), lo = 0, hi = 0;
  size_t nbytes;
  if (ma_nbytes(a->t.ndim, a->t.shape, (size_t)item, &nbytes) != 0) return NULL;
  if (nbytes == 0 || strided_span(&a->t, item, &lo, &hi) != 0) {
    int err = 0;
    return ma_array_empty(a->t.dtype, a->t.ndim, a->t.shape, 0, &err);
  }
  ma_buffer *b = ma_buffer_new((size_t)(hi - lo + item), 0);
  if (!b) return NULL;
  memcpy(b->data, (const char *)a->t.data + lo, (size_t)(hi - lo + item));
  ma_array *v = ma_array_new(b, (char *)b->data - lo, a->t.dtype, a->t.ndim, a->t.shape, a->t.strides, 0);
  ma_buffer_release(b); /* the view holds it, or nobody: then it is freed */
  return v;
}
