/*
 * DLPack imports: the one sequence every door's managed tensor goes
 * through (version, flags, validation, adoption, device), and from_dlpack's
 * choice of door for a producer: its type's C exchange API, else its
 * __dlpack__ (with the version, device and copy requested, PyTorch's lazy
 * bits refused first, and the producer's type cached).  dlpack_py.h says
 * which file does what.
 */
#include <stdarg.h>

#include "dlpack_py.h"

/* ---- state set once by dlpack_setup -------------------------------------- */

PyObject *ma_str_dlpack, *ma_str_exchange_api, *ma_max_version_arg;
static PyObject *str_dlpack_device, *str_is_neg, *str_is_conj, *str_requires_grad;
/* kwnames tuples for vectorcall: max_version [+ dl_device] [+ copy] */
static PyObject *kw_v, *kw_vd, *kw_vc, *kw_vdc;
static PyObject *cpu_device_arg; /* (kDLCPU, 0) */

/* ======================================================================== */
/* The import sequence                                                      */
/* ======================================================================== */

/* An import's array is built in `room` when one is given (a new handle's:
 * ma_handle_blank) and the tensor's dims fit there, else allocated; this
 * releases it either way. */
void ma_import_drop(ma_array *a, void *room) {
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
  KEEPING_ERROR(ma_import_drop(a, room));
  if (!u) return NULL;
  *copied = 1;
  return u;
}

/* A tensor ma_import_managed turned away: one in a capsule stays its
 * producer's to free (the capsule keeps its name); one handed over is
 * deleted here, without disturbing the error being raised.  NULL. */
static ma_array *turn_away(void *p, int versioned, PyObject *cap) {
  if (!cap) KEEPING_ERROR((versioned ? ma_dlpack_release_versioned : ma_dlpack_release_legacy)(p));
  return NULL;
}

/* The one import of a managed tensor `p` (a DLManagedTensorVersioned when
 * `versioned`, else a DLManagedTensor), whichever door it came by (a
 * capsule, a producer's exchange API, a caller of minarray's own):
 *  1. the version: a versioned struct's version and flags fields are frozen
 *     across 1.x, but another major version may lay out everything after
 *     them differently;
 *  2. the flags: READ_ONLY, IS_SUBBYTE_TYPE_PADDED and IS_COPIED
 *     (*copied).  The legacy struct cannot say whether the memory may be
 *     written, so with MA_IMPORT_LEGACY_READONLY (as NumPy >= 2.2.5) an
 *     import of one is read-only;
 *  3. every field (ma_check_tensor, with `opts`);
 *  4. adoption, packed sub-byte elements unpacked (*copied then);
 *  5. the device: with MA_IMPORT_AS_CPU, pinned or managed memory is CPU
 *     memory to minarray: the array reports (and re-exports as) CPU, like
 *     every NDArray.
 * `cap` is the capsule holding p: renamed used_* only once p passed every
 * check, so that a rejected tensor stays its producer's to free.  NULL: p
 * was handed over (an exchange API), so a rejected tensor is deleted here;
 * with MA_IMPORT_CPU_OR_BACK one the CPU cannot address is deleted too and
 * NULL returned with no error set (only __dlpack__ can ask the producer for
 * a CPU copy).  The result may be built in `room` (or NULL: allocated):
 * ma_import_drop releases it. */
ma_array *ma_import_managed(void *p, int versioned, PyObject *cap, int opts, int terms, int *copied, void *room) {
  const DLTensor *t;
  uint32_t flags = 0;
  *copied = 0;
  if (versioned) {
    DLManagedTensorVersioned *m = (DLManagedTensorVersioned *)p;
    if (m->version.major != DLPACK_MAJOR_VERSION) {
      PyErr_Format(PyExc_BufferError,
                   "the producer exported DLPack %u.%u; minarray reads major version %d",
                   (unsigned)m->version.major, (unsigned)m->version.minor, DLPACK_MAJOR_VERSION);
      return turn_away(p, versioned, cap);
    }
    t = &m->dl_tensor;
    if ((terms & MA_IMPORT_CPU_OR_BACK) && !cap && !ma_dlpack_cpu_accessible(t->device.device_type))
      return turn_away(p, versioned, cap); /* no error set: the caller asks __dlpack__ */
    if (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) flags |= MA_READONLY;
    if (m->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) opts |= MA_CHECK_PADDED;
    *copied = (m->flags & DLPACK_FLAG_BITMASK_IS_COPIED) != 0;
  } else {
    t = &((DLManagedTensor *)p)->dl_tensor;
    if (terms & MA_IMPORT_LEGACY_READONLY) flags |= MA_READONLY;
  }
  size_t nbytes;
  if (ma_check_tensor(t, opts, &nbytes) < 0) return turn_away(p, versioned, cap);
  if (cap && ma_capsule_mark_used(cap, versioned) < 0) return NULL;
  ma_array *a = unpack_if_packed(
      adopt(t, nbytes, versioned ? ma_dlpack_release_versioned : ma_dlpack_release_legacy, p, flags, room), opts,
      copied, room);
  if (a && (terms & MA_IMPORT_AS_CPU) && ma_dlpack_cpu_accessible(a->t.device.device_type)) {
    a->t.device.device_type = kDLCPU;
    a->t.device.device_id = 0;
  }
  return a;
}

/* ======================================================================== */
/* Asking a producer                                                        */
/* ======================================================================== */

/* What import_any asks of a producer's type: whether it has PyTorch's
 * lazy bits (is_neg), its exchange API, and its __dlpack__ when that can be
 * called directly: a method descriptor (a C method or a function) that no
 * instance attribute can shadow (generic attribute look-up, no instance
 * __dict__), as PyObject_VectorcallMethod would find and call it.  Each is
 * a type look-up per call (a few percent of an np.from_dlpack of a NumPy
 * array); they are kept for the last type
 * seen, as DLPack asks consumers to cache per type, under its version
 * tag: CPython gives a type a new tag whenever it or a base changes, and
 * never gives an old tag to a new type, so a borrowed pointer is only
 * used while its type is unchanged. */
typedef struct {
  int lazy;                      /* has is_neg: refuse_lazy_tensor asks */
  const DLPackExchangeAPI *api;  /* ma_exchange_api_of's */
  PyObject *dlpack;              /* borrowed: the type's __dlpack__, or NULL */
} producer_type;

static producer_type producer_of(PyTypeObject *tp) {
  static PyTypeObject *seen_type; /* borrowed; compared, never read */
  static unsigned int seen_tag;
  static producer_type seen;
  if (tp == seen_type && tp->tp_version_tag == seen_tag && PyType_HasFeature(tp, Py_TPFLAGS_VALID_VERSION_TAG))
    return seen;
  producer_type p = {_PyType_Lookup(tp, str_is_neg) != NULL, ma_exchange_api_of(tp), NULL};
  int plain = tp->tp_getattro == PyObject_GenericGetAttr && tp->tp_dictoffset == 0;
#ifdef Py_TPFLAGS_MANAGED_DICT
  plain = plain && !PyType_HasFeature(tp, Py_TPFLAGS_MANAGED_DICT);
#endif
  PyObject *m = plain ? _PyType_Lookup(tp, ma_str_dlpack) : NULL;
  if (m && PyType_HasFeature(Py_TYPE(m), Py_TPFLAGS_METHOD_DESCRIPTOR)) p.dlpack = m;
  /* the look-ups gave the type a tag, unless CPython ran out of them */
  seen_type = PyType_HasFeature(tp, Py_TPFLAGS_VALID_VERSION_TAG) && tp->tp_version_tag ? tp : NULL;
  seen_tag = tp->tp_version_tag;
  seen = p;
  return p;
}

/* x.__dlpack__(max_version=(1, 3)[, dl_device=(1, 0)][, copy=...]) through
 * vectorcall with interned keyword names.  A producer that predates those
 * keywords raises TypeError: retry with none (python_spec.rst), when the
 * request still makes sense without them. */
static PyObject *call_dlpack(PyObject *x, PyObject *method, int want_cpu, int copy) {
  PyObject *stack[5];
  PyObject **argv = stack + 1; /* stack[0] is scratch for PY_VECTORCALL_ARGUMENTS_OFFSET */
  size_t n = 1;
  argv[0] = x;
  argv[n++] = ma_max_version_arg;
  if (want_cpu) argv[n++] = cpu_device_arg;
  if (copy >= 0) argv[n++] = copy ? Py_True : Py_False;
  PyObject *kw = want_cpu ? (copy >= 0 ? kw_vdc : kw_vd) : (copy >= 0 ? kw_vc : kw_v);
  /* `method` (producer_of's): the call PyObject_VectorcallMethod makes */
  PyObject *cap = method ? PyObject_Vectorcall(method, argv, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, kw)
                         : PyObject_VectorcallMethod(ma_str_dlpack, argv, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, kw);
  if (cap) return cap;
  if (PyErr_ExceptionMatches(PyExc_AttributeError) && !_PyType_Lookup(Py_TYPE(x), ma_str_dlpack)) {
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
    if (!dev || ma_int_pair(dev, "__dlpack_device__()", &type, &id) < 0) {
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
  return method ? PyObject_Vectorcall(method, argv, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL)
                : PyObject_VectorcallMethod(ma_str_dlpack, argv, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
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
static PyObject *request_capsule(PyObject *x, int want_cpu, int copy) {
  /* a reference to the method for the call: a deleter the exchange API
   * ran, or the producer's own code, may change its type */
  PyObject *method = Py_XNewRef(producer_of(Py_TYPE(x)).dlpack);
  PyObject *cap = call_dlpack(x, method, want_cpu, copy);
  Py_XDECREF(method);
  if (cap && !PyCapsule_CheckExact(cap)) {
    PyErr_Format(PyExc_TypeError, "%.200s.__dlpack__() returned %.200s, not a DLPack capsule",
                 Py_TYPE(x)->tp_name, Py_TYPE(cap)->tp_name);
    Py_CLEAR(cap);
  }
  return cap;
}

/* The shared import: capsule or producer object -> ma_array.  copy is -1
 * (None), 0 or 1; opts are ma_dlpack_check's, terms ma_import_managed's.
 * *zero_copy tells whether the result shares x's memory.  The result may
 * be built in `room` (or NULL: allocated): ma_import_drop releases it. */
static ma_array *import_any(PyObject *x, int want_cpu, int copy, int opts, int terms, int *zero_copy, void *room) {
  int copied = 0;
  ma_array *a = NULL;
  /* copy=True copies even what cannot be viewed in place (misaligned data);
   * any copy but copy=False unpacks packed sub-byte elements */
  if (copy == 1) opts |= MA_CHECK_UNALIGNED;
  if (copy != 0) opts |= MA_CHECK_PACKED;
  if (PyCapsule_CheckExact(x)) {
    a = ma_consume_capsule(x, opts, terms, &copied, room);
  } else {
    producer_type p = producer_of(Py_TYPE(x));
    if (p.lazy) {
      if (refuse_lazy_tensor(x) < 0) return NULL;
      p = producer_of(Py_TYPE(x)); /* its Python code may have changed the type */
    }
    const DLPackExchangeAPI *api = p.api;
    int fallback = 0;
    if (api) {
      a = ma_import_via_api(api, x, opts, want_cpu ? terms | MA_IMPORT_CPU_OR_BACK : terms, &copied, &fallback,
                            room);
      if (!a && !fallback) return NULL;
    }
    if (!a) {
      PyObject *cap = request_capsule(x, want_cpu, copy);
      if (!cap) return NULL;
      a = ma_consume_capsule(cap, opts, terms, &copied, room);
      /* used_*: its destructor does nothing; rejected: it frees the tensor */
      if (a)
        Py_DECREF(cap);
      else
        KEEPING_ERROR(Py_DECREF(cap));
    }
  }
  if (!a) return NULL;
  *zero_copy = !copied;
  /* without MA_CHECK_UNALIGNED the check refused misaligned data */
  int aligned = !(opts & MA_CHECK_UNALIGNED) || ma_array_size(a) == 0 || ma_dlpack_aligned(a);
  if ((copy == 1 && !copied) || !aligned) {
    /* The producer did not copy (it could not be asked, or ignored it). */
    if (!ma_dlpack_cpu_accessible(a->t.device.device_type)) {
      DLDevice d = a->t.device;
      KEEPING_ERROR(ma_import_drop(a, room));
      PyErr_Format(PyExc_BufferError,
                   "copy=True: the tensor lives on %s:%d, where minarray cannot copy it and the "
                   "producer did not; pass device='cpu' for a copy on the CPU",
                   ma_dlpack_device_label(d.device_type), (int)d.device_id);
      return NULL;
    }
    ma_array *r = aligned ? NULL : ma_dlpack_realign(a);
    ma_array *c = aligned || r ? ma_copy_of(r ? r : a) : NULL;
    if (!aligned && !r) PyErr_NoMemory();
    KEEPING_ERROR({
      if (r) ma_array_free(r);
      ma_import_drop(a, room);
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
PyObject *py_dlpack_import(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
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
  ma_array *a = import_any(x, want_cpu, copy, want_cpu ? 0 : MA_CHECK_ANY_DEVICE,
                           MA_IMPORT_LEGACY_READONLY | MA_IMPORT_AS_CPU, &zero_copy, room);
  if (!a) {
    Py_DECREF(h); /* holding nothing */
    return NULL;
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
static PyObject *py_dlpack_request(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "request");
  PyObject *x = args[0];
  int want_cpu, copy;
  if (import_request(args, &want_cpu, &copy) < 0) return NULL;
  if (producer_of(Py_TYPE(x)).lazy && refuse_lazy_tensor(x) < 0) return NULL;
  return request_capsule(x, want_cpu, copy);
}

/* import_handle(x) -> (handle, device_type, device_id, readonly)
 *
 * For asdlpack: take over x's DLPack export on whatever device it lives
 * (the data is never touched, only re-exported), legacy capsules keeping
 * their (unknown, hence writable) status. */
static PyObject *py_dlpack_import_handle(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
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
static PyObject *py_dlpack_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  (void)args;
  MA_NARGS(0, "dlpack_setup");
  if (!ma_str_dlpack) {
    ma_str_dlpack = PyUnicode_InternFromString("__dlpack__");
    str_dlpack_device = PyUnicode_InternFromString("__dlpack_device__");
    ma_str_exchange_api = PyUnicode_InternFromString("__dlpack_c_exchange_api__");
    str_is_neg = PyUnicode_InternFromString("is_neg");
    str_is_conj = PyUnicode_InternFromString("is_conj");
    str_requires_grad = PyUnicode_InternFromString("requires_grad");
    kw_v = tuple_of_strings(1, "max_version");
    kw_vd = tuple_of_strings(2, "max_version", "dl_device");
    kw_vc = tuple_of_strings(2, "max_version", "copy");
    kw_vdc = tuple_of_strings(3, "max_version", "dl_device", "copy");
    ma_max_version_arg = Py_BuildValue("(ii)", DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
    cpu_device_arg = Py_BuildValue("(ii)", kDLCPU, 0);
    if (!ma_str_dlpack || !str_dlpack_device || !ma_str_exchange_api || !str_is_neg || !str_is_conj ||
        !str_requires_grad || !kw_v || !kw_vd || !kw_vc ||
        !kw_vdc || !ma_max_version_arg || !cpu_device_arg)
      return NULL;
  }
  Py_RETURN_NONE;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_dlpack_import_methods[] = {
    FC("dlpack_setup", py_dlpack_setup, "dlpack_setup()"),
    FC("dlpack_import", py_dlpack_import, "dlpack_import(x, want_cpu, copy) -> NDArray"),
    FC("dlpack_request", py_dlpack_request, "dlpack_request(x, want_cpu, copy) -> capsule"),
    FC("dlpack_import_handle", py_dlpack_import_handle,
       "dlpack_import_handle(x) -> (handle, device_type, device_id, readonly)"),
    {NULL, NULL, 0, NULL}};
