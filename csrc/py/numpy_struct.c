/*
 * NumPy's memory descriptions in: the one intake.  ma.from_numpy(arr),
 * ma.asarray(arr) and ma.asdlpack(arr) of a plain numpy.ndarray read
 * NumPy's array object directly, instead of building the
 * __array_interface__ dict or a DLPack capsule (either would cost more than
 * the rest of the call); objects that offer only __array_struct__ (the
 * array interface's C struct) are read here too, into the same view
 * builder.  NumPy is optional and minarray is built without its headers,
 * so this file states the few fields it reads, and reads NumPy's array
 * object only when NumPy reports a C ABI whose struct it knows
 * (numpy_set_type); otherwise every array takes the __array_interface__
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
 * dict per call. */
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
#define NP_USERDEF 256 /* type numbers from here on are other libraries' (ml_dtypes) */

/* The type of a dtype NumPy registered for another library: ml_dtypes'
 * types go by name (bfloat16, float8_e4m3fn, int4...), as minarray's do.
 * -1 for any other. */
static int user_type(PyTypeObject *typeobj) {
  int tid = -1;
  PyObject *mod = PyObject_GetAttrString((PyObject *)typeobj, "__module__");
  PyObject *name = mod ? PyObject_GetAttrString((PyObject *)typeobj, "__name__") : NULL;
  if (mod && name && PyUnicode_Check(mod) && PyUnicode_Check(name) &&
      PyUnicode_CompareWithASCIIString(mod, "ml_dtypes") == 0) {
    for (int t = 0; t < MA_NALLTYPES && tid < 0; t++)
      if (PyUnicode_CompareWithASCIIString(name, ma_type_name[t]) == 0) tid = t;
  }
  Py_XDECREF(mod);
  Py_XDECREF(name);
  PyErr_Clear();
  return tid;
}

/* What no view can describe but a copy can: raised as BufferError, or with
 * `copyable` returned as the sentence (a str) for the caller to copy. */
static PyObject *needs_copy(int copyable, PyObject *why) {
  if (!why) return NULL;
  if (copyable) return why;
  PyErr_SetObject(PyExc_BufferError, why);
  Py_DECREF(why);
  return NULL;
}

/* The one intake of NumPy's memory descriptions (the array object's fields
 * and the array interface struct of __array_struct__ carry the same ones):
 * a view of `data` (nd dims of `shape`, byte `strides`, NULL for
 * C-contiguous), kept alive by `owner`, after the checks of every door
 * (ma_dlpack_check, with minarray's alignment rule rather than NumPy's
 * flag, and a span inside the address space).  With `c_contig` the view
 * gets C-contiguous strides.  Strides that are not whole elements and
 * misaligned data are what a copy fixes (needs_copy); anything else
 * wrong raises (BufferError, ValueError for too many dims). */
static PyObject *intake(PyObject *owner, char *data, int nd, const Py_ssize_t *dims, const Py_ssize_t *bstrides,
                        int tid, int writeable, int c_contig, int copyable) {
  if (nd < 0 || nd > MA_MAXDIMS) {
    PyErr_Format(PyExc_ValueError, "%d dimensions: minarray arrays have at most %d", nd, MA_MAXDIMS);
    return NULL;
  }
  int64_t item = ma_type_size[tid], shape[MA_MAXDIMS], strides[MA_MAXDIMS];
  for (int i = 0; i < nd; i++) {
    shape[i] = dims[i];
    strides[i] = bstrides ? bstrides[i] / item : 0;
    if (bstrides && bstrides[i] % item) {
      PyObject *st = PyTuple_New(nd);
      for (int k = 0; st && k < nd; k++) PyTuple_SET_ITEM(st, k, PyLong_FromSsize_t(bstrides[k]));
      PyObject *why = st ? PyUnicode_FromFormat("strides %R (bytes) are not multiples of the itemsize %d: element "
                                                "strides cannot describe them (copy=True makes a contiguous copy)",
                                                st, (int)item)
                         : NULL;
      Py_XDECREF(st);
      return needs_copy(copyable, why);
    }
  }
  if (!bstrides) c_contig = 1;
  if ((uintptr_t)data % (uintptr_t)ma_type_alignment(tid))
    return needs_copy(copyable, PyUnicode_FromFormat("data pointer %p is not aligned to its %d-byte elements "
                                                     "(ma.asarray copies it)", data, (int)item));
  DLTensor t = {data, {kDLCPU, 0}, nd, ma_dltypes[tid], shape, c_contig ? NULL : strides, 0};
  size_t nbytes;
  ma_dlpack_error err;
  /* sub-byte elements take a byte each in NumPy (ml_dtypes), as here */
  if (ma_dlpack_check(&t, ma_is_subbyte(t.dtype) ? MA_CHECK_PADDED : 0, &nbytes, &err) != 0) {
    PyErr_SetString(PyExc_BufferError, err.text);
    return NULL;
  }
  ma_buffer *b = ma_buffer_for_object(owner, data, nbytes);
  if (!b) return PyErr_NoMemory();
  ma_array *a = ma_array_new(b, data, ma_dltypes[tid], nd, shape, c_contig ? NULL : strides,
                             writeable ? 0 : MA_READONLY);
  ma_buffer_release(b);
  if (!a) return PyErr_NoMemory();
  return ma_ndarray_new(a, owner);
}

/* A view of the plain numpy.ndarray `obj`; None when it is anything else
 * (a subclass, another producer: the array-interface route takes them).
 * With `as_interface` the result is the one the __array_interface__ route
 * builds: a C-contiguous array gets C-contiguous strides (the interface
 * reports none, so a length-1 axis loses whatever stride NumPy kept).
 * A dtype minarray lacks raises TypeError.  What a copy fixes (byte-swapped
 * data, strides that are not whole elements, misaligned data) raises too
 * (TypeError, BufferError), or with `copyable` gives the sentence saying
 * why, a str, for asarray to copy. */
static PyObject *numpy_view(PyObject *obj, int as_interface, int copyable) {
  if (!np_ndarray || Py_TYPE(obj) != np_ndarray) Py_RETURN_NONE;
  np_array_prefix *arr = (np_array_prefix *)obj;
  np_descr_prefix *d = (np_descr_prefix *)arr->descr;
  int tid = d->type_num >= NP_USERDEF ? user_type(d->typeobj) : np_type(d->type_num);
  if (tid < 0) {
    /* a dtype minarray lacks: as_dtype words the refusal (strings, dates,
     * objects and records are NumPy's); were it to find one, say so here */
    if (ma_ndarray_as_tid(arr->descr) >= 0)
      PyErr_Format(PyExc_TypeError, "unsupported dtype %S: minarray has no such dtype", arr->descr);
    return NULL;
  }
  char native = PY_LITTLE_ENDIAN ? '<' : '>';
  if (!(d->byteorder == '=' || d->byteorder == '|' || d->byteorder == native)) {
    if (copyable) return PyUnicode_FromString("the source's byte order is not native");
    PyErr_Format(PyExc_TypeError,
                 "non-native byte order in dtype %R is not supported (from_numpy(..., copy=True) converts it)",
                 arr->descr);
    return NULL;
  }
  return intake(obj, arr->data, arr->nd, arr->dimensions, arr->strides, tid, arr->flags & NP_ARRAY_WRITEABLE,
                as_interface && (arr->flags & NP_ARRAY_C_CONTIGUOUS), copyable);
}

/* dlpack_from_numpy(arr) -> NDArray, or None when arr is not a plain
 * numpy.ndarray (the caller then takes the __array_interface__ route).
 * What minarray cannot view raises, saying why. */
static PyObject *py_dlpack_from_numpy(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "dlpack_from_numpy");
  return numpy_view(args[0], 0, 0);
}

/* numpy_asarray(arr) -> NDArray, None when arr is not a plain
 * numpy.ndarray, or a str saying why only a copy can hold it: asarray's
 * view of a NumPy array, in one call. */
static PyObject *py_numpy_asarray(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "numpy_asarray");
  return numpy_view(args[0], 1, 1);
}

/* NumPy's PyArrayInterface (array interface version 2, numpy/ndarraytypes.h):
 * the struct in the capsule __array_struct__ returns. */
typedef struct {
  int two; /* 2: says this is the struct */
  int nd;
  char typekind;
  int itemsize;
  int flags;
  Py_intptr_t *shape;
  Py_intptr_t *strides; /* bytes; NULL for C-contiguous */
  void *data;
  PyObject *descr;
} np_interface;

#define NP_AS_NOTSWAPPED 0x0200

/* array_struct_view(obj) -> NDArray: a view of the memory obj's
 * __array_struct__ describes, the capsule kept alive with obj (as the
 * interface asks).  The type comes from the struct's kind and itemsize. */
static PyObject *py_array_struct_view(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "array_struct_view");
  PyObject *cap = PyObject_GetAttrString(args[0], "__array_struct__");
  if (!cap) return NULL;
  PyObject *out = NULL, *owner = NULL;
  if (!PyCapsule_CheckExact(cap)) {
    PyErr_Format(PyExc_TypeError, "__array_struct__ must be a PyCapsule, got %s", Py_TYPE(cap)->tp_name);
    goto done;
  }
  np_interface *s = PyCapsule_GetPointer(cap, PyCapsule_GetName(cap)); /* NumPy names no capsule */
  if (!s) goto done;
  if (s->two != 2) {
    PyErr_Format(PyExc_TypeError, "__array_struct__ holds no array interface struct (its first field is %d, not 2)",
                 s->two);
    goto done;
  }
  if (!(s->flags & NP_AS_NOTSWAPPED)) {
    PyErr_SetString(PyExc_TypeError, "__array_struct__ describes byte-swapped data; minarray needs native byte order");
    goto done;
  }
  int tid = -1;
  for (int t = 0; t < MA_NTYPES && tid < 0; t++)
    if (ma_type_kind[t] == s->typekind && ma_type_size[t] == s->itemsize && t != MA_BFLOAT16) tid = t;
  if (tid < 0) {
    PyErr_Format(PyExc_TypeError, "__array_struct__ type '%c' of %d bytes has no minarray dtype", s->typekind,
                 s->itemsize);
    goto done;
  }
  owner = PyTuple_Pack(2, args[0], cap);
  if (owner)
    out = intake(owner, s->data, s->nd, s->shape, s->nd ? s->strides : NULL, tid, s->flags & NP_ARRAY_WRITEABLE, 0,
                 0);
done:
  Py_XDECREF(owner);
  Py_DECREF(cap);
  return out;
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
    FC("numpy_asarray", py_numpy_asarray, "numpy_asarray(arr) -> NDArray, None or str"),
    FC("array_struct_view", py_array_struct_view, "array_struct_view(obj) -> NDArray"),
    {NULL, NULL, 0, NULL}};
