/*
 * The DLPack core, in plain C (no Python): building a managed tensor over an
 * array, and validating and adopting a foreign one.  csrc/dlpack.h is the
 * ABI (the structs and constants of the specification); this is what
 * minarray does with it.  The bindings (csrc/py/dlpack_*.c) wrap these in
 * capsules, the C exchange API and Python errors.
 */
#ifndef MINARRAY_DLPACK_CORE_H
#define MINARRAY_DLPACK_CORE_H

#include "array.h"

/* Why a foreign tensor was refused: a sentence naming the field and its
 * value, for the binding to raise (BufferError) or report (SetError). */
typedef struct {
  char text[320];
} ma_dlpack_error;

/* "CUDA", "CUDAHost"...: the name of a DLDeviceType, for messages. */
const char *ma_dlpack_device_label(int32_t type);
/* Memory the CPU can address directly: plain host memory, pinned host
 * memory and CUDA managed (unified) memory. */
int ma_dlpack_cpu_accessible(int32_t type);

/* ---- export -------------------------------------------------------------- */

/* A managed tensor (DLManagedTensorVersioned when `versioned`, else the
 * legacy DLManagedTensor) viewing `a` (a versioned one of a sub-byte type
 * says IS_SUBBYTE_TYPE_PADDED; a legacy one cannot, so the binding refuses
 * to make it), in one allocation with its shape
 * and strides, holding one reference to a's buffer; its deleter drops that
 * reference and needs no GIL.  NULL when out of memory. */
void *ma_dlpack_managed_new(const ma_array *a, int versioned, uint64_t flags);
/* Run the deleter of a managed tensor ma_dlpack_managed_new made (for a
 * binding that could not hand it over). */
void ma_dlpack_managed_free(void *m, int versioned);

/* ---- import -------------------------------------------------------------- */

/* Options of ma_dlpack_check, or-ed. */
#define MA_CHECK_ANY_DEVICE 1 /* memory on any device: carried, never read */
#define MA_CHECK_UNALIGNED 2  /* data not aligned to its elements: it will be copied (ma_dlpack_realign) */
#define MA_CHECK_PADDED 4     /* the tensor's flags say IS_SUBBYTE_TYPE_PADDED */
#define MA_CHECK_PACKED 8     /* packed sub-byte elements are welcome: they will be unpacked (ma_dlpack_unpack) */

/* Validate every field of a foreign tensor minarray will read, before
 * anything is taken over: ndim, dtype, device (any, with
 * MA_CHECK_ANY_DEVICE), shape, the byte size (the product of the non-zero
 * dims must fit), the span the strides reach (no overflow, no wrapping of
 * the address space), data and its alignment (unless MA_CHECK_UNALIGNED).
 * 0 with *nbytes = size * itemsize, or -1 with *err saying what was wrong;
 * nothing is touched either way. */
int ma_dlpack_check(const DLTensor *t, int opts, size_t *nbytes, ma_dlpack_error *err);
/* Whether a's element 0 is aligned to its elements (ma_type_alignment). */
int ma_dlpack_aligned(const ma_array *a);
/* A private copy of `a` whose data may be misaligned (an import with
 * MA_CHECK_UNALIGNED): the bytes its strides reach, memcpy'd into an
 * aligned owned buffer, viewed with a's shape and strides.  NULL when out
 * of memory. */
ma_array *ma_dlpack_realign(const ma_array *a);
/* A new C-contiguous array of `a`'s shape holding its sub-byte elements one
 * per byte, read from packed memory: element e (the strides count elements)
 * lies at bit e * bits from `a`'s data, little bit-endian (DLPack's packed
 * layout: element 0 in the low bits of its byte).  Only for an import that
 * ma_dlpack_check accepted with MA_CHECK_PACKED, before anything else sees
 * it.  NULL when out of memory. */
ma_array *ma_dlpack_unpack(const ma_array *a);
/* Take over a tensor ma_dlpack_check accepted: a foreign buffer whose last
 * release calls `release(ctx)`, and a view honouring byte_offset, with
 * `flags` (MA_READONLY).  The view is built in `mem` (MA_ARRAY_BYTES of the
 * tensor's ndim, released by ma_array_clear) or, when mem is NULL,
 * allocated (ma_array_free).  Always consumes the tensor: NULL when out of
 * memory, after `release` ran. */
ma_array *ma_dlpack_adopt(const DLTensor *t, size_t nbytes, ma_release_fn release, void *ctx,
                          uint32_t flags, void *mem);
/* The release callbacks for ma_dlpack_adopt: the producer's deleter of a
 * versioned or a legacy managed tensor (`ctx`), called exactly once. */
void ma_dlpack_release_versioned(void *ctx);
void ma_dlpack_release_legacy(void *ctx);

#endif
