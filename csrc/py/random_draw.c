/*
 * RandomState's draws with scalar parameters: one value (size=None), or an
 * array the Python layer has made, filled in C.
 *
 * A call through cffi releases and retakes the GIL around the C function,
 * which costs more than a legacy draw itself, and more than NumPy's whole
 * np.random.rand(); this entry point keeps the GIL for short runs and
 * takes its arguments as Python objects.  The draws are the core's fills
 * (csrc/core/random_legacy.h); the Python layer holds the RandomState's
 * lock around each call, as around a cffi fill.
 *
 * The legacy state lives in a capsule made here, so a draw reads its state
 * from an object this file can check rather than from an address Python
 * hands it.  Python sets the state's MT19937 pointer through cffi, as for
 * the fills.
 */
#include "pyapi.h"

#include "random_legacy.h"

static const char STATE[] = "minarray.legacy_state";

static void state_free(PyObject *cap) { PyMem_Free(PyCapsule_GetPointer(cap, STATE)); }

/* The state, once its MT19937 is set; NULL with an exception otherwise. */
static ma_legacy *state_of(PyObject *cap) {
  ma_legacy *s = PyCapsule_GetPointer(cap, STATE);
  if (s && !s->mt) {
    PyErr_SetString(PyExc_RuntimeError, "legacy state without a bit generator");
    return NULL;
  }
  return s;
}

static int as_double(PyObject *o, double *v) {
  *v = PyFloat_AsDouble(o);
  return *v == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* legacy_state() -> a capsule owning a zeroed ma_legacy */
static PyObject *py_legacy_state(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self, (void)args;
  MA_NARGS(0, "legacy_state");
  ma_legacy *s = PyMem_Calloc(1, sizeof *s);
  if (!s) return PyErr_NoMemory();
  PyObject *cap = PyCapsule_New(s, STATE, state_free);
  if (!cap) PyMem_Free(s);
  return cap;
}

/* legacy_state_address(state) -> the ma_legacy's address, for cffi */
static PyObject *py_legacy_state_address(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "legacy_state_address");
  void *s = PyCapsule_GetPointer(args[0], STATE);
  return s ? PyLong_FromVoidPtr(s) : NULL;
}

/* Fills of at least this many draws give up the GIL (as the elementwise
 * engine's EW_NOGIL_MIN: below it, releasing costs more than it frees). */
#define DRAW_NOGIL_MIN 8192

/* The C-contiguous, writeable array of `tid` that `out` must be, or NULL
 * with the error set. */
static ma_array *out_array(PyObject *out, int tid) {
  ma_array *o = ma_ndarray_array(out);
  if (!o) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "legacy_draw: out must be a minarray array");
    return NULL;
  }
  if (ma_type_of(o->t.dtype) != tid || !ma_array_is_contiguous(o, 0) || (o->flags & MA_READONLY)) {
    PyErr_SetString(PyExc_ValueError, "legacy_draw: out must be a C-contiguous, writeable array of the draws' dtype");
    return NULL;
  }
  return o;
}

/* legacy_draw(state, which, a, b[, out]) -> draws with scalar parameters.
 * Without `out`, one draw: a float from ma_legacy_draws, or an int for
 * binomial (a = n, b = p), poisson (a = lam) and bounded (a = off, b =
 * rng: an integer in [off, off + rng] modulo 2**64).  With `out` (float64,
 * or int64 for binomial and poisson; not bounded), out.size draws into it
 * in memory order, and `out` is returned.  One entry point, so that the
 * Python layer has one locked call for every kind. */
static PyObject *py_legacy_draw(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 4 && nargs != 5) {
    PyErr_Format(PyExc_TypeError, "legacy_draw() takes 4 or 5 arguments (%zd given)", nargs);
    return NULL;
  }
  ma_legacy *s = state_of(args[0]);
  if (!s) return NULL;
  long which = PyLong_AsLong(args[1]);
  if (which == -1 && PyErr_Occurred()) return NULL;
  if (which < MA_LEGACY_RANDOM_SAMPLE || which > MA_LEGACY_BOUNDED) {
    PyErr_Format(PyExc_ValueError, "legacy_draw: no sampler %ld", which);
    return NULL;
  }
  if (which == MA_LEGACY_BOUNDED) {
    if (nargs == 5) {
      PyErr_SetString(PyExc_ValueError, "legacy_draw: bounded draws fill no array here");
      return NULL;
    }
    unsigned long long off = PyLong_AsUnsignedLongLong(args[2]);
    if (off == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    unsigned long long rng = PyLong_AsUnsignedLongLong(args[3]);
    if (rng == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    uint64_t v;
    ma_legacy_bounded_u64(s, off, rng, 1, &v);
    return PyLong_FromUnsignedLongLong(v);
  }
  int integer = which == MA_LEGACY_BINOMIAL || which == MA_LEGACY_POISSON;
  long long trials = 0;
  double a = 0.0, b;
  if (which == MA_LEGACY_BINOMIAL) {
    trials = PyLong_AsLongLong(args[2]);
    if (trials == -1 && PyErr_Occurred()) return NULL;
  } else if (as_double(args[2], &a) < 0) {
    return NULL;
  }
  if (as_double(args[3], &b) < 0) return NULL;
  ma_array *o = nargs == 5 ? out_array(args[4], integer ? MA_INT64 : MA_FLOAT64) : NULL;
  if (nargs == 5 && !o) return NULL;
  int64_t n = o ? ma_array_size(o) : 1, iv;
  double fv;
  void *dst = o ? o->t.data : integer ? (void *)&iv : (void *)&fv;
  int nogil = n >= DRAW_NOGIL_MIN;
  PyThreadState *ts = nogil ? PyEval_SaveThread() : NULL;
  int64_t t64 = trials;
  if (which == MA_LEGACY_BINOMIAL)
    ma_legacy_binomial(s, n, &t64, 0, &b, 0, dst);
  else if (which == MA_LEGACY_POISSON)
    ma_legacy_poisson(s, n, &a, 0, dst);
  else
    ma_legacy_draws(s, (int)which, a, b, n, dst);
  if (nogil) PyEval_RestoreThread(ts);
  if (o) return Py_NewRef(args[4]);
  return integer ? PyLong_FromLongLong(iv) : PyFloat_FromDouble(fv);
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_random_draw_methods[] = {
    FC("legacy_state", py_legacy_state, "legacy_state()"),
    FC("legacy_state_address", py_legacy_state_address, "legacy_state_address(state)"),
    FC("legacy_draw", py_legacy_draw, "legacy_draw(state, which, a, b)"),
    {NULL, NULL, 0, NULL}};
