/*
 * The views, built in C.  The axis permutations behind .T / transpose /
 * permute_dims, reshape, and broadcast_shapes are done here alone, for
 * every argument they can be given, errors included (worded as NumPy's;
 * AxisError is the Python class itself): the Python layer only spells
 * unusual arguments (a list of axes, order='F') before the call.  So are
 * the two changes an array makes to itself, x.shape = s (a reshape's
 * view taken in place) and x.resize(s).
 *
 * Indexing parses every key here, once (parse_key, into the index_key of
 * index_key.h), and builds the answer on one route: a view for a key
 * without arrays, a gather or scatter in C for the common advanced keys
 * (csrc/py/index.c, getitem_one_index), and for every other advanced key
 * minarray/_indexing.py's general route, handed the parsed key; nothing
 * is tried in one place and redone in another.  See "indexing: the key
 * parsed once" below for why the parse is C's.
 */
#include "pyapi.h" /* Python.h first, as CPython requires */

#include "index_key.h"
#include "iterate.h"

#define nd_array ma_ndarray_array
/* The pure views (basic keys, permutations, reshapes, ndarray_view) take
 * device arrays too (ma_ndarray_meta): they read no element.  Whatever
 * gathers or writes elements takes nd_array, which refuses them. */

/* NumPy's rule for a view's base: the first array that owns the memory,
 * or the first whose own base is a foreign object (a NumPy array, a
 * bytearray...): chains of views collapse, foreign owners do not. */
static PyObject *view_base(PyObject *x) {
  PyObject *base = MA_ND(x)->base;
  return Py_TYPE(base) == ma_nd.type ? base : x;
}

/* The view of `x` (over `a`) `off` elements from its element 0, as
 * ndarray_view makes it with readonly=False: the flags (read-only) carry
 * over, and the base is view_base's.  `strides` NULL means C strides.
 * IndexError when the byte offset overflows.  An NDArray. */
static PyObject *plain_view(PyObject *x, ma_array *a, int64_t off, int nd, const int64_t *shape,
                            const int64_t *strides) {
  int64_t boff;
  if (__builtin_mul_overflow(off, ma_elsize(a->t.dtype), &boff))
    return PyErr_Format(PyExc_IndexError, "the view's byte offset overflows");
  PyObject *h = ma_handle_view(a, off, a->t.dtype, nd, shape, strides, 0);
  if (!h) return NULL;
  return ma_ndarray_wrap(h, NULL, NULL, view_base(x));
}

/* The same view, of x's type (MA_RESULT_LIKE). */
static PyObject *make_view(PyObject *x, ma_array *a, int64_t off, int nd, const int64_t *shape,
                           const int64_t *strides) {
  return MA_RESULT_LIKE(plain_view(x, a, off, nd, shape, strides), x);
}

/* ndarray_view(x, offset, shape, strides, readonly) -> NDArray._view: the
 * view of x over its buffer, with the shape and strides tuples given and
 * view_base's base. */
static PyObject *py_ndarray_view(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(5, "ndarray_view");
  ma_array *a = ma_ndarray_meta(args[0]);
  if (!a) {
    PyErr_SetString(PyExc_TypeError, "ndarray_view expects an NDArray");
    return NULL;
  }
  PyObject *h = ma_view_handle(a, args[1], args[2], args[3], a->t.dtype, args[4]);
  if (!h) return NULL;
  return MA_RESULT_LIKE(ma_ndarray_wrap(h, Py_NewRef(args[2]), Py_NewRef(args[3]), view_base(args[0])), args[0]);
}

/* ndarray_view_as(x, cls) -> all of x viewed as an instance of cls (NDArray
 * or a subclass of it), its base by view_base; no __array_finalize__ is
 * called: minarray/_subclass.py's one way to a subclass, which calls it. */
static PyObject *py_ndarray_view_as(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "ndarray_view_as");
  ma_array *a = ma_ndarray_meta(args[0]);
  if (!a || !PyType_Check(args[1]) || !PyType_IsSubtype((PyTypeObject *)args[1], ma_nd.type)) {
    PyErr_SetString(PyExc_TypeError, "ndarray_view_as expects an NDArray and a subclass of NDArray");
    return NULL;
  }
  PyObject *h = ma_handle_view(a, 0, a->t.dtype, a->t.ndim, a->t.shape, a->t.strides, 0);
  if (!h) return NULL;
  return ma_ndarray_wrap_as((PyTypeObject *)args[1], h, NULL, NULL, view_base(args[0]));
}

/* ---- indexing: the key parsed once ----------------------------------------
 * x[key] and x[key] = value parse the key here, once, into an index_key
 * (index_key.h): every entry classified, lists and array-likes converted,
 * NumPy's errors for a key that is no index raised.  Then one route
 * builds the answer: a key without arrays is a view (or a write through
 * one) built here; the common advanced keys are gathered or scattered in
 * C (csrc/py/index.c, and getitem_one_index below); every other advanced
 * key goes to minarray/_indexing.py's getitem/setitem with the parsed key
 * expanded to one entry per axis (parsed_entries), which never sees the
 * key itself.  The parse is C's because the common keys must cost a few
 * hundred nanoseconds, and their routes start from it; the general
 * advanced route is Python's because it is mostly shape arithmetic over
 * the broadcast index arrays, done with the array routines it needs. */

static const char INVALID_INDEX[] = "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                                    "integer or boolean arrays are valid indices";
static const DLDataType INDEX_DT = {kDLInt, 64, 1};

void ma_key_free(index_key *K) {
  for (int i = 0; i < K->n; i++)
    if (K->e[i].owned) Py_CLEAR(K->e[i].obj);
  K->n = 0;
}

/* `slice(None)`, made once: the whole axis */
static PyObject *whole_slice(void) {
  static PyObject *whole;
  if (!whole) whole = PySlice_New(NULL, NULL, NULL);
  return whole;
}

/* An entry that is an array (`arr`, a new reference the entry takes):
 * a bool array is a mask, an integer one an index array, a 0-d integer
 * one an int (as in NumPy).  `from_seq`: it was a list or tuple, where an
 * empty one is float64 by default but is an empty index to NumPy. */
static int array_entry(PyObject *arr, int from_seq, int scalar, key_entry *e) {
  ma_array *ka = ma_ndarray_array(arr);
  if (!ka) {
    if (!PyErr_Occurred() && MA_ND(arr)->h) ma_handle_get(MA_ND(arr)->h); /* a device array: the guard's error */
    Py_DECREF(arr);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, INVALID_INDEX);
    return -1;
  }
  DLDataType t = ka->t.dtype;
  int nd = ka->t.ndim;
  e->owned = 1;
  e->arr = ka;
  if (t.lanes == 1 && t.code == kDLBool) {
    e->kind = KE_MASK;
    e->obj = arr;
    return 0;
  }
  if (t.lanes == 1 && (t.code == kDLInt || t.code == kDLUInt)) {
    if (nd) {
      e->kind = KE_ARRAY;
      e->obj = arr;
      return 0;
    }
    e->obj = ma_load_scalar(ma_type_of(t), (const char *)ka->t.data);
    Py_DECREF(arr);
    e->arr = NULL;
    e->kind = KE_INT;
    return e->obj ? 0 : -1;
  }
  if (from_seq && nd && ma_array_size(ka) == 0) {
    int err = 0;
    ma_array *empty = ma_array_empty(INDEX_DT, nd, ka->t.shape, 0, &err);
    Py_DECREF(arr);
    if (!empty) return PyErr_NoMemory(), -1;
    e->kind = KE_ARRAY;
    e->arr = empty;
    e->obj = ma_ndarray_new(empty, NULL);
    return e->obj ? 0 : -1;
  }
  Py_DECREF(arr);
  /* a sequence or a scalar of other numbers is no index at all to NumPy;
   * an array of them (0-d too) is an array of the wrong type */
  PyErr_SetString(PyExc_IndexError, from_seq || scalar ? INVALID_INDEX
                                                       : "arrays used as indices must be of integer (or boolean) type");
  return -1;
}

/* minarray._coerce.asarray(o), for an array-like entry */
static PyObject *index_asarray(PyObject *o) {
  static PyObject *asarray;
  return ma_python_function(&asarray, "minarray._coerce", "asarray") ? PyObject_CallOneArg(asarray, o) : NULL;
}

/* Is `k` a NumPy scalar (numpy.generic)?  NumPy words a bad scalar key
 * and a bad array key differently.  NumPy is loaded when it made `k`. */
static int is_numpy_scalar(PyObject *k) {
  static PyObject *name;
  if (!name && !(name = PyUnicode_InternFromString("numpy"))) return -1;
  PyObject *np = PyImport_GetModule(name); /* NULL, no error, when NumPy is not loaded */
  if (!np) return PyErr_Occurred() ? -1 : 0;
  PyObject *generic = PyObject_GetAttrString(np, "generic");
  Py_DECREF(np);
  if (!generic) return -1;
  int r = PyObject_IsInstance(k, generic);
  Py_DECREF(generic);
  return r;
}

/* One entry of a key, classified (NumPy's rules): None, ..., an exact
 * int, a slice first (the common ones); a bool is a 0-d mask; an NDArray,
 * a list or tuple, or an array-like (NumPy arrays and scalars, DLPack
 * producers) an array entry; anything else with __index__ an int. */
static int parse_entry(PyObject *k, key_entry *e) {
  e->obj = NULL;
  e->owned = 0;
  if (k == Py_None) {
    e->kind = KE_NEW;
    return 0;
  }
  if (k == Py_Ellipsis) {
    e->kind = KE_ELLIPSIS;
    return 0;
  }
  if (PyLong_CheckExact(k) || PySlice_Check(k)) { /* slice cannot be subclassed */
    e->kind = PySlice_Check(k) ? KE_SLICE : KE_INT;
    e->obj = k; /* borrowed: the key holds it for the call */
    return 0;
  }
  PyObject *arr = NULL;
  int from_seq = 0, scalar = 0;
  if (PyBool_Check(k)) {
    arr = ma_from_nested(k); /* a 0-d bool array */
    scalar = 1;
  } else if (ma_nd.type && PyObject_TypeCheck(k, ma_nd.type)) {
    arr = Py_NewRef(k);
  } else if (PyList_Check(k) || PyTuple_Check(k)) {
    from_seq = 1;
    if (!(arr = ma_from_nested(k))) {
      /* leaves that are no numbers, or ints past 64 bits, would make an
       * object array, which NumPy refuses as an index; a ragged sequence
       * keeps its ValueError (NumPy's) */
      if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_IndexError, INVALID_INDEX);
      }
      return -1;
    }
  } else if (!PyLong_Check(k) && (PyObject_HasAttrString(k, "__array_interface__") ||
                                  PyObject_HasAttrString(k, "__array_struct__") ||
                                  PyObject_HasAttrString(k, "__dlpack__"))) {
    if (!(arr = index_asarray(k))) return -1;
    scalar = is_numpy_scalar(k);
    if (scalar < 0) {
      Py_DECREF(arr);
      return -1;
    }
  } else {
    PyObject *v = PyIndex_Check(k) ? PyNumber_Index(k) : NULL;
    if (!v) {
      PyErr_Clear();
      PyErr_SetString(PyExc_IndexError, INVALID_INDEX);
      return -1;
    }
    e->kind = KE_INT;
    e->owned = 1;
    e->obj = v;
    return 0;
  }
  return arr ? array_entry(arr, from_seq, scalar, e) : -1;
}

/* Parses `key` for an array of a's dimensions into *K: 0, or -1 with
 * NumPy's error set (and nothing held). */
static int parse_key(const ma_array *a, PyObject *key, index_key *K) {
  PyObject *const *keys = &key;
  Py_ssize_t nk = 1;
  if (PyTuple_Check(key)) { /* a tuple is the entries; any other key is one entry */
    keys = ((PyTupleObject *)key)->ob_item;
    nk = PyTuple_GET_SIZE(key);
  }
  int nd = a->t.ndim;
  K->n = K->consumed = K->nnew = K->narrays = 0;
  K->ellipsis = -1;
  for (Py_ssize_t i = 0; i < nk; i++) {
    if (K->n == MA_MAXKEY) {
      PyErr_Format(PyExc_IndexError, "too many indices for array: array is %d-dimensional, but %zd were indexed",
                   nd, nk);
      goto fail;
    }
    key_entry *e = &K->e[K->n];
    if (parse_entry(keys[i], e) < 0) goto fail;
    K->n++;
    switch (e->kind) {
    case KE_NEW:
      K->nnew++;
      break;
    case KE_ELLIPSIS:
      if (K->ellipsis >= 0) {
        PyErr_SetString(PyExc_IndexError, "an index can only have a single ellipsis ('...')");
        goto fail;
      }
      K->ellipsis = K->n - 1;
      break;
    case KE_MASK: {
      int mnd = e->arr->t.ndim;
      K->consumed += mnd;
      K->nnew += mnd == 0; /* a 0-d mask adds an axis of length 1 or 0 */
      K->narrays++;
      break;
    }
    case KE_ARRAY:
      K->narrays++;
      /* fall through */
    default:
      K->consumed++;
    }
  }
  if (K->consumed > nd) {
    PyErr_Format(PyExc_IndexError, "too many indices for array: array is %d-dimensional, but %d were indexed", nd,
                 K->consumed);
    goto fail;
  }
  for (int i = 0; K->narrays && i < K->n; i++) { /* ints beside arrays become int64 index arrays */
    int overflow;
    if (K->e[i].kind == KE_INT && (PyLong_AsLongLongAndOverflow(K->e[i].obj, &overflow), overflow)) {
      PyErr_SetString(PyExc_IndexError, INVALID_INDEX);
      goto fail;
    }
  }
  if (nd + K->nnew > MA_MAXDIMS) {
    PyErr_Format(PyExc_IndexError, "the index adds axes beyond the %d dimensions an array may have", MA_MAXDIMS);
    goto fail;
  }
  return 0;
fail:
  ma_key_free(K);
  return -1;
}

/* The parsed key as the general route reads it: a tuple with one entry
 * per axis of x, `...` replaced by the whole axes it stands for (kept as
 * `...` when it stands for none: NumPy still counts it between advanced
 * entries) and whole axes appended for the axes no entry names. */
static PyObject *parsed_entries(const ma_array *a, const index_key *K) {
  int fill = a->t.ndim - K->consumed, n = K->n + fill - (K->ellipsis >= 0 && fill > 0);
  PyObject *whole = whole_slice(), *t = whole ? PyTuple_New(n) : NULL;
  if (!t) return NULL;
  int o = 0;
  for (int i = 0; i < K->n; i++) {
    const key_entry *e = &K->e[i];
    if (e->kind == KE_ELLIPSIS && fill > 0) {
      for (; fill > 0; fill--) PyTuple_SET_ITEM(t, o++, Py_NewRef(whole));
    } else {
      PyObject *v = e->kind == KE_NEW ? Py_None : e->kind == KE_ELLIPSIS ? Py_Ellipsis : e->obj;
      PyTuple_SET_ITEM(t, o++, Py_NewRef(v));
    }
  }
  if (K->ellipsis < 0)
    for (; fill > 0; fill--) PyTuple_SET_ITEM(t, o++, Py_NewRef(whole));
  return t;
}

/* Index `k` (an exact int) on an axis of length n, made non-negative; 0
 * when in bounds, -1 with NumPy's IndexError set when not. */
static int axis_index(PyObject *k, int dim, int64_t n, int64_t *out) {
  int overflow;
  long long v = PyLong_AsLongLongAndOverflow(k, &overflow);
  if (v == -1 && PyErr_Occurred()) return -1;
  if (overflow) { /* no intp holds it: NumPy refuses it as an index */
    PyErr_SetString(PyExc_IndexError, INVALID_INDEX);
    return -1;
  }
  if (v < -n || v >= n) {
    PyErr_Format(PyExc_IndexError, "index %S is out of bounds for axis %d with size %lld", k, dim,
                 (long long)n);
    return -1;
  }
  *out = v < 0 ? v + n : v;
  return 0;
}

/* A basic index applied to an array: the view's element offset, shape
 * and element strides. */
typedef struct {
  int nd;
  int64_t off, shape[MA_MAXDIMS], strides[MA_MAXDIMS];
} basic_view;

/* The view a parsed key without arrays makes (entry `whole_at` read as a
 * whole axis, or -1): 0, or -1 with the error set (IndexError for an int
 * out of bounds or an offset that overflows, ValueError for a zero step).
 * These are the basic-indexing rules, written once. */
static int build_basic(const ma_array *a, const index_key *K, int whole_at, basic_view *v) {
  int nd = a->t.ndim;
  int64_t *shape = v->shape, *strides = v->strides, off = 0;
  const int64_t *xs = a->t.shape, *xst = a->t.strides;
  int dim = 0, od = 0;
  for (int i = 0; i < K->n; i++) {
    const key_entry *e = &K->e[i];
    int kind = i == whole_at ? KE_SLICE : e->kind;
    PyObject *k = i == whole_at ? whole_slice() : e->obj;
    if (kind == KE_NEW) { /* a new axis of length 1 */
      shape[od] = 1;
      strides[od++] = 0;
    } else if (kind == KE_ELLIPSIS) { /* stands for the axes no entry names */
      for (int j = K->consumed; j < nd; j++, dim++) {
        shape[od] = xs[dim];
        strides[od++] = xst[dim];
      }
    } else if (kind == KE_INT) {
      int64_t iv, add;
      if (axis_index(k, dim, xs[dim], &iv) < 0) return -1;
      if (__builtin_mul_overflow(iv, xst[dim], &add) || __builtin_add_overflow(off, add, &off)) {
        PyErr_SetString(PyExc_IndexError, "index offset overflows");
        return -1;
      }
      dim++;
    } else if (kind == KE_SLICE) {
      Py_ssize_t start, stop, step;
      if (!k || PySlice_Unpack(k, &start, &stop, &step) < 0) return -1; /* e.g. a zero step: ValueError */
      int64_t len = PySlice_AdjustIndices((Py_ssize_t)xs[dim], &start, &stop, step), add;
      if (len && (__builtin_mul_overflow((int64_t)start, xst[dim], &add) || __builtin_add_overflow(off, add, &off))) {
        PyErr_SetString(PyExc_IndexError, "index offset overflows");
        return -1;
      }
      shape[od] = len;
      /* An axis of length 0 or 1 is never stepped along: it keeps its
       * stride.  NumPy multiplies there too, so repeated slicing of a
       * length-1 axis doubles a stride that addresses nothing until it
       * overflows (NumPy's wraps silently; PyTorch rejects such tensors);
       * keeping it bounds every stride by the memory the array reaches. */
      if (len <= 1) {
        strides[od] = xst[dim];
      } else if (__builtin_mul_overflow(xst[dim], (int64_t)step, &strides[od])) {
        PyErr_SetString(PyExc_IndexError, "slice stride overflows");
        return -1;
      }
      od++;
      dim++;
    } else {
      PyErr_SetString(PyExc_IndexError, "basic_view: an array is not a basic index");
      return -1;
    }
  }
  for (; dim < nd; dim++) { /* axes after the key stay whole */
    shape[od] = xs[dim];
    strides[od++] = xst[dim];
  }
  v->nd = od;
  v->off = off;
  return 0;
}

/* x[key] for a key of slices, None and ... around exactly one 1-d index
 * (an integer array or a 1-d mask), as in x[:, cols]: the other entries
 * make a view, the index gathers along its axis, and the gathered axis
 * stays where the index stood.  The layout is the general route's (and
 * NumPy's): the blocks in index order, then the axes moved.  None for any
 * other key; keys with ints too go the general way, since NumPy counts an
 * int beside an index array as an index array. */
static PyObject *getitem_one_index(ma_array *a, const index_key *K) {
  if (K->n < 2 || K->narrays != 1) Py_RETURN_NONE;
  int at = -1, nd = a->t.ndim;
  for (int i = 0; i < K->n; i++) {
    int kind = K->e[i].kind;
    if (kind == KE_INT) Py_RETURN_NONE;
    if (kind == KE_ARRAY || kind == KE_MASK) {
      if (K->e[i].arr->t.ndim != 1) Py_RETURN_NONE;
      at = i;
    }
  }
  basic_view v; /* the view with the index's axis taken whole */
  if (build_basic(a, K, at, &v) < 0) return NULL;
  /* where the index stands: among the view's axes (p) and x's (xaxis) */
  int p = 0, xaxis = 0;
  for (int i = 0; i < at; i++) {
    int kind = K->e[i].kind, span = kind == KE_ELLIPSIS ? nd - K->consumed : 1;
    p += span;
    if (kind != KE_NEW) xaxis += span;
  }
  /* gather from the view with that axis first */
  int64_t shape[MA_MAXDIMS], strides[MA_MAXDIMS];
  shape[0] = v.shape[p];
  strides[0] = v.strides[p];
  for (int d = 0, o = 1; d < v.nd; d++) {
    if (d == p) continue;
    shape[o] = v.shape[d];
    strides[o++] = v.strides[d];
  }
  ma_array *src = ma_array_view(a, v.off, a->t.dtype, v.nd, shape, strides, 0);
  if (!src) return PyErr_NoMemory();
  int failed = 0;
  ma_array *out = ma_gather_first(src, &K->e[at], 1, xaxis, &failed);
  ma_array_free(src);
  if (!out) return failed ? NULL : Py_NewRef(Py_None);
  PyObject *blocks = ma_ndarray_new(out, NULL);
  if (!blocks || p == 0) return blocks;
  /* (n, rest...) seen as (rest[:p], n, rest[p:]) */
  for (int d = 0; d < v.nd; d++) {
    int from = d < p ? d + 1 : d == p ? 0 : d;
    shape[d] = out->t.shape[from];
    strides[d] = out->t.strides[from];
  }
  PyObject *r = make_view(blocks, out, 0, v.nd, shape, strides);
  Py_DECREF(blocks);
  return r;
}

/* The general advanced route, minarray._indexing's getitem(x, entries)
 * and setitem(x, entries, value), set by getitem_setup; and how many
 * times a key went there (for the tests that check which route answers). */
static PyObject *py_getitem_general, *py_setitem_general;
static Py_ssize_t general_calls;

static PyObject *call_general(PyObject *fn, PyObject *x, const ma_array *a, const index_key *K, PyObject *value) {
  if (!fn) {
    PyErr_SetString(PyExc_RuntimeError, "minarray._array_object is not initialised");
    return NULL;
  }
  PyObject *entries = parsed_entries(a, K);
  if (!entries) return NULL;
  general_calls++;
  PyObject *args[3] = {x, entries, value};
  PyObject *r = PyObject_Vectorcall(fn, args, value ? 3 : 2, NULL);
  Py_DECREF(entries);
  return r;
}

/* x[key]: one parse, then its route. */
static PyObject *getitem(PyObject *x, PyObject *key) {
  ma_array *da = nd_array(x), *a = da ? da : ma_ndarray_meta(x); /* views of device arrays too */
  if (!a) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "x[key] needs an initialised NDArray");
    return NULL;
  }
  index_key K;
  if (parse_key(a, key, &K) < 0) return NULL;
  PyObject *r = NULL;
  if (!K.narrays) {
    basic_view v;
    /* One element by integers alone (no `...`) is NumPy's scalar, a copy;
     * with `...`, or on a device, a 0-d view as in NumPy.  A scalar's view
     * is an array (NumPy's scalar[...] is a 0-d array). */
    if (build_basic(a, &K, -1, &v) < 0)
      r = NULL;
    else if (v.nd == 0 && K.ellipsis < 0 && da)
      r = ma_scalar_at(a, v.off);
    else if (Py_TYPE(x) == ma_nd.scalar)
      r = plain_view(x, a, v.off, v.nd, v.shape, v.strides);
    else
      r = make_view(x, a, v.off, v.nd, v.shape, v.strides);
  } else { /* gathers read elements: host arrays (da) only */
    r = da && K.n > 1 ? getitem_one_index(da, &K) : Py_NewRef(Py_None);
    if (r == Py_None) {
      Py_DECREF(r);
      r = da ? ma_getitem_advanced(da, &K) : Py_NewRef(Py_None);
    }
    if (r == Py_None) {
      Py_DECREF(r);
      r = call_general(py_getitem_general, x, a, &K, NULL);
    }
    r = MA_RESULT_LIKE(r, x); /* a copy (x[idx], x[mask]) is of x's type too; a view's is make_view's */
  }
  ma_key_free(&K);
  return r;
}

/* NDArray.__getitem__ itself.  It is NDArrayBase's mp_subscript slot
 * (ndarray.c), which NDArray inherits as it is: x[key] calls it directly.
 * Installed as a method on the Python class it went through
 * slot_mp_subscript, a method lookup and a vectorcall per subscript, a
 * noticeable share of a basic slice; a Python __getitem__ before that cost
 * a whole frame (docs/performance.md). */
PyObject *ma_nd_subscript(PyObject *self, PyObject *key) {
  if (!py_getitem_general || !PyObject_TypeCheck(self, ma_nd.type)) /* a bare NDArrayBase has no elements */
    return PyErr_Format(PyExc_TypeError, "'%.200s' object is not subscriptable", Py_TYPE(self)->tp_name);
  return getitem(self, key);
}

/* getitem_setup(getitem, setitem): the general advanced route, called
 * with x and the parsed entries (and the value); ndarray_setup has run. */
static PyObject *py_getitem_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "getitem_setup");
  if (!ma_nd.type || !PyCallable_Check(args[0]) || !PyCallable_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "getitem_setup(getitem, setitem) needs callables, after ndarray_setup");
    return NULL;
  }
  Py_XSETREF(py_getitem_general, Py_NewRef(args[0]));
  Py_XSETREF(py_setitem_general, Py_NewRef(args[1]));
  Py_RETURN_NONE;
}

/* parse_index(x, key) -> the parsed key as the general route gets it (a
 * tuple, one entry per axis), with the errors x[key] raises for a key
 * that is no index: for the tests, which run the general route on any
 * key with it. */
static PyObject *py_parse_index(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "parse_index");
  ma_array *a = ma_ndarray_meta(args[0]);
  if (!a) return PyErr_Format(PyExc_TypeError, "parse_index expects an NDArray");
  index_key K;
  if (parse_key(a, args[1], &K) < 0) return NULL;
  PyObject *r = parsed_entries(a, &K);
  ma_key_free(&K);
  return r;
}

/* general_route_calls() -> how many keys went to the general route */
static PyObject *py_general_route_calls(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  (void)args;
  MA_NARGS(0, "general_route_calls");
  return PyLong_FromSsize_t(general_calls);
}

/* basic_view(x, key) -> the view x[key] for a key of ints, slices, None
 * and ... (a tuple, or one of them): minarray/_indexing.py applies the
 * basic part of every advanced key through it, so the rules exist once,
 * here.  An array entry is an IndexError. */
static PyObject *py_basic_view(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "basic_view");
  ma_array *a = ma_ndarray_meta(args[0]);
  if (!a) {
    PyErr_SetString(PyExc_TypeError, "basic_view expects an NDArray");
    return NULL;
  }
  index_key K;
  if (parse_key(a, args[1], &K) < 0) return NULL;
  basic_view v;
  PyObject *r = NULL;
  if (K.narrays)
    PyErr_SetString(PyExc_IndexError, "basic_view: an array is not a basic index");
  else if (build_basic(a, &K, -1, &v) == 0)
    r = make_view(args[0], a, v.off, v.nd, v.shape, v.strides);
  ma_key_free(&K);
  return r;
}

/* x[key] = value for a parsed key without arrays, in C when the value is
 * a Python scalar (bool, int, float, complex, or a subclass: NumPy's
 * float64 and complex128 are float and complex subclasses) or an NDArray
 * that broadcasts to the view without dropping axes: 1 done, 0 for the
 * general route (nothing written), -1 on error.  Values are cast as the
 * general route casts them (core.fill's rules for a scalar, core.copyto's
 * for an array); the errors come in the same order (index, then
 * read-only, then the scalar's own). */
static int setitem_basic(ma_array *a, const index_key *K, PyObject *value, ma_array *s) {
  basic_view v;
  if (build_basic(a, K, -1, &v) < 0) return -1;
  if (s) { /* trailing-aligned broadcasting, as _broadcastable_value checks it */
    if (s->t.ndim > v.nd) return 0;
    for (int i = 0; i < s->t.ndim; i++) {
      int64_t n = s->t.shape[s->t.ndim - 1 - i];
      if (n != 1 && n != v.shape[v.nd - 1 - i]) return 0;
    }
  }
  int64_t item = ma_elsize(a->t.dtype), boff;
  if (__builtin_mul_overflow(v.off, item, &boff)) {
    PyErr_SetString(PyExc_IndexError, "the view's byte offset overflows");
    return -1;
  }
  if (!s && v.nd == 0) { /* x[i] = scalar, the most common: no view, no copy loop */
    _Alignas(16) char one[16]; /* one element of any dtype, aligned for it */
    if (ma_check_writeable(a) < 0 || ma_store_scalar(value, ma_type_of(a->t.dtype), one) < 0) return -1;
    memcpy((char *)a->t.data + boff, one, (size_t)item);
    return 1;
  }
  ma_array *dst = ma_array_view(a, v.off, a->t.dtype, v.nd, v.shape, v.strides, 0);
  if (!dst) return PyErr_NoMemory(), -1;
  int rc = s ? ma_assign_array(dst, s) : ma_assign_scalar(dst, value);
  ma_array_free(dst);
  return rc < 0 ? -1 : 1;
}

/* ndarray_setitem(x, key, value): x[key] = value, NDArray.__setitem__'s
 * one call.  The key parsed once; a Python scalar or NDArray value is
 * written in C for a key without arrays and for the advanced keys
 * ma_setitem_advanced takes; anything else goes, parsed, to the general
 * route. */
static PyObject *py_ndarray_setitem(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "ndarray_setitem");
  PyObject *x = args[0], *value = args[2];
  ma_array *da = nd_array(x), *a = da ? da : ma_ndarray_meta(x), *s = NULL; /* writes need host memory (da) */
  if (!a) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "ndarray_setitem expects an initialised NDArray");
    return NULL;
  }
  index_key K;
  if (parse_key(a, args[1], &K) < 0) return NULL;
  int rc = 0;
  if (da && (PyLong_Check(value) || PyFloat_Check(value) || PyComplex_Check(value) || (s = nd_array(value)))) {
    if (!K.narrays) {
      rc = setitem_basic(da, &K, value, s);
    } else {
      PyObject *r = ma_setitem_advanced(da, &K, value, s);
      rc = !r ? -1 : r != Py_None;
      Py_XDECREF(r);
    }
  }
  if (rc == 0) {
    PyObject *r = call_general(py_setitem_general, x, a, &K, value);
    rc = r ? 1 : -1;
    Py_XDECREF(r);
  }
  ma_key_free(&K);
  if (rc < 0) return NULL;
  Py_RETURN_NONE;
}

/* is_contiguous(h, fortran) -> bool: ma_array_is_contiguous, the one
 * contiguity rule, for the Python layer (flags, copy order, reshape). */
static PyObject *py_is_contiguous(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "is_contiguous");
  ma_array *a = ma_handle_meta(args[0]);
  int fortran = PyObject_IsTrue(args[1]);
  if (!a || fortran < 0) return NULL;
  return PyBool_FromLong(ma_array_is_contiguous(a, fortran));
}

/* Raises minarray.exceptions.AxisError(axis, ndim): the error is a Python
 * class, so its wording stays in one place. */
static PyObject *axis_error(PyObject *axis, int ndim) {
  PyObject *mod = PyImport_ImportModule("minarray.exceptions");
  PyObject *cls = mod ? PyObject_GetAttrString(mod, "AxisError") : NULL;
  Py_XDECREF(mod);
  if (!cls) return NULL;
  PyObject *err = PyObject_CallFunction(cls, "Oi", axis, ndim);
  Py_DECREF(cls);
  if (err) {
    PyErr_SetObject((PyObject *)Py_TYPE(err), err);
    Py_DECREF(err);
  }
  return NULL;
}

/* x with its axes permuted by `axes`: None reverses them, else a tuple of
 * integers (anything with __index__, negative ones counting from the
 * end).  The one implementation of .T, transpose and permute_dims.
 * Errors: AxisError for an axis out of range, ValueError when the axes
 * are not a permutation, TypeError for a non-integer. */
static PyObject *permute(PyObject *x, PyObject *axes) {
  ma_array *a = ma_ndarray_meta(x);
  if (!a) {
    PyErr_SetString(PyExc_TypeError, "ndarray_permute expects an NDArray");
    return NULL;
  }
  int nd = a->t.ndim;
  int perm[MA_MAXDIMS];
  PyObject *held = NULL;
  if (PyList_Check(axes)) { /* a list could change under __index__ */
    if (!(axes = held = PySequence_Tuple(axes))) return NULL;
  } else if (axes != Py_None && !PyTuple_Check(axes)) {
    PyErr_Format(PyExc_TypeError, "axes must be a tuple of integers, not %.100s", Py_TYPE(axes)->tp_name);
    return NULL;
  }
  if (axes == Py_None) {
    for (int i = 0; i < nd; i++) perm[i] = nd - 1 - i;
  } else {
    PyObject *const *items = PySequence_Fast_ITEMS(axes);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(axes);
    char seen[MA_MAXDIMS] = {0};
    int ok = n == nd;
    for (Py_ssize_t i = 0; i < n; i++) {
      PyObject *k = items[i], *ix = NULL; /* ix: k's __index__, when k is not an exact int */
      if (!PyLong_CheckExact(k) && !(ix = PyNumber_Index(k))) {
        PyErr_Clear();
        ma_not_an_integer("axis", k);
        Py_XDECREF(held);
        return NULL;
      }
      int overflow;
      long long v = PyLong_AsLongLongAndOverflow(ix ? ix : k, &overflow);
      if (overflow || v < -nd || v >= nd) {
        axis_error(ix ? ix : k, nd);
        Py_XDECREF(ix);
        Py_XDECREF(held);
        return NULL;
      }
      Py_XDECREF(ix);
      if (v < 0) v += nd;
      if (!ok || seen[v]) {
        ok = 0;
        continue;
      }
      seen[v] = 1;
      perm[i] = (int)v;
    }
    if (!ok) {
      PyObject *t = PySequence_Tuple(axes);
      if (t) PyErr_Format(PyExc_ValueError, "axes %R are not a permutation of the array's %d dimensions", t, nd);
      Py_XDECREF(t);
      Py_XDECREF(held);
      return NULL;
    }
  }
  Py_XDECREF(held);
  int64_t shape[MA_MAXDIMS], strides[MA_MAXDIMS];
  for (int i = 0; i < nd; i++) {
    shape[i] = a->t.shape[perm[i]];
    strides[i] = a->t.strides[perm[i]];
  }
  return make_view(x, a, 0, nd, shape, strides);
}

/* ndarray_permute(x, axes) -> permute_dims(x, axes): axes None, or a
 * tuple or list of integers */
static PyObject *py_ndarray_permute(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "ndarray_permute");
  return permute(args[0], args[1]);
}

PyObject *ma_ndarray_T(PyObject *self, void *unused) {
  (void)unused;
  return permute(self, Py_None);
}

/* ndarray_transpose(x, args) -> x.transpose(*args): the axes themselves,
 * or one tuple or list of them; () and (None,) reverse the axes. */
static PyObject *py_ndarray_transpose(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "ndarray_transpose");
  PyObject *axes = args[1];
  if (!PyTuple_Check(axes)) return permute(args[0], axes); /* permute words the error */
  if (PyTuple_GET_SIZE(axes) == 0) return permute(args[0], Py_None);
  if (PyTuple_GET_SIZE(axes) == 1) {
    PyObject *one = PyTuple_GET_ITEM(axes, 0);
    if (one == Py_None || PyTuple_Check(one) || PyList_Check(one)) return permute(args[0], one);
  }
  return permute(args[0], axes);
}

/* Element strides that lay `new` (nn axes) over a's memory in C order:
 * 1, or 0 when the layout allows no view.  NumPy's _attempt_nocopy_reshape
 * (numpy/_core/src/multiarray/shape.c), so views, copies and even the
 * strides of length-1 axes come out as NumPy's: old and new axes are
 * grouped into runs of equal size; each old run must be contiguous in C
 * order, and the new run's strides follow from its innermost stride.
 * Called for arrays that are not C-contiguous and hold elements. */
static int nocopy_strides(const ma_array *a, int nn, const int64_t *new, int64_t *out) {
  int64_t os[MA_MAXDIMS], ost[MA_MAXDIMS];
  int on = 0;
  for (int i = 0; i < a->t.ndim; i++) /* length-1 axes address nothing */
    if (a->t.shape[i] != 1) {
      os[on] = a->t.shape[i];
      ost[on++] = a->t.strides[i];
    }
  int oi = 0, ni = 0;
  while (ni < nn && oi < on) {
    int64_t np = new[ni], op = os[oi];
    int nj = ni + 1, oj = oi + 1;
    while (np != op) {
      if (np < op)
        np *= new[nj++];
      else
        op *= os[oj++];
    }
    for (int k = oi; k < oj - 1; k++)
      if (ost[k] != os[k + 1] * ost[k + 1]) return 0;
    out[nj - 1] = ost[oj - 1];
    for (int k = nj - 1; k > ni; k--) out[k - 1] = out[k] * new[k];
    ni = nj;
    oi = oj;
  }
  /* trailing length-1 axes of `new` repeat the last stride (as NumPy) */
  int64_t last = ni >= 1 ? out[ni - 1] : 1;
  for (int k = ni; k < nn; k++) out[k] = last;
  return 1;
}

/* `shape`'s entries as Python ints, for the messages (an error path) */
static PyObject *given_shape(PyObject *shape) {
  Py_ssize_t nn = PyTuple_GET_SIZE(shape);
  PyObject *given = PyTuple_New(nn);
  for (Py_ssize_t i = 0; given && i < nn; i++) {
    PyObject *ix = PyNumber_Index(PyTuple_GET_ITEM(shape, i));
    if (!ix) Py_CLEAR(given);
    else PyTuple_SET_ITEM(given, i, ix);
  }
  return given;
}

/* The dims `shape` (a tuple) names for an array of `size` elements, one
 * -1 inferred: nn, or -1 with the error set; *unknown_at is where the -1
 * stood (or -1).  The checks, and their order, are those NumPy's reshape
 * makes. */
static inline int reshape_dims(PyObject *shape, int64_t size, int64_t *dims, int *unknown_at) {
  Py_ssize_t nn = PyTuple_GET_SIZE(shape);
  int unknown = -1, unknowns = 0, negative = 0, zero = 0;
  int64_t known = 1;
  if (nn > MA_MAXDIMS) {
    PyErr_Format(PyExc_ValueError, "shape has %zd dimensions; at most %d are supported", nn, MA_MAXDIMS);
    return -1;
  }
  for (Py_ssize_t i = 0; i < nn; i++) {
    PyObject *k = PyTuple_GET_ITEM(shape, i), *ix = NULL; /* ix: k's __index__, when k is not an exact int */
    if (!PyLong_CheckExact(k) && !(ix = PyNumber_Index(k))) {
      PyErr_Clear();
      ma_not_an_integer("reshape: shape entry", k);
      return -1;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(ix ? ix : k, &overflow);
    Py_XDECREF(ix);
    if (overflow < 0 || (!overflow && v < -1)) negative = 1;
    if (v == -1 && !overflow) {
      unknowns++;
      unknown = (int)i;
    }
    dims[i] = overflow ? INT64_MAX : v; /* too large: no size matches it... */
    if (v == 0 && !overflow) zero = 1;
    if (v >= 0 && __builtin_mul_overflow(known, dims[i], &known)) known = INT64_MAX;
  }
  if (unknowns > 1) {
    PyErr_SetString(PyExc_ValueError, "can only specify one unknown dimension (-1)");
    return -1;
  }
  if (zero) known = 0; /* ...unless a 0 makes the product 0 */
  if (negative || (unknown >= 0 ? known == 0 || size % known : known != size)) {
    PyObject *given = given_shape(shape);
    if (given && negative)
      PyErr_Format(PyExc_ValueError, "negative dimensions are not allowed in shape %R", given);
    else if (given)
      PyErr_Format(PyExc_ValueError, "cannot reshape an array of size %lld into shape %R", (long long)size, given);
    Py_XDECREF(given);
    return -1;
  }
  if (unknown >= 0) dims[unknown] = size / known;
  *unknown_at = unknown;
  return (int)nn;
}

/* ndarray_reshape(x, shape_args, copy) -> x's elements in a new shape
 * (C order), the one implementation of reshape.  shape_args is
 * NDArray.reshape's argument tuple: integers (anything with __index__),
 * or one tuple or list of them; one may be -1.  A view when the strides
 * allow one: the same shape keeps the strides, a C-contiguous x takes C
 * strides, any other goes through nocopy_strides.  Otherwise a view of a
 * fresh copy (x.copy()), or with copy=False a ValueError; copy=True
 * always copies.  Other orders are the Python layer's (the axes reversed
 * around this). */
static PyObject *py_ndarray_reshape(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "ndarray_reshape");
  PyObject *x = args[0], *s = args[1], *copy = args[2];
  ma_array *a = ma_ndarray_meta(x);
  if (!a || !PyTuple_Check(s)) {
    PyErr_SetString(PyExc_TypeError, "ndarray_reshape expects an NDArray and an argument tuple");
    return NULL;
  }
  int nd = a->t.ndim;
  int64_t size = 1, dims[MA_MAXDIMS], strides[MA_MAXDIMS];
  for (int i = 0; i < nd; i++) size *= a->t.shape[i]; /* an array's size fits in int64 */
  int nn, unknown = -1;
  PyObject *one = PyTuple_GET_SIZE(s) == 1 ? PyTuple_GET_ITEM(s, 0) : NULL;
  if (one && PyTuple_Check(one)) {
    nn = reshape_dims(one, size, dims, &unknown);
  } else if (one && PyList_Check(one)) {
    PyObject *t = PySequence_Tuple(one); /* a list could change under __index__ */
    if (!t) return NULL;
    nn = reshape_dims(t, size, dims, &unknown);
    Py_DECREF(t);
  } else {
    nn = reshape_dims(s, size, dims, &unknown);
  }
  if (nn < 0) return NULL;
  size_t nbytes; /* the one shape rule */
  if (ma_nbytes(nn, dims, (size_t)ma_elsize(a->t.dtype), &nbytes) != 0) {
    PyObject *t = ma_dims_tuple(nn, dims);
    if (t) ma_empty_error(t, 1, (int)ma_elsize(a->t.dtype));
    Py_XDECREF(t);
    return NULL;
  }
  if (copy != Py_True) { /* copy=True: as NumPy, a view of a fresh copy */
    /* the shape as given (no -1) is x's: nothing to do, strides kept */
    int same = unknown < 0 && nn == nd;
    for (int i = 0; same && i < nd; i++) same = dims[i] == a->t.shape[i];
    if (same) return make_view(x, a, 0, nd, a->t.shape, a->t.strides);
    if (ma_array_is_contiguous(a, 0)) return make_view(x, a, 0, nn, dims, NULL);
    if (nocopy_strides(a, nn, dims, strides)) return make_view(x, a, 0, nn, dims, strides);
    if (copy == Py_False) {
      PyObject *sh = PyObject_GetAttrString(x, "shape"), *st = sh ? PyObject_GetAttrString(x, "strides") : NULL,
               *t = st ? ma_dims_tuple(nn, dims) : NULL;
      if (t)
        PyErr_Format(PyExc_ValueError,
                     "cannot reshape the array of shape %R and strides %R into shape %R without copying (copy=False)",
                     sh, st, t);
      Py_XDECREF(sh);
      Py_XDECREF(st);
      Py_XDECREF(t);
      return NULL;
    }
  }
  PyObject *c = PyObject_CallMethod(x, "copy", NULL);
  if (!c) return NULL;
  ma_array *ca = ma_ndarray_meta(c);
  PyObject *r = ca ? make_view(c, ca, 0, nn, dims, NULL) : NULL;
  Py_DECREF(c);
  return r;
}

/* ---- in-place shape changes --------------------------------------------
 *
 * x.shape = s and x.resize(s) change an array itself, as NumPy's do: x
 * takes a new handle.  The old one is not freed but kept with x until x
 * dies (its `retired` list), with the old shape tuples: a kernel that
 * another thread started on x with the GIL released still reads the old
 * metadata (and, after a resize, the old memory), and C code may hold the
 * old tuples borrowed.  So each change keeps its old metadata (a few
 * hundred bytes; after a resize, the old memory too) until the array is
 * freed.  Views of x keep their shapes and their memory. */

/* x's handle becomes `h` (stolen); 0, or -1 with the error set. */
static int adopt_handle(PyObject *x, PyObject *h) {
  ma_ndobject *o = MA_ND(x);
  if ((!o->retired && !(o->retired = PyList_New(0))) || PyList_Append(o->retired, o->h) < 0 ||
      (o->shape && PyList_Append(o->retired, o->shape) < 0) ||
      (o->strides && PyList_Append(o->retired, o->strides) < 0)) {
    Py_DECREF(h);
    return -1;
  }
  Py_SETREF(o->h, h);
  Py_CLEAR(o->shape); /* made again from the new handle when read */
  Py_CLEAR(o->strides);
  return 0;
}

/* `x.shape = value` (pyapi.h): where NumPy allows it, the new shape must
 * lay over x's memory as it lies (a reshape with copy=False), else
 * AttributeError in NumPy's words; a size that does not match is
 * reshape's ValueError. */
int ma_ndarray_set_shape(PyObject *x, PyObject *value) {
  ma_array *a = ma_ndarray_meta(x);
  if (!a) {
    PyErr_SetString(PyExc_TypeError, "ndarray_set_shape expects an NDArray");
    return -1;
  }
  if (Py_TYPE(x) == ma_nd.scalar) {
    PyErr_SetString(PyExc_AttributeError, "a scalar's shape is not writable (it is a 0-d value)");
    return -1;
  }
  /* an int or a sequence of them, as NumPy takes it */
  PyObject *t = PyTuple_Check(value) ? Py_NewRef(value)
                : PyIndex_Check(value) ? PyTuple_Pack(1, value)
                                       : PySequence_Tuple(value);
  if (!t) return -1;
  int64_t size = ma_array_size(a), dims[MA_MAXDIMS], strides[MA_MAXDIMS];
  int unknown = -1, nn = reshape_dims(t, size, dims, &unknown);
  Py_DECREF(t);
  if (nn < 0) return -1;
  size_t nbytes;
  if (ma_nbytes(nn, dims, (size_t)ma_elsize(a->t.dtype), &nbytes) != 0) {
    PyObject *sh = ma_dims_tuple(nn, dims);
    if (sh) ma_empty_error(sh, 1, (int)ma_elsize(a->t.dtype));
    Py_XDECREF(sh);
    return -1;
  }
  const int64_t *st = strides;
  int same = nn == a->t.ndim;
  for (int i = 0; same && i < nn; i++) same = dims[i] == a->t.shape[i];
  if (same) {
    st = a->t.strides;
  } else if (ma_array_is_contiguous(a, 0)) {
    st = NULL; /* C strides */
  } else if (!nocopy_strides(a, nn, dims, strides)) {
    PyErr_SetString(PyExc_AttributeError,
                    "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with the "
                    "desired shape.");
    return -1;
  }
  PyObject *h = ma_handle_view(a, 0, a->t.dtype, nn, dims, st, 0);
  return h ? adopt_handle(x, h) : -1;
}

/* ndarray_set_shape(x, shape) -> None: ma_ndarray_set_shape, for Python
 * (a subclass's shape setter). */
static PyObject *py_ndarray_set_shape(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "ndarray_set_shape");
  if (ma_ndarray_set_shape(args[0], args[1]) < 0) return NULL;
  Py_RETURN_NONE;
}

/* How many references to x's memory the array itself accounts for: its
 * handle's and those of the retired handles over the same memory. */
static int64_t own_references(PyObject *x, const ma_array *a) {
  int64_t n = 1;
  PyObject *r = MA_ND(x)->retired;
  for (Py_ssize_t i = 0; r && i < PyList_GET_SIZE(r); i++) {
    PyObject *h = PyList_GET_ITEM(r, i);
    n += MA_HANDLE_CHECK(h) && ((ma_handle *)h)->a && ((ma_handle *)h)->a->buf == a->buf;
  }
  return n;
}

/* ndarray_resize(x, shape, refcheck) -> None: `x.resize(shape)`, NumPy's
 * in-place resize: x's elements in C order, cut or followed by zeros, in
 * new memory of the new shape.  As NumPy, only for an array that owns its
 * memory and lies in one C-contiguous block, and with refcheck only when
 * nothing else refers to that memory (a view, a buffer export): NumPy's
 * ValueErrors.  (Where NumPy with refcheck=False would leave views over
 * freed memory, minarray's keep the old memory.)  `shape` is a tuple of
 * ints. */
static PyObject *py_ndarray_resize(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "ndarray_resize");
  PyObject *x = args[0];
  int64_t dims[MA_MAXDIMS];
  ma_array *a = ma_ndarray_array(x);
  if (!a) {
    if (!PyErr_Occurred() && ma_ndarray_meta(x)) ma_handle_get(MA_ND(x)->h); /* a device array: the guard's error */
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "ndarray_resize expects an NDArray");
    return NULL;
  }
  int nn = ma_parse_dims(args[1], dims, "new_shape");
  if (nn < 0) return NULL;
  for (int i = 0; i < nn; i++)
    if (dims[i] < 0) {
      PyErr_SetString(PyExc_ValueError, "negative dimensions not allowed");
      return NULL;
    }
  int refcheck = PyObject_IsTrue(args[2]);
  if (refcheck < 0) return NULL;
  if (Py_TYPE(x) == ma_nd.scalar) {
    PyErr_SetString(PyExc_ValueError, "a scalar cannot be resized (it is a 0-d value)");
    return NULL;
  }
  if (!ma_array_is_contiguous(a, 0)) {
    PyErr_SetString(PyExc_ValueError, "resize only works on single-segment arrays");
    return NULL;
  }
  if (MA_ND(x)->base != Py_None || !a->buf) {
    PyErr_SetString(PyExc_ValueError, "cannot resize this array: it does not own its data");
    return NULL;
  }
  if (a->flags & MA_READONLY) {
    PyErr_SetString(PyExc_ValueError, "cannot resize a read-only array");
    return NULL;
  }
  if (refcheck && __atomic_load_n(&a->buf->refcount, __ATOMIC_ACQUIRE) > own_references(x, a)) {
    PyErr_SetString(PyExc_ValueError,
                    "cannot resize an array that references or is referenced\nby another object in this way.\n"
                    "Use the np.resize function to get a new resized copy or\n set refcheck=False to disable this "
                    "check");
    return NULL;
  }
  int err = 0, item = (int)ma_elsize(a->t.dtype);
  PyObject *h = ma_handle_empty(a->t.dtype, nn, dims, NULL, 1, &err);
  if (!h) {
    PyObject *sh = ma_dims_tuple(nn, dims);
    if (sh) ma_empty_error(sh, err, item);
    Py_XDECREF(sh);
    return NULL;
  }
  ma_array *r = ma_handle_meta(h);
  int64_t keep = ma_array_size(a) < ma_array_size(r) ? ma_array_size(a) : ma_array_size(r);
  if (keep > 0) memcpy(r->t.data, a->t.data, (size_t)(keep * item));
  if (adopt_handle(x, h) < 0) return NULL;
  Py_RETURN_NONE;
}

/* ValueError: shapes (2,), (3,) cannot be broadcast together */
static PyObject *broadcast_error(PyObject *seq) {
  PyObject *parts = PyList_New(0), *sep = PyUnicode_FromString(", "), *joined = NULL;
  for (Py_ssize_t k = 0; parts && sep && k < PySequence_Fast_GET_SIZE(seq); k++) {
    PyObject *t = PySequence_Tuple(PySequence_Fast_GET_ITEM(seq, k)), *str = t ? PyObject_Str(t) : NULL;
    Py_XDECREF(t);
    if (!str || PyList_Append(parts, str) < 0) Py_CLEAR(parts);
    Py_XDECREF(str);
  }
  if (parts && sep && (joined = PyUnicode_Join(sep, parts)))
    PyErr_Format(PyExc_ValueError, "shapes %U cannot be broadcast together", joined);
  Py_XDECREF(parts);
  Py_XDECREF(sep);
  Py_XDECREF(joined);
  return NULL;
}

/* broadcast_shapes(shapes) -> the shape they broadcast to; ValueError
 * when they do not */
static PyObject *py_broadcast_shapes(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "broadcast_shapes");
  PyObject *seq = PySequence_Fast(args[0], "broadcast_shapes takes a sequence of shapes");
  if (!seq) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  int64_t(*dims)[MA_MAXDIMS] = n ? PyMem_Malloc((size_t)n * sizeof *dims) : NULL;
  int *ndims = n ? PyMem_Malloc((size_t)n * sizeof(int)) : NULL;
  const int64_t **shapes = n ? PyMem_Malloc((size_t)n * sizeof *shapes) : NULL;
  PyObject *res = NULL;
  if (n && (!dims || !ndims || !shapes)) {
    PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t k = 0; k < n; k++) {
    ndims[k] = ma_parse_dims(PySequence_Fast_GET_ITEM(seq, k), dims[k], "shape");
    if (ndims[k] < 0) goto done;
    shapes[k] = dims[k];
  }
  int nd;
  int64_t out[MA_MAXDIMS];
  res = ma_broadcast_shape((int)n, ndims, shapes, &nd, out) < 0 ? broadcast_error(seq) : ma_dims_tuple(nd, out);
done:
  PyMem_Free(dims);
  PyMem_Free(ndims);
  PyMem_Free(shapes);
  Py_DECREF(seq);
  return res;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_views_methods[] = {
    FC("broadcast_shapes", py_broadcast_shapes, "broadcast_shapes(shapes) -> shape"),
    FC("getitem_setup", py_getitem_setup, "getitem_setup(getitem, setitem): the general advanced route"),
    FC("parse_index", py_parse_index, "parse_index(x, key) -> the parsed key, one entry per axis"),
    FC("general_route_calls", py_general_route_calls, "general_route_calls() -> int"),
    FC("basic_view", py_basic_view, "basic_view(x, key) -> the view x[key] of a basic key"),
    FC("is_contiguous", py_is_contiguous, "is_contiguous(h, fortran) -> bool"),
    FC("ndarray_view", py_ndarray_view, "ndarray_view(x, offset, shape, strides, readonly) -> NDArray"),
    FC("ndarray_view_as", py_ndarray_view_as, "ndarray_view_as(x, cls) -> x viewed as an instance of cls"),
    FC("ndarray_setitem", py_ndarray_setitem, "ndarray_setitem(x, key, value): x[key] = value"),
    FC("ndarray_permute", py_ndarray_permute, "ndarray_permute(x, axes|None) -> view"),
    FC("ndarray_transpose", py_ndarray_transpose, "ndarray_transpose(x, args) -> x.transpose(*args)"),
    FC("ndarray_reshape", py_ndarray_reshape, "ndarray_reshape(x, shape_args, copy) -> view, or a copy"),
    FC("ndarray_set_shape", py_ndarray_set_shape, "ndarray_set_shape(x, shape): x.shape = shape, in place"),
    FC("ndarray_resize", py_ndarray_resize, "ndarray_resize(x, shape, refcheck): x.resize(shape), in place"),
    {NULL, NULL, 0, NULL}};
