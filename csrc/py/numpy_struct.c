/*
 * The NumPy fast path: ma.from_numpy(arr) and ma.asarray(arr) of a plain
 * numpy.ndarray read NumPy's array struct directly, instead of building the
 * __array_interface__ dict or a DLPack capsule (each about a microsecond
 * per call).  NumPy is optional and minarray is built without its headers,
 * so this file states the few fields it reads, and reads them only when
 * NumPy reports a C ABI whose struct it knows (numpy_set_type); otherwise
 * the fast path stays off and every array takes the __array_interface__
 * route, which gives the same arrays more slowly.
 */
#include "pyapi.h"

#include "dlpack_core.h"

static PyTypeObject *np_ndarray; /* numpy.ndarray, once NumPy is imported and its ABI known */

/* The leading fields of NumPy's array object (numpy/ndarraytypes.h,
 * PyArrayObject_fields).  Every compiled NumPy extension reads them through
 * macros such as PyArray_DATA, so NumPy keeps this prefix stable across
 * 1.x and 2.x; reading it needs no NumPy headers at build time.  This is
 * the same information __array_interface__ reports, without building a
 * dict (about 1 us) per call. */
typedef struct {
  PyObject_HEAD
  char *data;
  int nd;
  Py_ssize_t *dimensions;
  Py_ssize_t *strides; /* bytes */
  PyObject *base;
  PyObject *descr;
  int flags;
} np_array_prefix;

/* The leading fields of PyArray_Descr, common to NumPy 1.x and 2.x. */
typedef struct {
  PyObject_HEAD
  PyTypeObject *typeobj;
  char kind;
  char type;
  char byteorder;
  char former_flags;
  int type_num;
} np_descr_prefix;

#define NP_ARRAY_ALIGNED 0x0100
#define NP_ARRAY_WRITEABLE 0x0400

/* NPY_TYPES number -> ma_type, -1 for types minarray lacks. */
static int np_type(int num) {
  switch (num) {
    case 0: return MA_BOOL;
    case 1: return MA_INT8;
    case 2: return MA_UINT8;
    case 3: return MA_INT16;
    case 4: return MA_UINT16;
    case 5: return sizeof(int) == 4 ? MA_INT32 : -1;
    case 6: return sizeof(int) == 4 ? MA_UINT32 : -1;
    case 7: return sizeof(long) == 8 ? MA_INT64 : MA_INT32;    /* NPY_LONG */
    case 8: return sizeof(long) == 8 ? MA_UINT64 : MA_UINT32;  /* NPY_ULONG */
    case 9: return MA_INT64;
    case 10: return MA_UINT64;
    case 11: return MA_FLOAT32;
    case 12: return MA_FLOAT64;
    case 14: return MA_COMPLEX64;
    case 15: return MA_COMPLEX128;
    case 23: return MA_FLOAT16;
  }
  return -1;
}

#define NP_ARRAY_C_CONTIGUOUS 0x0001

/* A view of the plain numpy.ndarray `obj`, or None when it is anything else
 * or minarray cannot view it as is.  With `as_interface` the result is the
 * one the __array_interface__ route builds: a C-contiguous array gets
 * C-contiguous strides (the interface reports none, so a length-1 axis
 * loses whatever stride NumPy kept).  Either way the array passes the
 * checks every door applies (ma_dlpack_check: minarray's alignment rule,
 * not NumPy's flag alone, and a span inside the address space). */
static PyObject *numpy_view(PyObject *obj, int as_interface) {
  if (!np_ndarray || Py_TYPE(obj) != np_ndarray) Py_RETURN_NONE;
  np_array_prefix *arr = (np_array_prefix *)obj;
  np_descr_prefix *d = (np_descr_prefix *)arr->descr;
  int tid = np_type(d->type_num);
  char native = PY_LITTLE_ENDIAN ? '<' : '>';
  if (tid < 0 || arr->nd > MA_MAXDIMS || !(arr->flags & NP_ARRAY_ALIGNED) ||
      !(d->byteorder == '=' || d->byteorder == '|' || d->byteorder == native))
    Py_RETURN_NONE;
  int nd = arr->nd;
  int64_t item = ma_type_size[tid], shape[MA_MAXDIMS], strides[MA_MAXDIMS];
  for (int i = 0; i < nd; i++) {
    shape[i] = arr->dimensions[i];
    if (arr->strides[i] % item) Py_RETURN_NONE;
    strides[i] = arr->strides[i] / item;
  }
  int c_contig = as_interface && (arr->flags & NP_ARRAY_C_CONTIGUOUS);
  /* the checks of every door (span, alignment, size): what fails them is
   * left to the general route, which says what is wrong */
  DLTensor t = {arr->data, {kDLCPU, 0}, nd, ma_dltypes[tid], shape, strides, 0};
  size_t nbytes;
  ma_dlpack_error err;
  if (ma_dlpack_check(&t, 0, &nbytes, &err) != 0) Py_RETURN_NONE;
  ma_buffer *b = ma_buffer_for_object(obj, arr->data, nbytes);
  if (!b) return PyErr_NoMemory();
  ma_array *a = ma_array_new(b, arr->data, ma_dltypes[tid], nd, shape, c_contig ? NULL : strides,
                             (arr->flags & NP_ARRAY_WRITEABLE) ? 0 : MA_READONLY);
  ma_buffer_release(b);
  if (!a) return PyErr_NoMemory();
  return ma_ndarray_new(a, obj);
}

/* from_numpy_fast(arr) -> NDArray, or None when arr is not a plain
 * numpy.ndarray minarray can view as is (the caller then takes the
 * __array_interface__ route, which explains what is wrong). */
static PyObject *py_dlpack_from_numpy(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "from_numpy_fast");
  return numpy_view(args[0], 0);
}

/* numpy_asarray(arr) -> NDArray, or None: what asarray's
 * __array_interface__ route makes of a plain numpy.ndarray, in one call. */
static PyObject *py_numpy_asarray(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "numpy_asarray");
  return numpy_view(args[0], 1);
}

/* NumPy's C ABI versions (NPY_ABI_VERSION, what
 * numpy._core._multiarray_umath._get_ndarray_c_version() reports) whose
 * array and descriptor structs start with the prefixes above: 1.x from
 * 0x01000009 (NumPy 1.17 and later), and 2.x. */
static int known_abi(unsigned long abi) {
  return (abi >= 0x01000009ul && abi < 0x02000000ul) || (abi >> 24) == 2;
}

/* numpy_set_type(numpy.ndarray, abi_version) -> bool: turns the fast path
 * on when NumPy's ABI is one whose structs this file knows; False leaves it
 * off (the slower routes give the same arrays). */
static PyObject *py_numpy_set_type(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "numpy_set_type");
  if (!PyType_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "numpy_set_type expects numpy.ndarray");
    return NULL;
  }
  unsigned long abi = PyLong_AsUnsignedLong(args[1]);
  if (abi == (unsigned long)-1 && PyErr_Occurred()) return NULL;
  if (!known_abi(abi) || ((PyTypeObject *)args[0])->tp_basicsize < (Py_ssize_t)sizeof(np_array_prefix)) {
    Py_CLEAR(np_ndarray);
    Py_RETURN_FALSE;
  }
  Py_INCREF(args[0]);
  Py_XSETREF(np_ndarray, (PyTypeObject *)args[0]);
  Py_RETURN_TRUE;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_numpy_methods[] = {
    FC("numpy_set_type", py_numpy_set_type, "numpy_set_type(numpy.ndarray, abi_version) -> bool"),
    FC("dlpack_from_numpy", py_dlpack_from_numpy, "dlpack_from_numpy(arr) -> NDArray or None"),
    FC("numpy_asarray", py_numpy_asarray, "numpy_asarray(arr) -> NDArray or None"),
    {NULL, NULL, 0, NULL}};
