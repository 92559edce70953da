/*
 * The C view of an array: a DLTensor over a buffer.
 *
 * minarray's metadata *is* a DLTensor (data at element 0, byte_offset 0,
 * strides in elements), so exporting through DLPack is a copy of a few
 * fields and kernels read the same struct the consumer would.
 */
#ifndef MINARRAY_ARRAY_H
#define MINARRAY_ARRAY_H

#include "buffer.h"
#include "dlpack.h"

#define MA_MAXDIMS 64

/* ma_array.flags */
#define MA_READONLY 1u

typedef struct ma_array {
  DLTensor t;     /* shape/strides point into dims[]; byte_offset is always 0 */
  ma_buffer *buf; /* one reference held by this view */
  uint32_t flags;
  int64_t dims[]; /* shape[ndim] then strides[ndim] */
} ma_array;

/* Element types the kernels know, in the order of their dispatch tables. */
typedef enum {
  MA_BOOL, MA_INT8, MA_INT16, MA_INT32, MA_INT64,
  MA_UINT8, MA_UINT16, MA_UINT32, MA_UINT64,
  MA_FLOAT16, MA_BFLOAT16, MA_FLOAT32, MA_FLOAT64,
  MA_COMPLEX64, MA_COMPLEX128,
  MA_NTYPES
} ma_type;

/* The kernel type of a DLPack dtype, or -1 when minarray has no such type
 * (lanes != 1, sub-byte floats, opaque handles...). */
int ma_type_of(DLDataType dt);
/* Bytes per element of a type id. */
extern const int ma_type_size[MA_NTYPES];
/* The DLPack dtype of a type id (the inverse of ma_type_of). */
extern const DLDataType ma_dltypes[MA_NTYPES];
/* cdef-begin: declared to cffi too (minarray/arrayinterface.py) */
/* The alignment an element's address needs: its size, or the size of one
 * part for complex types (C's own rule for _Complex). */
int64_t ma_type_alignment(int tid);
/* cdef-end */

/* A new view over `buf` (retained).  `strides` NULL means C-contiguous.
 * NULL when out of memory. */
ma_array *ma_array_new(ma_buffer *buf, void *data, DLDataType dtype, int ndim,
                       const int64_t *shape, const int64_t *strides,
                       uint32_t flags);
/* A new view over a's buffer starting `offset` elements of `dtype` from
 * a's element 0, keeping a's flags (a view of a read-only array stays
 * read-only) plus `flags`.  `strides` NULL means C-contiguous.  NULL when
 * out of memory. */
ma_array *ma_array_view(const ma_array *a, int64_t offset, DLDataType dtype, int ndim,
                        const int64_t *shape, const int64_t *strides, uint32_t flags);
/* A new C-contiguous array over a fresh owned buffer.  NULL on failure with
 * *err set to 1 (size overflow) or 2 (out of memory). */
ma_array *ma_array_empty(DLDataType dtype, int ndim, const int64_t *shape,
                         int zero, int *err);
void ma_array_free(ma_array *a);
int64_t ma_array_size(const ma_array *a);
/* C- (or with `fortran`, Fortran-) contiguity as NumPy defines it: the
 * elements tile memory in that order with no gaps; axes of length 1 may
 * have any stride, and an empty array is contiguous. */
int ma_array_is_contiguous(const ma_array *a, int fortran);

#endif
