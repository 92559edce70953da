/*
 * minarray.ufunc, the type of every elementwise function (ma.add, ma.exp,
 * ma.gcd...): NumPy's ufunc interface over the elementwise engine.
 *
 * A call with the operands alone, or with out= an NDArray, goes straight
 * to the engine (ma_ew_call, csrc/py/elementwise_dispatch.c) with no Python
 * frame: that is a sixth of a call on 100 elements.  Every other call (the
 * keywords where=, dtype=, casting=..., a tuple out=, operands that are not
 * NDArrays or Python scalars, a ufunc without a C op) and the methods
 * reduce, accumulate, outer, at and reduceat go to the one Python body of
 * each, minarray/_ufunc.py, registered once by ufunc_setup: this file is
 * plumbing and decides nothing.  Beside it, ew_at: the entry point of
 * ufunc.at's kernel (csrc/core/ew_at.c).
 */
#include "pyapi.h" /* Python.h first, as CPython asks */

#include <stddef.h>
#include <string.h>

#include "copy.h"
#include "elementwise.h"
#include "ew_at.h"

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  int op;              /* the elementwise op number, or -1: the call runs `impl` */
  int nin, nout;
  PyObject *name;      /* str */
  PyObject *identity;  /* NumPy's ufunc.identity (None: none) */
  PyObject *impl;      /* the Python implementation of the call, or None */
  PyObject *doc;       /* str */
  PyObject *types;     /* tuple of NumPy's loop strings ('dd->d') */
  PyObject *signature; /* the inspect.Signature of the call */
} ma_ufunc;

/* The Python bodies (minarray/_ufunc.py), by ufunc_setup: the call's slow
 * path, then the methods in the order of METHOD_NAMES. */
enum { U_CALL, U_REDUCE, U_ACCUMULATE, U_OUTER, U_AT, U_REDUCEAT, U_NPY };
static PyObject *py_bodies[U_NPY];
static const char *const METHOD_NAMES[U_NPY] = {"__call__", "reduce", "accumulate", "outer", "at", "reduceat"};

/* self prepended to the arguments, then the Python body `which`. */
static PyObject *forward(int which, PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *body = py_bodies[which];
  if (!body)
    return PyErr_Format(PyExc_RuntimeError, "ufunc.%s: minarray._ufunc is not loaded", METHOD_NAMES[which]);
  Py_ssize_t total = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
  PyObject *small[9], **argv = total < 8 ? small : PyMem_Malloc((size_t)(total + 1) * sizeof(PyObject *));
  if (!argv) return PyErr_NoMemory();
  argv[0] = self;
  for (Py_ssize_t i = 0; i < total; i++) argv[i + 1] = args[i];
  PyObject *r = PyObject_Vectorcall(body, argv, (size_t)(nargs + 1), kwnames);
  if (argv != small) PyMem_Free(argv);
  return r;
}

/* What the engine takes as it is: an NDArray of the exact class or a
 * scalar (minarray's), or an exact Python scalar.  Anything else (a list,
 * a NumPy array, a subclass) goes through the Python body, the one place
 * that converts operands. */
static int engine_operand(PyObject *x) {
  PyTypeObject *t = Py_TYPE(x);
  return t == ma_nd.type || t == ma_nd.scalar || t == &PyFloat_Type || t == &PyLong_Type ||
         t == &PyBool_Type || t == &PyComplex_Type;
}

static PyObject *ufunc_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
  ma_ufunc *u = (ma_ufunc *)self;
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (u->op >= 0 && nargs == u->nin) {
    PyObject *out = NULL;
    int fast = 1;
    if (kwnames) {
      /* A keyword written in source is the interned "out": one pointer
       * compare instead of a string compare per call. */
      static PyObject *out_name;
      if (!out_name && !(out_name = PyUnicode_InternFromString("out"))) return NULL;
      PyObject *kw = PyTuple_GET_SIZE(kwnames) == 1 ? PyTuple_GET_ITEM(kwnames, 0) : NULL;
      fast = kw && (kw == out_name || PyUnicode_Compare(kw, out_name) == 0);
      if (fast) {
        out = args[nargs];
        if (out == Py_None)
          out = NULL;
        else
          fast = Py_TYPE(out) == ma_nd.type;
      }
    }
    for (Py_ssize_t k = 0; k < nargs && fast; k++) fast = engine_operand(args[k]);
    if (fast) return ma_ew_call(u->op, args, (int)nargs, out);
  }
  return forward(U_CALL, self, args, nargs, kwnames);
}

#define METHOD(fn, which)                                                                        \
  static PyObject *fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) { \
    return forward(which, self, args, nargs, kwnames);                                           \
  }
METHOD(ufunc_reduce, U_REDUCE)
METHOD(ufunc_accumulate, U_ACCUMULATE)
METHOD(ufunc_outer, U_OUTER)
METHOD(ufunc_at, U_AT)
METHOD(ufunc_reduceat, U_REDUCEAT)

/* A ufunc pickles as its public name, minarray.<name> (NumPy's do the
 * same), so dask ships it to worker processes by name. */
static PyObject *ufunc_reduce_ex(PyObject *self, PyObject *unused) {
  (void)unused;
  return Py_NewRef(((ma_ufunc *)self)->name);
}

#define KW (METH_FASTCALL | METH_KEYWORDS)
static PyMethodDef ufunc_methods[] = {
    {"reduce", (PyCFunction)(void (*)(void))ufunc_reduce, KW,
     "reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=<no value>, where=True)\n\n"
     "The op applied along `axis` (None: all axes, a tuple: those) until one value is left."},
    {"accumulate", (PyCFunction)(void (*)(void))ufunc_accumulate, KW,
     "accumulate(array, axis=0, dtype=None, out=None)\n\nThe running results of reduce along `axis`."},
    {"outer", (PyCFunction)(void (*)(void))ufunc_outer, KW,
     "outer(A, B, /, **kwargs)\n\nop(a, b) for every a in A and b in B: shape A.shape + B.shape."},
    {"at", (PyCFunction)(void (*)(void))ufunc_at, KW,
     "at(a, indices, b=None, /)\n\nop in place at `indices`, unbuffered: a repeated index applies again."},
    {"reduceat", (PyCFunction)(void (*)(void))ufunc_reduceat, KW,
     "reduceat(array, indices, axis=0, dtype=None, out=None)\n\nReductions over the slices "
     "indices[i]:indices[i+1] along `axis`."},
    {"__reduce__", ufunc_reduce_ex, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

static PyObject *get_name(PyObject *self, void *c) {
  (void)c;
  return Py_NewRef(((ma_ufunc *)self)->name);
}
static PyObject *get_doc(PyObject *self, void *c) {
  (void)c;
  return Py_NewRef(((ma_ufunc *)self)->doc);
}
static PyObject *get_module(PyObject *self, void *c) {
  (void)self, (void)c;
  return PyUnicode_FromString("minarray");
}
static PyObject *get_nin(PyObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(((ma_ufunc *)self)->nin);
}
static PyObject *get_nout(PyObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(((ma_ufunc *)self)->nout);
}
static PyObject *get_nargs(PyObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(((ma_ufunc *)self)->nin + ((ma_ufunc *)self)->nout);
}
static PyObject *get_identity(PyObject *self, void *c) {
  (void)c;
  return Py_NewRef(((ma_ufunc *)self)->identity);
}
static PyObject *get_types(PyObject *self, void *c) {
  (void)c;
  return PySequence_List(((ma_ufunc *)self)->types);
}
static PyObject *get_ntypes(PyObject *self, void *c) {
  (void)c;
  return PyLong_FromSsize_t(PyTuple_GET_SIZE(((ma_ufunc *)self)->types));
}
static PyObject *get_none(PyObject *self, void *c) {
  (void)self, (void)c;
  Py_RETURN_NONE;
}

static PyGetSetDef ufunc_getset[] = {
    {"__name__", get_name, NULL, NULL, NULL},
    {"__qualname__", get_name, NULL, NULL, NULL},
    {"__doc__", get_doc, NULL, NULL, NULL},
    {"__module__", get_module, NULL, NULL, NULL},
    {"nin", get_nin, NULL, "the number of inputs", NULL},
    {"nout", get_nout, NULL, "the number of outputs", NULL},
    {"nargs", get_nargs, NULL, "nin + nout", NULL},
    {"identity", get_identity, NULL, "the value an empty reduction gives (None: no identity)", NULL},
    {"types", get_types, NULL, "the loops, as NumPy writes them ('dd->d')", NULL},
    {"ntypes", get_ntypes, NULL, "len(types)", NULL},
    {"signature", get_none, NULL, "None: elementwise (no core dimensions)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyObject *ufunc_repr(PyObject *self) {
  return PyUnicode_FromFormat("<ufunc '%U'>", ((ma_ufunc *)self)->name);
}

static int ufunc_traverse(PyObject *self, visitproc visit, void *arg) {
  ma_ufunc *u = (ma_ufunc *)self;
  Py_VISIT(u->identity);
  Py_VISIT(u->impl);
  Py_VISIT(u->signature);
  return 0;
}

static int ufunc_clear(PyObject *self) {
  ma_ufunc *u = (ma_ufunc *)self;
  Py_CLEAR(u->identity);
  Py_CLEAR(u->impl);
  Py_CLEAR(u->signature);
  return 0;
}

static void ufunc_dealloc(PyObject *self) {
  ma_ufunc *u = (ma_ufunc *)self;
  PyObject_GC_UnTrack(self);
  ufunc_clear(self);
  Py_CLEAR(u->name);
  Py_CLEAR(u->doc);
  Py_CLEAR(u->types);
  PyObject_GC_Del(self);
}

/* No tp_new: as in NumPy, ufuncs are not made by calling the type
 * (minarray/_elementwise.py makes them with ufunc_new). */
PyTypeObject ma_ufunc_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "minarray.ufunc",
    .tp_basicsize = sizeof(ma_ufunc),
    .tp_dealloc = ufunc_dealloc,
    .tp_vectorcall_offset = offsetof(ma_ufunc, vectorcall),
    .tp_repr = ufunc_repr,
    .tp_call = PyVectorcall_Call,
    .tp_str = ufunc_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "An elementwise function with NumPy's ufunc interface: the call (out=, where=, dtype=, "
              "casting=), reduce, accumulate, outer, at, reduceat, and nin, nout, nargs, identity, types.",
    .tp_traverse = ufunc_traverse,
    .tp_clear = ufunc_clear,
    .tp_methods = ufunc_methods,
    .tp_getset = ufunc_getset,
};

/* ufunc_new(name, op, nin, nout, identity, impl, doc, types, signature) ->
 * a ufunc: op the elementwise op number (-1: calls run impl(*inputs)). */
static PyObject *py_ufunc_new(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(9, "ufunc_new");
  int op = (int)PyLong_AsLong(args[1]);
  int nin = (int)PyLong_AsLong(args[2]);
  int nout = (int)PyLong_AsLong(args[3]);
  if (PyErr_Occurred()) return NULL;
  if (!PyUnicode_Check(args[0]) || !PyUnicode_Check(args[6]) || !PyTuple_Check(args[7]) || op < -1 ||
      op >= ma_ew_nops || (op >= 0 && ma_ew_ops[op].nin != nin) || nin < 1 || nin > 3 || nout < 1 ||
      (op < 0 && !PyCallable_Check(args[5]))) {
    PyErr_SetString(PyExc_TypeError,
                    "ufunc_new(name: str, op: int, nin, nout, identity, impl, doc: str, types: tuple, signature)"
                    " with op an elementwise op of nin inputs, or -1 and impl callable");
    return NULL;
  }
  ma_ufunc *u = PyObject_GC_New(ma_ufunc, &ma_ufunc_type);
  if (!u) return NULL;
  u->vectorcall = ufunc_vectorcall;
  u->op = op;
  u->nin = nin;
  u->nout = nout;
  u->name = Py_NewRef(args[0]);
  u->identity = Py_NewRef(args[4]);
  u->impl = Py_NewRef(args[5]);
  u->doc = Py_NewRef(args[6]);
  u->types = Py_NewRef(args[7]);
  u->signature = Py_NewRef(args[8]);
  PyObject_GC_Track((PyObject *)u);
  return (PyObject *)u;
}

/* ufunc_fields(u) -> (op, impl, signature): what the Python bodies need. */
static PyObject *py_ufunc_fields(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "ufunc_fields");
  if (!Py_IS_TYPE(args[0], &ma_ufunc_type)) return PyErr_Format(PyExc_TypeError, "ufunc_fields: not a ufunc");
  ma_ufunc *u = (ma_ufunc *)args[0];
  return Py_BuildValue("(iOO)", u->op, u->impl, u->signature);
}

/* ufunc_setup(call, reduce, accumulate, outer, at, reduceat, signature):
 * the Python bodies, each called with the ufunc first; `signature` is the
 * type's __signature__ descriptor (a Python one, as NumPy's: it gives an
 * instance's signature, and the class none, so inspect reads the class
 * as any other). */
static PyObject *py_ufunc_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(U_NPY + 1, "ufunc_setup");
  for (int i = 0; i < U_NPY; i++)
    if (!PyCallable_Check(args[i])) return PyErr_Format(PyExc_TypeError, "ufunc_setup: %s body is not callable",
                                                        METHOD_NAMES[i]);
  if (PyDict_SetItemString(ma_ufunc_type.tp_dict, "__signature__", args[U_NPY]) < 0) return NULL;
  PyType_Modified(&ma_ufunc_type);
  for (int i = 0; i < U_NPY; i++) Py_XSETREF(py_bodies[i], Py_NewRef(args[i]));
  Py_RETURN_NONE;
}

/* ew_sigs(op) -> ((in0[, in1...], out), ...): the op's loops, as ma_types */
static PyObject *py_ew_sigs(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "ew_sigs");
  int opi = (int)PyLong_AsLong(args[0]);
  if (opi == -1 && PyErr_Occurred()) return NULL;
  if (opi < 0 || opi >= ma_ew_nops) return PyErr_Format(PyExc_ValueError, "no elementwise op %d", opi);
  const ma_ew_op *op = &ma_ew_ops[opi];
  PyObject *res = PyTuple_New(op->nsigs);
  for (int i = 0; res && i < op->nsigs; i++) {
    const ma_ew_sig *s = &op->sigs[i];
    PyObject *t = PyTuple_New(op->nin + 1);
    for (int k = 0; t && k <= op->nin; k++) {
      PyObject *v = PyLong_FromLong(k < op->nin ? s->in[k] : s->out);
      if (!v) Py_CLEAR(t);
      else PyTuple_SET_ITEM(t, k, v);
    }
    if (!t) Py_CLEAR(res);
    else PyTuple_SET_ITEM(res, i, t);
  }
  return res;
}

/* ew_at(op, a, positions, b) -> True once done, or False when op has no loop
 * whose operands and result are all a's type (and b's, when b is not None):
 * a.flat[positions[i]] = op(a.flat[positions[i]], b[i]) in order
 * (csrc/core/ew_at.c).  positions: 1-d int64, C-contiguous, positions in
 * a's C order (negative ones count from the end, as a 1-d index does);
 * b: None or 1-d and C-contiguous, as long as positions.  A position
 * outside a raises IndexError (NumPy's words for axis 0 of a 1-d a) with
 * a left as it was, and
 * b and the positions read through a snapshot when they share memory
 * with a. */
static PyObject *py_ew_at(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "ew_at");
  int opi = (int)PyLong_AsLong(args[0]);
  if (opi == -1 && PyErr_Occurred()) return NULL;
  if (opi < 0 || opi >= ma_ew_nops) return PyErr_Format(PyExc_ValueError, "no elementwise op %d", opi);
  const ma_ew_op *op = &ma_ew_ops[opi];
  ma_array *a = ma_handle_get(args[1]);
  ma_array *pos = a ? ma_handle_get(args[2]) : NULL;
  if (!pos) return NULL;
  ma_array *b = NULL;
  if (args[3] != Py_None && !(b = ma_handle_get(args[3]))) return NULL;
  int64_t n = pos->t.ndim == 1 ? pos->t.shape[0] : -1;
  if (n < 0 || ma_type_of(pos->t.dtype) != MA_INT64 || (pos->t.strides && n > 1 && pos->t.strides[0] != 1) ||
      (op->nin == 2) != (b != NULL) ||
      (b && (b->t.ndim != 1 || b->t.shape[0] != n || (b->t.strides && n > 1 && b->t.strides[0] != 1)))) {
    PyErr_SetString(PyExc_ValueError, "ew_at: positions must be 1-d int64 and b 1-d of their length, contiguous");
    return NULL;
  }
  if (ma_check_writeable(a) < 0) return NULL;
  int ta = ma_type_of(a->t.dtype), tb = b ? ma_type_of(b->t.dtype) : ta;
  const ma_ew_sig *sig = NULL;
  for (int i = 0; i < op->nsigs && !sig && ta == tb; i++) {
    const ma_ew_sig *s = &op->sigs[i];
    if (s->type == ta && s->out == ta && s->in[0] == ta && (op->nin == 1 || s->in[1] == ta)) sig = s;
  }
  if (!sig) Py_RETURN_FALSE;
  ma_array *snaps[2] = {NULL, NULL};
  PyObject *res = NULL;
  /* read first what the writes could change: b and the positions, where
   * they share memory with a (np.multiply.at(a, a, 2)) */
  if (b && ma_may_overlap(a, b) && !(b = snaps[0] = ma_snapshot(b))) return PyErr_NoMemory();
  if (ma_may_overlap(a, pos) && !(pos = snaps[1] = ma_snapshot(pos))) {
    ma_array_free(snaps[0]);
    return PyErr_NoMemory();
  }
  const int64_t *p = (const int64_t *)((const char *)pos->t.data + pos->t.byte_offset);
  int fast = strcmp(op->name, "add") == 0        ? MA_AT_ADD
             : strcmp(op->name, "subtract") == 0 ? MA_AT_SUBTRACT
             : strcmp(op->name, "multiply") == 0 ? MA_AT_MULTIPLY
                                                 : MA_AT_GENERIC;
  ma_ew_aux aux = {0, 1};
  int64_t bad;
  ma_fpe_clear();
  if (ma_ew_at(fast, a, sig->loop, &aux, p, n, b ? (const char *)b->t.data + b->t.byte_offset : NULL, &bad)) {
    ma_fpe_clear();
    PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis 0 with size %lld", (long long)bad,
                 (long long)ma_array_size(a));
    goto done;
  }
  unsigned fpe = ma_fpe_read();
  if (fpe) ma_fpe_clear();
  if (aux.err)
    PyErr_SetString(PyExc_ValueError, "Integers to negative integer powers are not allowed.");
  else if (!((fpe &= ma_ew_fpe(op, sig)) && ma_report_fpe(op->name, fpe) < 0))
    res = Py_NewRef(Py_True);
done:
  ma_array_free(snaps[0]);
  ma_array_free(snaps[1]);
  return res;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_ufunc_methods[] = {
    FC("ufunc_new", py_ufunc_new, "ufunc_new(name, op, nin, nout, identity, impl, doc, types, signature) -> ufunc"),
    FC("ufunc_fields", py_ufunc_fields, "ufunc_fields(u) -> (op, impl, signature)"),
    FC("ufunc_setup", py_ufunc_setup, "ufunc_setup(call, reduce, accumulate, outer, at, reduceat, signature)"),
    FC("ew_sigs", py_ew_sigs, "ew_sigs(op) -> ((in0[, in1...], out), ...) as ma_types"),
    FC("ew_at", py_ew_at, "ew_at(op, a, positions, b) -> True, or False without a loop of a's type"),
    {NULL, NULL, 0, NULL}};
