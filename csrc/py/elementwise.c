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

#include <string.h>

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

static const ma_ew_sig *find_sig(const ma_ew_op *op, int type) {
  for (int i = 0; i < op->nsigs; i++)
    if (op->sigs[i].type == type) return &op->sigs[i];
  return NULL;
}

/* ValueError naming every array operand's shape (Python scalars, flagged in
 * `scalar`, have none), worded as views.broadcast_shapes words it:
 * "shapes (2, 3), (4,) cannot be broadcast together". */
static PyObject *broadcast_error(const ma_array *const *ins, const int *scalar, int nin) {
  PyObject *reprs = PyList_New(0), *sep = PyUnicode_FromString(", ");
  for (int k = 0; reprs && sep && k < nin; k++) {
    if (scalar[k]) continue;
    PyObject *t = PyTuple_New(ins[k]->t.ndim);
    if (!t) break;
    for (int i = 0; i < ins[k]->t.ndim; i++)
      PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(ins[k]->t.shape[i]));
    PyObject *r = PyObject_Repr(t);
    Py_DECREF(t);
    if (!r || PyList_Append(reprs, r) < 0) {
      Py_XDECREF(r);
      break;
    }
    Py_DECREF(r);
  }
  PyObject *joined = reprs && sep && !PyErr_Occurred() ? PyUnicode_Join(sep, reprs) : NULL;
  if (joined) PyErr_Format(PyExc_ValueError, "shapes %U cannot be broadcast together", joined);
  Py_XDECREF(joined);
  Py_XDECREF(reprs);
  Py_XDECREF(sep);
  return NULL;
}

/* ---- ewise ----------------------------------------------------------------- */

/* Is `a` dense with positive strides in some order of its dims (C order,
 * F order, any transpose of a contiguous block), but not C-contiguous? */
static int dense_permuted(const ma_array *a) {
  int nd = a->t.ndim, order[MA_MAXDIMS];
  int64_t expect = 1;
  int c_order = 1;
  for (int i = 0; i < nd; i++) {
    if (a->t.strides[i] <= 0) return 0;
    order[i] = i;
  }
  /* dims by decreasing stride (insertion sort; nd is small) */
  for (int i = 1; i < nd; i++)
    for (int j = i; j > 0 && a->t.strides[order[j]] > a->t.strides[order[j - 1]]; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (int i = nd - 1; i >= 0; i--) {
    if (a->t.strides[order[i]] != expect) return 0;
    expect *= a->t.shape[order[i]];
    if (order[i] != i) c_order = 0;
  }
  return !c_order;
}

/* A new result array of `shape`: laid out like the first input of that
 * shape when that input is a dense transpose (so A.T + B.T and sqrt(A.T)
 * walk memory in order, as NumPy's order="K"), C-contiguous otherwise.
 * NULL with an exception set, or NULL alone when out of memory. */
static ma_array *alloc_like(DLDataType dt, int nd, const int64_t *shape, const ma_array *const *ins,
                            int nin) {
  const int64_t *strides = NULL;
  for (int k = 0; k < nin && nd >= 2 && !strides; k++) {
    const ma_array *a = ins[k];
    if (a->t.ndim != nd || memcmp(a->t.shape, shape, (size_t)nd * sizeof(int64_t)) != 0) continue;
    if (ma_array_size(a) > 1 && dense_permuted(a)) strides = a->t.strides;
  }
  if (!strides) {
    int err = 0;
    ma_array *r = ma_array_empty(dt, nd, shape, 0, &err);
    if (!r && err == 1) PyErr_SetString(PyExc_ValueError, "result is too large");
    return r;
  }
  size_t nbytes;
  if (ma_nbytes(nd, shape, (size_t)(dt.bits / 8), &nbytes) != 0) {
    PyErr_SetString(PyExc_ValueError, "result is too large");
    return NULL;
  }
  ma_buffer *buf = ma_buffer_new(nbytes, 0);
  if (!buf) return NULL;
  ma_array *r = ma_array_new(buf, buf->data, dt, nd, shape, strides, 0);
  ma_buffer_release(buf);
  return r;
}

/* Run operation `op` with loop `sig` on inputs `xs` (handles or Python
 * scalars) into `outh` (a handle, or NULL to allocate).  Returns a new
 * handle (when allocating), Py_None (new reference) or NULL. */
static PyObject *ew_run(const ma_ew_op *op, const ma_ew_sig *sig, PyObject *outh,
                        PyObject *const *xs, int nin) {
  /* 0-d stand-ins for scalars and precast size-1 inputs; they live on the
   * stack (a 0-d ma_array has no dims) */
  ma_array small[3];
  _Alignas(16) char small_data[3][16];
  const ma_array *ins[3];
  ma_array *temps[3] = {NULL, NULL, NULL};
  int scalar[3] = {0, 0, 0};
  for (int k = 0; k < nin; k++) {
    PyObject *x = xs[k];
    scalar[k] = !PyCapsule_CheckExact(x);
    if (PyCapsule_CheckExact(x)) {
      ma_array *a = ma_handle_get(x);
      if (!a) return NULL;
      ins[k] = a;
      continue;
    }
    if (ma_store_scalar(x, sig->in[k], small_data[k]) < 0) return NULL;
    memset(&small[k], 0, sizeof(ma_array));
    small[k].t.data = small_data[k];
    small[k].t.dtype = ma_dltypes[sig->in[k]];
    ins[k] = &small[k];
  }

  ma_array *out;
  int fresh = 0;
  if (!outh) {
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
        if (shape[off + i] != 1) return broadcast_error(ins, scalar, nin);
        shape[off + i] = s;
      }
    }
    out = alloc_like(ma_dltypes[sig->out], nd, shape, ins, nin);
    if (!out) return PyErr_Occurred() ? NULL : ma_alloc_error(nd, shape, ma_type_size[sig->out]);
    fresh = 1;
  } else {
    out = ma_handle_get(outh);
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
    if (!fresh && ma_must_snapshot(out, a)) {
      /* out shares memory with this input in another layout (a 0-d view of
       * one of out's elements too, as in x -= x[0, 0]): read a snapshot */
      ma_array *t = ma_snapshot(a);
      if (!t) { rc = -2; break; }
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
      small[k].t.dtype = ma_dltypes[sig->in[k]];
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
    if (rc != 0) return broadcast_error(ins, scalar, nin);
    (void)op;
    PyErr_SetString(PyExc_ValueError, "Integers to negative integer powers are not allowed.");
    return NULL;
  }
  if (fresh) return ma_handle_new(out);
  Py_RETURN_NONE;
}

static const ma_ew_op *get_op(PyObject *o) {
  long i = PyLong_AsLong(o);
  if (i == -1 && PyErr_Occurred()) return NULL;
  if (i < 0 || i >= ma_ew_nops) {
    PyErr_Format(PyExc_ValueError, "no elementwise op %ld", i);
    return NULL;
  }
  return &ma_ew_ops[i];
}

/* ewise(op, loop_type, out|None, x1[, x2[, x3]]) -> new handle or None */
MA_FASTCALL(py_ewise) {
  (void)self;
  if (nargs < 4 || nargs > 6) {
    PyErr_SetString(PyExc_TypeError, "ewise(op, loop_type, out, *inputs) takes 4 to 6 arguments");
    return NULL;
  }
  const ma_ew_op *op = get_op(args[0]);
  if (!op) return NULL;
  long type = PyLong_AsLong(args[1]);
  if (type == -1 && PyErr_Occurred()) return NULL;
  int nin = (int)nargs - 3;
  if (nin != op->nin)
    return PyErr_Format(PyExc_TypeError, "%s takes %d inputs, %d given", op->name, op->nin, nin);
  const ma_ew_sig *sig = find_sig(op, (int)type);
  if (!sig) return PyErr_Format(PyExc_TypeError, "%s has no loop for type %ld", op->name, type);
  return ew_run(op, sig, args[2] == Py_None ? NULL : args[2], args + 3, nin);
}

/* ---- the fast path ------------------------------------------------------------
 *
 * `a + b` on two NDArrays of one shape, or on an NDArray and a Python scalar,
 * runs here without entering Python once the Python layer has resolved the
 * loop for those operand dtypes and taught it to this table (ew_learn).
 * The operators of NDArray are C method descriptors over these functions;
 * anything the fast path does not cover (other shapes, out=, subclasses,
 * array-likes, dtype errors...) goes to the Python layer's general path.
 */

#define EW_MAXOPS 96
#define EW_NKINDS 4 /* Python scalar kinds: bool, int, float, complex */

static PyObject *py_slow; /* slow(op, x1, x2 | None, mode) */
/* 1 + the loop type for (op, first operand's type, second operand's type or
 * MA_NTYPES + scalar kind; 0 for unary ops); 0 = not learned yet */
static int8_t learned[EW_MAXOPS][MA_NTYPES][MA_NTYPES + EW_NKINDS];
static PyObject not_handled_sentinel;
#define NOT_HANDLED (&not_handled_sentinel)

/* modes of the Python fallback */
enum { SLOW_DUNDER = 1, SLOW_INPLACE = 3 };

static int scalar_kind(PyObject *x) {
  PyTypeObject *t = Py_TYPE(x);
  if (t == &PyFloat_Type) return 2;
  if (t == &PyLong_Type) return 1;
  if (t == &PyBool_Type) return 0;
  if (t == &PyComplex_Type) return 3;
  return -1;
}

static int same_shape(PyObject *s1, PyObject *s2) {
  if (s1 == s2) return 1;
  Py_ssize_t n = PyTuple_GET_SIZE(s1);
  if (n != PyTuple_GET_SIZE(s2)) return 0;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *a = PyTuple_GET_ITEM(s1, i), *b = PyTuple_GET_ITEM(s2, i);
    if (a != b && PyLong_AsLongLong(a) != PyLong_AsLongLong(b)) return 0;
  }
  return 1;
}

/* `t` (a tuple of ints) equals v[0..nd) */
static int tuple_is(PyObject *t, int nd, const int64_t *v) {
  if (PyTuple_GET_SIZE(t) != nd) return 0;
  for (int i = 0; i < nd; i++)
    if (PyLong_AsLongLong(PyTuple_GET_ITEM(t, i)) != v[i]) return 0;
  return 1;
}

/* A new NDArray over handle `h` (stolen); its shape and strides tuples are
 * those of the array `like` when they match (no new tuples), else new. */
static PyObject *wrap_result(PyObject *h, PyObject *like) {
  ma_array *r = (ma_array *)PyCapsule_GetPointer(h, MA_HANDLE_NAME);
  PyObject *shape = NULL, *strides = NULL;
  if (like) {
    ma_array *a = (ma_array *)PyCapsule_GetPointer(MA_ND(like)->h, MA_HANDLE_NAME);
    int nd = r->t.ndim;
    /* (0-d arrays have NULL shape and strides, which memcmp must not see) */
    if (a->t.ndim == nd && (nd == 0 || memcmp(a->t.shape, r->t.shape, (size_t)nd * sizeof(int64_t)) == 0)) {
      shape = Py_NewRef(MA_ND(like)->shape);
      if (nd == 0 || memcmp(a->t.strides, r->t.strides, (size_t)nd * sizeof(int64_t)) == 0)
        strides = Py_NewRef(MA_ND(like)->strides);
    }
  }
  return ma_ndarray_wrap(h, shape, strides, NULL);
}

/* An operand as the fast path sees it: its handle (or the Python scalar
 * itself), its key in `learned` (type id, or MA_NTYPES + scalar kind) and
 * the NDArray (NULL for a scalar).  0 when it is neither. */
typedef struct {
  PyObject *h, *arr;
  int key;
} fast_operand;

static int decode(PyObject *x, fast_operand *o) {
  if (Py_IS_TYPE(x, ma_nd.type)) {
    o->key = ma_ndarray_tid(MA_ND(x)->dtype);
    o->h = MA_ND(x)->h;
    o->arr = x;
    return o->key >= 0;
  }
  int k = scalar_kind(x);
  if (k < 0) return 0;
  o->key = MA_NTYPES + k;
  o->h = x;
  o->arr = NULL;
  return 1;
}

/* The learned loop for value operands a, b (at least one an array). */
static const ma_ew_sig *learned_sig(int opi, const fast_operand *a, const fast_operand *b) {
  int lt;
  if (a->arr)
    lt = learned[opi][a->key][b->key];
  else if (b->arr)
    lt = learned[opi][b->key][a->key]; /* resolution is symmetric */
  else
    return NULL;
  return lt ? find_sig(&ma_ew_ops[opi], lt - 1) : NULL;
}

/* Run `sig` on inputs `in` into `out` (NULL: allocate); the result array,
 * NULL (error) or NOT_HANDLED.  `like` is an input array of the result's
 * shape, or NULL.  A Python int out of its dtype's range hands the call to
 * the Python layer, which raises OverflowError or answers a comparison. */
static PyObject *fast_run(int opi, const ma_ew_sig *sig, PyObject *const *in, int nin, PyObject *out,
                          PyObject *like) {
  const ma_ew_op *op = &ma_ew_ops[opi];
  if (out) {
    /* out= of exactly the operands' shape and the loop's result dtype;
     * anything else (casts, broadcasting into out) is the Python layer's */
    if (!like || !Py_IS_TYPE(out, ma_nd.type) || ma_ndarray_tid(MA_ND(out)->dtype) != sig->out ||
        !same_shape(MA_ND(out)->shape, MA_ND(like)->shape))
      return NOT_HANDLED;
  }
  PyObject *r = ew_run(op, sig, out ? MA_ND(out)->h : NULL, in, nin);
  if (!r) {
    if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
      PyErr_Clear();
      return NOT_HANDLED;
    }
    return NULL;
  }
  if (out) {
    Py_DECREF(r);
    return Py_NewRef(out);
  }
  return wrap_result(r, like);
}

/* The array among `ops` whose shape every array operand shares, or NULL
 * when the arrays' shapes differ (the result is then their broadcast). */
static PyObject *common_like(const fast_operand *ops, int n) {
  PyObject *like = NULL;
  for (int k = 0; k < n; k++) {
    if (!ops[k].arr) continue;
    if (!like)
      like = ops[k].arr;
    else if (!same_shape(MA_ND(like)->shape, MA_ND(ops[k].arr)->shape))
      return NULL;
  }
  return like;
}

/* op(x1, x2) -> result, NULL (error) or NOT_HANDLED.  A non-NULL `out`
 * receives the result (x1 itself for the in-place operators). */
static PyObject *fast_binary(int opi, PyObject *x1, PyObject *x2, PyObject *out) {
  fast_operand o[2];
  if (!ma_nd.type || opi < 0 || !decode(x1, &o[0]) || !decode(x2, &o[1])) return NOT_HANDLED;
  if (out == x1 && !o[0].arr) return NOT_HANDLED;
  const ma_ew_sig *sig = learned_sig(opi, &o[0], &o[1]);
  if (!sig) return NOT_HANDLED;
  PyObject *in[2] = {o[0].h, o[1].h};
  return fast_run(opi, sig, in, 2, out, common_like(o, 2));
}

static PyObject *fast_unary(int opi, PyObject *x, PyObject *out) {
  if (!ma_nd.type || opi < 0 || !Py_IS_TYPE(x, ma_nd.type)) return NOT_HANDLED;
  int t = ma_ndarray_tid(MA_ND(x)->dtype), lt;
  if (t < 0 || !(lt = learned[opi][t][0])) return NOT_HANDLED;
  const ma_ew_sig *sig = find_sig(&ma_ew_ops[opi], lt - 1);
  PyObject *in[1] = {MA_ND(x)->h};
  return fast_run(opi, sig, in, 1, out, x);
}

/* where(cond, x1, x2): cond an NDArray of any dtype (cast to bool in C). */
static PyObject *fast_where(int opi, PyObject *c, PyObject *x1, PyObject *x2, PyObject *out) {
  fast_operand o[3];
  if (!ma_nd.type || !Py_IS_TYPE(c, ma_nd.type) || !decode(c, &o[0]) || !decode(x1, &o[1]) ||
      !decode(x2, &o[2]))
    return NOT_HANDLED;
  const ma_ew_sig *sig = learned_sig(opi, &o[1], &o[2]);
  if (!sig) return NOT_HANDLED;
  PyObject *in[3] = {o[0].h, o[1].h, o[2].h};
  return fast_run(opi, sig, in, 3, out, common_like(o, 3));
}

static PyObject *slow(int opi, PyObject *x1, PyObject *x2, int mode) {
  PyObject *args[4];
  args[0] = PyLong_FromLong(opi);
  if (!args[0]) return NULL;
  args[1] = x1;
  args[2] = x2 ? x2 : Py_None;
  args[3] = PyLong_FromLong(mode);
  PyObject *r = args[3] ? PyObject_Vectorcall(py_slow, args, 4, NULL) : NULL;
  Py_DECREF(args[0]);
  Py_XDECREF(args[3]);
  return r;
}

/* ewfast(op, out, x1[, x2[, x3]]) -> the result, or None when the fast
 * path does not apply (the caller then takes the general path); `out` None
 * allocates */
MA_FASTCALL(py_ewfast) {
  (void)self;
  if (nargs < 3 || nargs > 5) {
    PyErr_SetString(PyExc_TypeError, "ewfast(op, out, x1[, x2[, x3]])");
    return NULL;
  }
  int opi = (int)PyLong_AsLong(args[0]);
  if (opi == -1 && PyErr_Occurred()) return NULL;
  if (opi < 0 || opi >= ma_ew_nops) return PyErr_Format(PyExc_ValueError, "no elementwise op %d", opi);
  PyObject *out = args[1] == Py_None ? NULL : args[1];
  PyObject *r = nargs == 3   ? fast_unary(opi, args[2], out)
                : nargs == 4 ? fast_binary(opi, args[2], args[3], out)
                             : fast_where(opi, args[2], args[3], args[4], out);
  if (r == NOT_HANDLED) Py_RETURN_NONE;
  return r;
}

/* ew_learn(op, t1, key, loop_type): the Python layer resolved op for
 * operand types (t1, key) to loop_type (see `learned`). */
MA_FASTCALL(py_ew_learn) {
  (void)self;
  MA_NARGS(4, "ew_learn");
  long v[4];
  for (int i = 0; i < 4; i++) {
    v[i] = PyLong_AsLong(args[i]);
    if (v[i] == -1 && PyErr_Occurred()) return NULL;
  }
  if (v[0] < 0 || v[0] >= ma_ew_nops || v[0] >= EW_MAXOPS || v[1] < 0 || v[1] >= MA_NTYPES ||
      v[2] < 0 || v[2] >= MA_NTYPES + EW_NKINDS || v[3] < 0 || v[3] > 100 ||
      !find_sig(&ma_ew_ops[v[0]], (int)v[3]))
    return PyErr_Format(PyExc_ValueError, "ew_learn: bad entry");
  learned[v[0]][v[1]][v[2]] = (int8_t)(v[3] + 1);
  Py_RETURN_NONE;
}

/* The NDArray operator methods, one C function per operator. */
static int op_index(const char *name) {
  for (int i = 0; i < ma_ew_nops; i++)
    if (strcmp(ma_ew_ops[i].name, name) == 0) return i;
  return -1;
}

#define EW_OPERATORS(X)                                                        \
  X(add, add) X(sub, subtract) X(mul, multiply) X(truediv, divide)             \
  X(floordiv, floor_divide) X(mod, remainder) X(pow, pow)                      \
  X(and, bitwise_and) X(or, bitwise_or) X(xor, bitwise_xor)                    \
  X(lshift, bitwise_left_shift) X(rshift, bitwise_right_shift)
#define EW_COMPARISONS(X)                                                      \
  X(eq, equal) X(ne, not_equal) X(lt, less) X(le, less_equal) X(gt, greater)   \
  X(ge, greater_equal)
#define EW_UNARY(X) X(neg, negative) X(pos, positive) X(abs, abs) X(invert, bitwise_invert)

#define EW_DECLARE(d, name) static int op_##d = -1;
EW_OPERATORS(EW_DECLARE)
EW_COMPARISONS(EW_DECLARE)
EW_UNARY(EW_DECLARE)

#define EW_BINARY_METHODS(d, name)                                             \
  static PyObject *m_##d(PyObject *self, PyObject *other) {                    \
    PyObject *r = fast_binary(op_##d, self, other, NULL);                       \
    return r != NOT_HANDLED ? r : slow(op_##d, self, other, SLOW_DUNDER);      \
  }                                                                            \
  static PyObject *m_r##d(PyObject *self, PyObject *other) {                   \
    PyObject *r = fast_binary(op_##d, other, self, NULL);                       \
    return r != NOT_HANDLED ? r : slow(op_##d, other, self, SLOW_DUNDER);      \
  }                                                                            \
  static PyObject *m_i##d(PyObject *self, PyObject *other) {                   \
    PyObject *r = fast_binary(op_##d, self, other, self);                       \
    return r != NOT_HANDLED ? r : slow(op_##d, self, other, SLOW_INPLACE);     \
  }
EW_OPERATORS(EW_BINARY_METHODS)
#define EW_COMPARE_METHOD(d, name)                                             \
  static PyObject *m_##d(PyObject *self, PyObject *other) {                    \
    PyObject *r = fast_binary(op_##d, self, other, NULL);                       \
    return r != NOT_HANDLED ? r : slow(op_##d, self, other, SLOW_DUNDER);      \
  }
EW_COMPARISONS(EW_COMPARE_METHOD)
#define EW_UNARY_METHOD(d, name)                                               \
  static PyObject *m_##d(PyObject *self, PyObject *unused) {                   \
    (void)unused;                                                              \
    PyObject *r = fast_unary(op_##d, self, NULL);                              \
    return r != NOT_HANDLED ? r : slow(op_##d, self, NULL, SLOW_DUNDER);       \
  }
EW_UNARY(EW_UNARY_METHOD)

#define EW_DEF_BINARY(d, name)                                                 \
  {"__" #d "__", (PyCFunction)m_##d, METH_O, NULL},                            \
  {"__r" #d "__", (PyCFunction)m_r##d, METH_O, NULL},                          \
  {"__i" #d "__", (PyCFunction)m_i##d, METH_O, NULL},
#define EW_DEF_COMPARE(d, name) {"__" #d "__", (PyCFunction)m_##d, METH_O, NULL},
#define EW_DEF_UNARY(d, name) {"__" #d "__", (PyCFunction)m_##d, METH_NOARGS, NULL},
static PyMethodDef operator_defs[] = {
    EW_OPERATORS(EW_DEF_BINARY) EW_COMPARISONS(EW_DEF_COMPARE) EW_UNARY(EW_DEF_UNARY)
    {NULL, NULL, 0, NULL}};

/* ew_setup(slow): remember the Python fallback and install the operator
 * methods on NDArray (ndarray_setup has run: the class is known). */
MA_FASTCALL(py_ew_setup) {
  (void)self;
  MA_NARGS(1, "ew_setup");
  if (!ma_nd.type || !PyCallable_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "ew_setup(slow) needs a callable, after ndarray_setup");
    return NULL;
  }
  if (ma_ew_nops > EW_MAXOPS) {
    PyErr_SetString(PyExc_RuntimeError, "EW_MAXOPS is too small for the generated op table");
    return NULL;
  }
#define EW_FIND(d, name) op_##d = op_index(#name);
  EW_OPERATORS(EW_FIND)
  EW_COMPARISONS(EW_FIND)
  EW_UNARY(EW_FIND)
  PyObject *type = (PyObject *)ma_nd.type;
  for (PyMethodDef *m = operator_defs; m->ml_name; m++) {
    PyObject *descr = PyDescr_NewMethod(ma_nd.type, m);
    if (!descr || PyObject_SetAttrString(type, m->ml_name, descr) < 0) {
      Py_XDECREF(descr);
      return NULL;
    }
    Py_DECREF(descr);
  }
  Py_XSETREF(py_slow, Py_NewRef(args[0]));
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
    FC("ewfast", py_ewfast, "ewfast(op, out, x1[, x2[, x3]]) -> result, or None when the fast path does not apply"),
    FC("ew_learn", py_ew_learn, "ew_learn(op, t1, key, loop_type)"),
    FC("ew_setup", py_ew_setup, "ew_setup(slow)"),
    {NULL, NULL, 0, NULL}};
