/*
 * The elementwise engine's Python entry points.
 *
 * minarray/elementwise.py resolves dtypes (which loop, which result type)
 * and shapes, then makes one call:
 *
 *   ewise(op, loop_type, out, x1[, x2[, x3]])
 *
 * Inputs are array handles or Python scalars (converted here, once, to the
 * loop's input type: weak scalars).  An input whose dtype differs from the
 * loop's is cast chunk by chunk into a small stack buffer inside the
 * iteration (no temporary array); so is the output when `out` has another
 * dtype than the loop produces.  `out` None allocates a C-contiguous result
 * of the inputs' broadcast shape and returns its handle.  Kernels run with
 * the GIL released once the work is large enough to be worth it.
 */
#include "elementwise.h"

#include "copy.h"
#include "pyapi.h"

/* Below this many elements the GIL is kept: releasing and retaking it costs
 * more than such a loop. */
#define EW_NOGIL_MIN 8192
/* From how many elements to split over threads.  Two threads pay off once
 * one thread would take ~10 us (waking a worker costs ~20 us on a VM, and
 * the caller works meanwhile): 65536 elements of an add (the iterator's
 * default, returned as 0 here), but 16384 doubles or 32768 floats of exp or
 * sin, measured on the reference 2-core machine. */
static int64_t ew_parallel_min(const ma_ew_op *op, int type) {
  if (!op->heavy) return 0;
  return ma_type_size[type] >= 8 ? 16384 : 32768;
}

/* Elements per chunk of the casting buffers (x16 bytes for complex128). */
#define EW_CHUNK 512

static const DLDataType type_dl[MA_NTYPES] = {
    {kDLBool, 8, 1},   {kDLInt, 8, 1},    {kDLInt, 16, 1},   {kDLInt, 32, 1},
    {kDLInt, 64, 1},   {kDLUInt, 8, 1},   {kDLUInt, 16, 1},  {kDLUInt, 32, 1},
    {kDLUInt, 64, 1},  {kDLFloat, 16, 1}, {kDLBfloat, 16, 1}, {kDLFloat, 32, 1},
    {kDLFloat, 64, 1}, {kDLComplex, 64, 1}, {kDLComplex, 128, 1}};

/* ---- buffered casting ------------------------------------------------------ */

typedef struct {
  ma_loop loop;
  void *aux;
  int nin;
  ma_loop cast_in[3];  /* NULL: the input already has the loop's type */
  int64_t size_in[3];  /* item size of the loop's input types */
  ma_loop cast_out;    /* NULL: the output already has the loop's type */
  int64_t size_out;
} ew_buffered;

/* An inner loop that casts each chunk of the mismatched operands through
 * stack buffers around the real loop.  Reentrant: iterate.c may run it on
 * several threads at once. */
static void buffered_loop(char **p, const int64_t *st, int64_t n, const void *vaux) {
  const ew_buffered *b = (const ew_buffered *)vaux;
  _Alignas(64) char buf[4][EW_CHUNK * 16];
  char *q[4];
  int64_t qs[4];
  for (int64_t i = 0; i < n; i += EW_CHUNK) {
    int64_t m = n - i < EW_CHUNK ? n - i : EW_CHUNK;
    for (int k = 0; k < b->nin; k++) {
      char *src = p[k + 1] + i * st[k + 1];
      if (b->cast_in[k]) {
        /* a broadcast (stride 0) operand is cast once per chunk */
        int64_t cnt = st[k + 1] == 0 ? 1 : m;
        char *cp[2] = {buf[k + 1], src};
        int64_t cs[2] = {b->size_in[k], st[k + 1]};
        b->cast_in[k](cp, cs, cnt, NULL);
        q[k + 1] = buf[k + 1];
        qs[k + 1] = st[k + 1] == 0 ? 0 : b->size_in[k];
      } else {
        q[k + 1] = src;
        qs[k + 1] = st[k + 1];
      }
    }
    char *dst = p[0] + i * st[0];
    if (b->cast_out) {
      q[0] = buf[0];
      qs[0] = b->size_out;
    } else {
      q[0] = dst;
      qs[0] = st[0];
    }
    b->loop(q, qs, m, b->aux);
    if (b->cast_out) {
      char *cp[2] = {dst, buf[0]};
      int64_t cs[2] = {st[0], b->size_out};
      b->cast_out(cp, cs, m, NULL);
    }
  }
}

/* ---- helpers --------------------------------------------------------------- */

static int same_layout(const ma_array *a, const ma_array *b) {
  if (a->t.data != b->t.data || a->t.ndim != b->t.ndim || a->t.dtype.bits != b->t.dtype.bits)
    return 0;
  for (int i = 0; i < a->t.ndim; i++)
    if (a->t.shape[i] != b->t.shape[i] ||
        (a->t.shape[i] > 1 && a->t.strides[i] != b->t.strides[i]))
      return 0;
  return 1;
}

static const ma_ew_sig *find_sig(const ma_ew_op *op, int type) {
  for (int i = 0; i < op->nsigs; i++)
    if (op->sigs[i].type == type) return &op->sigs[i];
  return NULL;
}

/* Python's ma_store_scalar lives in pyapi.c (same conversion rules as the
 * cast kernels, OverflowError for out-of-range integers). */
int ma_store_scalar(PyObject *v, int tid, char *dst);

static PyObject *broadcast_error(const ma_array *const *ins, int nin) {
  PyObject *shapes = PyList_New(0);
  if (!shapes) return NULL;
  for (int k = 0; k < nin; k++) {
    PyObject *t = PyTuple_New(ins[k]->t.ndim);
    if (!t) break;
    for (int i = 0; i < ins[k]->t.ndim; i++)
      PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(ins[k]->t.shape[i]));
    PyList_Append(shapes, t);
    Py_DECREF(t);
  }
  PyErr_Format(PyExc_ValueError, "operands could not be broadcast together with shapes %R", shapes);
  Py_DECREF(shapes);
  return NULL;
}

/* ---- ewise ----------------------------------------------------------------- */

/* ewise(op, loop_type, out|None, x1[, x2[, x3]]) -> new handle or None */
MA_FASTCALL(py_ewise) {
  (void)self;
  if (nargs < 4 || nargs > 6) {
    PyErr_SetString(PyExc_TypeError, "ewise(op, loop_type, out, *inputs) takes 4 to 6 arguments");
    return NULL;
  }
  long opi = PyLong_AsLong(args[0]);
  long type = PyLong_AsLong(args[1]);
  if (PyErr_Occurred()) return NULL;
  if (opi < 0 || opi >= ma_ew_nops) return PyErr_Format(PyExc_ValueError, "no elementwise op %ld", opi);
  const ma_ew_op *op = &ma_ew_ops[opi];
  int nin = (int)nargs - 3;
  if (nin != op->nin)
    return PyErr_Format(PyExc_TypeError, "%s takes %d inputs, %d given", op->name, op->nin, nin);
  const ma_ew_sig *sig = find_sig(op, (int)type);
  if (!sig) return PyErr_Format(PyExc_TypeError, "%s has no loop for type %ld", op->name, type);

  /* 0-d stand-ins for scalars and precast size-1 inputs; they live on the
   * stack (a 0-d ma_array has no dims) */
  ma_array small[3];
  _Alignas(16) char small_data[3][16];
  const ma_array *ins[3];
  ma_array *temps[3] = {NULL, NULL, NULL};
  for (int k = 0; k < nin; k++) {
    PyObject *x = args[3 + k];
    if (PyCapsule_CheckExact(x)) {
      ma_array *a = ma_handle_get(x);
      if (!a) return NULL;
      ins[k] = a;
      continue;
    }
    if (ma_store_scalar(x, sig->in[k], small_data[k]) < 0) return NULL;
    memset(&small[k], 0, sizeof(ma_array));
    small[k].t.data = small_data[k];
    small[k].t.dtype = type_dl[sig->in[k]];
    ins[k] = &small[k];
  }

  ma_array *out;
  int fresh = 0;
  if (args[2] == Py_None) {
    int nd = 0;
    int64_t shape[MA_MAXDIMS];
    for (int k = 0; k < nin; k++)
      if (ins[k]->t.ndim > nd) nd = ins[k]->t.ndim;
    for (int i = 0; i < nd; i++) shape[i] = 1;
    for (int k = 0; k < nin; k++) {
      int off = nd - ins[k]->t.ndim;
      for (int i = 0; i < ins[k]->t.ndim; i++) {
        int64_t s = ins[k]->t.shape[i];
        if (s == shape[off + i] || s == 1) continue;
        if (shape[off + i] != 1) return broadcast_error(ins, nin);
        shape[off + i] = s;
      }
    }
    int err = 0;
    out = ma_array_empty(type_dl[sig->out], nd, shape, 0, &err);
    if (!out) return err == 1 ? PyErr_Format(PyExc_ValueError, "result is too large") : PyErr_NoMemory();
    fresh = 1;
  } else {
    out = ma_handle_get(args[2]);
    if (!out) return NULL;
    if (out->flags & MA_READONLY) {
      PyErr_SetString(PyExc_ValueError, "output array is read-only");
      return NULL;
    }
  }
  int tout = ma_type_of(out->t.dtype);

  int64_t size = ma_array_size(out);
  int rc = 0;
  for (int k = 0; k < nin && rc == 0; k++) {
    const ma_array *a = ins[k];
    int ta = ma_type_of(a->t.dtype);
    if (!fresh && a->t.ndim > 0 && ma_may_overlap(out, a) && !same_layout(out, a)) {
      /* out shares memory with this input in another layout: read a copy */
      int err = 0;
      ma_array *t = ma_array_empty(a->t.dtype, a->t.ndim, a->t.shape, 0, &err);
      if (!t) { rc = -2; break; }
      const ma_array *o2[2] = {t, a};
      ma_iterate(2, o2, ma_cast_loops[ta][ta], NULL);
      temps[k] = t;
      ins[k] = t;
      a = t;
    }
    if (ta != sig->in[k] && a->t.ndim <= out->t.ndim && ma_array_size(a) == 1) {
      /* one element: cast it once, here */
      char *cp[2] = {small_data[k], (char *)a->t.data};
      int64_t cs[2] = {0, 0};
      ma_cast_loops[ta][sig->in[k]](cp, cs, 1, NULL);
      memset(&small[k], 0, sizeof(ma_array));
      small[k].t.data = small_data[k];
      small[k].t.dtype = type_dl[sig->in[k]];
      ins[k] = &small[k];
    }
  }

  int errflag = 0;
  if (rc == 0) {
    ew_buffered b;
    ma_loop loop = sig->loop;
    const void *aux = &errflag;
    int need = 0;
    b.loop = sig->loop;
    b.aux = &errflag;
    b.nin = nin;
    for (int k = 0; k < nin; k++) {
      int ta = ma_type_of(ins[k]->t.dtype);
      b.cast_in[k] = ta != sig->in[k] ? ma_cast_loops[ta][sig->in[k]] : NULL;
      b.size_in[k] = ma_type_size[sig->in[k]];
      need |= b.cast_in[k] != NULL;
    }
    b.cast_out = tout != sig->out ? ma_cast_loops[sig->out][tout] : NULL;
    b.size_out = ma_type_size[sig->out];
    need |= b.cast_out != NULL;
    if (need) {
      loop = buffered_loop;
      aux = &b;
    }
    const ma_array *ops[4] = {out, ins[0], nin > 1 ? ins[1] : NULL, nin > 2 ? ins[2] : NULL};
    int64_t pmin = ew_parallel_min(op, sig->type);
    if (size >= EW_NOGIL_MIN) {
      Py_BEGIN_ALLOW_THREADS rc = ma_iterate_ex(nin + 1, ops, loop, aux, 0, pmin);
      Py_END_ALLOW_THREADS
    } else {
      rc = ma_iterate_ex(nin + 1, ops, loop, aux, 0, pmin);
    }
  }
  for (int k = 0; k < nin; k++) ma_array_free(temps[k]);
  if (rc != 0 || errflag) {
    if (fresh) ma_array_free(out);
    if (rc == -2) return PyErr_NoMemory();
    if (rc != 0) return broadcast_error(ins, nin);
    PyErr_SetString(PyExc_ValueError, "Integers to negative integer powers are not allowed.");
    return NULL;
  }
  if (fresh) return ma_handle_new(out);
  Py_RETURN_NONE;
}

/* ew_ops() -> ((name, nin, ((loop_type, out_type, (in_types...)), ...)), ...) */
MA_FASTCALL(py_ew_ops) {
  (void)self;
  (void)args;
  MA_NARGS(0, "ew_ops");
  PyObject *res = PyTuple_New(ma_ew_nops);
  if (!res) return NULL;
  for (int i = 0; i < ma_ew_nops; i++) {
    const ma_ew_op *op = &ma_ew_ops[i];
    PyObject *sigs = PyTuple_New(op->nsigs);
    if (!sigs) { Py_DECREF(res); return NULL; }
    for (int j = 0; j < op->nsigs; j++) {
      const ma_ew_sig *s = &op->sigs[j];
      PyObject *in = PyTuple_New(op->nin);
      if (!in) { Py_DECREF(sigs); Py_DECREF(res); return NULL; }
      for (int k = 0; k < op->nin; k++) PyTuple_SET_ITEM(in, k, PyLong_FromLong(s->in[k]));
      PyTuple_SET_ITEM(sigs, j, Py_BuildValue("(iiN)", s->type, s->out, in));
    }
    PyTuple_SET_ITEM(res, i, Py_BuildValue("(siN)", op->name, op->nin, sigs));
  }
  return res;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_elementwise_methods[] = {
    FC("ewise", py_ewise, "ewise(op, loop_type, out, *inputs) -> handle or None"),
    FC("ew_ops", py_ew_ops, "ew_ops() -> the elementwise operation table"),
    {NULL, NULL, 0, NULL}};
