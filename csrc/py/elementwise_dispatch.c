/*
 * The elementwise engine's Python entry points: the functions (the ufunc
 * objects of csrc/py/ufunc.c call ma_ew_call; their Python bodies
 * ew_call(op, out, x1[, x2[, x3]])) and NDArray's operators all go
 * through ew_dispatch, which picks the loop
 * from the op's generated resolve table, checks `out`, and runs it.
 *
 * Inputs are NDArrays or Python scalars (converted here, once, to the
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
/* Below this many elements a fresh result's flags are read once, after
 * the loop, and the loop runs again only when a flag is set (ew_run).  A
 * second run of 4096 elements costs at most a few microseconds, less than
 * reporting the flag does; above it two more reads cost under 1%. */
#define EW_DEFER_FPE_MAX 4096
/* (a deferred call runs with the GIL held, on this thread alone) */
_Static_assert(EW_DEFER_FPE_MAX <= EW_NOGIL_MIN, "deferred flags are read on the calling thread");
/* From how many elements to split over threads.  Two threads pay off once
 * one thread would take about half as long as waking a worker (on a VM;
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

/* The broadcast shape of arrays ins[0..n) (ma_broadcast_shape, the one
 * statement of the rule) into *nd and shape; -1 when they do not broadcast. */
static int broadcast_shape(const ma_array *const *ins, int n, int *nd, int64_t *shape) {
  int ndims[3] = {0, 0, 0};
  const int64_t *shapes[3] = {NULL, NULL, NULL};
  for (int k = 0; k < n; k++) {
    ndims[k] = ins[k]->t.ndim;
    shapes[k] = ins[k]->t.shape;
  }
  return ma_broadcast_shape(n, ndims, shapes, nd, shape);
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

/* A new result array of `shape`, in a new handle: laid out like the first
 * input of that shape when that input is a dense transpose (so A.T + B.T
 * and sqrt(A.T) walk memory in order, as NumPy's order="K"), C-contiguous
 * otherwise.  NULL with an exception set, or NULL alone when out of memory. */
static PyObject *alloc_like(DLDataType dt, int nd, const int64_t *shape, const ma_array *const *ins,
                            int nin) {
  const int64_t *strides = NULL;
  for (int k = 0; k < nin && nd >= 2 && !strides; k++) {
    const ma_array *a = ins[k];
    if (a->t.ndim != nd || memcmp(a->t.shape, shape, (size_t)nd * sizeof(int64_t)) != 0) continue;
    if (ma_array_size(a) > 1 && dense_permuted(a)) strides = a->t.strides;
  }
  int err = 0;
  PyObject *h = ma_handle_empty(dt, nd, shape, strides, 0, &err);
  if (!h && err == 1) PyErr_SetString(PyExc_ValueError, "result is too large");
  return h;
}

/* A comparison of an integer array with a Python int outside its dtype's
 * range (ma_store_scalar raised OverflowError) has one answer for every
 * element, as in NumPy 2 (`uint8_array == -1` is all False): that answer,
 * 0 or 1, with the error cleared; or -1 with the error left set for any
 * other operation or operand. */
static int comparison_outside(const ma_ew_op *op, const ma_ew_sig *sig, PyObject *x, int k) {
  uint8_t code = ma_dltypes[sig->in[k]].code;
  if (!op->compare || !PyLong_Check(x) || (code != kDLInt && code != kDLUInt) ||
      !PyErr_ExceptionMatches(PyExc_OverflowError))
    return -1;
  PyErr_Clear();
  PyObject *zero = PyLong_FromLong(0);
  int big = zero ? PyObject_RichCompareBool(x, zero, Py_GT) : -1; /* above every element? */
  Py_XDECREF(zero);
  if (big < 0) return -1;
  int lt = k == 1 ? big : !big; /* is the left operand the smaller? */
  switch (op->compare) {
    case MA_EW_EQ: return 0;
    case MA_EW_NE: return 1;
    case MA_EW_LT:
    case MA_EW_LE: return lt;
    default: return !lt;
  }
}

/* Run operation `op` with loop `sig` on inputs `xs` (handles or Python
 * scalars) into `outh` (a handle, or NULL to allocate).  Returns a new
 * handle (when allocating), Py_None (new reference) or NULL; *fpe gets the
 * floating-point flags the kernel raised (fpe.h), on every thread. */
static PyObject *ew_run(const ma_ew_op *op, const ma_ew_sig *sig, PyObject *outh,
                        PyObject *const *xs, int nin, unsigned *fpe) {
  /* 0-d stand-ins for scalars and precast size-1 inputs; they live on the
   * stack (a 0-d ma_array has no dims) */
  ma_array small[3];
  _Alignas(16) char small_data[3][16];
  int constant = -1; /* 0 or 1: a comparison known without the data */
  const ma_array *ins[3];
  ma_array *temps[3] = {NULL, NULL, NULL};
  int scalar[3] = {0, 0, 0};
  for (int k = 0; k < nin; k++) {
    PyObject *x = xs[k];
    scalar[k] = !MA_HANDLE_CHECK(x);
    if (MA_HANDLE_CHECK(x)) {
      ma_array *a = ma_handle_get(x);
      if (!a) return NULL;
      ins[k] = a;
      continue;
    }
    memset(small_data[k], 0, sizeof small_data[k]);
    if (ma_store_scalar(x, sig->in[k], small_data[k]) < 0) {
      if ((constant = comparison_outside(op, sig, x, k)) < 0) return NULL;
    }
    memset(&small[k], 0, sizeof(ma_array));
    small[k].t.data = small_data[k];
    small[k].t.dtype = ma_dltypes[sig->in[k]];
    ins[k] = &small[k];
  }

  ma_array *out;
  PyObject *fresh = NULL; /* the result's handle, when this call makes it */
  /* The floating-point flags (fpe.h), two ways.
   *
   * Exact: cleared here, read after the kernel.  Cleared before the
   * allocation, not next to the kernel, so that the allocation's work
   * overlaps the read.  What runs in between raises no flag that is
   * reported: copies and safe casts of one element.  (Scalars were
   * converted above, and their flags are not the operation's.)
   *
   * Deferred, for a fresh result of fewer than EW_DEFER_FPE_MAX elements:
   * nothing here, the loop with raw vector-math flags, one read after it.
   * Each read of MXCSR is slow next to a short loop, 2-4 per exact call
   * (a sizeable share of an add or exp of 100 doubles); deferred calls pay one.  When
   * that read finds any flag set (this operation raised one, or something
   * before it left one: NumPy, Python's float arithmetic), the loop runs
   * again, exactly; a fresh result shares no memory with the inputs, so
   * the second run reads what the first did.  Either way a call that
   * found flags leaves them clear, so the next deferred call finds only
   * its own. */
  if (outh) ma_fpe_clear();
  if (!outh) {
    int nd;
    int64_t shape[MA_MAXDIMS];
    if (broadcast_shape(ins, nin, &nd, shape) < 0) return broadcast_error(ins, scalar, nin);
    fresh = alloc_like(ma_dltypes[sig->out], nd, shape, ins, nin);
    if (!fresh) return PyErr_Occurred() ? NULL : ma_alloc_error(nd, shape, ma_type_size[sig->out]);
    out = ma_handle_meta(fresh);
    if (ma_array_size(out) >= EW_DEFER_FPE_MAX) ma_fpe_clear();
  } else {
    out = ma_handle_get(outh);
    if (!out) return NULL;
    if (out->flags & MA_READONLY) {
      PyErr_SetString(PyExc_ValueError, "output array is read-only");
      return NULL;
    }
  }
  if (constant >= 0) {
    if (ma_assign_scalar(out, constant ? Py_True : Py_False) < 0) {
      Py_XDECREF(fresh);
      return NULL;
    }
    return fresh ? fresh : Py_NewRef(Py_None);
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

  int deferred = fresh && size < EW_DEFER_FPE_MAX;
  ma_ew_aux st = {0, !deferred};
  if (rc == 0) {
    ew_buffered b;
    ma_loop loop = sig->loop;
    const void *aux = &st;
    int need = 0;
    b.loop = sig->loop;
    b.aux = &st;
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
      Py_BEGIN_ALLOW_THREADS
      rc = ma_iterate_ex(nin + 1, ops, loop, aux, 0, pmin);
      *fpe = ma_fpe_read();
      Py_END_ALLOW_THREADS
    } else {
      rc = ma_iterate_ex(nin + 1, ops, loop, aux, 0, pmin);
      *fpe = ma_fpe_read();
      if (*fpe && deferred && rc == 0) {
        /* the rare case: run again with exact flags (above) */
        ma_fpe_clear();
        st.err = 0;
        st.exact = 1;
        rc = ma_iterate_ex(nin + 1, ops, loop, aux, 0, pmin);
        *fpe = ma_fpe_read();
      }
    }
    if (*fpe) ma_fpe_clear();
  }
  for (int k = 0; k < nin; k++) ma_array_free(temps[k]);
  if (rc != 0 || st.err) {
    Py_XDECREF(fresh);
    if (rc == -2) return PyErr_NoMemory();
    if (rc != 0) return broadcast_error(ins, scalar, nin);
    (void)op;
    PyErr_SetString(PyExc_ValueError, "Integers to negative integer powers are not allowed.");
    return NULL;
  }
  return fresh ? fresh : Py_NewRef(Py_None);
}

/* ---- dispatch ---------------------------------------------------------------
 *
 * Every elementwise call, `ma.add(x, y, out=z)` and `x + y` alike, goes
 * through ew_dispatch: read the operands, look the loop up in the op's
 * resolve table (generated from the promotion rules at build time, see
 * gen_elementwise.py), check `out`, run.  Nothing is learned at run time
 * and nothing calls back into Python to decide anything.  Python is asked
 * only to turn an operand that is neither an NDArray nor a Python scalar
 * (a list, a NumPy array...) into one: minarray._coerce.operator_operand, the
 * same asarray every other function uses.
 */

static PyObject *py_operand; /* _operand(x) -> NDArray, exact Python scalar or None */
/* _widened(op, out, *xs): an op with a storage-type array among its
 * operands or as out (float8...), which have no loops: run in their wide
 * types and rounded back (minarray/_elementwise.py) */
static PyObject *py_widened;

/* How the call was made: a function (ma.add), an operator (x + y: unknown
 * operands give NotImplemented), an in-place operator (x += y: out is x). */
enum { EW_CALL, EW_DUNDER, EW_INPLACE };

/* An operand: its handle (or the Python scalar itself), its key in the
 * resolve tables (ma_type, or MA_EW_KEY_* for a scalar) and the NDArray
 * (NULL for a scalar). */
typedef struct {
  PyObject *h, *arr;
  int key;
} ew_operand;

static int scalar_key(PyObject *x) {
  PyTypeObject *t = Py_TYPE(x);
  if (t == &PyFloat_Type) return MA_EW_KEY_FLOAT;
  if (t == &PyLong_Type) return MA_EW_KEY_INT;
  if (t == &PyBool_Type) return MA_EW_KEY_BOOL;
  if (t == &PyComplex_Type) return MA_EW_KEY_COMPLEX;
  return -1;
}

static int is_ndarray(PyObject *x) {
  return ma_nd.type && (Py_IS_TYPE(x, ma_nd.type) || PyObject_TypeCheck(x, ma_nd.type));
}

/* 1 when `x` is an NDArray or an exact Python scalar, else 0. */
static int decode(PyObject *x, ew_operand *o) {
  if (is_ndarray(x)) {
    o->key = ma_ndarray_tid(MA_ND(x)->dtype);
    o->h = MA_ND(x)->h;
    o->arr = x;
    return o->key >= 0;
  }
  o->key = scalar_key(x);
  o->h = x;
  o->arr = NULL;
  return o->key >= 0;
}

/* Do NDArrays x and y have the same shape?  (From their arrays: their
 * shape tuples may not exist yet.) */
static int same_shape(PyObject *x, PyObject *y) {
  if (x == y) return 1;
  const ma_array *a = ma_handle_meta(MA_ND(x)->h), *b = ma_handle_meta(MA_ND(y)->h);
  if (!a || !b) {
    PyErr_Clear();
    return 0;
  }
  return a->t.ndim == b->t.ndim &&
         (a->t.ndim == 0 || memcmp(a->t.shape, b->t.shape, (size_t)a->t.ndim * sizeof(int64_t)) == 0);
}

/* A new NDArray over handle `h` (stolen); its shape and strides tuples are
 * those of the array `like` when they match and exist (no new tuples),
 * else made when first read. */
static PyObject *wrap_result(PyObject *h, PyObject *like) {
  ma_array *r = ma_handle_meta(h);
  PyObject *shape = NULL, *strides = NULL;
  if (like) {
    ma_array *a = ma_handle_meta(MA_ND(like)->h);
    int nd = r->t.ndim;
    /* (0-d arrays have NULL shape and strides, which memcmp must not see) */
    if (a->t.ndim == nd && (nd == 0 || memcmp(a->t.shape, r->t.shape, (size_t)nd * sizeof(int64_t)) == 0)) {
      shape = Py_XNewRef(MA_ND(like)->shape);
      if (nd == 0 || memcmp(a->t.strides, r->t.strides, (size_t)nd * sizeof(int64_t)) == 0)
        strides = Py_XNewRef(MA_ND(like)->strides);
    }
  }
  PyObject *res = ma_ndarray_wrap(h, shape, strides, NULL);
  /* a 0-d result is NumPy's scalar (a new array: nothing else holds it) */
  return r->t.ndim == 0 ? ma_scalar_result(res) : res;
}

/* The result `res` (stolen) of op on inputs xs[0..n): itself, unless an
 * input is an instance of a subclass of NDArray, whose __array_wrap__ then
 * makes it (NumPy's rule, minarray/_subclass.py).  Two pointer compares for
 * two NDArrays. */
static PyObject *result_type(PyObject *res, const ma_ew_op *op, PyObject *const *xs, int n) {
  for (int k = 0; k < n; k++)
    if (Py_TYPE(xs[k]) != ma_nd.type && ma_is_user_subclass(xs[k]))
      return ma_subclass_wrap(res, op->name, xs, n);
  return res;
}

/* The array among `ops` whose shape every array operand shares, or NULL
 * when the arrays' shapes differ (the result is then their broadcast). */
static PyObject *common_like(const ew_operand *ops, int n) {
  PyObject *like = NULL;
  for (int k = 0; k < n; k++) {
    if (!ops[k].arr) continue;
    if (!like)
      like = ops[k].arr;
    else if (!same_shape(like, ops[k].arr))
      return NULL;
  }
  return like;
}

/* "float64", or "Python int" for a scalar key: how messages name operands. */
static PyObject *key_name(int key) {
  static const char *const scalars[] = {"Python bool", "Python int", "Python float", "Python complex"};
  if (key >= MA_NTYPES) return PyUnicode_FromString(scalars[key - MA_NTYPES]);
  return PyObject_Str(ma_nd.dtypes[key]);
}

/* TypeError: no loop of `op` takes these operands. */
static PyObject *no_loop_error(const ma_ew_op *op, const ew_operand *o, int n, int common) {
  PyObject *names = PyList_New(0), *sep = PyUnicode_FromString(" and ");
  for (int k = 0; names && sep && k < n; k++) {
    PyObject *s = key_name(o[k].key);
    if (!s || PyList_Append(names, s) < 0) {
      Py_XDECREF(s);
      break;
    }
    Py_DECREF(s);
  }
  PyObject *shown = names && sep && !PyErr_Occurred() ? PyUnicode_Join(sep, names) : NULL;
  PyObject *cname = shown ? key_name(common) : NULL;
  if (cname)
    PyErr_Format(PyExc_TypeError, "%s is not supported for %U (the operands promote to %U)", op->name, shown,
                 cname);
  Py_XDECREF(cname);
  Py_XDECREF(shown);
  Py_XDECREF(names);
  Py_XDECREF(sep);
  return NULL;
}

/* Append `shape` to `buf` (room for `cap` bytes) as NumPy's messages write
 * shapes: "(3,3) ", "(3,) ", "() ". */
static void numpy_shape_text(char *buf, size_t cap, int nd, const int64_t *shape) {
  size_t len = strlen(buf);
  len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "(");
  for (int i = 0; i < nd && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, i ? ",%lld" : "%lld", (long long)shape[i]);
  if (len < cap) snprintf(buf + len, cap - len, nd == 1 ? ",) " : ") ");
}

/* Is `out` the broadcast of the input arrays' shapes with out's own?  Else
 * NumPy's ValueError, in NumPy's words: its iterator's when out and the
 * inputs do not broadcast at all, its output operand's when out is too
 * small for their broadcast (numpy/_core/src/multiarray/nditer_constr.c). */
static int check_out_shape(const ew_operand *o, int n, PyObject *out) {
  const ma_array *ins[3];
  ma_array zero; /* a 0-d stand-in for each Python scalar: no dims */
  memset(&zero, 0, sizeof zero);
  int scalar[3], nd;
  int64_t shape[MA_MAXDIMS];
  for (int k = 0; k < n; k++) {
    scalar[k] = !o[k].arr;
    ins[k] = o[k].arr ? ma_handle_get(o[k].h) : &zero;
    if (!ins[k]) return -1;
  }
  if (broadcast_shape(ins, n, &nd, shape) < 0) {
    broadcast_error(ins, scalar, n); /* the operands themselves do not broadcast */
    return -1;
  }
  const ma_array *d = ma_handle_get(MA_ND(out)->h);
  if (!d) return -1;
  int ok = d->t.ndim >= nd, mutual = 1; /* mutual: out and the result broadcast together */
  for (int i = 0; i < nd && i < d->t.ndim; i++) {
    int64_t s = shape[nd - 1 - i], t = d->t.shape[d->t.ndim - 1 - i];
    ok = ok && (s == t || s == 1);
    mutual = mutual && (s == t || s == 1 || t == 1);
  }
  if (ok) return 0;
  char text[4096] = "";
  if (mutual) {
    numpy_shape_text(text, sizeof text, d->t.ndim, d->t.shape);
    size_t len = strlen(text);
    text[len ? len - 1 : 0] = '\0'; /* no space before the next words */
    char want[2048] = "";
    numpy_shape_text(want, sizeof want, nd, shape);
    len = strlen(want);
    want[len ? len - 1 : 0] = '\0';
    PyErr_Format(PyExc_ValueError, "non-broadcastable output operand with shape %s doesn't match the broadcast "
                 "shape %s", text, want);
    return -1;
  }
  for (int k = 0; k < n; k++) numpy_shape_text(text, sizeof text, ins[k]->t.ndim, ins[k]->t.shape);
  numpy_shape_text(text, sizeof text, d->t.ndim, d->t.shape);
  PyErr_Format(PyExc_ValueError, "operands could not be broadcast together with shapes %s", text);
  return -1;
}

/* An operand that is neither an NDArray nor a Python scalar, made one by
 * Python's asarray; a new reference, NULL with an error, or Py_None (new
 * reference) for "not an array-like". */
static PyObject *convert(PyObject *x) {
  if (!py_operand) {
    PyErr_SetString(PyExc_RuntimeError, "the elementwise engine is not set up (ew_setup)");
    return NULL;
  }
  return PyObject_CallOneArg(py_operand, x);
}

/* x == None and x != None (and equal/not_equal called so): NumPy compares
 * each element with the object None, which no number equals, so the result
 * is all False or all True in x's shape: a scalar for a 0-d x, x's class
 * for a subclass.  (A scalar's own operator leaves None to Python, which
 * answers False, as NumPy's scalars do.)  *handled is 0 when this is not
 * such a call; else the result, or NULL with the error set. */
static PyObject *compare_with_none(const ma_ew_op *op, PyObject *const *xs, int n, PyObject *out, int mode,
                                   int *handled) {
  *handled = 0;
  if (n != 2 || out || (op->compare != MA_EW_EQ && op->compare != MA_EW_NE) || (xs[0] == Py_None) == (xs[1] == Py_None))
    return NULL;
  PyObject *x = xs[0] == Py_None ? xs[1] : xs[0];
  if (!is_ndarray(x) || (mode != EW_CALL && Py_TYPE(x) == ma_nd.scalar)) return NULL;
  *handled = 1;
  const ma_array *a = ma_handle_get(MA_ND(x)->h); /* a device array's error */
  if (!a) return NULL;
  int err = 0;
  PyObject *h = ma_handle_empty(ma_dltypes[MA_BOOL], a->t.ndim, a->t.shape, NULL, 1, &err);
  if (!h) return ma_alloc_error(a->t.ndim, a->t.shape, 1);
  if (op->compare == MA_EW_NE) {
    ma_array *r = ma_handle_meta(h);
    memset(r->t.data, 1, (size_t)ma_array_size(r));
  }
  PyObject *res = wrap_result(h, x);
  return res ? result_type(res, op, xs, n) : NULL;
}

/* op(xs[0..n)) into `out` (NULL: allocate): the result, NULL with the
 * error set, or NotImplemented (operators, for operands they do not know). */
static PyObject *ew_dispatch(int opi, PyObject *const *xs, int n, PyObject *out, int mode) {
  const ma_ew_op *op = &ma_ew_ops[opi];
  ew_operand o[3];
  PyObject *owned[3] = {NULL, NULL, NULL}, *res = NULL;
  int narrays = 0;
  int none_compared;
  res = compare_with_none(op, xs, n, out, mode, &none_compared);
  if (none_compared) return res;
  for (int k = 0; k < n; k++) {
    if (!decode(xs[k], &o[k])) {
      owned[k] = convert(xs[k]);
      if (!owned[k]) goto done;
      if (owned[k] == Py_None || !decode(owned[k], &o[k])) {
        if (mode != EW_CALL) {
          res = Py_NewRef(Py_NotImplemented);
        } else {
          PyErr_Format(PyExc_TypeError, "expected an array or a Python scalar, got %.200s",
                       Py_TYPE(xs[k])->tp_name);
        }
        goto done;
      }
    }
    narrays += o[k].arr != NULL;
  }
  int storage = out && is_ndarray(out) && ma_ndarray_tid(MA_ND(out)->dtype) >= MA_NTYPES;
  for (int k = 0; k < n; k++) storage |= o[k].arr && o[k].key >= MA_NTYPES;
  if (storage) {
    PyObject *argv[5] = {NULL, NULL, out ? out : Py_None};
    PyObject *opnum = PyLong_FromLong(opi);
    if (!opnum) goto done;
    argv[1] = opnum;
    for (int k = 0; k < n; k++) argv[3 + k] = o[k].arr ? o[k].arr : o[k].h;
    res = PyObject_Vectorcall(py_widened, argv + 1, (size_t)(n + 2) | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    Py_DECREF(opnum);
    goto done;
  }
  if (!narrays) {
    /* only Python scalars (ma.sqrt(4), ma.add(1, 2.5)): as NumPy, each
     * takes its default dtype (strong, as an array would), the result is
     * 0-d */
    static const int defaults[] = {MA_BOOL, MA_INT64, MA_FLOAT64, MA_COMPLEX128};
    for (int k = 0; k < n; k++) o[k].key = defaults[o[k].key - MA_NTYPES];
  }
  /* where(cond, x1, x2): the values decide the loop */
  const ew_operand *v = n == 3 ? o + 1 : o;
  int idx = n == 1 ? op->resolve[v[0].key] : op->resolve[v[0].key * MA_EW_NKEYS + v[1].key];
  if (idx < 0) {
    if (idx == MA_EW_NO_BOOL)
      PyErr_Format(PyExc_TypeError, "%s: %s", op->name, op->no_bool);
    else
      no_loop_error(op, o, n, n == 1 ? v[0].key : ma_ew_common[v[0].key][v[1].key]);
    goto done;
  }
  const ma_ew_sig *sig = &op->sigs[idx];
  if (out) {
    if (!is_ndarray(out)) {
      PyErr_Format(PyExc_TypeError, "out must be a minarray NDArray, got %.200s", Py_TYPE(out)->tp_name);
      goto done;
    }
    /* the common case first: every array operand has out's shape */
    PyObject *like = common_like(o, n);
    if (!(like && same_shape(like, out)) && check_out_shape(o, n, out) < 0)
      goto done;
    int to = ma_ndarray_tid(MA_ND(out)->dtype);
    if (to < 0 || !ma_same_kind[sig->out][to]) {
      PyObject *from = key_name(sig->out), *into = to < 0 ? NULL : key_name(to);
      if (from && into)
        PyErr_Format(PyExc_TypeError,
                     "Cannot cast ufunc '%s' output from dtype('%U') to dtype('%U') with casting rule 'same_kind'",
                     op->name, from, into);
      Py_XDECREF(from);
      Py_XDECREF(into);
      goto done;
    }
  }
  PyObject *in[3] = {NULL, NULL, NULL}; /* (n of them set; gcc cannot see it once inlined) */
  for (int k = 0; k < n; k++) in[k] = o[k].h;
  unsigned fpe = 0;
  PyObject *r = ew_run(op, sig, out ? MA_ND(out)->h : NULL, in, n, &fpe);
  if (!r) goto done;
  fpe &= ma_ew_fpe(op, sig);
  if (fpe && ma_report_fpe(op->name, fpe) < 0) {
    Py_DECREF(r);
    goto done;
  }
  if (out) {
    Py_DECREF(r);
    res = Py_NewRef(out);
  } else {
    res = result_type(wrap_result(r, common_like(o, n)), op, xs, n);
  }
done:
  for (int k = 0; k < n; k++) Py_XDECREF(owned[k]);
  return res;
}

/* ew_call(op, out, x1[, x2[, x3]]) -> the result (out itself when given) */
static PyObject *py_ew_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs < 3 || nargs > 5) {
    PyErr_SetString(PyExc_TypeError, "ew_call(op, out, x1[, x2[, x3]])");
    return NULL;
  }
  int opi = (int)PyLong_AsLong(args[0]);
  if (opi == -1 && PyErr_Occurred()) return NULL;
  if (opi < 0 || opi >= ma_ew_nops) return PyErr_Format(PyExc_ValueError, "no elementwise op %d", opi);
  if (ma_ew_ops[opi].nin != (int)nargs - 2)
    return PyErr_Format(PyExc_TypeError, "%s takes %d inputs, %d given", ma_ew_ops[opi].name,
                        ma_ew_ops[opi].nin, (int)nargs - 2);
  return ew_dispatch(opi, args + 2, (int)nargs - 2, args[1] == Py_None ? NULL : args[1], EW_CALL);
}

/* ---- the NDArray operators ----------------------------------------------------
 * C methods of NDArray, one per operator, each one ew_dispatch call. */

int ma_ew_op_index(const char *name) {
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

/* An operator method called on a Scalar by name (s.__add__(1)) takes the
 * Scalar's own path, as its slots (s + 1) do (csrc/py/scalar_math.c). */
static PyObject *operator_method(int opi, PyObject *const *xs, int n) {
  if (ma_nd.scalar && (Py_TYPE(xs[0]) == ma_nd.scalar || (n == 2 && Py_TYPE(xs[1]) == ma_nd.scalar)))
    return ma_scalar_operator(opi, xs, n);
  return ew_dispatch(opi, xs, n, NULL, EW_DUNDER);
}

#define EW_BINARY_METHODS(d, name)                                             \
  static PyObject *m_##d(PyObject *self, PyObject *other) {                    \
    PyObject *xs[2] = {self, other};                                           \
    return operator_method(op_##d, xs, 2);                                     \
  }                                                                            \
  static PyObject *m_r##d(PyObject *self, PyObject *other) {                   \
    PyObject *xs[2] = {other, self};                                           \
    return operator_method(op_##d, xs, 2);                                     \
  }                                                                            \
  static PyObject *m_i##d(PyObject *self, PyObject *other) {                   \
    PyObject *xs[2] = {self, other};                                           \
    return ew_dispatch(op_##d, xs, 2, self, EW_INPLACE);                       \
  }
EW_OPERATORS(EW_BINARY_METHODS)
#define EW_COMPARE_METHOD(d, name)                                             \
  static PyObject *m_##d(PyObject *self, PyObject *other) {                    \
    PyObject *xs[2] = {self, other};                                           \
    return operator_method(op_##d, xs, 2);                                     \
  }
EW_COMPARISONS(EW_COMPARE_METHOD)
#define EW_UNARY_METHOD(d, name)                                               \
  static PyObject *m_##d(PyObject *self, PyObject *unused) {                   \
    (void)unused;                                                              \
    return operator_method(op_##d, &self, 1);                                  \
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

/* ew_setup(operand, widened): remember the operand converter and the
 * storage types' path, and install the operator methods on NDArray
 * (ndarray_setup has run: the class is known). */
static PyObject *py_ew_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "ew_setup");
  if (!ma_nd.type || !PyCallable_Check(args[0]) || !PyCallable_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "ew_setup(operand, widened) needs two callables, after ndarray_setup");
    return NULL;
  }
#define EW_FIND(d, name) op_##d = ma_ew_op_index(#name);
  EW_OPERATORS(EW_FIND)
  EW_COMPARISONS(EW_FIND)
  EW_UNARY(EW_FIND)
  for (PyMethodDef *m = operator_defs; m->ml_name; m++)
    if (ma_ndarray_add_method(m) < 0) return NULL;
  Py_XSETREF(py_operand, Py_NewRef(args[0]));
  Py_XSETREF(py_widened, Py_NewRef(args[1]));
  if (ma_scalar_math_install() < 0) return NULL;
  Py_RETURN_NONE;
}

/* ew_ops() -> ((name, nin), ...): the operations, by op number */
static PyObject *py_ew_ops(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  (void)args;
  MA_NARGS(0, "ew_ops");
  PyObject *res = PyTuple_New(ma_ew_nops);
  if (!res) return NULL;
  for (int i = 0; i < ma_ew_nops; i++) {
    PyObject *e = Py_BuildValue("(si)", ma_ew_ops[i].name, ma_ew_ops[i].nin);
    if (!e) {
      Py_DECREF(res);
      return NULL;
    }
    PyTuple_SET_ITEM(res, i, e);
  }
  return res;
}

/* ---- the functions ----------------------------------------------------------
 * ma.add, ma.exp... are ufunc objects (csrc/py/ufunc.c) whose plain calls
 * come here with no Python frame in between. */

PyObject *ma_ew_call(int opi, PyObject *const *xs, int n, PyObject *out) {
  return ew_dispatch(opi, xs, n, out, EW_CALL);
}

PyObject *ma_ew_operator(int opi, PyObject *const *xs, int n) {
  return ew_dispatch(opi, xs, n, NULL, EW_DUNDER);
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_elementwise_methods[] = {
    FC("ew_call", py_ew_call, "ew_call(op, out, x1[, x2[, x3]]) -> the result"),
    FC("ew_ops", py_ew_ops, "ew_ops() -> ((name, nin), ...)"),
    FC("ew_setup", py_ew_setup, "ew_setup(operand, widened)"),
    {NULL, NULL, 0, NULL}};
