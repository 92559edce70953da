#include "array.h"

#include <stdlib.h>
#include <string.h>

const int ma_type_size[MA_NALLTYPES] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16,
                                        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1};

const DLDataType ma_dltypes[MA_NALLTYPES] = {
    {kDLBool, 8, 1},    {kDLInt, 8, 1},    {kDLInt, 16, 1},      {kDLInt, 32, 1},
    {kDLInt, 64, 1},    {kDLUInt, 8, 1},   {kDLUInt, 16, 1},     {kDLUInt, 32, 1},
    {kDLUInt, 64, 1},   {kDLFloat, 16, 1}, {kDLBfloat, 16, 1},   {kDLFloat, 32, 1},
    {kDLFloat, 64, 1},  {kDLComplex, 64, 1}, {kDLComplex, 128, 1},
    {kDLFloat8_e3m4, 8, 1}, {kDLFloat8_e4m3, 8, 1}, {kDLFloat8_e4m3b11fnuz, 8, 1},
    {kDLFloat8_e4m3fn, 8, 1}, {kDLFloat8_e4m3fnuz, 8, 1}, {kDLFloat8_e5m2, 8, 1},
    {kDLFloat8_e5m2fnuz, 8, 1}, {kDLFloat8_e8m0fnu, 8, 1}, {kDLFloat6_e2m3fn, 6, 1},
    {kDLFloat6_e3m2fn, 6, 1}, {kDLFloat4_e2m1fn, 4, 1}, {kDLComplex, 32, 1},
    {kDLInt, 1, 1}, {kDLInt, 2, 1}, {kDLInt, 4, 1}, {kDLUInt, 1, 1}, {kDLUInt, 2, 1}, {kDLUInt, 4, 1}};

int ma_type_of(DLDataType dt) {
  if (dt.lanes != 1) return -1;
  /* the narrow floats: one code each, of one width */
  if (dt.code >= kDLFloat8_e3m4 && dt.code <= kDLFloat4_e2m1fn) {
    int tid = MA_FLOAT8_E3M4 + (dt.code - kDLFloat8_e3m4);
    return dt.bits == ma_dltypes[tid].bits ? tid : -1;
  }
  switch (dt.code) {
    case kDLBool: return dt.bits == 8 ? MA_BOOL : -1;
    case kDLInt:
      switch (dt.bits) {
        case 1: return MA_INT1; case 2: return MA_INT2; case 4: return MA_INT4;
        case 8: return MA_INT8; case 16: return MA_INT16;
        case 32: return MA_INT32; case 64: return MA_INT64;
      }
      return -1;
    case kDLUInt:
      switch (dt.bits) {
        case 1: return MA_UINT1; case 2: return MA_UINT2; case 4: return MA_UINT4;
        case 8: return MA_UINT8; case 16: return MA_UINT16;
        case 32: return MA_UINT32; case 64: return MA_UINT64;
      }
      return -1;
    case kDLFloat:
      switch (dt.bits) {
        case 16: return MA_FLOAT16; case 32: return MA_FLOAT32;
        case 64: return MA_FLOAT64;
      }
      return -1;
    case kDLBfloat: return dt.bits == 16 ? MA_BFLOAT16 : -1;
    case kDLComplex:
      switch (dt.bits) {
        case 32: return MA_COMPLEX32;
        case 64: return MA_COMPLEX64; case 128: return MA_COMPLEX128;
      }
      return -1;
  }
  return -1;
}

int64_t ma_type_alignment(int tid) {
  int64_t s = ma_type_size[tid];
  return (tid == MA_COMPLEX32 || tid == MA_COMPLEX64 || tid == MA_COMPLEX128) ? s / 2 : s;
}

/* dst[0..n) = src[0..n).  Up to four dims (nearly every array) one by one:
 * memcpy of a few bytes whose bound gcc knows (MA_MAXDIMS) is compiled to
 * `rep movsq`, whose start-up cost (~20 cycles on AMD Zen 4) made the two
 * copies a tenth of a view's time. */
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
