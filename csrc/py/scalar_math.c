/*
 * NumPy's scalar arithmetic: the operators of a Scalar (minarray/_scalar.py)
 * with another Scalar or a Python bool, int, float or complex.
 *
 * A Scalar is a 0-d NDArray, and NDArray's operators (its C methods in
 * elementwise_dispatch.c, reached through CPython's generic slots, which
 * look the method up by name on every call) cost four to eight times what
 * NumPy's scalar operators do: the method look-up, the broadcast, the
 * iterator and a result built for any shape.  The Scalar class gets C
 * number slots instead (ma_scalar_math_install), which read the two
 * elements, pick the loop from the same resolve table the engine uses
 * (the one statement of the promotion rules, weak Python scalars
 * included), convert a Python operand with the engine's own rules
 * (ma_store_scalar), call the same generated loop on the one element and
 * take the result's Scalar from the pool of free ones (ma_scalar_new,
 * ndarray.c), or NumPy's np.True_ and np.False_.  Whatever they do not cover (an array operand, a
 * storage type, an error the engine words) goes to NDArray's operator
 * (ma_ew_operator), as before.
 *
 * NumPy's scalars differ from its arrays in what they report: the flags are
 * named "in scalar add", and integer add, subtract, multiply, negative and
 * absolute report overflow (csrc/core/int_overflow.h), which arrays wrap
 * silently.  Both hold only where NumPy computes with its scalar math
 * (sc_scalar_math); elsewhere it runs the ufunc, and reports as arrays do.
 */
#include "pyapi.h" /* Python.h first, as CPython asks */

#include <string.h>

#include "copy.h" /* ma_cast_loops */
#include "elementwise.h"
#include "int_overflow.h"

/* The operators, by the engine's op names, with NumPy's name for each in
 * its messages and the overflow check of its scalar math. */
#define SC_BINARY_OPS(X)                                                                      \
  X(add, "add", "add", MA_OV_ADD) X(subtract, "subtract", "subtract", MA_OV_SUBTRACT)         \
  X(multiply, "multiply", "multiply", MA_OV_MULTIPLY) X(divide, "divide", "divide", MA_OV_NONE) \
  X(floor_divide, "floor_divide", "floor_divide", MA_OV_NONE)                                 \
  X(remainder, "remainder", "remainder", MA_OV_NONE) X(pow, "pow", "power", MA_OV_NONE)       \
  X(and, "bitwise_and", "bitwise_and", MA_OV_NONE) X(or, "bitwise_or", "bitwise_or", MA_OV_NONE) \
  X(xor, "bitwise_xor", "bitwise_xor", MA_OV_NONE)                                            \
  X(lshift, "bitwise_left_shift", "left_shift", MA_OV_NONE)                                   \
  X(rshift, "bitwise_right_shift", "right_shift", MA_OV_NONE)                                 \
  X(lt, "less", "less", MA_OV_NONE) X(le, "less_equal", "less_equal", MA_OV_NONE)             \
  X(eq, "equal", "equal", MA_OV_NONE) X(ne, "not_equal", "not_equal", MA_OV_NONE)             \
  X(gt, "greater", "greater", MA_OV_NONE) X(ge, "greater_equal", "greater_equal", MA_OV_NONE)
#define SC_UNARY_OPS(X)                                                                       \
  X(negative, "negative", "negative", MA_OV_NEGATIVE) X(positive, "positive", "positive", MA_OV_NONE) \
  X(absolute, "abs", "absolute", MA_OV_ABSOLUTE) X(invert, "bitwise_invert", "invert", MA_OV_NONE)

enum {
#define SC_ENUM(id, ma, np, ov) SC_##id,
  SC_BINARY_OPS(SC_ENUM) SC_UNARY_OPS(SC_ENUM)
#undef SC_ENUM
  SC_NOPS /* (the binary ones first: SC_negative is the first unary one) */
};

typedef struct {
  const char *ma_name; /* the engine's op */
  const char *numpy;   /* NumPy's word for it in "overflow encountered in scalar add" */
  ma_ov_op overflow;   /* NumPy's scalar overflow check */
} sc_op;

static const sc_op sc_ops[SC_NOPS] = {
#define SC_ROW(id, ma, np, ov) {ma, np, ov},
    SC_BINARY_OPS(SC_ROW) SC_UNARY_OPS(SC_ROW)
#undef SC_ROW
};

static int sc_opi[SC_NOPS]; /* each one's op number in ma_ew_ops: set before the slots are */

/* One operand: a Scalar's element (of kernel type `key`) or a Python
 * scalar (key MA_EW_KEY_*). */
typedef struct {
  PyObject *obj;
  const char *data; /* the Scalar's element; NULL for a Python scalar */
  int key;
} sc_arg;

/* 1 when `x` is a Scalar of a kernel type on the host or an exact Python
 * scalar, else 0 (the engine's path takes it). */
static int sc_read(PyObject *x, sc_arg *o) {
  PyTypeObject *t = Py_TYPE(x);
  o->obj = x;
  o->data = NULL;
  if (t == ma_nd.scalar) {
    PyObject *h = MA_ND(x)->h;
    if (!h || !MA_HANDLE_CHECK(h) || ((ma_handle *)h)->device) return 0;
    const ma_array *a = ((ma_handle *)h)->a;
    if (!a || a->t.ndim != 0) return 0;
    o->key = ma_type_of(a->t.dtype);
    o->data = (const char *)a->t.data;
    return o->key >= 0 && o->key < MA_NTYPES;
  }
  o->key = t == &PyFloat_Type  ? MA_EW_KEY_FLOAT
           : t == &PyLong_Type ? MA_EW_KEY_INT
           : t == &PyBool_Type ? MA_EW_KEY_BOOL
           : t == &PyComplex_Type ? MA_EW_KEY_COMPLEX
                                  : -1;
  return o->key >= 0;
}

/* Does NumPy compute `x op y` with its scalar math (and so name the flags
 * "scalar op" and check integer overflow)?  Its scalar type's operator
 * takes the other operand when that converts to its type safely (a Python
 * scalar of its kind or a lower one), or defers to the other scalar's
 * operator when it converts the other way; a bool scalar has no scalar
 * math, and neither has a pair that promotes to a third type (int8 and
 * uint8), which goes to the ufunc.  Python tries the left operand first,
 * so a bool on the left decides: np.True_ + np.int8(127) wraps silently,
 * np.int8(127) + np.True_ warns. */
static int sc_scalar_math(const sc_arg *x, const sc_arg *y, int common) {
  if (common < 0 || common == MA_BOOL || (x->data && x->key == MA_BOOL)) return 0;
  return (x->data && x->key == common) || (y->data && y->key == common);
}

/* Report the flags `fpe` of op k as NumPy does for its scalars: 0, or -1
 * with the errstate's error set. */
static int sc_report(int k, unsigned fpe, int scalar_math) {
  char name[64];
  snprintf(name, sizeof name, "%s%s", scalar_math ? "scalar " : "", sc_ops[k].numpy);
  return ma_report_fpe(name, fpe);
}

/* Operand k of loop `sig`, as the loop's input type: the Scalar's element
 * (cast into `buf` when its type differs) or the Python scalar stored by
 * the engine's rules.  The pointer, or NULL with the error set. */
static const char *sc_operand(const sc_arg *o, int tid, char *buf) {
  if (o->data) {
    if (o->key == tid) return o->data;
    char *cp[2] = {buf, (char *)o->data};
    int64_t zero[2] = {0, 0};
    ma_cast_loops[o->key][tid](cp, zero, 1, NULL); /* a promotion: raises no flag NumPy reports */
    return buf;
  }
  /* the common cases first: a float into a float64 loop, an int that
   * fits into an int64 one (each stored as itself) */
  if (tid == MA_FLOAT64 && o->key == MA_EW_KEY_FLOAT) {
    double f = PyFloat_AS_DOUBLE(o->obj);
    memcpy(buf, &f, sizeof f);
    return buf;
  }
  if (tid == MA_INT64 && o->key == MA_EW_KEY_INT) {
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o->obj, &overflow);
    if (!overflow) {
      int64_t i = v;
      memcpy(buf, &i, sizeof i);
      return buf;
    }
  }
  return ma_store_scalar(o->obj, tid, buf) < 0 ? NULL : buf;
}

/* The element of loop `sig` on ins[0..nin) into `out`: its flags, or -1
 * when the loop met a domain error (an integer to a negative power), which
 * the engine words. */
static int sc_run(const ma_ew_sig *sig, char *out, const char *const *ins, int nin) {
  char *p[3] = {out, (char *)ins[0], nin > 1 ? (char *)ins[1] : NULL};
  int64_t st[3] = {0, 0, 0};
  ma_ew_aux aux = {0, 1};
  ma_fpe_clear(); /* (writes only when a flag is set) */
  sig->loop(p, st, 1, &aux);
  unsigned fpe = ma_fpe_read();
  if (fpe) ma_fpe_clear();
  return aux.err ? -1 : (int)fpe;
}

/* x op y for operator k: 1 with *res the result (NULL with the error set),
 * or 0 when it is not for here. */
static int sc_binary(int k, PyObject *x, PyObject *y, PyObject **res) {
  sc_arg a, b;
  int opi = sc_opi[k];
  if (!sc_read(x, &a) || !sc_read(y, &b) || !(a.data || b.data)) return 0;
  const ma_ew_op *op = &ma_ew_ops[opi];
  int idx = op->resolve[a.key * MA_EW_NKEYS + b.key];
  if (idx < 0) return 0; /* the engine words the TypeError */
  const ma_ew_sig *sig = &op->sigs[idx];
  _Alignas(16) char ba[16], bb[16], out[16];
  const char *ins[2];
  if (!(ins[0] = sc_operand(&a, sig->in[0], ba)) || !(ins[1] = sc_operand(&b, sig->in[1], bb))) {
    /* np.uint8(1) < 300 is True, not an error: the engine's rule */
    if (op->compare && PyErr_ExceptionMatches(PyExc_OverflowError)) {
      PyErr_Clear();
      return 0;
    }
    *res = NULL;
    return 1;
  }
  int fpe = sc_run(sig, out, ins, 2);
  if (fpe < 0) return 0;
  int scalar_math = sc_scalar_math(&a, &b, ma_ew_common[a.key][b.key]);
  if (scalar_math && ma_int_overflows(sc_ops[k].overflow, sig->type, ins[0], ins[1]))
    fpe |= MA_FPE_OVERFLOW;
  if (scalar_math && k == SC_remainder && sig->type == MA_FLOAT16) {
    /* NumPy's float16 scalar remainder is its divmod, which computes the
     * quotient too: np.float16(1) % 0 warns of the division by zero as
     * well.  The quotient's flags are those of floor_divide's loop. */
    const ma_ew_op *fd = &ma_ew_ops[sc_opi[SC_floor_divide]];
    int fdi = fd->resolve[MA_FLOAT16 * MA_EW_NKEYS + MA_FLOAT16];
    _Alignas(16) char quotient[16];
    int q = fdi >= 0 ? sc_run(&fd->sigs[fdi], quotient, ins, 2) : 0;
    fpe |= q > 0 ? q : 0;
  }
  /* (NumPy's scalar math compares complex values quietly; its ufunc's
   * complex comparisons report a NaN as invalid) */
  fpe &= (int)(scalar_math ? op->fpe : ma_ew_fpe(op, sig));
  *res = fpe && sc_report(k, (unsigned)fpe, scalar_math) < 0 ? NULL : ma_scalar_new(sig->out, out);
  return 1;
}

/* op x for operator k: as sc_binary. */
static int sc_unary(int k, PyObject *x, PyObject **res) {
  sc_arg a;
  int opi = sc_opi[k];
  if (!sc_read(x, &a) || !a.data) return 0;
  const ma_ew_op *op = &ma_ew_ops[opi];
  int idx = op->resolve[a.key];
  if (idx < 0) return 0;
  const ma_ew_sig *sig = &op->sigs[idx];
  _Alignas(16) char out[16];
  const char *ins[1] = {a.data}; /* a unary loop's type is its operand's */
  if (sig->in[0] != a.key) return 0;
  int fpe = sc_run(sig, out, ins, 1);
  if (fpe < 0) return 0;
  int scalar_math = a.key != MA_BOOL;
  if (scalar_math && ma_int_overflows(sc_ops[k].overflow, sig->type, ins[0], NULL)) fpe |= MA_FPE_OVERFLOW;
  fpe &= (int)ma_ew_fpe(op, sig);
  *res = fpe && sc_report(k, (unsigned)fpe, scalar_math) < 0 ? NULL : ma_scalar_new(sig->out, out);
  return 1;
}

/* ---- the slots --------------------------------------------------------------
 * Called with the Scalar on either side (x + s calls s's slot as (x, s)):
 * what the fast path does not take goes to NDArray's operator method with
 * the operands in the same order, the call CPython's generic slot made. */

/* s * [1, 2] and (1, 2) * s: NumPy's scalars multiply a list or tuple as
 * Python's numbers do, not elementwise as an array does: an integer scalar
 * repeats it (NotImplemented: Python then repeats the sequence by the
 * scalar's __index__), any other is a TypeError.  1 with *res set when
 * this is such a product. */
static int sc_sequence_product(int k, PyObject *x, PyObject *y, PyObject **res) {
  if (k != SC_multiply) return 0;
  PyObject *s = PyList_Check(x) || PyTuple_Check(x) ? y : PyList_Check(y) || PyTuple_Check(y) ? x : NULL;
  if (!s || Py_TYPE(s) != ma_nd.scalar) return 0;
  int tid = ma_ndarray_tid(MA_ND(s)->dtype);
  if (tid >= 0 && (ma_type_kind[tid] == 'i' || ma_type_kind[tid] == 'u')) {
    *res = Py_NewRef(Py_NotImplemented);
  } else {
    PyErr_Format(PyExc_TypeError, "can't multiply sequence by non-int of type '%s'",
                 tid >= 0 ? ma_type_name[tid] : Py_TYPE(s)->tp_name);
    *res = NULL;
  }
  return 1;
}

static PyObject *sc_binary_slot(int k, PyObject *x, PyObject *y) {
  PyObject *r;
  if (sc_binary(k, x, y, &r) || sc_sequence_product(k, x, y, &r)) return r;
  PyObject *xs[2] = {x, y};
  return ma_ew_operator(sc_opi[k], xs, 2);
}

static PyObject *sc_unary_slot(int k, PyObject *x) {
  PyObject *r;
  if (sc_unary(k, x, &r)) return r;
  return ma_ew_operator(sc_opi[k], &x, 1);
}

PyObject *ma_scalar_operator(int opi, PyObject *const *xs, int n) {
  for (int k = 0; k < SC_NOPS; k++)
    if (sc_opi[k] == opi && (k < SC_negative) == (n == 2))
      return n == 2 ? sc_binary_slot(k, xs[0], xs[1]) : sc_unary_slot(k, xs[0]);
  return ma_ew_operator(opi, xs, n);
}

#define SC_NUMBER_SLOTS(X)                                                                    \
  X(nb_add, add) X(nb_subtract, subtract) X(nb_multiply, multiply) X(nb_true_divide, divide) \
  X(nb_floor_divide, floor_divide) X(nb_remainder, remainder) X(nb_and, and) X(nb_or, or)    \
  X(nb_xor, xor) X(nb_lshift, lshift) X(nb_rshift, rshift)
#define SC_BINARY_FN(slot, id) \
  static PyObject *sc_##id(PyObject *x, PyObject *y) { return sc_binary_slot(SC_##id, x, y); }
SC_NUMBER_SLOTS(SC_BINARY_FN)
#undef SC_BINARY_FN

static PyObject *sc_pow(PyObject *x, PyObject *y, PyObject *mod) {
  if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED; /* pow(s, e, m): NDArray has no such operator either */
  return sc_binary_slot(SC_pow, x, y);
}

#define SC_UNARY_SLOTS(X) X(nb_negative, negative) X(nb_positive, positive) X(nb_absolute, absolute) X(nb_invert, invert)
#define SC_UNARY_FN(slot, id) \
  static PyObject *sc_##id(PyObject *x) { return sc_unary_slot(SC_##id, x); }
SC_UNARY_SLOTS(SC_UNARY_FN)
#undef SC_UNARY_FN

static PyObject *sc_richcompare(PyObject *x, PyObject *y, int cmp) {
  static const int by_cmp[] = {[Py_LT] = SC_lt, [Py_LE] = SC_le, [Py_EQ] = SC_eq,
                               [Py_NE] = SC_ne, [Py_GT] = SC_gt, [Py_GE] = SC_ge};
  return sc_binary_slot(by_cmp[cmp], x, y);
}

/* float(s), int(s), bool(s).  A real element is converted by the cast
 * kernel to a double (for an integer, rounded to nearest as Python's
 * float(int) rounds); an integer to int() and a complex one go through
 * the Python scalar it reads as.  A complex scalar converts its real part
 * with NumPy's ComplexWarning (a 0-d array refuses, NDArray's __float__). */
static int sc_real(const sc_arg *a, double *out) {
  if (ma_type_kind[a->key] == 'c') return 0;
  char *cp[2] = {(char *)out, (char *)a->data};
  int64_t zero[2] = {0, 0};
  ma_cast_loops[a->key][MA_FLOAT64](cp, zero, 1, NULL);
  return 1;
}

/* The element of Scalar `x` as a Python scalar, its real part (with the
 * warning) when it is complex. */
static PyObject *sc_real_item(PyObject *x) {
  static PyObject *complex_warning;
  const ma_array *a = ma_ndarray_array(x);
  if (!a) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "the scalar has no element to convert");
    return NULL;
  }
  PyObject *v = ma_load_scalar(ma_type_of(a->t.dtype), (const char *)a->t.data);
  if (!v || !PyComplex_Check(v)) return v;
  double re = PyComplex_RealAsDouble(v);
  Py_DECREF(v);
  PyObject *w = ma_python_function(&complex_warning, "minarray.exceptions", "ComplexWarning");
  if (!w || PyErr_WarnEx(w, "Casting complex values to real discards the imaginary part", 1) < 0) return NULL;
  return PyFloat_FromDouble(re);
}

static PyObject *sc_float(PyObject *x) {
  sc_arg a;
  double f;
  if (sc_read(x, &a) && a.data && sc_real(&a, &f)) return PyFloat_FromDouble(f);
  PyObject *v = sc_real_item(x);
  if (!v || PyFloat_CheckExact(v)) return v;
  PyObject *r = PyNumber_Float(v);
  Py_DECREF(v);
  return r;
}

static PyObject *sc_int(PyObject *x) {
  sc_arg a;
  double f;
  if (sc_read(x, &a) && a.data) {
    char kind = ma_type_kind[a.key];
    if (kind == 'i' || kind == 'u') return ma_load_scalar(a.key, a.data);
    /* Python's int(float): NaN and infinity raise its errors */
    if (kind == 'f' && sc_real(&a, &f)) return PyLong_FromDouble(f);
  }
  PyObject *v = sc_real_item(x);
  if (!v || PyLong_CheckExact(v)) return v;
  PyObject *r = PyNumber_Long(v);
  Py_DECREF(v);
  return r;
}

static int sc_bool(PyObject *x) {
  sc_arg a;
  double f;
  if (sc_read(x, &a) && a.data && sc_real(&a, &f)) return f != 0; /* NaN: True, as Python's */
  const ma_array *m = ma_ndarray_array(x);
  PyObject *v = m ? ma_load_scalar(ma_type_of(m->t.dtype), (const char *)m->t.data) : NULL;
  if (!v) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "the scalar has no element to convert");
    return -1;
  }
  int r = PyObject_IsTrue(v);
  Py_DECREF(v);
  return r;
}

/* The Scalar's slots, once the class (scalar_setup) and NDArray's operator
 * methods (ew_setup) are both there, whichever comes last: NDArray's
 * methods arriving after would reset the class's slots to CPython's
 * generic ones. */
int ma_scalar_math_install(void) {
  PyTypeObject *tp = ma_nd.scalar;
  for (int k = 0; k < SC_NOPS; k++) {
    sc_opi[k] = ma_ew_op_index(sc_ops[k].ma_name);
    if (sc_opi[k] < 0) {
      PyErr_Format(PyExc_RuntimeError, "the elementwise engine has no op %s", sc_ops[k].ma_name);
      return -1;
    }
  }
  if (!tp || !tp->tp_as_number || !ma_nd.type || !PyDict_GetItemString(ma_nd.type->tp_dict, "__add__")) return 0;
  PyNumberMethods *nb = tp->tp_as_number;
#define SC_SET(slot, id) nb->slot = sc_##id;
  SC_NUMBER_SLOTS(SC_SET)
  SC_UNARY_SLOTS(SC_SET)
#undef SC_SET
  nb->nb_power = sc_pow;
  nb->nb_float = sc_float;
  nb->nb_int = sc_int;
  nb->nb_bool = sc_bool;
  /* s += 1 makes a new scalar (a Scalar is immutable, as NumPy's): with no
   * in-place slot, Python goes straight to the binary one */
  nb->nb_inplace_add = nb->nb_inplace_subtract = nb->nb_inplace_multiply = NULL;
  nb->nb_inplace_true_divide = nb->nb_inplace_floor_divide = nb->nb_inplace_remainder = NULL;
  nb->nb_inplace_and = nb->nb_inplace_or = nb->nb_inplace_xor = NULL;
  nb->nb_inplace_lshift = nb->nb_inplace_rshift = NULL;
  nb->nb_inplace_power = NULL;
  tp->tp_richcompare = sc_richcompare;
  PyType_Modified(tp);
  return 0;
}
