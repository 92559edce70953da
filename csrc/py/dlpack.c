/*
 * DLPack's Python side: NDArray.__dlpack__ (capsules and their destructor),
 * from_dlpack (capsules, the C exchange API of a producer's type,
 * __dlpack__ calls), minarray's own exchange-API table and the capsule
 * peeking describe() needs.  (The NumPy fast path of from_numpy reads
 * NumPy's own struct: csrc/py/numpy_struct.c.)
 *
 * What DLPack itself asks of a producer and a consumer (building a managed
 * tensor, deleting it, validating a foreign one, adopting its memory) is
 * plain C in csrc/core/dlpack_core.c, with the ownership picture: read that
 * first.  This file adds what Python needs around it.
 *
 * Device arrays (CUDA, ROCm... memory minarray carries but never reads)
 * are imported here like any tensor, with their device kept; their
 * handle's device mark keeps them from every kernel (pyapi.h), and their export
 * goes back through the producer with the consumer's stream (reexport).
 *
 * Why C at all: a DLPack exchange costs per call, not per byte.  Building
 * the capsule here, and consuming a producer's capsule here, keeps an
 * exchange within a few hundred nanoseconds; the capsule destructor must be
 * C anyway, because it runs after the exporting NDArray is gone
 * (python_spec.rst, "Syntax for data interchange with DLPack").
 */
#include <stdarg.h>
#include <string.h>

#include "copy.h"
#include "dlpack_core.h"
#include "pyapi.h"


/* Capsule names are part of the protocol; they must be static strings
 * (PyCapsule keeps the pointer, not a copy). */
static const char NAME_VERSIONED[] = "dltensor_versioned";
static const char NAME_USED_VERSIONED[] = "used_dltensor_versioned";
static const char NAME_LEGACY[] = "dltensor";
static const char NAME_USED_LEGACY[] = "used_dltensor";
static const char NAME_EXCHANGE_API[] = "dlpack_exchange_api";

/* ---- state set once by setup() ------------------------------------------ */


static PyObject *str_dlpack, *str_dlpack_device, *str_exchange_api, *str_is_neg, *str_is_conj, *str_requires_grad;
/* kwnames tuples for vectorcall: max_version [+ dl_device] [+ copy] */
static PyObject *kw_v, *kw_vd, *kw_vc, *kw_vdc;
static PyObject *max_version_arg; /* (1, 3): the version minarray reads */
static PyObject *cpu_device_arg;  /* (kDLCPU, 0) */
static PyObject *cpu_device_pair, *device_type_enum; /* dlpack_device_setup's */

/* Run `stmt` with no exception pending, then restore the one that was.
 * Used wherever a producer's deleter may run on an error path (directly,
 * through a buffer release, or through a capsule destructor): deleters and
 * destructors may run Python code, which must neither see nor clear our
 * exception (numpy#32697 is this bug). */
#define KEEPING_ERROR(stmt)                   \
  do {                                        \
    PyObject *et_, *ev_, *tb_;                \
    PyErr_Fetch(&et_, &ev_, &tb_);            \
    stmt;                                     \
    PyErr_Restore(et_, ev_, tb_);             \
  } while (0)

/* ---- small helpers ------------------------------------------------------ */

/* ma_dlpack_check, with the refusal raised as BufferError: the check every
 * door applies (capsules, the exchange API, raw pointers, buffer exports). */
int ma_check_tensor(const DLTensor *t, int opts, size_t *nbytes) {
  ma_dlpack_error err;
  if (ma_dlpack_check(t, opts, nbytes, &err) == 0) return 0;
  PyErr_SetString(PyExc_BufferError, err.text);
  return -1;
}

/* An import's array is built in `room` when one is given (a new handle's:
 * ma_handle_blank) and the tensor's dims fit there, else allocated; drop()
 * releases it either way. */
static void drop(ma_array *a, void *room) {
  if ((void *)a == room)
    ma_array_clear(a);
  else
    ma_array_free(a);
}

/* ma_dlpack_adopt, with MemoryError when it fails: set after the release,
 * which may run a producer's deleter (Python code that must not see it). */
static ma_array *adopt(const DLTensor *t, size_t nbytes, ma_release_fn release, void *ctx, uint32_t flags,
                       void *room) {
  ma_array *a = ma_dlpack_adopt(t, nbytes, release, ctx, flags, t->ndim <= MA_HANDLE_DIMS ? room : NULL);
  if (!a) PyErr_NoMemory();
  return a;
}

/* An adopted import of packed sub-byte elements (ma_dlpack_check let them
 * in with MA_CHECK_PACKED) as minarray's padded copy; the producer's tensor
 * is released at once.  Anything else is returned as it is. */
static ma_array *unpack_if_packed(ma_array *a, int opts, int *copied, void *room) {
  if (!a || !ma_is_subbyte(a->t.dtype) || (opts & MA_CHECK_PADDED)) return a;
  ma_array *u;
  Py_BEGIN_ALLOW_THREADS u = ma_dlpack_unpack(a);
  Py_END_ALLOW_THREADS
  /* the copy takes a byte per element: name its size (a broadcast packed
   * tensor may describe far more elements than its memory holds) */
  if (!u) ma_alloc_error(a->t.ndim, a->t.shape, 1);
  KEEPING_ERROR(drop(a, room));
  if (!u) return NULL;
  *copied = 1;
  return u;
}

/* A C-contiguous copy of `a` in a fresh owned buffer (device CPU). */
static ma_array *copy_of(const ma_array *a) {
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

/* Whether `b` is the foreign buffer over an imported DLPack tensor (its
 * release calls a producer's deleter). */
static int is_dlpack_import(const ma_buffer *b) {
  return b && (b->release == ma_dlpack_release_versioned || b->release == ma_dlpack_release_legacy);
}

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

static PyObject *export_capsule(const ma_array *a, int versioned, uint64_t flags) {
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

/* Reads a (int, int) tuple; -1 with TypeError otherwise. */
static int int_pair(PyObject *o, const char *what, long *x, long *y) {
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

/* export(h, stream, max_version, dl_device, copy) -> capsule
 *
 * The body of __dlpack__ (python_spec.rst and the Array API's
 * array.__dlpack__):
 *  - max_version None or major < 1: the legacy "dltensor" capsule; major
 *    >= 1: "dltensor_versioned" carrying the version minarray implements;
 *  - stream: on the CPU only None is valid (ValueError, as NumPy);
 *  - dl_device: must name the array's own device (BufferError otherwise);
 *  - copy: True always copies and sets IS_COPIED; False and None never
 *    copy (a CPU array never needs one);
 *  - read-only arrays: the versioned struct says so with READ_ONLY; the
 *    legacy struct cannot, so that request raises BufferError. */
MA_FASTCALL(py_export) {
  (void)self;
  MA_NARGS(5, "export");
  ma_array *a = ma_handle_meta(args[0]);
  if (!a) return NULL;
  PyObject *stream = args[1], *max_version = args[2], *dl_device = args[3], *copy = args[4];
  DLDevice dev = a->t.device;
  /* A device array imported through DLPack is re-exported through its
   * producer, which synchronises with the consumer's stream (the Python
   * side, minarray/dlpack.py: reexport below does the C part). */
  if (dev.device_type != kDLCPU && is_dlpack_import(a->buf)) Py_RETURN_NOTIMPLEMENTED;
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
  int versioned = 0;
  if (max_version != Py_None) {
    long major, minor;
    if (int_pair(max_version, "max_version", &major, &minor) < 0) return NULL;
    versioned = major >= 1;
  }
  if (dl_device != Py_None) {
    long type, id;
    if (int_pair(dl_device, "dl_device", &type, &id) < 0) return NULL;
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
    ma_array *c = copy_of(a);
    if (!c) return NULL;
    PyObject *cap = export_capsule(c, versioned, DLPACK_FLAG_BITMASK_IS_COPIED);
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
        ma_array *c = copy_of(a);
        if (!c) return NULL;
        PyObject *cap = export_capsule(c, 0, 0);
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
  return export_capsule(a, versioned, flags);
}

static ma_array *consume_capsule(PyObject *cap, int opts, int legacy_readonly, int *copied, void *room);

/* Parses max_version as export does: 1 for a versioned capsule. */
static int wants_versioned(PyObject *max_version) {
  if (max_version == Py_None) return 0;
  long major, minor;
  if (int_pair(max_version, "max_version", &major, &minor) < 0) return -1;
  return major >= 1;
}

/* The producer's refusal (the pending exception) as a BufferError saying
 * what minarray was asked for, with the producer's own error as its cause;
 * what is no refusal (KeyboardInterrupt, SystemExit) passes as it is. */
static void refused_by(PyObject *producer, const char *what) {
  if (!PyErr_ExceptionMatches(PyExc_Exception)) return;
  PyObject *et, *ev, *tb;
  PyErr_Fetch(&et, &ev, &tb);
  PyErr_NormalizeException(&et, &ev, &tb);
  if (tb && ev) PyException_SetTraceback(ev, tb);
  PyErr_Format(PyExc_BufferError, "cannot export %s: its producer (%.200s) refused: %S", what,
               Py_TYPE(producer)->tp_name, ev ? ev : Py_None);
  PyObject *nt, *nv, *ntb;
  PyErr_Fetch(&nt, &nv, &ntb);
  PyErr_NormalizeException(&nt, &nv, &ntb);
  if (nv && ev) {
    PyException_SetContext(nv, Py_NewRef(ev));
    PyException_SetCause(nv, Py_NewRef(ev)); /* raise ... from the producer's error */
  }
  PyErr_Restore(nt, nv, ntb);
  Py_XDECREF(et);
  Py_XDECREF(ev);
  Py_XDECREF(tb);
}

/* reexport(h, producer, stream, max_version, dl_device, copy) -> capsule
 *
 * The export of a device array (h) that came from `producer` through
 * DLPack.  minarray never touches device memory, so it cannot make the
 * producer's pending work visible on the consumer's stream; the producer
 * can, and the spec makes that its job (python_spec.rst, "stream": the
 * producer "must synchronize or wait on the stream" the consumer passes).
 * So the producer is asked for a fresh capsule with the consumer's request
 * (its stream; dl_device and copy when given: minarray/dlpack.py has
 * already turned away what only minarray could do, a CPU copy or
 * copy=True), and the capsule minarray hands out describes minarray's view
 * (its pointer, shape, strides) over that fresh tensor, whose deleter runs
 * when the consumer deletes minarray's.  The fresh tensor must start where
 * the imported one did (the same memory).
 *
 * A versioned request asks the producer for the newest version minarray
 * reads, and carries READ_ONLY when the array or the fresh tensor is
 * read-only.  A legacy request (max_version None or major 0) is passed to
 * the producer as the consumer made it: the legacy struct cannot say
 * read-only, but whether memory the producer owns may go out in one is the
 * producer's call, not minarray's (JAX exports its read-only GPU arrays
 * legacy, and asks for nothing else).  So a read-only device array is
 * refused a legacy capsule only when its producer refuses (BufferError
 * with the producer's error as cause), or exports it versioned READ_ONLY
 * anyway, or when there is no producer to ask.
 *
 * producer None (a bare capsule was imported, or a copy): the array is
 * exported as it is, unsynchronised. */
MA_FASTCALL(py_reexport) {
  (void)self;
  MA_NARGS(6, "reexport");
  ma_array *a = ma_handle_meta(args[0]);
  if (!a) return NULL;
  PyObject *producer = args[1], *stream = args[2], *max_version = args[3], *dl_device = args[4], *copy = args[5];
  int versioned = wants_versioned(max_version);
  if (versioned < 0) return NULL;
  uint64_t flags = (a->flags & MA_READONLY) ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  if (producer == Py_None) {
    if (flags && !versioned) {
      PyErr_SetString(PyExc_BufferError,
                      "cannot export a read-only device array as a legacy DLPack capsule: the legacy "
                      "struct has no read-only flag, minarray cannot copy device memory, and this array "
                      "has no producer to ask (imported from a bare capsule); pass max_version=(1, 0) "
                      "or later");
      return NULL;
    }
    return export_capsule(a, versioned, flags);
  }
  /* producer.__dlpack__(stream=, max_version=[, dl_device=][, copy=]); an
   * older producer takes the stream only */
  PyObject *kw = Py_BuildValue("{sOsO}", "stream", stream, "max_version", versioned ? max_version_arg : max_version);
  if (!kw || (dl_device != Py_None && PyDict_SetItemString(kw, "dl_device", dl_device) < 0) ||
      (copy != Py_None && PyDict_SetItemString(kw, "copy", copy) < 0)) {
    Py_XDECREF(kw);
    return NULL;
  }
  PyObject *meth = PyObject_GetAttr(producer, str_dlpack);
  PyObject *cap = NULL;
  if (meth) {
    PyObject *empty = PyTuple_New(0);
    cap = empty ? PyObject_Call(meth, empty, kw) : NULL;
    if (!cap && PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      if (PyDict_DelItemString(kw, "max_version") < 0 ||
          (dl_device != Py_None && PyDict_DelItemString(kw, "dl_device") < 0) ||
          (copy != Py_None && PyDict_DelItemString(kw, "copy") < 0))
        PyErr_Clear(); /* (never: each key is there) */
      cap = PyObject_Call(meth, empty, kw);
    }
    Py_XDECREF(empty);
    Py_DECREF(meth);
  }
  Py_DECREF(kw);
  if (!cap) {
    if (flags && !versioned) refused_by(producer, "a read-only device array as a legacy DLPack capsule");
    return NULL;
  }
  if (!PyCapsule_CheckExact(cap)) {
    PyErr_Format(PyExc_TypeError, "%.200s.__dlpack__() returned %.200s, not a DLPack capsule",
                 Py_TYPE(producer)->tp_name, Py_TYPE(cap)->tp_name);
    Py_DECREF(cap);
    return NULL;
  }
  int copied = 0;
  ma_array *fresh = consume_capsule(cap, MA_CHECK_ANY_DEVICE, 0, &copied, NULL);
  if (!fresh) {
    KEEPING_ERROR(Py_DECREF(cap));
    return NULL;
  }
  Py_DECREF(cap); /* used_*: the fresh tensor is ours now, in `fresh` */
  if (fresh->buf->data != a->buf->data || fresh->t.device.device_type != a->t.device.device_type ||
      fresh->t.device.device_id != a->t.device.device_id || copied) {
    KEEPING_ERROR(ma_array_free(fresh));
    return PyErr_Format(PyExc_BufferError,
                        "the producer (%.200s) exported other memory than the tensor minarray imported "
                        "from it; a device array can only be re-exported over the same memory",
                        Py_TYPE(producer)->tp_name);
  }
  if (!versioned) {
    flags = 0; /* a legacy capsule, as the producer's own: it cannot say read-only */
    if (fresh->flags & MA_READONLY) {
      /* the producer answered a legacy request with a READ_ONLY versioned
       * capsule: it does not let this memory go out writable */
      KEEPING_ERROR(ma_array_free(fresh));
      PyErr_Format(PyExc_BufferError,
                   "cannot export this device array as a legacy DLPack capsule: its producer (%.200s) "
                   "exports the memory read-only, which the legacy struct cannot say (pass "
                   "max_version=(1, 0) or later)",
                   Py_TYPE(producer)->tp_name);
      return NULL;
    }
  } else if (fresh->flags & MA_READONLY) {
    flags |= DLPACK_FLAG_BITMASK_READ_ONLY;
  }
  /* minarray's view, over the fresh tensor's buffer */
  ma_array *view = ma_array_new(fresh->buf, a->t.data, a->t.dtype, a->t.ndim, a->t.shape, a->t.strides, 0);
  PyObject *out = NULL;
  if (view) {
    view->t.device = a->t.device;
    out = export_capsule(view, versioned, flags);
  } else {
    PyErr_NoMemory();
  }
  /* the capsule holds the fresh buffer now (or nobody: its deleter runs) */
  KEEPING_ERROR({
    if (view) ma_array_free(view);
    ma_array_free(fresh);
  });
  return out;
}

/* ======================================================================== */
/* Import                                                                   */
/* ======================================================================== */

/* Consume a DLPack capsule: choose the struct by the capsule's name, check
 * the version and every field, and only then rename it to used_* (a
 * rejected capsule stays its producer's to free).  *copied: IS_COPIED;
 * room: adopt's. */
static ma_array *consume_capsule(PyObject *cap, int opts, int legacy_readonly, int *copied, void *room) {
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
  const DLTensor *t;
  uint32_t flags = 0;
  *copied = 0;
  if (versioned) {
    DLManagedTensorVersioned *m = (DLManagedTensorVersioned *)p;
    /* The version and flags fields are frozen across 1.x; a different major
     * version may lay out everything after them differently. */
    if (m->version.major != DLPACK_MAJOR_VERSION) {
      PyErr_Format(PyExc_BufferError,
                   "the producer exported DLPack %u.%u; minarray reads major version %d",
                   (unsigned)m->version.major, (unsigned)m->version.minor, DLPACK_MAJOR_VERSION);
      return NULL;
    }
    t = &m->dl_tensor;
    if (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) flags |= MA_READONLY;
    if (m->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) opts |= MA_CHECK_PADDED;
    *copied = (m->flags & DLPACK_FLAG_BITMASK_IS_COPIED) != 0;
  } else {
    t = &((DLManagedTensor *)p)->dl_tensor;
    /* The legacy struct cannot say whether the memory may be written, so
     * (as NumPy >= 2.2.5) an import of one is read-only. */
    if (legacy_readonly) flags |= MA_READONLY;
  }
  size_t nbytes;
  if (ma_check_tensor(t, opts, &nbytes) < 0) return NULL;
  if (PyCapsule_SetName(cap, versioned ? NAME_USED_VERSIONED : NAME_USED_LEGACY) < 0) return NULL;
  return unpack_if_packed(adopt(t, nbytes, versioned ? ma_dlpack_release_versioned : ma_dlpack_release_legacy,
                                p, flags, room), opts, copied, room);
}

/* The DLPack C exchange API of x's type (DLPack 1.3: the type attribute
 * __dlpack_c_exchange_api__, a "dlpack_exchange_api" capsule), or NULL.
 * _PyType_Lookup goes through CPython's per-type attribute cache, so this
 * is the per-type cache the spec asks consumers to keep, and a miss raises
 * no AttributeError. */
static const DLPackExchangeAPI *exchange_api_of(PyTypeObject *tp) {
  PyObject *cap = _PyType_Lookup(tp, str_exchange_api); /* borrowed */
  if (!cap || !PyCapsule_CheckExact(cap)) return NULL;
  const char *name = PyCapsule_GetName(cap);
  if (!name || strcmp(name, NAME_EXCHANGE_API) != 0) {
    PyErr_Clear();
    return NULL;
  }
  const DLPackExchangeAPI *api = (const DLPackExchangeAPI *)PyCapsule_GetPointer(cap, name);
  if (!api) {
    PyErr_Clear();
    return NULL;
  }
  if (api->header.version.major != DLPACK_MAJOR_VERSION || !api->managed_tensor_from_py_object_no_sync)
    return NULL;
  return api;
}

/* What import_any asks of a producer's type: whether it has PyTorch's
 * lazy bits (is_neg), its exchange API, and its __dlpack__ when that can be
 * called directly: a method descriptor (a C method or a function) that no
 * instance attribute can shadow (generic attribute look-up, no instance
 * __dict__), as PyObject_VectorcallMethod would find and call it.  Each is
 * a type look-up per call (~5 ns of the ~190 ns an np.from_dlpack of a
 * NumPy array costs, AMD EPYC Zen 4); they are kept for the last type
 * seen, as DLPack asks consumers to cache per type, under its version
 * tag: CPython gives a type a new tag whenever it or a base changes, and
 * never gives an old tag to a new type, so a borrowed pointer is only
 * used while its type is unchanged. */
typedef struct {
  int lazy;                      /* has is_neg: refuse_lazy_tensor asks */
  const DLPackExchangeAPI *api;  /* exchange_api_of's */
  PyObject *dlpack;              /* borrowed: the type's __dlpack__, or NULL */
} producer_type;

static producer_type producer_of(PyTypeObject *tp) {
  static PyTypeObject *seen_type; /* borrowed; compared, never read */
  static unsigned int seen_tag;
  static producer_type seen;
  if (tp == seen_type && tp->tp_version_tag == seen_tag && PyType_HasFeature(tp, Py_TPFLAGS_VALID_VERSION_TAG))
    return seen;
  producer_type p = {_PyType_Lookup(tp, str_is_neg) != NULL, exchange_api_of(tp), NULL};
  int plain = tp->tp_getattro == PyObject_GenericGetAttr && tp->tp_dictoffset == 0;
#ifdef Py_TPFLAGS_MANAGED_DICT
  plain = plain && !PyType_HasFeature(tp, Py_TPFLAGS_MANAGED_DICT);
#endif
  PyObject *m = plain ? _PyType_Lookup(tp, str_dlpack) : NULL;
  if (m && PyType_HasFeature(Py_TYPE(m), Py_TPFLAGS_METHOD_DESCRIPTOR)) p.dlpack = m;
  /* the look-ups gave the type a tag, unless CPython ran out of them */
  seen_type = PyType_HasFeature(tp, Py_TPFLAGS_VALID_VERSION_TAG) && tp->tp_version_tag ? tp : NULL;
  seen_tag = tp->tp_version_tag;
  seen = p;
  return p;
}

/* Import through the exchange API.  Returns the array, or NULL with an
 * error set, or NULL with *fallback set when the capsule route must be
 * taken instead:
 *  - the call failed: __dlpack__ gives the producer's own, well-formed
 *    error (PyTorch's C API raises raw C++ errors for e.g. sparse tensors)
 *    or succeeds;
 *  - the tensor is not on a CPU-accessible device and the caller asked for
 *    the CPU: only __dlpack__ can ask the producer to copy. */
static ma_array *import_via_api(const DLPackExchangeAPI *api, PyObject *x, int want_cpu, int opts,
                                int *copied, int *fallback, void *room) {
  DLManagedTensorVersioned *m = NULL;
  if (api->managed_tensor_from_py_object_no_sync((void *)x, &m) != 0 || !m) {
    PyErr_Clear();
    *fallback = 1;
    return NULL;
  }
  if (m->version.major != DLPACK_MAJOR_VERSION) {
    PyErr_Format(PyExc_BufferError, "the producer exported DLPack %u.%u; minarray reads major version %d",
                 (unsigned)m->version.major, (unsigned)m->version.minor, DLPACK_MAJOR_VERSION);
    if (m->deleter) KEEPING_ERROR(m->deleter(m));
    return NULL;
  }
  /* (tensors whose lazy bits the API would ignore never get here:
   * refuse_lazy_tensor turned them away) */
  if (want_cpu && !ma_dlpack_cpu_accessible(m->dl_tensor.device.device_type)) {
    if (m->deleter) m->deleter(m);
    *fallback = 1;
    return NULL;
  }
  size_t nbytes;
  if (m->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) opts |= MA_CHECK_PADDED;
  if (ma_check_tensor(&m->dl_tensor, opts, &nbytes) < 0) {
    if (m->deleter) KEEPING_ERROR(m->deleter(m));
    return NULL;
  }
  *copied = (m->flags & DLPACK_FLAG_BITMASK_IS_COPIED) != 0;
  uint32_t flags = (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) ? MA_READONLY : 0;
  return unpack_if_packed(adopt(&m->dl_tensor, nbytes, ma_dlpack_release_versioned, m, flags, room), opts,
                          copied, room);
}

/* x.__dlpack__(max_version=(1, 3)[, dl_device=(1, 0)][, copy=...]) through
 * vectorcall with interned keyword names.  A producer that predates those
 * keywords raises TypeError: retry with none (python_spec.rst), when the
 * request still makes sense without them; *honoured reports whether the
 * producer saw dl_device/copy. */
static PyObject *call_dlpack(PyObject *x, PyObject *method, int want_cpu, int copy, int *honoured) {
  PyObject *stack[5];
  PyObject **argv = stack + 1; /* stack[0] is scratch for PY_VECTORCALL_ARGUMENTS_OFFSET */
  size_t n = 1;
  argv[0] = x;
  argv[n++] = max_version_arg;
  if (want_cpu) argv[n++] = cpu_device_arg;
  if (copy >= 0) argv[n++] = copy ? Py_True : Py_False;
  PyObject *kw = want_cpu ? (copy >= 0 ? kw_vdc : kw_vd) : (copy >= 0 ? kw_vc : kw_v);
  *honoured = 1;
  /* `method` (producer_of's): the call PyObject_VectorcallMethod makes */
  PyObject *cap = method ? PyObject_Vectorcall(method, argv, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, kw)
                         : PyObject_VectorcallMethod(str_dlpack, argv, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, kw);
  if (cap) return cap;
  if (PyErr_ExceptionMatches(PyExc_AttributeError) && !_PyType_Lookup(Py_TYPE(x), str_dlpack)) {
    PyErr_Clear();
    return PyErr_Format(PyExc_TypeError,
                        "from_dlpack() needs an object with __dlpack__ (or a DLPack capsule); got %.200s",
                        Py_TYPE(x)->tp_name);
  }
  if (!PyErr_ExceptionMatches(PyExc_TypeError)) return NULL;
  /* An older producer (`__dlpack__(self, stream=None)`). */
  PyObject *et, *ev, *tb;
  PyErr_Fetch(&et, &ev, &tb);
  if (want_cpu) {
    /* It cannot be asked to move the data: fine only if it is on the CPU. */
    PyObject *dev = PyObject_CallMethodNoArgs(x, str_dlpack_device);
    long type = -1, id = 0;
    if (!dev || int_pair(dev, "__dlpack_device__()", &type, &id) < 0) {
      Py_XDECREF(dev);
      Py_XDECREF(et);
      Py_XDECREF(ev);
      Py_XDECREF(tb);
      return NULL;
    }
    Py_DECREF(dev);
    if (!ma_dlpack_cpu_accessible((int32_t)type)) {
      Py_XDECREF(et);
      Py_XDECREF(ev);
      Py_XDECREF(tb);
      return PyErr_Format(PyExc_BufferError,
                          "the producer lives on %s:%ld and its __dlpack__ does not accept "
                          "dl_device, so it cannot be asked for a CPU copy",
                          ma_dlpack_device_label((int32_t)type), id);
    }
  }
  Py_XDECREF(et);
  Py_XDECREF(ev);
  Py_XDECREF(tb);
  *honoured = 0;
  return method ? PyObject_Vectorcall(method, argv, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL)
                : PyObject_VectorcallMethod(str_dlpack, argv, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

/* Whether method or attribute `name` of x is true: 1, 0, or -1 with the
 * error set. */
static int truth_of(PyObject *x, PyObject *name, int call) {
  PyObject *r = call ? PyObject_CallMethodNoArgs(x, name) : PyObject_GetAttr(x, name);
  if (!r) return -1;
  int t = PyObject_IsTrue(r);
  Py_DECREF(r);
  return t;
}

/* PyTorch tensors can carry state a DLPack tensor cannot describe: a
 * gradient being tracked, and the lazy conjugate and negative bits (the
 * memory holds values that are conjugated or negated when read).
 * Tensor.__dlpack__ refuses the first two, but (2.13) exports a negative
 * view's memory as it is, so its consumers read negated values; the C
 * exchange API checks none of the three.  minarray asks all three itself,
 * before either route, so both routes refuse what __dlpack__ refuses, with
 * its words, and neither gives wrong values.  Called for a type with
 * is_neg (producer_of); any other producer costs nothing here.  0, or -1
 * with BufferError set. */
static int refuse_lazy_tensor(PyObject *x) {
  int t;
  if ((t = truth_of(x, str_requires_grad, 0)) != 0) {
    if (t > 0)
      PyErr_SetString(PyExc_BufferError, "Can't export tensors that require gradient, use tensor.detach()");
    return -1;
  }
  if ((t = truth_of(x, str_is_conj, 1)) != 0) {
    if (t > 0)
      PyErr_SetString(PyExc_BufferError,
                      "Can't export tensors with the conjugate bit set (tensor.resolve_conj() gives a "
                      "copy with the conjugation applied)");
    return -1;
  }
  if ((t = truth_of(x, str_is_neg, 1)) != 0) {
    if (t > 0)
      PyErr_SetString(PyExc_BufferError,
                      "the tensor has PyTorch's negative bit set: its memory holds the negated values, "
                      "which DLPack cannot describe (tensor.resolve_neg() gives a copy with the "
                      "negation applied)");
    return -1;
  }
  return 0;
}

/* x.__dlpack__(...) as call_dlpack asks it, checked to be a capsule. */
static PyObject *request_capsule(PyObject *x, int want_cpu, int copy, int *honoured) {
  /* a reference to the method for the call: a deleter the exchange API
   * ran, or the producer's own code, may change its type */
  PyObject *method = Py_XNewRef(producer_of(Py_TYPE(x)).dlpack);
  PyObject *cap = call_dlpack(x, method, want_cpu, copy, honoured);
  Py_XDECREF(method);
  if (cap && !PyCapsule_CheckExact(cap)) {
    PyErr_Format(PyExc_TypeError, "%.200s.__dlpack__() returned %.200s, not a DLPack capsule",
                 Py_TYPE(x)->tp_name, Py_TYPE(cap)->tp_name);
    Py_CLEAR(cap);
  }
  return cap;
}

/* The shared import: capsule or producer object -> ma_array.  copy is -1
 * (None), 0 or 1; opts are ma_dlpack_check's.  *zero_copy tells whether
 * the result shares x's memory.  The result may be built in `room` (or
 * NULL: allocated): drop() releases it. */
static ma_array *import_any(PyObject *x, int want_cpu, int copy, int opts, int legacy_readonly,
                            int *zero_copy, void *room) {
  int copied = 0, honoured = 1;
  ma_array *a = NULL;
  /* copy=True copies even what cannot be viewed in place (misaligned data);
   * any copy but copy=False unpacks packed sub-byte elements */
  if (copy == 1) opts |= MA_CHECK_UNALIGNED;
  if (copy != 0) opts |= MA_CHECK_PACKED;
  if (PyCapsule_CheckExact(x)) {
    a = consume_capsule(x, opts, legacy_readonly, &copied, room);
  } else {
    producer_type p = producer_of(Py_TYPE(x));
    if (p.lazy) {
      if (refuse_lazy_tensor(x) < 0) return NULL;
      p = producer_of(Py_TYPE(x)); /* its Python code may have changed the type */
    }
    const DLPackExchangeAPI *api = p.api;
    int fallback = 0;
    if (api) {
      a = import_via_api(api, x, want_cpu, opts, &copied, &fallback, room);
      if (!a && !fallback) return NULL;
    }
    if (!a) {
      PyObject *cap = request_capsule(x, want_cpu, copy, &honoured);
      if (!cap) return NULL;
      a = consume_capsule(cap, opts, legacy_readonly, &copied, room);
      /* used_*: its destructor does nothing; rejected: it frees the tensor */
      if (a)
        Py_DECREF(cap);
      else
        KEEPING_ERROR(Py_DECREF(cap));
    }
  }
  if (!a) return NULL;
  (void)honoured;
  *zero_copy = !copied;
  /* without MA_CHECK_UNALIGNED the check refused misaligned data */
  int aligned = !(opts & MA_CHECK_UNALIGNED) || ma_array_size(a) == 0 || ma_dlpack_aligned(a);
  if ((copy == 1 && !copied) || !aligned) {
    /* The producer did not copy (it could not be asked, or ignored it). */
    if (!ma_dlpack_cpu_accessible(a->t.device.device_type)) {
      DLDevice d = a->t.device;
      KEEPING_ERROR(drop(a, room));
      PyErr_Format(PyExc_BufferError,
                   "copy=True: the tensor lives on %s:%d, where minarray cannot copy it and the "
                   "producer did not; pass device='cpu' for a copy on the CPU",
                   ma_dlpack_device_label(d.device_type), (int)d.device_id);
      return NULL;
    }
    ma_array *r = aligned ? NULL : ma_dlpack_realign(a);
    ma_array *c = aligned || r ? copy_of(r ? r : a) : NULL;
    if (!aligned && !r) PyErr_NoMemory();
    KEEPING_ERROR({
      if (r) ma_array_free(r);
      drop(a, room);
    });
    a = c;
    *zero_copy = 0;
  }
  return a;
}

/* The (x, want_cpu, copy) arguments of from_dlpack and request: want_cpu
 * a truth value, copy -1 (None), 0 or 1.  0, or -1 with the error set. */
static int import_request(PyObject *const *args, int *want_cpu, int *copy) {
  if ((*want_cpu = PyObject_IsTrue(args[1])) < 0) return -1;
  *copy = -1;
  return args[2] != Py_None && (*copy = PyObject_IsTrue(args[2])) < 0 ? -1 : 0;
}

/* from_dlpack(x, want_cpu, copy) -> NDArray
 *
 * x: an object with __dlpack__ or a bare DLPack capsule; want_cpu: the
 * caller passed device="cpu"; copy: None, True or False. */
MA_FASTCALL(py_from_dlpack) {
  (void)self;
  MA_NARGS(3, "from_dlpack");
  PyObject *x = args[0];
  int want_cpu, copy;
  if (import_request(args, &want_cpu, &copy) < 0) return NULL;
  int zero_copy = 0;
  /* device=None keeps the data where it is: on a device the CPU cannot
   * address, minarray carries it (a device array: views and re-exports
   * only, see pyapi.h); device="cpu" asked the producer for CPU memory. */
  void *room;
  PyObject *h = ma_handle_blank(&room); /* the array goes in its room when it fits */
  if (!h) return NULL;
  ma_array *a = import_any(x, want_cpu, copy, want_cpu ? 0 : MA_CHECK_ANY_DEVICE, 1, &zero_copy, room);
  if (!a) {
    Py_DECREF(h); /* holding nothing */
    return NULL;
  }
  /* Pinned or managed memory is CPU memory to minarray: the array reports
   * (and re-exports as) CPU, like every NDArray. */
  if (ma_dlpack_cpu_accessible(a->t.device.device_type)) {
    a->t.device.device_type = kDLCPU;
    a->t.device.device_id = 0;
  }
  /* A shared result keeps its producer visible as .base; a private copy
   * owns its data (base None), like a fresh array. */
  return ma_ndarray_wrap(ma_handle_hold(h, a), NULL, NULL, zero_copy ? x : NULL);
}

/* request(x, want_cpu, copy) -> capsule
 *
 * The capsule from_dlpack(x, device="cpu" when want_cpu, copy=copy) would
 * import, unconsumed: for a caller that checks its fields against what it
 * expects before importing it (to_device checks a producer's CPU copy
 * against the device tensor it copies). */
MA_FASTCALL(py_request) {
  (void)self;
  MA_NARGS(3, "request");
  PyObject *x = args[0];
  int want_cpu, copy, honoured = 1;
  if (import_request(args, &want_cpu, &copy) < 0) return NULL;
  if (producer_of(Py_TYPE(x)).lazy && refuse_lazy_tensor(x) < 0) return NULL;
  return request_capsule(x, want_cpu, copy, &honoured);
}

/* import_handle(x) -> (handle, device_type, device_id, readonly)
 *
 * For asdlpack: take over x's DLPack export on whatever device it lives
 * (the data is never touched, only re-exported), legacy capsules keeping
 * their (unknown, hence writable) status. */
MA_FASTCALL(py_import_handle) {
  (void)self;
  MA_NARGS(1, "import_handle");
  int zero_copy = 0;
  ma_array *a = import_any(args[0], 0, -1, MA_CHECK_ANY_DEVICE, 0, &zero_copy, NULL);
  if (!a) return NULL;
  DLDevice d = a->t.device;
  int ro = (a->flags & MA_READONLY) != 0;
  PyObject *h = ma_handle_new(a);
  if (!h) return NULL;
  return Py_BuildValue("(Niii)", h, (int)d.device_type, (int)d.device_id, ro);
}

/* set_device(h, device_type, device_id): mark a handle's memory as living
 * on another device (asdlpack of a __cuda_array_interface__ object).  Such
 * handles are only ever re-exported, never given to a kernel. */
MA_FASTCALL(py_set_device) {
  (void)self;
  MA_NARGS(3, "set_device");
  ma_array *a = ma_handle_meta(args[0]);
  if (!a) return NULL;
  long type = PyLong_AsLong(args[1]), id = PyLong_AsLong(args[2]);
  if (PyErr_Occurred()) return NULL;
  /* the guard: memory the CPU cannot address makes it a device handle */
  ma_handle_set_device(args[0], (DLDevice){(DLDeviceType)type, (int32_t)id});
  Py_RETURN_NONE;
}

/* device(h) -> (device_type, device_id): where an array's memory lives. */
MA_FASTCALL(py_device) {
  (void)self;
  MA_NARGS(1, "device");
  ma_array *a = ma_handle_meta(args[0]);
  if (!a) return NULL;
  /* The CPU's pair is made once (NDArray.__dlpack_device__ returns it as
   * is, and consumers ask for it on every exchange); others are built with
   * the DLDeviceType enum when dlpack_device_setup gave it. */
  if (a->t.device.device_type == kDLCPU && a->t.device.device_id == 0 && cpu_device_pair)
    return Py_NewRef(cpu_device_pair);
  PyObject *type = device_type_enum ? PyObject_CallFunction(device_type_enum, "i", (int)a->t.device.device_type)
                                    : PyLong_FromLong((long)a->t.device.device_type);
  if (!type) return NULL;
  return Py_BuildValue("(Ni)", type, (int)a->t.device.device_id);
}

/* dlpack_device_setup(cpu_device, DLDeviceType): what device() returns
 * for the CPU, and the enum it builds other device types with. */
MA_FASTCALL(py_device_setup) {
  (void)self;
  MA_NARGS(2, "dlpack_device_setup");
  Py_XSETREF(cpu_device_pair, Py_NewRef(args[0]));
  Py_XSETREF(device_type_enum, Py_NewRef(args[1]));
  Py_RETURN_NONE;
}

/* imported(h) -> bool: whether h's memory came through a DLPack import
 * (its buffer calls a producer's deleter), so that its producer can be
 * asked for the memory again (device arrays' re-export and to_device). */
MA_FASTCALL(py_imported) {
  (void)self;
  MA_NARGS(1, "imported");
  ma_array *a = ma_handle_meta(args[0]);
  if (!a) return NULL;
  return PyBool_FromLong(is_dlpack_import(a->buf));
}

/* ======================================================================== */
/* The C exchange API minarray publishes (DLPack 1.3)                       */
/* ======================================================================== */

/* NDArray.__dlpack_c_exchange_api__: the same export and import as above,
 * callable from C without Python method calls or capsules (dlpack.h,
 * "DLPackExchangeAPI").  Every function but the allocator is called with
 * the GIL held; the allocator touches no Python object and reports errors
 * through SetError. */

static ma_array *api_array_of(void *py_obj) {
  PyObject *obj = (PyObject *)py_obj;
  if (!ma_nd.type || !PyObject_TypeCheck(obj, ma_nd.type)) {
    PyErr_Format(PyExc_TypeError, "expected a minarray NDArray, got %.200s", Py_TYPE(obj)->tp_name);
    return NULL;
  }
  PyObject *h = MA_ND(obj)->h;
  /* device arrays too: the exchange API exports without synchronising
   * ("NoSync"), which is all minarray could do for them anyway */
  return h ? ma_handle_meta(h) : NULL;
}

static int api_from_py_object(void *py_obj, DLManagedTensorVersioned **out) {
  ma_array *a = api_array_of(py_obj);
  if (!a) return -1;
  uint64_t flags = (a->flags & MA_READONLY) ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  DLManagedTensorVersioned *m = (DLManagedTensorVersioned *)ma_dlpack_managed_new(a, 1, flags);
  if (!m) {
    PyErr_NoMemory();
    return -1;
  }
  *out = m;
  return 0;
}

static int api_dltensor_from_py_object(void *py_obj, DLTensor *out) {
  ma_array *a = api_array_of(py_obj);
  if (!a) return -1;
  *out = a->t; /* shape and strides point into the array's own metadata */
  return 0;
}

static int api_to_py_object(DLManagedTensorVersioned *m, void **out) {
  size_t nbytes;
  if (m->version.major != DLPACK_MAJOR_VERSION) {
    PyErr_Format(PyExc_BufferError, "DLPack %u.%u tensor; minarray reads major version %d",
                 (unsigned)m->version.major, (unsigned)m->version.minor, DLPACK_MAJOR_VERSION);
    if (m->deleter) KEEPING_ERROR(m->deleter(m));
    return -1;
  }
  int opts = MA_CHECK_ANY_DEVICE;
  if (m->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) opts |= MA_CHECK_PADDED;
  if (ma_check_tensor(&m->dl_tensor, opts, &nbytes) < 0) {
    if (m->deleter) KEEPING_ERROR(m->deleter(m)); /* ownership was passed to us */
    return -1;
  }
  uint32_t flags = (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) ? MA_READONLY : 0;
  ma_array *a = adopt(&m->dl_tensor, nbytes, ma_dlpack_release_versioned, m, flags, NULL);
  if (!a) return -1;
  if (ma_dlpack_cpu_accessible(a->t.device.device_type)) { /* else a device array */
    a->t.device.device_type = kDLCPU;
    a->t.device.device_id = 0;
  }
  PyObject *obj = ma_ndarray_new(a, NULL);
  if (!obj) return -1;
  *out = obj;
  return 0;
}

static int api_allocator(DLTensor *proto, DLManagedTensorVersioned **out, void *error_ctx,
                         void (*set_error)(void *, const char *, const char *)) {
  if (!ma_dlpack_cpu_accessible(proto->device.device_type)) {
    set_error(error_ctx, "BufferError", "minarray allocates CPU memory only");
    return -1;
  }
  if (proto->ndim < 0 || proto->ndim > MA_MAXDIMS || (proto->ndim && !proto->shape) ||
      ma_type_of(proto->dtype) < 0) {
    set_error(error_ctx, "BufferError", "minarray cannot allocate this shape or dtype");
    return -1;
  }
  int err = 0;
  ma_array *a = ma_array_empty(proto->dtype, proto->ndim, proto->shape, 0, &err);
  if (!a) {
    set_error(error_ctx, err == 1 ? "ValueError" : "MemoryError",
              err == 1 ? "invalid or overflowing shape" : "out of memory");
    return -1;
  }
  DLManagedTensorVersioned *m = (DLManagedTensorVersioned *)ma_dlpack_managed_new(a, 1, 0);
  ma_array_free(a); /* the managed tensor holds its own buffer reference */
  if (!m) {
    set_error(error_ctx, "MemoryError", "out of memory");
    return -1;
  }
  *out = m;
  return 0;
}

static int api_current_work_stream(DLDeviceType type, int32_t id, void **out) {
  (void)type;
  (void)id;
  *out = NULL; /* the CPU has no stream */
  return 0;
}

static DLPackExchangeAPI exchange_api = {
    {{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION}, NULL},
    api_allocator,
    api_from_py_object,
    api_to_py_object,
    api_dltensor_from_py_object,
    api_current_work_stream,
};

/* exchange_api() -> the "dlpack_exchange_api" capsule over the static table. */
MA_FASTCALL(py_exchange_api) {
  (void)self;
  (void)args;
  MA_NARGS(0, "exchange_api");
  return PyCapsule_New(&exchange_api, NAME_EXCHANGE_API, NULL);
}

/* ======================================================================== */
/* Inspection                                                               */
/* ======================================================================== */

/* capsule_peek(capsule) -> (name or None, address): what describe() reads,
 * without consuming the capsule.  The address is 0 for a used_* capsule,
 * whose struct may already be freed. */
MA_FASTCALL(py_capsule_peek) {
  (void)self;
  MA_NARGS(1, "capsule_peek");
  PyObject *cap = args[0];
  if (!PyCapsule_CheckExact(cap))
    return PyErr_Format(PyExc_TypeError, "expected a PyCapsule, got %.200s", Py_TYPE(cap)->tp_name);
  const char *name = PyCapsule_GetName(cap);
  if (!name && PyErr_Occurred()) return NULL;
  void *p = NULL;
  if (name && (strcmp(name, NAME_VERSIONED) == 0 || strcmp(name, NAME_LEGACY) == 0 ||
               strcmp(name, NAME_EXCHANGE_API) == 0)) {
    p = PyCapsule_GetPointer(cap, name);
    if (!p) return NULL;
  }
  PyObject *n = name ? PyUnicode_FromString(name) : Py_NewRef(Py_None);
  if (!n) return NULL;
  return Py_BuildValue("(NN)", n, PyLong_FromVoidPtr(p));
}

/* ======================================================================== */
/* Setup                                                                    */
/* ======================================================================== */

static PyObject *tuple_of_strings(int n, ...) {
  va_list ap;
  va_start(ap, n);
  PyObject *t = PyTuple_New(n);
  for (int i = 0; t && i < n; i++) {
    PyObject *s = PyUnicode_InternFromString(va_arg(ap, const char *));
    if (!s) {
      Py_CLEAR(t);
      break;
    }
    PyTuple_SET_ITEM(t, i, s);
  }
  va_end(ap);
  return t;
}

/* dlpack_setup(): the interned names and argument tuples the import path
 * calls producers with (the NDArray class itself is ndarray.c's). */
MA_FASTCALL(py_setup) {
  (void)self;
  (void)args;
  MA_NARGS(0, "dlpack_setup");
  if (!str_dlpack) {
    str_dlpack = PyUnicode_InternFromString("__dlpack__");
    str_dlpack_device = PyUnicode_InternFromString("__dlpack_device__");
    str_exchange_api = PyUnicode_InternFromString("__dlpack_c_exchange_api__");
    str_is_neg = PyUnicode_InternFromString("is_neg");
    str_is_conj = PyUnicode_InternFromString("is_conj");
    str_requires_grad = PyUnicode_InternFromString("requires_grad");
    kw_v = tuple_of_strings(1, "max_version");
    kw_vd = tuple_of_strings(2, "max_version", "dl_device");
    kw_vc = tuple_of_strings(2, "max_version", "copy");
    kw_vdc = tuple_of_strings(3, "max_version", "dl_device", "copy");
    max_version_arg = Py_BuildValue("(ii)", DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
    cpu_device_arg = Py_BuildValue("(ii)", kDLCPU, 0);
    if (!str_dlpack || !str_dlpack_device || !str_exchange_api || !str_is_neg || !str_is_conj ||
        !str_requires_grad || !kw_v || !kw_vd || !kw_vc ||
        !kw_vdc || !max_version_arg || !cpu_device_arg)
      return NULL;
  }
  Py_RETURN_NONE;
}

/* ---- the everyday entry points in C ----------------------------------------
 * NDArray.__dlpack__ and ma.from_dlpack were Python functions around
 * dlpack_export and dlpack_import: their frames cost ~70 ns each, a third
 * of what NumPy takes for a whole np.from_dlpack (AMD EPYC Zen 4).  Here
 * they are C callables doing the same, which hand the rare cases (a device
 * array's re-export, device= or dtype= given) to the Python bodies. */

/* The index in `names` (interned, NULL-terminated) of keyword `k`, or -1.
 * Callers' keyword names are interned strings in practice: comparing
 * pointers first spares the string compares (9% of an np.from_dlpack). */
static int keyword_index(PyObject *k, PyObject *const *names) {
  for (int i = 0; names[i]; i++)
    if (k == names[i]) return i;
  for (int i = 0; names[i]; i++)
    if (PyUnicode_Check(k) && PyUnicode_Compare(k, names[i]) == 0) return i;
  if (PyErr_Occurred()) PyErr_Clear();
  return -1;
}

static PyObject *dlpack_kw[5], *from_kw[4]; /* interned names, NULL-terminated */

static PyObject *export_device_py; /* minarray.dlpack.export_device(x, stream, max_version, dl_device, copy) */

/* x.__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None) */
static PyObject *m_dlpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *v[5] = {MA_ND(self)->h, Py_None, Py_None, Py_None, Py_None};
  if (nargs) return PyErr_Format(PyExc_TypeError, "__dlpack__() takes no positional arguments (%zd given)", nargs);
  Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nk; i++) {
    int at = keyword_index(PyTuple_GET_ITEM(kwnames, i), dlpack_kw);
    if (at < 0)
      return PyErr_Format(PyExc_TypeError, "__dlpack__() got an unexpected keyword argument '%S'",
                          PyTuple_GET_ITEM(kwnames, i));
    v[at + 1] = args[i];
  }
  PyObject *cap = py_export(NULL, v, 5);
  if (cap != Py_NotImplemented) return cap;
  Py_DECREF(cap); /* a device array: its producer re-exports it */
  v[0] = self;
  return PyObject_Vectorcall(export_device_py, v, 5, NULL);
}

static PyObject *from_dlpack_py; /* minarray.dlpack's Python from_dlpack */

/* ma.from_dlpack(x, /, *, device=None, copy=None, dtype=None) */
static PyObject *m_from_dlpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  (void)self;
  PyObject *kw[3] = {Py_None, Py_None, Py_None};
  Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  int general = nargs != 1;
  for (Py_ssize_t i = 0; i < nk && !general; i++) {
    int at = keyword_index(PyTuple_GET_ITEM(kwnames, i), from_kw);
    if (at < 0) general = 1;
    else kw[at] = args[nargs + i];
  }
  /* A bare capsule goes the Python way too: its caller's reference is
   * often the last, and its destructor (any producer's C code) then runs
   * right after this call returns, where one that does not keep a pending
   * error (a BufferError of this import) would lose it; a Python frame
   * drops its arguments only once the error is on its way. */
  if (!general && PyCapsule_CheckExact(args[0])) general = 1;
  if (general || kw[0] != Py_None || kw[2] != Py_None) /* and every error: the Python body words it */
    return PyObject_Vectorcall(from_dlpack_py, args, (size_t)nargs, kwnames);
  PyObject *v[3] = {args[0], Py_False, kw[1]};
  return py_from_dlpack(NULL, v, 3);
}

/* A copy of a str's text that lives as long as the process (a method
 * definition's doc). */
static const char *lasting_text(PyObject *s) {
  const char *t = PyUnicode_AsUTF8(s);
  char *copy = t ? (char *)PyMem_RawMalloc(strlen(t) + 1) : NULL;
  if (t && !copy) PyErr_NoMemory();
  return copy ? strcpy(copy, t) : NULL;
}

/* dlpack_fast_setup(export_device, dlpack_doc, from_dlpack, from_dlpack_doc)
 * -> the C from_dlpack; installs NDArray.__dlpack__ (ndarray_setup has
 * run).  The docs may begin with a text signature. */
MA_FASTCALL(py_fast_setup) {
  (void)self;
  MA_NARGS(4, "dlpack_fast_setup");
  static PyMethodDef dlpack_def = {"__dlpack__", (PyCFunction)(void (*)(void))m_dlpack,
                                   METH_FASTCALL | METH_KEYWORDS, NULL};
  static PyMethodDef from_def = {"from_dlpack", (PyCFunction)(void (*)(void))m_from_dlpack,
                                 METH_FASTCALL | METH_KEYWORDS, NULL};
  if (!ma_nd.type || !PyCallable_Check(args[0]) || !PyCallable_Check(args[2]) || !PyUnicode_Check(args[1]) ||
      !PyUnicode_Check(args[3])) {
    PyErr_SetString(PyExc_TypeError, "dlpack_fast_setup(export_device, doc, from_dlpack, doc), after ndarray_setup");
    return NULL;
  }
  if (!dlpack_def.ml_doc && (!(dlpack_def.ml_doc = lasting_text(args[1])) || !(from_def.ml_doc = lasting_text(args[3]))))
    return NULL;
  static const char *const dnames[] = {"stream", "max_version", "dl_device", "copy"};
  static const char *const fnames[] = {"device", "copy", "dtype"};
  for (int i = 0; i < 4 && !dlpack_kw[i]; i++)
    if (!(dlpack_kw[i] = PyUnicode_InternFromString(dnames[i]))) return NULL;
  for (int i = 0; i < 3 && !from_kw[i]; i++)
    if (!(from_kw[i] = PyUnicode_InternFromString(fnames[i]))) return NULL;
  Py_XSETREF(export_device_py, Py_NewRef(args[0]));
  Py_XSETREF(from_dlpack_py, Py_NewRef(args[2]));
  if (ma_ndarray_add_method(&dlpack_def) < 0) return NULL;
  PyObject *module = PyUnicode_FromString("minarray.dlpack");
  PyObject *f = module ? PyCFunction_NewEx(&from_def, NULL, module) : NULL;
  Py_XDECREF(module);
  return f;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_dlpack_methods[] = {
    FC("dlpack_fast_setup", py_fast_setup,
       "dlpack_fast_setup(export_device, dlpack_doc, from_dlpack, from_dlpack_doc) -> the C from_dlpack"),
    FC("dlpack_setup", py_setup, "dlpack_setup()"),
    FC("dlpack_export", py_export, "dlpack_export(h, stream, max_version, dl_device, copy) -> capsule"),
    FC("dlpack_reexport", py_reexport,
       "dlpack_reexport(h, producer, stream, max_version, dl_device, copy) -> capsule"),
    FC("dlpack_device", py_device, "dlpack_device(h) -> (device_type, device_id)"),
    FC("dlpack_device_setup", py_device_setup, "dlpack_device_setup(cpu_device, DLDeviceType)"),
    FC("dlpack_imported", py_imported, "dlpack_imported(h) -> bool"),
    FC("dlpack_import", py_from_dlpack, "dlpack_import(x, want_cpu, copy) -> NDArray"),
    FC("dlpack_request", py_request, "dlpack_request(x, want_cpu, copy) -> capsule"),
    FC("dlpack_import_handle", py_import_handle,
       "dlpack_import_handle(x) -> (handle, device_type, device_id, readonly)"),
    FC("dlpack_set_device", py_set_device, "dlpack_set_device(h, device_type, device_id)"),
    FC("dlpack_exchange_api", py_exchange_api, "dlpack_exchange_api() -> capsule"),
    FC("dlpack_capsule_peek", py_capsule_peek, "dlpack_capsule_peek(capsule) -> (name, address)"),
    {NULL, NULL, 0, NULL}};
