#include "array.h"

#include <stdlib.h>
#include <string.h>

/* The arrays below expand dtypes.def's rows, indexed by type id. */
#define MA_KERNEL_TYPE(e, name, code, bits, kind, typestr, format) [e] = ((bits) + 7) / 8,
#define MA_STORAGE_TYPE MA_KERNEL_TYPE
const int ma_type_size[MA_NALLTYPES] = {
#include "dtypes.def"
};
#undef MA_KERNEL_TYPE
#undef MA_STORAGE_TYPE

#define MA_KERNEL_TYPE(e, name, code, bits, kind, typestr, format) [e] = {code, bits, 1},
#define MA_STORAGE_TYPE MA_KERNEL_TYPE
const DLDataType ma_dltypes[MA_NALLTYPES] = {
#include "dtypes.def"
};
#undef MA_KERNEL_TYPE
#undef MA_STORAGE_TYPE

#define MA_KERNEL_TYPE(e, name, code, bits, kind, typestr, format) [e] = kind,
#define MA_STORAGE_TYPE MA_KERNEL_TYPE
const char ma_type_kind[MA_NALLTYPES] = {
#include "dtypes.def"
};
#undef MA_KERNEL_TYPE
#undef MA_STORAGE_TYPE

#define MA_KERNEL_TYPE(e, name, code, bits, kind, typestr, format) [e] = #name,
#define MA_STORAGE_TYPE MA_KERNEL_TYPE
const char *const ma_type_name[MA_NALLTYPES] = {
#include "dtypes.def"
};
#undef MA_KERNEL_TYPE
#undef MA_STORAGE_TYPE

/* Type id + 1 by DLPack (code, bits); 0 where minarray has no type.  A
 * table rather than a search: every import and cast asks. */
#define MAX_CODE kDLFloat4_e2m1fn
#define MAX_BITS 128
#define MA_KERNEL_TYPE(e, name, code, bits, kind, typestr, format) [code][bits] = (e) + 1,
#define MA_STORAGE_TYPE MA_KERNEL_TYPE
static const unsigned char type_by_code_bits[MAX_CODE + 1][MAX_BITS + 1] = {
#include "dtypes.def"
};
#undef MA_KERNEL_TYPE
#undef MA_STORAGE_TYPE

int ma_type_of(DLDataType dt) {
  if (dt.lanes != 1 || dt.code > MAX_CODE || dt.bits > MAX_BITS) return -1;
  return (int)type_by_code_bits[dt.code][dt.bits] - 1;
}

int64_t ma_type_alignment(int tid) {
  int64_t s = ma_type_size[tid];
  return ma_type_kind[tid] == 'c' ? s / 2 : s;
}

/* dst[0..n) = src[0..n).  Up to four dims (nearly every array) one by one:
 * memcpy of a few bytes whose bound gcc knows (MA_MAXDIMS) is compiled to
 * `rep movsq`, whose fixed start-up cost outweighs copying a few dims and
 * made the two copies a visible part of a view's time. */
static inline void copy_dims(int64_t *dst, const int64_t *src, int n) {
  switch (n) {
    case 4: dst[3] = src[3]; /* fall through */
    case 3: dst[2] = src[2]; /* fall through */
    case 2: dst[1] = src[1]; /* fall through */
    case 1: dst[0] = src[0]; /* fall through */
    case 0: break;
    default: memcpy(dst, src, (size_t)n * sizeof(int64_t));
  }
}

ma_array *ma_array_init(void *mem, ma_buffer *buf, void *data, DLDataType dtype, int ndim,
                        const int64_t *shape, const int64_t *strides, uint32_t flags) {
  if (ndim < 0 || ndim > MA_MAXDIMS) return NULL;
  ma_array *a = (ma_array *)mem;
  a->t.data = data;
  a->t.device.device_type = kDLCPU;
  a->t.device.device_id = 0;
  a->t.ndim = ndim;
  a->t.dtype = dtype;
  a->t.shape = ndim ? a->dims : NULL;
  a->t.strides = ndim ? a->dims + ndim : NULL;
  a->t.byte_offset = 0;
  copy_dims(a->dims, shape, ndim);
  if (strides) {
    copy_dims(a->dims + ndim, strides, ndim);
  } else {
    int64_t s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
      a->dims[ndim + i] = s;
      s *= shape[i] ? shape[i] : 1;
    }
  }
  a->buf = buf;
  a->flags = flags;
  if (buf) ma_buffer_retain(buf);
  return a;
}

void *ma_array_memory(int ndim) {
  return ndim < 0 || ndim > MA_MAXDIMS ? NULL : malloc(MA_ARRAY_BYTES(ndim));
}

ma_array *ma_array_new(ma_buffer *buf, void *data, DLDataType dtype, int ndim,
                       const int64_t *shape, const int64_t *strides,
                       uint32_t flags) {
  void *mem = ma_array_memory(ndim);
  return mem ? ma_array_init(mem, buf, data, dtype, ndim, shape, strides, flags) : NULL;
}

ma_array *ma_array_view_init(void *mem, const ma_array *a, int64_t offset, DLDataType dtype, int ndim,
                             const int64_t *shape, const int64_t *strides, uint32_t flags) {
  char *data = (char *)a->t.data + offset * ma_elsize(dtype);
  ma_array *v = ma_array_init(mem, a->buf, data, dtype, ndim, shape, strides, a->flags | flags);
  if (v) v->t.device = a->t.device; /* a view lives where its memory does */
  return v;
}

ma_array *ma_array_view(const ma_array *a, int64_t offset, DLDataType dtype, int ndim,
                        const int64_t *shape, const int64_t *strides, uint32_t flags) {
  void *mem = ma_array_memory(ndim);
  ma_array *v = mem ? ma_array_view_init(mem, a, offset, dtype, ndim, shape, strides, flags) : NULL;
  if (!v) free(mem);
  return v;
}

ma_array *ma_array_empty_init(void *mem, DLDataType dtype, int ndim, const int64_t *shape,
                              const int64_t *strides, int zero, int *err) {
  int tid = ma_type_of(dtype);
  size_t nbytes;
  if (tid < 0 || ndim < 0 || ndim > MA_MAXDIMS ||
      ma_nbytes(ndim, shape, (size_t)ma_type_size[tid], &nbytes) != 0) {
    *err = 1;
    return NULL;
  }
  ma_buffer *buf = ma_buffer_new(nbytes, zero);
  if (!buf) { *err = 2; return NULL; }
  ma_array *a = ma_array_init(mem, NULL, buf->data, dtype, ndim, shape, strides, 0);
  a->buf = buf; /* the array takes over the new buffer's one reference */
  return a;
}

ma_array *ma_array_empty(DLDataType dtype, int ndim, const int64_t *shape,
                         int zero, int *err) {
  void *mem = ma_array_memory(ndim);
  if (!mem) {
    *err = ndim < 0 || ndim > MA_MAXDIMS ? 1 : 2;
    return NULL;
  }
  ma_array *a = ma_array_empty_init(mem, dtype, ndim, shape, NULL, zero, err);
  if (!a) free(mem);
  return a;
}

void ma_array_clear(ma_array *a) {
  if (a) ma_buffer_release(a->buf);
}

void ma_array_free(ma_array *a) {
  if (!a) return;
  ma_array_clear(a);
  free(a);
}

int64_t ma_array_size(const ma_array *a) {
  int64_t n = 1;
  for (int i = 0; i < a->t.ndim; i++) n *= a->t.shape[i];
  return n;
}

int ma_array_is_contiguous(const ma_array *a, int fortran) {
  int nd = a->t.ndim;
  if (ma_array_size(a) == 0) return 1;
  int64_t expected = 1;
  for (int i = 0; i < nd; i++) {
    int d = fortran ? i : nd - 1 - i;
    if (a->t.shape[d] != 1 && a->t.strides[d] != expected) return 0;
    expected *= a->t.shape[d];
  }
  return 1;
}
