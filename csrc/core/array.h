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

/* Element types, one per row of dtypes.def: first the MA_NTYPES types the
 * kernels know, in the order of their dispatch tables, then the storage
 * types (arrays hold them, casts convert them, arithmetic on them goes
 * through a wider type). */
typedef enum {
#define MA_KERNEL_TYPE(e, ...) e,
#define MA_STORAGE_TYPE(e, ...) e,
#include "dtypes.def"
#undef MA_KERNEL_TYPE
#undef MA_STORAGE_TYPE
  MA_NALLTYPES
} ma_type;

/* The number of kernel types (dtypes.def lists them first). */
enum {
  MA_NTYPES = 0
#define MA_KERNEL_TYPE(e, ...) +1
#define MA_STORAGE_TYPE(e, ...)
#include "dtypes.def"
#undef MA_KERNEL_TYPE
#undef MA_STORAGE_TYPE
};

/* The type of a DLPack dtype, or -1 when minarray has no such type
 * (lanes != 1, opaque handles, widths no type has). */
int ma_type_of(DLDataType dt);
/* Bytes per element of a type id. */
extern const int ma_type_size[MA_NALLTYPES];
/* The DLPack dtype of a type id (the inverse of ma_type_of). */
extern const DLDataType ma_dltypes[MA_NALLTYPES];
/* NumPy's kind letter of a type id: 'b', 'i', 'u', 'f' or 'c'. */
extern const char ma_type_kind[MA_NALLTYPES];
/* The name of a type id, as Python spells the dtype ("float32"). */
extern const char *const ma_type_name[MA_NALLTYPES];
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
