/*
 * RandomState's one-value draws (size=None), called with the GIL held.
 *
 * A call through cffi releases and retakes the GIL around the C function,
 * which costs more than a legacy draw itself, and more than NumPy's whole
 * np.random.rand(); these entry points keep the GIL (one draw is shorter
 * than giving it up) and take their arguments as Python objects.  The
 * draws are core's ma_legacy_one* (csrc/core/random_legacy.h); the Python
 * layer holds the RandomState's lock around each call, as around a fill.
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

/* legacy_draw(state, which, a, b) -> one draw: a float from ma_legacy_one,
 * or an int: binomial (a = n, b = p), poisson (a = lam) or bounded (a =
 * off, b = rng: an integer in [off, off + rng] modulo 2**64).  One entry
 * point, so that the Python layer has one locked call for every kind. */
static PyObject *py_legacy_draw(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "legacy_draw");
  ma_legacy *s = state_of(args[0]);
  if (!s) return NULL;
  long which = PyLong_AsLong(args[1]);
  if (which == -1 && PyErr_Occurred()) return NULL;
  double a, b;
  switch (which) {
    case MA_LEGACY_BINOMIAL: {
      long long n = PyLong_AsLongLong(args[2]);
      if ((n == -1 && PyErr_Occurred()) || as_double(args[3], &b) < 0) return NULL;
      return PyLong_FromLongLong(ma_legacy_one_binomial(s, n, b));
    }
    case MA_LEGACY_POISSON:
      if (as_double(args[2], &a) < 0) return NULL;
      return PyLong_FromLongLong(ma_legacy_one_poisson(s, a));
    case MA_LEGACY_BOUNDED: {
      unsigned long long off = PyLong_AsUnsignedLongLong(args[2]);
      if (off == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
      unsigned long long rng = PyLong_AsUnsignedLongLong(args[3]);
      if (rng == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
      return PyLong_FromUnsignedLongLong(ma_legacy_one_bounded_u64(s, off, rng));
    }
  }
  if (which < MA_LEGACY_RANDOM_SAMPLE || which > MA_LEGACY_BETA) {
    PyErr_Format(PyExc_ValueError, "legacy_draw: no sampler %ld", which);
    return NULL;
  }
  if (as_double(args[2], &a) < 0 || as_double(args[3], &b) < 0) return NULL;
  return PyFloat_FromDouble(ma_legacy_one(s, (int)which, a, b));
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_random_draw_methods[] = {
    FC("legacy_state", py_legacy_state, "legacy_state()"),
    FC("legacy_state_address", py_legacy_state_address, "legacy_state_address(state)"),
    FC("legacy_draw", py_legacy_draw, "legacy_draw(state, which, a, b)"),
    {NULL, NULL, 0, NULL}};
