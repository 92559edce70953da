/*
 * The bridge between Python and the C core.
 *
 * cffi compiles csrc/ into the extension module minarray._core.  Besides the
 * plain C functions cffi exposes as `lib`, the core installs a few CPython
 * functions (METH_FASTCALL) into that module at import: they handle Python
 * objects directly (capsules, scalars, sequences), which cffi cannot, and
 * cost a fraction of what a cffi call costs (docs/performance.md).
 *
 * An NDArray's C metadata (ma_array) travels in a handle, a small object
 * of the type ma_handle_type that owns it and frees it with itself.
 */
#ifndef MINARRAY_PYAPI_H
#define MINARRAY_PYAPI_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "array.h"

/* The dims a handle's array may have and still live in the handle itself
 * (its `room`): one allocation less per view and per result, a tenth of a
 * view's cost.  Larger arrays are allocated apart. */
#define MA_HANDLE_DIMS 4

/* A handle (pyapi.c).  `device` marks an array whose memory lives on a
 * device the CPU cannot address (CUDA, ROCm...: an import minarray only
 * carries, never reads).  It is the one guard on every path that reads
 * memory: ma_handle_get and ma_ndarray_array, which every kernel, copy,
 * scalar read, NumPy or buffer export gets its array from, refuse such a
 * handle, with the device named (ma_device_error). */
typedef struct {
  PyObject_HEAD
  ma_array *a; /* owned: in `room`, or allocated */
  int device;  /* 1: not CPU-addressable (the guard) */
  _Alignas(ma_array) unsigned char room[MA_ARRAY_BYTES(MA_HANDLE_DIMS)];
} ma_handle;
extern PyTypeObject ma_handle_type;
#define MA_HANDLE_CHECK(o) Py_IS_TYPE((o), &ma_handle_type)

/* The ma_array inside a handle whose memory the CPU may read; NULL with
 * TypeError set if `h` is not a handle, or the device error if it is a
 * device array's. */
ma_array *ma_handle_get(PyObject *h);
/* The ma_array inside any handle, device arrays' too: for what reads only
 * metadata (views, shape and flags, DLPack export).  NULL with TypeError. */
ma_array *ma_handle_meta(PyObject *h);
/* Raises the error of an operation that would read device memory
 * (RuntimeError naming the device); returns NULL. */
PyObject *ma_device_error(const ma_array *a);
/* A new handle owning `a` (freed on failure).  NULL `a` means out of memory.
 * Its device mark follows a's device. */
PyObject *ma_handle_new(ma_array *a);
/* A new handle over a view of a (ma_array_view's arguments), or NULL with
 * MemoryError. */
PyObject *ma_handle_view(const ma_array *a, int64_t offset, DLDataType dtype, int ndim, const int64_t *shape,
                         const int64_t *strides, uint32_t flags);
/* A new handle over a new array (ma_array_empty_init's arguments), or
 * NULL with *err 1 (size overflow) or 2 (out of memory) and no error set. */
PyObject *ma_handle_empty(DLDataType dtype, int ndim, const int64_t *shape, const int64_t *strides, int zero,
                          int *err);
/* A new handle holding no array yet, and in *room the memory for an array
 * of up to MA_HANDLE_DIMS dims inside it, which an _init form (or an
 * import) may build one in; ma_handle_hold then gives the handle its
 * array.  Dropped without one, it frees nothing else.  NULL with
 * MemoryError. */
PyObject *ma_handle_blank(void **room);
/* Gives blank handle `h` its array `a`, built in h's room or allocated
 * (owned by the handle from here on); returns h. */
PyObject *ma_handle_hold(PyObject *h, ma_array *a);
/* Move handle `h`'s array to device `d`, marking the handle as a device
 * handle when the CPU cannot address `d`. */
void ma_handle_set_device(PyObject *h, DLDevice d);
/* Sets the error for ma_array_empty's `err` (1: size overflow, 2: out of
 * memory) over `shape`; returns NULL. */
PyObject *ma_empty_error(PyObject *shape, int err, int itemsize);
/* MemoryError naming the size, shape and element size of an array that
 * could not be allocated; returns NULL. */
PyObject *ma_alloc_error(int nd, const int64_t *shape, int itemsize);
/* TypeError: "<what> must be an integer: 'T' object cannot be interpreted
 * as an integer (got <repr>)", minarray._coerce.as_int's wording (the repr
 * when it is short); returns NULL. */
PyObject *ma_not_an_integer(const char *what, PyObject *value);
/* Read a tuple/list of ints into `out` (at most MA_MAXDIMS); returns the
 * count or -1 with an exception set. */
int ma_parse_dims(PyObject *seq, int64_t *out, const char *what);
/* A new handle viewing a's buffer `offset` elements from a's element 0,
 * with the shape and strides of two int sequences, dtype `dt`, and
 * read-only when `readonly` is true (or a is): the shape passes the one
 * shape rule (ma_nbytes).  NULL with the error set. */
PyObject *ma_view_handle(ma_array *a, PyObject *offset, PyObject *shape, PyObject *strides, DLDataType dt,
                         PyObject *readonly);
/* A tuple of n ints. */
PyObject *ma_dims_tuple(int n, const int64_t *v);
/* DLDataType from Python ints (code, bits). */
int ma_parse_dtype(PyObject *code, PyObject *bits, DLDataType *dt);
/* Validate every field of a foreign tensor minarray will read (csrc/py/dlpack_import.c):
 * ndim, dtype, device, shape, the span of its strides, data and its
 * alignment; opts are ma_dlpack_check's (MA_CHECK_*).  0 with *nbytes =
 * size * itemsize, or -1 with BufferError naming the field.  Every door memory enters by (a capsule, the exchange
 * API, a raw pointer, a buffer export) applies it. */
int ma_check_tensor(const DLTensor *t, int opts, size_t *nbytes);
/* A foreign buffer keeping a new reference to `owner` until released. */
ma_buffer *ma_buffer_for_object(PyObject *owner, void *data, size_t nbytes);

/* An NDArray's fields (ndarray.c).  NDArray (minarray/_array_object.py) is a
 * Python subclass of the C type NDArrayBase, which holds these; Python
 * reads them as the members _h, _shape, _strides, _dtype and _base. */
typedef struct {
  PyObject_HEAD
  PyObject *h;        /* the handle: an ma_handle owning the ma_array */
  PyObject *shape;    /* tuple of ints; NULL until first read (ma_nd_shape) */
  PyObject *strides;  /* tuple of ints, in elements; NULL until first read */
  PyObject *dtype;    /* the DType singleton */
  PyObject *base;     /* the object whose memory this views, or None */
  PyObject *weakrefs; /* for weakref.ref(x) */
  PyObject *retired;  /* the handles of earlier shapes (x.shape = ...), or NULL */
} ma_ndobject;
#define MA_ND(obj) ((ma_ndobject *)(obj))
extern PyTypeObject ma_ndarray_base_type;
extern PyTypeObject ma_ndarray_iter_type; /* iter(x) */

/* The NDArray class and its dtypes (ndarray.c): set once by ndarray_setup. */
typedef struct {
  PyTypeObject *type;          /* minarray._array_object.NDArray */
  PyTypeObject *scalar;        /* minarray._scalar.Scalar (NULL until scalar_setup) */
  PyObject *dtypes[MA_NALLTYPES]; /* DType singleton per ma_type */
  char formats[MA_NALLTYPES][4];  /* each DType's buffer-protocol format ("" if none) */
} ma_ndarray_class;
extern ma_ndarray_class ma_nd;

/* The ma_type of a DType singleton, or -1. */
int ma_ndarray_tid(PyObject *dtype);
/* The ma_type of what minarray._dtypes.as_dtype makes of `obj` (any dtype
 * spelling), or -1 with its TypeError set: the one wording of a dtype
 * minarray lacks. */
int ma_ndarray_as_tid(PyObject *obj);
/* `x.shape = value`, in place where NumPy allows it (views.c): 0, or -1
 * with the error set. */
int ma_ndarray_set_shape(PyObject *x, PyObject *value);
/* A new NDArray over handle `h` with the given base (NULL: None).  Steals
 * `h`, `shape` and `strides`; NULL shape or strides are made from the
 * handle when first read.  On failure everything stolen is released. */
PyObject *ma_ndarray_wrap(PyObject *h, PyObject *shape, PyObject *strides, PyObject *base);
/* The same, as an instance of `tp`: NDArray or a subclass of it. */
PyObject *ma_ndarray_wrap_as(PyTypeObject *tp, PyObject *h, PyObject *shape, PyObject *strides, PyObject *base);
/* A result `r` (stolen; NULL passes through) made from NDArray `src`, of
 * src's type: nothing to do for an NDArray itself, else minarray._subclass
 * makes it a view of the subclass and calls its __array_finalize__. */
#define MA_RESULT_LIKE(r, src) (Py_TYPE(src) == ma_nd.type ? (r) : ma_subclass_like((r), (src)))
PyObject *ma_subclass_like(PyObject *r, PyObject *src);
/* An elementwise result `r` (stolen) of op `name` on inputs xs[0..n), one
 * of them an instance of a subclass: that input's __array_wrap__ decides
 * (minarray._subclass.wrap, NumPy's rule). */
PyObject *ma_subclass_wrap(PyObject *r, const char *name, PyObject *const *xs, int n);
/* Is `x` an instance of a subclass of NDArray whose results NumPy's
 * protocol types (so not NDArray itself, nor the Scalar of a 0-d result)? */
static inline int ma_is_user_subclass(PyObject *x) {
  PyTypeObject *t = Py_TYPE(x);
  return t != ma_nd.type && t != ma_nd.scalar && PyObject_TypeCheck(x, ma_nd.type);
}

/* NumPy's scalars (ndarray.c).  Where NumPy returns a scalar (np.float64)
 * for a 0-d result, minarray returns a Scalar: a read-only 0-d NDArray of
 * its own.  ma_scalar_result makes one of a new 0-d NDArray `r` (stolen)
 * that nothing else holds, in place; any other `r` is returned as it is.
 * ma_scalar_at copies the element `off` elements from a's element 0 into a
 * new Scalar. */
PyObject *ma_scalar_result(PyObject *r);
PyObject *ma_scalar_at(const ma_array *a, int64_t off);
/* A Scalar of kernel type `tid` holding a copy of the element at `src`. */
PyObject *ma_scalar_new(int tid, const void *src);
/* An NDArray's shape and strides tuples, made on first use (an NDArray's
 * fields may be NULL until then): borrowed, or NULL with an error. */
PyObject *ma_nd_shape(PyObject *x);
PyObject *ma_nd_strides(PyObject *x);
/* A new NDArray owning `a` (freed on failure). */
PyObject *ma_ndarray_new(ma_array *a, PyObject *base);
/* The ma_array of NDArray `x`, or NULL (no error set) when `x` is not an
 * initialised NDArray, which the Python layer then deals with. */
ma_array *ma_ndarray_array(PyObject *x);
/* The same for the metadata-only paths (views), device arrays included. */
ma_array *ma_ndarray_meta(PyObject *x);

/* d[...] = s (broadcast, cast) and d[...] = a Python scalar (NumPy's
 * rules for assigning one, see store_scalar): what core.copyto and
 * core.fill do, for C callers.  0, or -1 with the error set (read-only
 * destination first). */
int ma_assign_array(ma_array *d, ma_array *s);
int ma_assign_scalar(ma_array *d, PyObject *value);
/* Python scalar `v` as one element of ma_type `tid` at `dst` (aligned for
 * it), by NumPy's rules for assigning a scalar; 0, or -1 with the error set
 * (csrc/py/scalars.c). */
int ma_store_scalar(PyObject *v, int tid, char *dst);
/* The element of ma_type `tid` at `p` as a Python scalar (csrc/py/scalars.c). */
PyObject *ma_load_scalar(int tid, const char *p);
/* x.T: NDArrayBase's getter, the axes reversed (csrc/py/views.c). */
PyObject *ma_ndarray_T(PyObject *self, void *unused);
/* x.item(*args): NDArrayBase's method (csrc/py/scalars.c). */
PyObject *ma_ndarray_item_method(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
extern const char ma_ndarray_item_doc[];
/* The read-only check both make first: 0, or -1 with the ValueError set. */
int ma_check_writeable(const ma_array *d);
/* x[key]: NDArrayBase's mp_subscript slot, which NDArray inherits
 * (csrc/py/views.c). */
PyObject *ma_nd_subscript(PyObject *self, PyObject *key);
/* Install the C method `def` on NDArray under its own name (the operators
 * and __dlpack__ are C methods); -1 with the error set. */
int ma_ndarray_add_method(PyMethodDef *def);
/* The kernel type of `a` (an ma_type below MA_NTYPES), or -1 with a
 * TypeError naming `what` when its dtype is a storage type (float8...),
 * which has no kernels: minarray's Python layer widens those first. */
int ma_kernel_type(const ma_array *a, const char *what);
/* asarray(obj) for a list or tuple (or a Python scalar): a new NDArray,
 * or NULL with the error set (csrc/py/nested.c). */
PyObject *ma_from_nested(PyObject *obj);

/* minarray's Python function `module`.`name` (a rule the Python layer
 * keeps, such as asarray or as_dtype), looked up on first use into *slot
 * and kept for the process: a module look-up per call would cost as much
 * as the call.  Borrowed, or NULL with the error set. */
PyObject *ma_python_function(PyObject **slot, const char *module, const char *name);

/* Hand floating-point flags (csrc/core/fpe.h) an operation raised to
 * minarray._errstate (csrc/py/fperrors.c): 0, or -1 with the error set when
 * the errstate in force says "raise" (or its callback raised). */
int ma_report_fpe(const char *operation, unsigned flags);

/* op number `opi` of the elementwise engine on the operands xs[0..n) (NDArrays or
 * Python scalars; others are converted as minarray._coerce.operator_operand
 * does), into `out` (NULL: a new array): what ma.add(x, y, out=z) runs
 * (csrc/py/elementwise_dispatch.c). */
PyObject *ma_ew_call(int opi, PyObject *const *xs, int n, PyObject *out);
/* The number of the engine's op `name` (ma_ew_ops), or -1. */
int ma_ew_op_index(const char *name);
/* NDArray's operator for op `opi` on xs[0..n) in that order (x + y, or
 * -x): the result, NULL with the error set, or NotImplemented for an
 * operand it does not know. */
PyObject *ma_ew_operator(int opi, PyObject *const *xs, int n);
/* Operator `opi` of the engine on xs[0..n), one of them a Scalar, by the
 * Scalar's own path (csrc/py/scalar_math.c): what NDArray's operator
 * methods do when called on a Scalar by name (s.__add__(1)). */
PyObject *ma_scalar_operator(int opi, PyObject *const *xs, int n);
/* Give the Scalar class its C number slots (csrc/py/scalar_math.c) once
 * it and NDArray's operators are both there; 0, or -1 with the error set. */
int ma_scalar_math_install(void);
/* minarray.ufunc, the type of the elementwise functions (csrc/py/ufunc.c). */
extern PyTypeObject ma_ufunc_type;

/* Can casting type `from` to `to` raise a flag?  Only a floating-point
 * source can (overflow to a narrower float, invalid to an integer). */
static inline int ma_cast_can_raise(int from, int to) {
  return from != to && from != MA_BOOL && !(from > MA_BOOL && from <= MA_UINT64) &&
         !(from >= MA_INT1 && from <= MA_UINT4);
}
/* Report a cast's flags, read after it, as NumPy does ("overflow
 * encountered in cast", or in `operation`) and clear them: 0, or -1 with
 * the error set. */
int ma_report_cast_fpe(const char *operation, unsigned flags);
/* ma_copyto (copy.h) with its cast's flags reported as NumPy's
 * `operation` ("cast", "reduce" for a reduction's final rounding):
 * ma_copyto's code, or -3 with the error set when the errstate raised.
 * Called with the GIL; releases it around the copy when `nogil`. */
int ma_copyto_reported(ma_array *dst, const ma_array *src, int nogil, const char *operation);

/* cdef-begin: declared to cffi too (minarray/_native.py calls it) */
/* Installs the method tables below into the module `modname` (module.c). */
int ma_install(const char *modname);
/* cdef-end */

/* Method tables, one per C file that talks to Python; module.c installs them.
 * Each entry is a METH_FASTCALL function
 *   static PyObject *py_NAME(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
 * installed as minarray._core.NAME: its C name is its Python name after
 * py_, so either one finds the other. */
extern PyMethodDef ma_core_methods[];
extern PyMethodDef ma_assign_methods[];
extern PyMethodDef ma_scalar_methods[];
extern PyMethodDef ma_nested_methods[];
extern PyMethodDef ma_fill_methods[];
extern PyMethodDef ma_testing_methods[];
extern PyMethodDef ma_ndarray_methods[];
extern PyMethodDef ma_dlpack_capsule_methods[];
extern PyMethodDef ma_dlpack_import_methods[];
extern PyMethodDef ma_dlpack_exchange_methods[];
extern PyMethodDef ma_dlpack_device_methods[];
extern PyMethodDef ma_dlpack_entry_methods[];
extern PyMethodDef ma_numpy_methods[];
extern PyMethodDef ma_elementwise_methods[];
extern PyMethodDef ma_ufunc_methods[];
extern PyMethodDef ma_index_methods[];
extern PyMethodDef ma_reduce_methods[];
extern PyMethodDef ma_linalg_methods[];
extern PyMethodDef ma_manipulation_methods[];
extern PyMethodDef ma_sort_methods[];
extern PyMethodDef ma_views_methods[];
extern PyMethodDef ma_convert_methods[];
extern PyMethodDef ma_dtype_table_methods[];
extern PyMethodDef ma_fpe_methods[];
extern PyMethodDef ma_io_methods[];
extern PyMethodDef ma_random_draw_methods[];
extern PyMethodDef ma_text_methods[];
extern PyMethodDef ma_bit_packing_methods[];

#define MA_NARGS(n, fname)                                                   \
  do {                                                                       \
    if (nargs != (n)) {                                                      \
      PyErr_Format(PyExc_TypeError, fname "() takes %d arguments (%zd given)", \
                   (int)(n), nargs);                                         \
      return NULL;                                                           \
    }                                                                        \
  } while (0)

#endif
