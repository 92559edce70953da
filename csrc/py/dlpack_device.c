/*
 * Device arrays' DLPack (CUDA, ROCm... memory minarray carries but never
 * reads): where an array's memory lives, marking a handle's device, and
 * re-exporting an imported device array through the producer it came
 * from, with the consumer's stream.  Their handle's device mark keeps them
 * from every kernel (pyapi.h).  dlpack_py.h says which file does what.
 */
#include "dlpack_py.h"

static PyObject *cpu_device_pair, *device_type_enum; /* dlpack_device_setup's */

int ma_is_dlpack_import(const ma_buffer *b) {
  return b && (b->release == ma_dlpack_release_versioned || b->release == ma_dlpack_release_legacy);
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
static PyObject *py_dlpack_reexport(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(6, "reexport");
  ma_array *a = ma_handle_meta(args[0]);
  if (!a) return NULL;
  PyObject *producer = args[1], *stream = args[2], *max_version = args[3], *dl_device = args[4], *copy = args[5];
  int versioned = ma_wants_versioned(max_version);
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
    return ma_export_capsule(a, versioned, flags);
  }
  /* producer.__dlpack__(stream=, max_version=[, dl_device=][, copy=]); an
   * older producer takes the stream only */
  PyObject *kw =
      Py_BuildValue("{sOsO}", "stream", stream, "max_version", versioned ? ma_max_version_arg : max_version);
  if (!kw || (dl_device != Py_None && PyDict_SetItemString(kw, "dl_device", dl_device) < 0) ||
      (copy != Py_None && PyDict_SetItemString(kw, "copy", copy) < 0)) {
    Py_XDECREF(kw);
    return NULL;
  }
  PyObject *meth = PyObject_GetAttr(producer, ma_str_dlpack);
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
  ma_array *fresh = ma_consume_capsule(cap, MA_CHECK_ANY_DEVICE, 0, &copied, NULL);
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
    out = ma_export_capsule(view, versioned, flags);
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

/* set_device(h, device_type, device_id): mark a handle's memory as living
 * on another device (asdlpack of a __cuda_array_interface__ object).  Such
 * handles are only ever re-exported, never given to a kernel. */
static PyObject *py_dlpack_set_device(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
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
static PyObject *py_dlpack_device(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
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
static PyObject *py_dlpack_device_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "dlpack_device_setup");
  Py_XSETREF(cpu_device_pair, Py_NewRef(args[0]));
  Py_XSETREF(device_type_enum, Py_NewRef(args[1]));
  Py_RETURN_NONE;
}

/* imported(h) -> bool: whether h's memory came through a DLPack import
 * (its buffer calls a producer's deleter), so that its producer can be
 * asked for the memory again (device arrays' re-export and to_device). */
static PyObject *py_dlpack_imported(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "imported");
  ma_array *a = ma_handle_meta(args[0]);
  if (!a) return NULL;
  return PyBool_FromLong(ma_is_dlpack_import(a->buf));
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_dlpack_device_methods[] = {
    FC("dlpack_reexport", py_dlpack_reexport,
       "dlpack_reexport(h, producer, stream, max_version, dl_device, copy) -> capsule"),
    FC("dlpack_device", py_dlpack_device, "dlpack_device(h) -> (device_type, device_id)"),
    FC("dlpack_device_setup", py_dlpack_device_setup, "dlpack_device_setup(cpu_device, DLDeviceType)"),
    FC("dlpack_imported", py_dlpack_imported, "dlpack_imported(h) -> bool"),
    FC("dlpack_set_device", py_dlpack_set_device, "dlpack_set_device(h, device_type, device_id)"),
    {NULL, NULL, 0, NULL}};
