/*
 * Test support: a fake DLPack producer written in C.
 *
 * The reliability tests (tests/dlpack/test_fuzz_dlpack.py, tests/test_stress.py)
 * build managed tensors field by field through cffi, with any field broken,
 * and need to know exactly how often each one was deleted, whichever thread
 * deletes it and whether or not that thread holds the GIL.  A Python
 * callback cannot give that (it needs the GIL, and a second call on a freed
 * struct would crash before it could be counted), so the deleters are C:
 *
 *  - a managed tensor's `manager_ctx` points at a ma_test_counter that the
 *    test owns; the deleters only count (atomically) and note the calling
 *    thread.  They free nothing: the test owns the struct too, so a second
 *    call is counted instead of being a double free;
 *  - the capsule destructor is the one the DLPack Python specification asks
 *    of producers: a used_* capsule belongs to its consumer, anything else
 *    was never consumed and its tensor is deleted here.  Which struct the
 *    capsule holds is read from the capsule's context, not its name, so
 *    that capsules with a wrong name are freed too;
 *  - an exchange API table (DLPack 1.3, `__dlpack_c_exchange_api__`) whose
 *    managed_tensor_from_py_object_no_sync hands out the struct whose address
 *    the object carries in its `_ma_test_tensor` attribute.
 *
 * Nothing in minarray itself calls these functions.
 */
#include "pyapi.h" /* Python.h first, as CPython asks */

#include <pthread.h>
#include <string.h>

#include "pythread.h"
#include "testing.h"

static void count(void *ctx) {
  ma_test_counter *c = (ma_test_counter *)ctx;
  if (!c) return;
  __atomic_store_n(&c->last_thread, (uint64_t)PyThread_get_thread_ident(), __ATOMIC_RELAXED);
  __atomic_add_fetch(&c->calls, 1, __ATOMIC_SEQ_CST);
}

void ma_test_deleter_versioned(DLManagedTensorVersioned *self) { count(self->manager_ctx); }

void ma_test_deleter_legacy(DLManagedTensor *self) { count(self->manager_ctx); }

int64_t ma_test_calls(const ma_test_counter *c) { return __atomic_load_n(&c->calls, __ATOMIC_SEQ_CST); }

/* Capsule contexts telling the destructor which struct the capsule holds. */
#define MA_TEST_VERSIONED ((void *)1)
#define MA_TEST_LEGACY ((void *)2)

/* The producer's capsule destructor (python_spec.rst): do nothing for a
 * used_* capsule; otherwise delete the tensor, keeping any exception that is
 * being raised while the capsule dies. */
static void capsule_destructor(PyObject *cap) {
  const char *name = PyCapsule_GetName(cap);
  if (name && strncmp(name, "used_", 5) == 0) return;
  PyObject *et, *ev, *tb;
  PyErr_Fetch(&et, &ev, &tb);
  void *ctx = PyCapsule_GetContext(cap);
  void *p = PyCapsule_GetPointer(cap, name);
  if (!p) {
    PyErr_WriteUnraisable(cap);
  } else if (ctx == MA_TEST_VERSIONED) {
    DLManagedTensorVersioned *m = (DLManagedTensorVersioned *)p;
    if (m->deleter) m->deleter(m);
  } else if (ctx == MA_TEST_LEGACY) {
    DLManagedTensor *m = (DLManagedTensor *)p;
    if (m->deleter) m->deleter(m);
  }
  PyErr_Restore(et, ev, tb);
}

/* The destructor's address, for PyCapsule_New called through ctypes (cffi
 * cannot declare a function taking a PyObject *). */
void *ma_test_capsule_destructor(void) { return (void *)capsule_destructor; }

void *ma_test_context(int versioned) { return versioned ? MA_TEST_VERSIONED : MA_TEST_LEGACY; }

/* ---- exchange API ------------------------------------------------------ */

static int from_py_object(void *py_obj, DLManagedTensorVersioned **out) {
  PyObject *addr = PyObject_GetAttrString((PyObject *)py_obj, "_ma_test_tensor");
  if (!addr) return -1;
  void *p = PyLong_AsVoidPtr(addr);
  Py_DECREF(addr);
  if (!p) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_BufferError, "no tensor to hand out");
    return -1;
  }
  *out = (DLManagedTensorVersioned *)p;
  return 0;
}

static DLPackExchangeAPI exchange_api = {
    .header = {.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION}, .prev_api = NULL},
    .managed_tensor_allocator = NULL,
    .managed_tensor_from_py_object_no_sync = from_py_object,
    .managed_tensor_to_py_object_no_sync = NULL,
    .dltensor_from_py_object_no_sync = NULL,
    .current_work_stream = NULL,
};

/* The table's address; the test wraps it in a "dlpack_exchange_api" capsule. */
void *ma_test_exchange_api(void) { return &exchange_api; }

/* ---- a stress hook for the allocator's reference counts ------------------ */

typedef struct {
  ma_buffer *buf;
  int64_t iters;
} stress_arg;

static void *stress_worker(void *p) {
  stress_arg *s = (stress_arg *)p;
  for (int64_t i = 0; i < s->iters; i++) {
    ma_buffer_retain(s->buf);
    ma_buffer_retain(s->buf);
    ma_buffer_release(s->buf);
    ma_buffer_release(s->buf);
  }
  return NULL;
}

/* stress_refcount(h, threads, iters) -> the buffer's refcount afterwards.
 * `threads` OS threads retain and release the array's buffer `iters` times
 * each, without the GIL: with atomic counts the result is the count before. */
static PyObject *py_stress_refcount(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "stress_refcount");
  ma_array *a = ma_handle_get(args[0]);
  if (!a) return NULL;
  long nt = PyLong_AsLong(args[1]);
  long long iters = PyLong_AsLongLong(args[2]);
  if (PyErr_Occurred()) return NULL;
  if (nt < 1 || nt > 64) {
    PyErr_SetString(PyExc_ValueError, "threads must be in 1..64");
    return NULL;
  }
  pthread_t tids[64];
  stress_arg arg = {a->buf, iters};
  int started = 0;
  Py_BEGIN_ALLOW_THREADS
  for (; started < nt; started++)
    if (pthread_create(&tids[started], NULL, stress_worker, &arg) != 0) break;
  for (int i = 0; i < started; i++) pthread_join(tids[i], NULL);
  Py_END_ALLOW_THREADS
  if (started != nt) return PyErr_Format(PyExc_RuntimeError, "could only start %d threads", started);
  return PyLong_FromLongLong(__atomic_load_n(&a->buf->refcount, __ATOMIC_SEQ_CST));
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_testing_methods[] = {
    FC("stress_refcount", py_stress_refcount, "stress_refcount(h, threads, iters) -> refcount"),
    {NULL, NULL, 0, NULL}};
