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

/* Element types.  The first MA_NTYPES are the types the kernels know, in
 * the order of their dispatch tables.  The rest are storage types: arrays
 * hold them, casts convert them (csrc/core/gen/gen_cast.py), and arithmetic
 * on them goes through a wider type (float32, complex64, int8 or uint8).
 * The sub-byte ones (1, 2, 4 and 6 bits) take one byte per element, in its
 * low bits: DLPack's IS_SUBBYTE_TYPE_PADDED layout. */
typedef enum {
  MA_BOOL, MA_INT8, MA_INT16, MA_INT32, MA_INT64,
  MA_UINT8, MA_UINT16, MA_UINT32, MA_UINT64,
  MA_FLOAT16, MA_BFLOAT16, MA_FLOAT32, MA_FLOAT64,
  MA_COMPLEX64, MA_COMPLEX128,
  MA_NTYPES,
  /* the narrow floats, in the order of csrc/core/minifloat.h's table */
  MA_FLOAT8_E3M4 = MA_NTYPES, MA_FLOAT8_E4M3, MA_FLOAT8_E4M3B11FNUZ, MA_FLOAT8_E4M3FN,
  MA_FLOAT8_E4M3FNUZ, MA_FLOAT8_E5M2, MA_FLOAT8_E5M2FNUZ, MA_FLOAT8_E8M0FNU,
  MA_FLOAT6_E2M3FN, MA_FLOAT6_E3M2FN, MA_FLOAT4_E2M1FN,
  MA_COMPLEX32, /* two float16s, PyTorch's complex32 (chalf) */
  MA_INT1, MA_INT2, MA_INT4, MA_UINT1, MA_UINT2, MA_UINT4,
  MA_NALLTYPES
} ma_type;

/* The type of a DLPack dtype, or -1 when minarray has no such type
 * (lanes != 1, opaque handles, widths no type has). */
int ma_type_of(DLDataType dt);
/* Bytes per element of a type id. */
extern const int ma_type_size[MA_NALLTYPES];
/* The DLPack dtype of a type id (the inverse of ma_type_of). */
extern const DLDataType ma_dltypes[MA_NALLTYPES];
/* Bytes one element of `dt` takes in minarray's memory: a whole byte for
 * the sub-byte types (stored padded, one per byte). */
static inline int64_t ma_elsize(DLDataType dt) { return ((int64_t)dt.bits * dt.lanes + 7) / 8; }
/* Is `dt` narrower than a byte (1, 2, 4 or 6 bits)?  DLPack packs such
 * elements unless a tensor's flags say IS_SUBBYTE_TYPE_PADDED. */
static inline int ma_is_subbyte(DLDataType dt) { return dt.bits < 8; }
/* cdef-begin: declared to cffi too (minarray/_array_interface.py) */
/* The alignment an element's address needs: its size, or the size of one
 * part for complex types (C's own rule for _Complex). */
int64_t ma_type_alignment(int tid);
/* cdef-end */

/* The bytes an ma_array of `ndim` dims takes: its struct and its dims. */
#define MA_ARRAY_BYTES(ndim) (sizeof(ma_array) + 2 * (size_t)(ndim) * sizeof(int64_t))

/* Each constructor below comes in two forms: one that allocates the
 * ma_array (freed by ma_array_free), and one ending in _init that builds it
 * in memory the caller owns, MA_ARRAY_BYTES(ndim) bytes aligned as an
 * ma_array (a struct embedding it: the bindings' handles), released by
 * ma_array_clear.  The _init forms return `mem`, or NULL as the others do
 * (then nothing is held). */

/* Memory (malloc's) for an ma_array of `ndim` dims, to build one in with
 * an _init form, which ma_array_free then frees; free() it when none was
 * made.  NULL when out of memory or ndim is out of range. */
void *ma_array_memory(int ndim);

/* A new view over `buf` (retained).  `strides` NULL means C-contiguous.
 * NULL when out of memory. */
ma_array *ma_array_init(void *mem, ma_buffer *buf, void *data, DLDataType dtype, int ndim,
                        const int64_t *shape, const int64_t *strides, uint32_t flags);
ma_array *ma_array_new(ma_buffer *buf, void *data, DLDataType dtype, int ndim,
                       const int64_t *shape, const int64_t *strides,
                       uint32_t flags);
/* A new view over a's buffer starting `offset` elements of `dtype` from
 * a's element 0, keeping a's flags (a view of a read-only array stays
 * read-only) plus `flags`.  `strides` NULL means C-contiguous.  NULL when
 * out of memory. */
ma_array *ma_array_view_init(void *mem, const ma_array *a, int64_t offset, DLDataType dtype, int ndim,
                             const int64_t *shape, const int64_t *strides, uint32_t flags);
ma_array *ma_array_view(const ma_array *a, int64_t offset, DLDataType dtype, int ndim,
                        const int64_t *shape, const int64_t *strides, uint32_t flags);
/* A new array over a fresh owned buffer, laid out by `strides` (a dense
 * layout: C-contiguous when NULL, or a permutation of the axes).  NULL on
 * failure with *err set to 1 (size overflow) or 2 (out of memory). */
ma_array *ma_array_empty_init(void *mem, DLDataType dtype, int ndim, const int64_t *shape,
                              const int64_t *strides, int zero, int *err);
ma_array *ma_array_empty(DLDataType dtype, int ndim, const int64_t *shape,
                         int zero, int *err);
/* Releases what an array holds (its buffer reference): ma_array_free of
 * an allocated array, ma_array_clear of one built by an _init form. */
void ma_array_clear(ma_array *a);
void ma_array_free(ma_array *a);
int64_t ma_array_size(const ma_array *a);
/* C- (or with `fortran`, Fortran-) contiguity as NumPy defines it: the
 * elements tile memory in that order with no gaps; axes of length 1 may
 * have any stride, and an empty array is contiguous. */
int ma_array_is_contiguous(const ma_array *a, int fortran);

#endif
