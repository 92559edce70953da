/*
 * The DLPack C exchange API (DLPack 1.3, dlpack.h "DLPackExchangeAPI"),
 * both ways: the table minarray publishes as
 * NDArray.__dlpack_c_exchange_api__, and imports through a producer type's
 * table.  Either way the tensor passes the same import sequence as a
 * capsule's (ma_import_managed, dlpack_import.c); dlpack_py.h says which
 * file does what.
 */
#include <string.h>

#include "dlpack_py.h"

/* A capsule name: a static string (PyCapsule keeps the pointer). */
const char ma_exchange_api_name[] = "dlpack_exchange_api";

/* ======================================================================== */
/* A producer's exchange API                                                */
/* ======================================================================== */

/* The DLPack C exchange API of x's type (DLPack 1.3: the type attribute
 * __dlpack_c_exchange_api__, a "dlpack_exchange_api" capsule), or NULL.
 * _PyType_Lookup goes through CPython's per-type attribute cache, so this
 * is the per-type cache the spec asks consumers to keep, and a miss raises
 * no AttributeError. */
const DLPackExchangeAPI *ma_exchange_api_of(PyTypeObject *tp) {
  PyObject *cap = _PyType_Lookup(tp, ma_str_exchange_api); /* borrowed */
  if (!cap || !PyCapsule_CheckExact(cap)) return NULL;
  const char *name = PyCapsule_GetName(cap);
  if (!name || strcmp(name, ma_exchange_api_name) != 0) {
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

/* Import through the exchange API.  Returns the array, or NULL with an
 * error set, or NULL with *fallback set when the capsule route must be
 * taken instead:
 *  - the call failed: __dlpack__ gives the producer's own, well-formed
 *    error (PyTorch's C API raises raw C++ errors for e.g. sparse tensors)
 *    or succeeds;
 *  - the tensor is not on a CPU-accessible device and the caller asked for
 *    the CPU (MA_IMPORT_CPU_OR_BACK in terms): only __dlpack__ can ask the
 *    producer to copy.
 * (Tensors whose lazy bits the API would ignore never get here:
 * refuse_lazy_tensor turned them away.) */
ma_array *ma_import_via_api(const DLPackExchangeAPI *api, PyObject *x, int opts, int terms, int *copied,
                            int *fallback, void *room) {
  DLManagedTensorVersioned *m = NULL;
  if (api->managed_tensor_from_py_object_no_sync((void *)x, &m) != 0 || !m) {
    PyErr_Clear();
    *fallback = 1;
    return NULL;
  }
  ma_array *a = ma_import_managed(m, 1, NULL, opts, terms, copied, room);
  if (!a && !PyErr_Occurred()) *fallback = 1; /* given back: MA_IMPORT_CPU_OR_BACK */
  return a;
}

/* ======================================================================== */
/* The C exchange API minarray publishes (DLPack 1.3)                       */
/* ======================================================================== */

/* NDArray.__dlpack_c_exchange_api__: the same export and import as
 * __dlpack__ and from_dlpack, callable from C without Python method calls
 * or capsules (dlpack.h, "DLPackExchangeAPI").  Every function but the
 * allocator is called with the GIL held; the allocator touches no Python
 * object and reports errors through SetError. */

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

/* Ownership of `m` passes to minarray: a rejected tensor is deleted. */
static int api_to_py_object(DLManagedTensorVersioned *m, void **out) {
  int copied;
  ma_array *a = ma_import_managed(m, 1, NULL, MA_CHECK_ANY_DEVICE, MA_IMPORT_AS_CPU, &copied, NULL);
  if (!a) return -1;
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
static PyObject *py_dlpack_exchange_api(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  (void)args;
  MA_NARGS(0, "exchange_api");
  return PyCapsule_New(&exchange_api, ma_exchange_api_name, NULL);
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_dlpack_exchange_methods[] = {
    FC("dlpack_exchange_api", py_dlpack_exchange_api, "dlpack_exchange_api() -> capsule"),
    {NULL, NULL, 0, NULL}};
