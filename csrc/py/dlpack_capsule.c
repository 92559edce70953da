/*
 * The DLPack capsule protocol: NDArray.__dlpack__ (a capsule over a managed
 * tensor, and the capsule's destructor), the negotiation of max_version,
 * consuming a producer's capsule, and peeking at one for describe().
 * What the import of the tensor inside does is dlpack_import.c's
 * (ma_import_managed); dlpack_py.h says which file does what.
 */
#include <string.h>

#include "copy.h"
#include "dlpack_py.h"

/* Capsule names are part of the protocol; they must be static strings
 * (PyCapsule keeps the pointer, not a copy). */
static const char NAME_VERSIONED[] = "dltensor_versioned";
static const char NAME_USED_VERSIONED[] = "used_dltensor_versioned";
static const char NAME_LEGACY[] = "dltensor";
static const char NAME_USED_LEGACY[] = "used_dltensor";

/* ======================================================================== */
/* Export                                                                   */
/* ======================================================================== */

/* The capsule destructor (spec: "the producer's destructor").  A used_*
 * capsule belongs to its consumer: do nothing.  Otherwise the capsule was
 * never consumed, so free the tensor, keeping any exception that is being
 * raised while the capsule dies intact (numpy#32697 shows the bug). */
static void capsule_destructor(PyObject *cap) {
  const char *name = PyCapsule_GetName(cap);
  int versioned;
  if (name && strcmp(name, NAME_VERSIONED) == 0)
    versioned = 1;
  else if (name && strcmp(name, NAME_LEGACY) == 0)
    versioned = 0;
  else
    return;
  PyObject *et, *ev, *tb;
  PyErr_Fetch(&et, &ev, &tb);
  void *p = PyCapsule_GetPointer(cap, name);
  if (!p) {
    PyErr_WriteUnraisable(cap);
  } else if (versioned) {
    DLManagedTensorVersioned *m = (DLManagedTensorVersioned *)p;
    if (m->deleter) m->deleter(m);
  } else {
    DLManagedTensor *m = (DLManagedTensor *)p;
    if (m->deleter) m->deleter(m);
  }
  PyErr_Restore(et, ev, tb);
}

PyObject *ma_export_capsule(const ma_array *a, int versioned, uint64_t flags) {
  if (!versioned && ma_is_subbyte(a->t.dtype)) {
    /* a legacy consumer would read the elements as packed, several a byte */
    PyErr_Format(PyExc_BufferError,
                 "cannot export %d-bit elements as a legacy DLPack capsule: it cannot say "
                 "IS_SUBBYTE_TYPE_PADDED (minarray stores one element per byte); pass "
                 "max_version=(1, 0) or later",
                 (int)a->t.dtype.bits);
    return NULL;
  }
  void *m = ma_dlpack_managed_new(a, versioned, flags);
  if (!m) return PyErr_NoMemory();
  PyObject *cap = PyCapsule_New(m, versioned ? NAME_VERSIONED : NAME_LEGACY, capsule_destructor);
  if (!cap) KEEPING_ERROR(ma_dlpack_managed_free(m, versioned));
  return cap;
}

int ma_int_pair(PyObject *o, const char *what, long *x, long *y) {
  if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 2) {
    PyErr_Format(PyExc_TypeError, "%s must be a tuple of two integers or None, got %R", what, o);
    return -1;
  }
  for (int i = 0; i < 2; i++) {
    long v = PyLong_AsLong(PyTuple_GET_ITEM(o, i));
    if (v == -1 && PyErr_Occurred()) {
      /* Name the argument: "Python int too large to convert to C long"
       * alone does not say which one. */
      int overflow = PyErr_ExceptionMatches(PyExc_OverflowError);
      if (!overflow && !PyErr_ExceptionMatches(PyExc_TypeError)) return -1;
      PyErr_Clear();
      PyErr_Format(overflow ? PyExc_ValueError : PyExc_TypeError,
                   overflow ? "%s entries are out of range, got %R" : "%s must be a tuple of two integers or None, got %R",
                   what, o);
      return -1;
    }
    *(i ? y : x) = v;
  }
  return 0;
}

/* max_version None or major < 1: the legacy "dltensor" capsule; major
 * >= 1: "dltensor_versioned" carrying the version minarray implements. */
int ma_wants_versioned(PyObject *max_version) {
  if (max_version == Py_None) return 0;
  long major, minor;
  if (ma_int_pair(max_version, "max_version", &major, &minor) < 0) return -1;
  return major >= 1;
}

/* A C-contiguous copy of `a` in a fresh owned buffer (device CPU). */
ma_array *ma_copy_of(const ma_array *a) {
  int err = 0;
  ma_array *c = ma_array_empty(a->t.dtype, a->t.ndim, a->t.shape, 0, &err);
  if (!c) {
    if (err == 1)
      PyErr_SetString(PyExc_ValueError, "cannot copy the array: its size overflows");
    else
      PyErr_NoMemory();
    return NULL;
  }
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = ma_copyto(c, a);
  Py_END_ALLOW_THREADS if (rc != 0) {
    ma_array_free(c);
    PyErr_NoMemory();
    return NULL;
  }
  return c;
}

/* export(h, stream, max_version, dl_device, copy) -> capsule
 *
 * The body of __dlpack__ (python_spec.rst and the Array API's
 * array.__dlpack__):
 *  - max_version: ma_wants_versioned;
 *  - stream: on the CPU only None is valid (ValueError, as NumPy);
 *  - dl_device: must name the array's own device (BufferError otherwise);
 *  - copy: True always copies and sets IS_COPIED; False and None never
 *    copy (a CPU array never needs one);
 *  - read-only arrays: the versioned struct says so with READ_ONLY; the
 *    legacy struct cannot, so that request raises BufferError. */
PyObject *py_dlpack_export(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(5, "export");
  ma_array *a = ma_handle_meta(args[0]);
  if (!a) return NULL;
  PyObject *stream = args[1], *max_version = args[2], *dl_device = args[3], *copy = args[4];
  DLDevice dev = a->t.device;
  /* A device array imported through DLPack is re-exported through its
   * producer, which synchronises with the consumer's stream (the Python
   * side, minarray/dlpack.py: dlpack_device.c's reexport does the C part). */
  if (dev.device_type != kDLCPU && ma_is_dlpack_import(a->buf)) Py_RETURN_NOTIMPLEMENTED;
  if (stream != Py_None && dev.device_type == kDLCPU)
    return PyErr_Format(PyExc_ValueError,
                        "stream must be None for an array on the CPU (got %R): there is no stream "
                        "to synchronise with",
                        stream);
  if (stream != Py_None && dev.device_type != kDLCPU) {
    /* python_spec.rst, "stream": CUDA forbids 0 (ambiguous between the
     * legacy and the per-thread default stream), ROCm forbids 1 and 2.
     * Nothing else is checked: without a producer (from_pointer, the CUDA
     * array interface) minarray has nothing to synchronise. */
    long s = PyLong_Check(stream) ? PyLong_AsLong(stream) : -1;
    if (s == -1 && PyErr_Occurred()) PyErr_Clear();
    int bad = dev.device_type == kDLCUDA ? s == 0 : dev.device_type == kDLROCM ? (s == 1 || s == 2) : 0;
    if (bad)
      return PyErr_Format(PyExc_ValueError, "stream=%ld is not allowed for an array on %s (python_spec.rst)", s,
                          ma_dlpack_device_label(dev.device_type));
  }
  int versioned = ma_wants_versioned(max_version);
  if (versioned < 0) return NULL;
  if (dl_device != Py_None) {
    long type, id;
    if (ma_int_pair(dl_device, "dl_device", &type, &id) < 0) return NULL;
    if (type != dev.device_type || id != dev.device_id)
      return PyErr_Format(PyExc_BufferError,
                          "cannot export to device (%ld, %ld): the array lives on %s:%d (%d, %d) "
                          "and minarray does not copy between devices",
                          type, id, ma_dlpack_device_label(dev.device_type), (int)dev.device_id,
                          (int)dev.device_type, (int)dev.device_id);
  }
  int want_copy = 0;
  if (copy != Py_None && (want_copy = PyObject_IsTrue(copy)) < 0) return NULL;
  if (!a->buf) {
    PyErr_SetString(PyExc_BufferError, "this array has no buffer to export");
    return NULL;
  }
  if (want_copy) {
    if (dev.device_type != kDLCPU)
      return PyErr_Format(PyExc_BufferError,
                          "copy=True: minarray cannot copy memory that lives on %s:%d",
                          ma_dlpack_device_label(dev.device_type), (int)dev.device_id);
    ma_array *c = ma_copy_of(a);
    if (!c) return NULL;
    PyObject *cap = ma_export_capsule(c, versioned, DLPACK_FLAG_BITMASK_IS_COPIED);
    ma_array_free(c); /* the capsule holds its own buffer reference */
    return cap;
  }
  uint64_t flags = 0;
  if (a->flags & MA_READONLY) {
    if (!versioned) {
      /* The legacy struct has no READ_ONLY flag, and a consumer would
       * write through it.  copy=None means "reuse if possible, copy
       * otherwise" (Array API, array.__dlpack__): so export a private copy,
       * as JAX, which asks for legacy capsules only, needs (jax#40789).  The
       * legacy struct cannot say IS_COPIED either: the consumer just gets
       * memory nobody else sees.  copy=False forbids that copy. */
      if (copy == Py_None && dev.device_type == kDLCPU) {
        ma_array *c = ma_copy_of(a);
        if (!c) return NULL;
        PyObject *cap = ma_export_capsule(c, 0, 0);
        ma_array_free(c);
        return cap;
      }
      PyErr_SetString(PyExc_BufferError,
                      dev.device_type == kDLCPU
                          ? "cannot export a read-only array as a legacy DLPack capsule without a copy "
                            "(copy=False): the legacy struct has no read-only flag (pass "
                            "max_version=(1, 0) or later, or copy=None)"
                          : "cannot export a read-only device array as a legacy DLPack capsule: the "
                            "legacy struct has no read-only flag, and minarray cannot copy device "
                            "memory (pass max_version=(1, 0) or later)");
      return NULL;
    }
    flags |= DLPACK_FLAG_BITMASK_READ_ONLY;
  }
  return ma_export_capsule(a, versioned, flags);
}

/* ======================================================================== */
/* Import                                                                   */
/* ======================================================================== */

/* Consume a DLPack capsule: choose the struct by the capsule's name, then
 * import its tensor (ma_import_managed: the version and every field are
 * checked before the capsule is renamed used_*, so a rejected capsule
 * stays its producer's to free).  *copied: IS_COPIED; terms, room:
 * ma_import_managed's. */
ma_array *ma_consume_capsule(PyObject *cap, int opts, int terms, int *copied, void *room) {
  const char *name = PyCapsule_GetName(cap);
  if (!name && PyErr_Occurred()) return NULL;
  int versioned;
  if (name && strcmp(name, NAME_VERSIONED) == 0) {
    versioned = 1;
  } else if (name && strcmp(name, NAME_LEGACY) == 0) {
    versioned = 0;
  } else if (name && (strcmp(name, NAME_USED_VERSIONED) == 0 || strcmp(name, NAME_USED_LEGACY) == 0)) {
    PyErr_SetString(PyExc_BufferError,
                    "this DLPack capsule was already consumed (its name is used_*): a capsule can "
                    "be imported only once; call __dlpack__() again for a new one");
    return NULL;
  } else {
    PyErr_Format(PyExc_BufferError,
                 "not a DLPack capsule: its name is %s%s%s; expected 'dltensor_versioned' or 'dltensor'",
                 name ? "'" : "", name ? name : "NULL", name ? "'" : "");
    return NULL;
  }
  void *p = PyCapsule_GetPointer(cap, name);
  if (!p) return NULL;
  return ma_import_managed(p, versioned, cap, opts, terms, copied, room);
}

/* The used_* name a capsule takes once consumed (ma_import_managed). */
int ma_capsule_mark_used(PyObject *cap, int versioned) {
  return PyCapsule_SetName(cap, versioned ? NAME_USED_VERSIONED : NAME_USED_LEGACY);
}

/* ======================================================================== */
/* Inspection                                                               */
/* ======================================================================== */

/* capsule_peek(capsule) -> (name or None, address): what describe() reads,
 * without consuming the capsule.  The address is 0 for a used_* capsule,
 * whose struct may already be freed. */
static PyObject *py_dlpack_capsule_peek(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "capsule_peek");
  PyObject *cap = args[0];
  if (!PyCapsule_CheckExact(cap))
    return PyErr_Format(PyExc_TypeError, "expected a PyCapsule, got %.200s", Py_TYPE(cap)->tp_name);
  const char *name = PyCapsule_GetName(cap);
  if (!name && PyErr_Occurred()) return NULL;
  void *p = NULL;
  if (name && (strcmp(name, NAME_VERSIONED) == 0 || strcmp(name, NAME_LEGACY) == 0 ||
               strcmp(name, ma_exchange_api_name) == 0)) {
    p = PyCapsule_GetPointer(cap, name);
    if (!p) return NULL;
  }
  PyObject *n = name ? PyUnicode_FromString(name) : Py_NewRef(Py_None);
  if (!n) return NULL;
  return Py_BuildValue("(NN)", n, PyLong_FromVoidPtr(p));
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_dlpack_capsule_methods[] = {
    FC("dlpack_export", py_dlpack_export, "dlpack_export(h, stream, max_version, dl_device, copy) -> capsule"),
    FC("dlpack_capsule_peek", py_dlpack_capsule_peek, "dlpack_capsule_peek(capsule) -> (name, address)"),
    {NULL, NULL, 0, NULL}};
