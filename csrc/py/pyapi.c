/*
 * The bindings' common ground: handles (an array's C metadata in an object
 * of its own type), argument parsing, the check every door applies to a
 * foreign tensor (ma_check_tensor), foreign buffers over Python objects,
 * and the core entry points (empty, view, wrap, wrap_buffer, stats).
 * Assignment, scalars, nested sequences, fills and test hooks have files of
 * their own (assign.c, scalars.c, nested.c, fills.c, testing.c); module.c
 * installs them all.  Every other binding builds on this file, and it calls
 * none of them (tests/test_layout.py checks).
 */
#include "pyapi.h"

#include <stdlib.h>
#include <string.h>

#include "copy.h"
#include "dlpack_core.h"

/* ---- handles -----------------------------------------------------------
 *
 * A handle is a small object of its own type (pyapi.h), not a PyCapsule:
 * a capsule cost an allocation through PyObject_Malloc and its free, a
 * destructor call and a name check on every look-up; handles are made and
 * dropped with every view and every result, so the dead ones are kept on a
 * free list (as CPython keeps floats) and the look-up is one type compare.
 * Being a type of its own, a handle cannot be forged from Python either (a
 * capsule named "minarray.array" around any pointer passed for one). */

/* Handles kept for reuse: enough for the arrays a loop of small calls
 * makes and drops, bounded so that a burst of them is freed again. */
#define HANDLE_FREE_MAX 64
static PyObject *handle_free[HANDLE_FREE_MAX];
static int handle_nfree;

/* A handle's own room holds its array when it has at most MA_HANDLE_DIMS
 * dims (pyapi.h): made in place by ma_handle_view and ma_handle_empty. */
static int embedded(const ma_handle *o) { return o->a == (const ma_array *)(const void *)o->room; }

/* The array goes last, after the handle is back on the list: freeing it
 * may release a foreign buffer, whose owner's code may make handles (and
 * reuse this one, room and all: an embedded array's buffer is read first). */
static void handle_dealloc(PyObject *self) {
  ma_handle *o = (ma_handle *)self; /* o->a NULL: a handle whose array could not be made */
  ma_array *a = embedded(o) ? NULL : o->a;
  ma_buffer *buf = embedded(o) ? o->a->buf : NULL;
  if (handle_nfree < HANDLE_FREE_MAX)
    handle_free[handle_nfree++] = self;
  else
    PyObject_Free(self);
  if (a)
    ma_array_free(a);
  else
    ma_buffer_release(buf); /* ma_array_clear's one task */
}

/* A handle from the free list or the allocator, holding no array yet
 * (NULL); NULL when out of memory, with no error set. */
static ma_handle *handle_take(void) {
  PyObject *h;
  if (handle_nfree)
    h = handle_free[--handle_nfree];
  else if (!(h = (PyObject *)PyObject_Malloc(sizeof(ma_handle))))
    return NULL;
  PyObject_Init(h, &ma_handle_type);
  ((ma_handle *)h)->a = NULL;
  return (ma_handle *)h;
}

PyTypeObject ma_handle_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "minarray._core.Handle",
    .tp_doc = "An array's C metadata (ma_array), owned: the handle an NDArray holds in _h.",
    .tp_basicsize = sizeof(ma_handle),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_dealloc = handle_dealloc,
};

PyObject *ma_device_error(const ma_array *a) {
  char label[32];
  const char *s = ma_dlpack_device_label(a->t.device.device_type);
  size_t i = 0;
  for (; s[i] && i < sizeof label - 1; i++) label[i] = (char)((s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i]);
  label[i] = 0;
  return PyErr_Format(PyExc_RuntimeError,
                      "this array lives on %s:%d; minarray computes on the CPU only and never reads "
                      "device memory: copy it with x.to_device('cpu')",
                      label, (int)a->t.device.device_id);
}

ma_array *ma_handle_get(PyObject *h) {
  if (!MA_HANDLE_CHECK(h)) {
    PyErr_SetString(PyExc_TypeError, "expected a minarray array handle");
    return NULL;
  }
  ma_handle *o = (ma_handle *)h;
  if (o->device) return (ma_array *)ma_device_error(o->a); /* the guard (pyapi.h) */
  return o->a;
}

ma_array *ma_handle_meta(PyObject *h) {
  if (!MA_HANDLE_CHECK(h)) {
    PyErr_SetString(PyExc_TypeError, "expected a minarray array handle");
    return NULL;
  }
  return ((ma_handle *)h)->a;
}

void ma_handle_set_device(PyObject *h, DLDevice d) {
  ma_handle *o = (ma_handle *)h;
  o->a->t.device = d;
  /* memory the CPU cannot address: a device handle (the guard) */
  o->device = !ma_dlpack_cpu_accessible(d.device_type);
}

/* Sets handle o's device mark by its array's device: ma_handle_set_device's
 * rule, with the common case (the CPU) first. */
static PyObject *handle_ready(ma_handle *o) {
  o->device = o->a->t.device.device_type != kDLCPU && !ma_dlpack_cpu_accessible(o->a->t.device.device_type);
  return (PyObject *)o;
}

PyObject *ma_handle_new(ma_array *a) {
  ma_handle *o = a ? handle_take() : NULL;
  if (!o) {
    ma_array_free(a);
    return PyErr_NoMemory();
  }
  o->a = a;
  return handle_ready(o);
}

PyObject *ma_handle_blank(void **room) {
  ma_handle *o = handle_take();
  if (!o) return PyErr_NoMemory();
  *room = o->room;
  return (PyObject *)o;
}

PyObject *ma_handle_hold(PyObject *h, ma_array *a) {
  ma_handle *o = (ma_handle *)h;
  o->a = a;
  return handle_ready(o);
}

/* A handle with memory for an array of `ndim` (at most MA_MAXDIMS) dims:
 * its room, or else ma_array_memory's.  NULL when out of memory. */
static ma_handle *handle_for(int ndim, void **mem) {
  *mem = ndim > MA_HANDLE_DIMS ? ma_array_memory(ndim) : NULL;
  ma_handle *o = (ndim <= MA_HANDLE_DIMS || *mem) ? handle_take() : NULL;
  if (o && !*mem) *mem = o->room;
  if (!o) free(*mem);
  return o;
}

/* The end of ma_handle_view and ma_handle_empty: the handle with the array
 * made in `mem` (`a`); when none could be made, NULL (nothing set). */
static PyObject *handle_made(ma_handle *o, void *mem, ma_array *a) {
  if (!a) {
    if (mem != o->room) free(mem);
    Py_DECREF(o); /* holding no array (NULL): back to the list */
    return NULL;
  }
  o->a = a;
  return handle_ready(o);
}

PyObject *ma_handle_view(const ma_array *a, int64_t offset, DLDataType dtype, int ndim, const int64_t *shape,
                         const int64_t *strides, uint32_t flags) {
  void *mem;
  ma_handle *o = handle_for(ndim, &mem);
  PyObject *h = o ? handle_made(o, mem, ma_array_view_init(mem, a, offset, dtype, ndim, shape, strides, flags)) : NULL;
  return h ? h : PyErr_NoMemory();
}

PyObject *ma_handle_empty(DLDataType dtype, int ndim, const int64_t *shape, const int64_t *strides, int zero,
                          int *err) {
  if (ndim < 0 || ndim > MA_MAXDIMS) {
    *err = 1;
    return NULL;
  }
  void *mem;
  ma_handle *o = handle_for(ndim, &mem);
  if (!o) {
    *err = 2;
    return NULL;
  }
  return handle_made(o, mem, ma_array_empty_init(mem, dtype, ndim, shape, strides, zero, err));
}

PyObject *ma_empty_error(PyObject *shape, int err, int itemsize) {
  if (err == 1)
    return PyErr_Format(PyExc_ValueError,
                        "array of shape %R and %d-byte items is too large: its size in bytes overflows",
                        shape, itemsize);
  int64_t dims[MA_MAXDIMS];
  int nd = ma_parse_dims(shape, dims, "shape");
  return nd < 0 ? NULL : ma_alloc_error(nd, dims, itemsize);
}

PyObject *ma_alloc_error(int nd, const int64_t *shape, int itemsize) {
  static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double size = itemsize;
  for (int i = 0; i < nd; i++) size *= (double)shape[i];
  int u = 0;
  for (; size >= 1024 && u < 6; u++) size /= 1024;
  char amount[32]; /* PyErr_Format has no %f */
  snprintf(amount, sizeof amount, "%.2f %s", size, units[u]);
  PyObject *sh = ma_dims_tuple(nd, shape);
  if (!sh) return NULL;
  PyErr_Format(PyExc_MemoryError, "unable to allocate %s for an array of shape %R with %d-byte elements", amount,
               sh, itemsize);
  Py_DECREF(sh);
  return NULL;
}

PyObject *ma_not_an_integer(const char *what, PyObject *value) {
  PyObject *shown = PyObject_Repr(value);
  if (!shown) return NULL;
  if (PyUnicode_GET_LENGTH(shown) <= 40)
    PyErr_Format(PyExc_TypeError, "%s must be an integer: '%.100s' object cannot be interpreted as an integer (got %U)",
                 what, Py_TYPE(value)->tp_name, shown);
  else
    PyErr_Format(PyExc_TypeError, "%s must be an integer: '%.100s' object cannot be interpreted as an integer", what,
                 Py_TYPE(value)->tp_name);
  Py_DECREF(shown);
  return NULL;
}

int ma_parse_dims(PyObject *seq, int64_t *out, const char *what) {
  PyObject *fast = PySequence_Fast(seq, "expected a sequence of integers");
  if (!fast) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n > MA_MAXDIMS) {
    Py_DECREF(fast);
    PyErr_Format(PyExc_ValueError, "%s has %zd dimensions; at most %d are supported",
                 what, n, MA_MAXDIMS);
    return -1;
  }
  PyObject **items = PySequence_Fast_ITEMS(fast);
  for (Py_ssize_t i = 0; i < n; i++) {
    long long v = PyLong_AsLongLong(items[i]);
    if (v == -1 && PyErr_Occurred()) {
      if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s entry %R does not fit in 64 bits", what, items[i]);
      }
      Py_DECREF(fast);
      return -1;
    }
    out[i] = v;
  }
  Py_DECREF(fast);
  return (int)n;
}

PyObject *ma_dims_tuple(int nd, const int64_t *v) {
  PyObject *t = PyTuple_New(nd);
  if (!t) return NULL;
  for (int i = 0; i < nd; i++) {
    PyObject *x = PyLong_FromLongLong(v[i]);
    if (!x) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, x);
  }
  return t;
}

int ma_parse_dtype(PyObject *code, PyObject *bits, DLDataType *dt) {
  long c = PyLong_AsLong(code), b = PyLong_AsLong(bits);
  if (PyErr_Occurred()) return -1;
  dt->code = (uint8_t)c;
  dt->bits = (uint8_t)b;
  dt->lanes = 1;
  if (ma_type_of(*dt) < 0) {
    PyErr_Format(PyExc_TypeError, "unsupported DLPack dtype (code %ld, bits %ld)", c, b);
    return -1;
  }
  return 0;
}

/* ma_dlpack_check, with the refusal raised as BufferError: the check every
 * door applies (capsules, the exchange API, raw pointers, buffer exports). */
int ma_check_tensor(const DLTensor *t, int opts, size_t *nbytes) {
  ma_dlpack_error err;
  if (ma_dlpack_check(t, opts, nbytes, &err) == 0) return 0;
  PyErr_SetString(PyExc_BufferError, err.text);
  return -1;
}

/* A foreign buffer's release callback for memory a Python object owns.  It
 * may run on any thread and after the interpreter is gone (a DLPack consumer
 * can outlive Python): then the reference is leaked on purpose. */
static void release_pyobject(void *ctx) {
  if (!Py_IsInitialized()) return;
  PyGILState_STATE st = PyGILState_Ensure();
  Py_DECREF((PyObject *)ctx);
  PyGILState_Release(st);
}

ma_buffer *ma_buffer_for_object(PyObject *owner, void *data, size_t nbytes) {
  ma_buffer *b = ma_buffer_foreign(data, nbytes, release_pyobject, owner);
  if (b) Py_INCREF(owner);
  return b;
}

/* ---- core functions ---------------------------------------------------- */

/* empty(shape, code, bits, zero) -> handle of a new C-contiguous array */
static PyObject *py_empty(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "empty");
  int64_t shape[MA_MAXDIMS];
  DLDataType dt;
  int nd = ma_parse_dims(args[0], shape, "shape");
  if (nd < 0 || ma_parse_dtype(args[1], args[2], &dt) < 0) return NULL;
  for (int i = 0; i < nd; i++)
    if (shape[i] < 0) {
      PyErr_Format(PyExc_ValueError, "negative dimensions are not allowed (shape %R)", args[0]);
      return NULL;
    }
  int err = 0;
  ma_array *a = ma_array_empty(dt, nd, shape, PyObject_IsTrue(args[3]), &err);
  if (!a) return ma_empty_error(args[0], err, ma_elsize(dt));
  return ma_handle_new(a);
}

/* view(h, offset, shape, strides, code, bits, readonly) -> a handle over the
 * same buffer; `offset` and `strides` in elements of the new dtype's size. */
PyObject *ma_view_handle(ma_array *a, PyObject *offset, PyObject *shape_seq, PyObject *strides_seq, DLDataType dt,
                         PyObject *readonly) {
  long long off = PyLong_AsLongLong(offset);
  if (off == -1 && PyErr_Occurred()) return NULL;
  int64_t shape[MA_MAXDIMS], strides[MA_MAXDIMS];
  int nd = ma_parse_dims(shape_seq, shape, "shape");
  if (nd < 0) return NULL;
  /* The one shape rule (ma_nbytes), for every way an array gets a shape:
   * an empty array's other dims must fit too (reshape(0, 2**40, 2**40)). */
  size_t nbytes;
  if (ma_nbytes(nd, shape, (size_t)ma_elsize(dt), &nbytes) != 0) return ma_empty_error(shape_seq, 1, ma_elsize(dt));
  if (ma_parse_dims(strides_seq, strides, "strides") != nd) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "shape and strides differ in length");
    return NULL;
  }
  int ro = PyObject_IsTrue(readonly);
  if (ro < 0) return NULL;
  return ma_handle_view(a, off, dt, nd, shape, strides, ro ? MA_READONLY : 0);
}

/* view(h, offset, shape, strides, code, bits, readonly) -> a handle over
 * h's buffer, possibly of another dtype (NDArray views use ndarray_view). */
static PyObject *py_view(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(7, "view");
  ma_array *a = ma_handle_meta(args[0]);
  DLDataType dt;
  if (!a || ma_parse_dtype(args[4], args[5], &dt) < 0) return NULL;
  return ma_view_handle(a, args[1], args[2], args[3], dt, args[6]);
}

/* wrap(owner, ptr, shape, strides|None, code, bits, readonly) -> a handle
 * over foreign memory kept alive by a reference to `owner`. */
static PyObject *py_wrap(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(7, "wrap");
  void *ptr = PyLong_AsVoidPtr(args[1]);
  if (!ptr && PyErr_Occurred()) return NULL;
  int64_t shape[MA_MAXDIMS], strides[MA_MAXDIMS];
  DLDataType dt;
  int nd = ma_parse_dims(args[2], shape, "shape");
  if (nd < 0) return NULL;
  int have_strides = args[3] != Py_None;
  if (have_strides && ma_parse_dims(args[3], strides, "strides") != nd) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "shape and strides differ in length");
    return NULL;
  }
  if (ma_parse_dtype(args[4], args[5], &dt) < 0) return NULL;
  /* The same checks as a DLPack import (span, overflow, alignment): a raw
   * pointer is one more door foreign memory comes in by. */
  DLTensor t = {ptr, {kDLCPU, 0}, nd, dt, shape, have_strides ? strides : NULL, 0};
  size_t nbytes;
  /* memory described in minarray's own terms: sub-byte elements one a byte */
  if (ma_check_tensor(&t, MA_CHECK_PADDED, &nbytes) < 0) return NULL;
  ma_buffer *b = ma_buffer_for_object(args[0], ptr, nbytes);
  if (!b) return PyErr_NoMemory();
  ma_array *a = ma_array_new(b, ptr, dt, nd, shape, have_strides ? strides : NULL,
                             PyObject_IsTrue(args[6]) ? MA_READONLY : 0);
  ma_buffer_release(b);
  return ma_handle_new(a);
}

/* data_ptr(h) -> int: the address as metadata (views, DLPack, alignment
 * checks), a device array's too; never a pointer for C to read or write:
 * that is host_ptr, which minarray._native.host_pointer casts. */
static PyObject *py_data_ptr(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "data_ptr");
  ma_array *a = ma_handle_meta(args[0]);
  return a ? PyLong_FromVoidPtr(a->t.data) : NULL;
}

/* host_ptr(h) -> int: data_ptr for what will read the memory (NumPy's
 * array interface, every C function the Python layer hands an array to):
 * a device array's raises (ma_handle_get). */
static PyObject *py_host_ptr(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "host_ptr");
  ma_array *a = ma_handle_get(args[0]);
  return a ? PyLong_FromVoidPtr(a->t.data) : NULL;
}

static PyObject *py_is_readonly(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "is_readonly");
  ma_array *a = ma_handle_meta(args[0]);
  return a ? PyBool_FromLong(a->flags & MA_READONLY) : NULL;
}

/* set_readonly(h, flag): the array's write permission (NumPy's
 * flags.writeable).  Whether it may be turned back on is the caller's rule
 * (NDArray's Flags); here it only states what the caller decided. */
static PyObject *py_set_readonly(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "set_readonly");
  ma_array *a = ma_handle_meta(args[0]);
  int ro = a ? PyObject_IsTrue(args[1]) : -1;
  if (ro < 0) return NULL;
  a->flags = ro ? (a->flags | MA_READONLY) : (a->flags & ~MA_READONLY);
  Py_RETURN_NONE;
}

/* may_overlap(h1, h2) -> bool: whether the byte ranges the two arrays'
 * elements span intersect (NumPy's may_share_memory: bounds only). */
static PyObject *py_may_overlap(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "may_overlap");
  ma_array *a = ma_handle_meta(args[0]), *b = a ? ma_handle_meta(args[1]) : NULL;
  return b ? PyBool_FromLong(ma_may_overlap(a, b)) : NULL;
}

/* buffer_info(h) -> (buffer address, buffer start, buffer bytes, owned) */
static PyObject *py_buffer_info(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "buffer_info");
  ma_array *a = ma_handle_meta(args[0]);
  if (!a) return NULL;
  return Py_BuildValue("(NNnO)", PyLong_FromVoidPtr(a->buf), PyLong_FromVoidPtr(a->buf->data),
                       (Py_ssize_t)a->buf->nbytes, a->buf->owned ? Py_True : Py_False);
}

/* A foreign buffer's release callback for a Py_buffer export. */
static void release_pybuffer(void *ctx) {
  if (!Py_IsInitialized()) return;
  PyGILState_STATE st = PyGILState_Ensure();
  PyBuffer_Release((Py_buffer *)ctx);
  PyMem_RawFree(ctx);
  PyGILState_Release(st);
}

/* A new C-contiguous array holding a copy of the export's elements: for
 * data that cannot be used where it is (not aligned to its elements). */
static PyObject *copy_pybuffer(Py_buffer *view, DLDataType dt, int nd, const int64_t *shape) {
  int err = 0;
  ma_array *a = ma_array_empty(dt, nd, shape, 0, &err);
  if (!a) return NULL;
  if (PyBuffer_ToContiguous(a->t.data, view, view->len, 'C') < 0) {
    ma_array_free(a);
    return NULL;
  }
  return ma_handle_new(a);
}

/* wrap_buffer(obj, code, bits, copy_ok) -> (handle, shape, element strides,
 * readonly) over a buffer-protocol export of obj, held until the last view
 * dies.  Its fields pass the checks of every other door (ma_check_tensor);
 * data not aligned to its elements is refused with BufferError, or copied
 * into a new array when `copy_ok` (then readonly is False: the copy is the
 * caller's). */
static PyObject *py_wrap_buffer(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "wrap_buffer");
  DLDataType dt;
  if (ma_parse_dtype(args[1], args[2], &dt) < 0) return NULL;
  int copy_ok = PyObject_IsTrue(args[3]);
  if (copy_ok < 0) return NULL;
  Py_buffer *view = (Py_buffer *)PyMem_RawMalloc(sizeof(Py_buffer));
  if (!view) return PyErr_NoMemory();
  if (PyObject_GetBuffer(args[0], view, PyBUF_RECORDS_RO) < 0) {
    PyMem_RawFree(view);
    return NULL;
  }
  int64_t shape[MA_MAXDIMS], strides[MA_MAXDIMS];
  int nd = view->ndim, tid = ma_type_of(dt);
  int64_t item = ma_elsize(dt);
  size_t nbytes;
  PyObject *h = NULL;
  const char *problem = NULL;
  if (view->itemsize != item) problem = "the buffer's itemsize does not match its format";
  if (nd > MA_MAXDIMS) problem = "the buffer has too many dimensions";
  for (int i = 0; i < nd && !problem; i++) {
    shape[i] = view->shape ? view->shape[i] : view->len / item;
    int64_t s = view->strides ? view->strides[i] : item;
    if (s % item) problem = "the buffer's strides are not multiples of its itemsize";
    strides[i] = s / item;
  }
  if (!view->strides && nd > 1) /* C-contiguous without explicit strides */
    for (int64_t i = nd - 1, s = 1; i >= 0; s *= shape[i] ? shape[i] : 1, i--) strides[i] = s;
  if (problem) {
    PyErr_SetString(PyExc_BufferError, problem);
  } else if (tid >= 0 && (uintptr_t)view->buf % (uintptr_t)ma_type_alignment(tid)) {
    if (copy_ok)
      h = copy_pybuffer(view, dt, nd, shape);
    else
      PyErr_Format(PyExc_BufferError,
                   "the buffer's data (%p) is not aligned to its %lld-byte elements: it cannot be used "
                   "in place (ma.asarray copies it unless copy=False)",
                   view->buf, (long long)item);
  } else {
    DLTensor t = {view->buf, {kDLCPU, 0}, nd, dt, shape, strides, 0};
    if (ma_check_tensor(&t, 0, &nbytes) == 0) {
      uint32_t flags = view->readonly ? MA_READONLY : 0;
      ma_buffer *b = ma_buffer_foreign(view->buf, (size_t)view->len, release_pybuffer, view);
      if (!b) {
        PyErr_NoMemory();
      } else {
        view = NULL; /* the buffer releases it from now on */
        h = ma_handle_new(ma_array_new(b, b->data, dt, nd, shape, strides, flags));
        ma_buffer_release(b);
      }
    }
  }
  if (view) { /* not handed to a buffer: refused, or copied */
    PyBuffer_Release(view);
    PyMem_RawFree(view);
  }
  if (!h) return PyErr_Occurred() ? NULL : PyErr_NoMemory();
  ma_array *a = ma_handle_get(h);
  return Py_BuildValue("(NNNO)", h, ma_dims_tuple(nd, a->t.shape), ma_dims_tuple(nd, a->t.strides),
                       (a->flags & MA_READONLY) ? Py_True : Py_False);
}

/* ---- statistics ---------------------------------------------------------- */

/* not_an_integer(what, value): raises ma_not_an_integer's TypeError, so
 * that the Python layer (_coerce.as_int) words it as C does, once. */
static PyObject *py_not_an_integer(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "not_an_integer");
  const char *what = PyUnicode_AsUTF8(args[0]);
  return what ? ma_not_an_integer(what, args[1]) : NULL;
}

/* stats() -> (live_buffers, live_bytes, total_allocations, live_foreign,
 *             total_foreign, failed_allocations) */
static PyObject *py_stats(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  (void)args;
  MA_NARGS(0, "stats");
  ma_stats_t s;
  ma_stats(&s);
  return Py_BuildValue("(LLLLLLL)", (long long)s.live_buffers, (long long)s.live_bytes,
                       (long long)s.total_allocations, (long long)s.live_foreign,
                       (long long)s.total_foreign, (long long)s.failed_allocations,
                       (long long)s.cached_bytes);
}

PyObject *ma_python_function(PyObject **slot, const char *module, const char *name) {
  if (!*slot) {
    PyObject *mod = PyImport_ImportModule(module);
    *slot = mod ? PyObject_GetAttrString(mod, name) : NULL;
    Py_XDECREF(mod);
  }
  return *slot;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_core_methods[] = {
    FC("empty", py_empty, "empty(shape, code, bits, zero) -> handle"),
    FC("view", py_view, "view(h, offset, shape, strides, code, bits, readonly) -> handle"),
    FC("wrap", py_wrap, "wrap(owner, ptr, shape, strides, code, bits, readonly) -> handle"),
    FC("wrap_buffer", py_wrap_buffer, "wrap_buffer(obj, code, bits, copy_ok) -> (handle, shape, strides, readonly)"),
    FC("data_ptr", py_data_ptr, "data_ptr(h) -> int"),
    FC("host_ptr", py_host_ptr, "host_ptr(h) -> int (raises for a device array)"),
    FC("is_readonly", py_is_readonly, "is_readonly(h) -> bool"),
    FC("set_readonly", py_set_readonly, "set_readonly(h, flag)"),
    FC("may_overlap", py_may_overlap, "may_overlap(h1, h2) -> bool (byte bounds intersect)"),
    FC("buffer_info", py_buffer_info, "buffer_info(h) -> (id, start, nbytes, owned)"),
    FC("stats", py_stats, "stats() -> tuple"),
    FC("not_an_integer", py_not_an_integer, "not_an_integer(what, value): raises its TypeError"),
    {NULL, NULL, 0, NULL}};
