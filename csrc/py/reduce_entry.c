/* The reductions' Python entry points: argument checks, the output, then
 * one call to the plain-C drivers (csrc/core/reduce.c) without the GIL. */
#include "reduce.h"

#include "fpe.h"
#include "pyapi.h"

/* Does `out` hold `x`'s first `nkept` dims, C-contiguous, of type `tid`,
 * and may it be written when `written`?  (The mean is only read.) */
static int check_out(const ma_array *out, const ma_array *x, int nkept, int tid, const char *what, int written) {
  int ok = out->t.ndim == nkept && ma_type_of(out->t.dtype) == tid && ma_array_is_contiguous(out, 0) &&
           !(written && (out->flags & MA_READONLY));
  for (int d = 0; ok && d < nkept; d++) ok = out->t.shape[d] == x->t.shape[d];
  if (!ok) PyErr_Format(PyExc_ValueError, "reduce: %s does not match the reduction", what);
  return ok;
}

/* reduce(op, x, out, nred, extra, divisor, sqrt): out[...] = op over the
 * last nred axes of x.  out: C-contiguous, the kept shape, the kernel's
 * accumulator dtype; or None: then a new one is allocated and its handle
 * returned.  extra: None or the mean (out's dtype and shape) for
 * SSD.  divisor >= 0: divide every result by it (mean, var), then sqrt if
 * asked (std). */
static PyObject *py_reduce(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(7, "reduce");
  int op = (int)PyLong_AsLong(args[0]);
  int nred = (int)PyLong_AsLong(args[3]);
  double divisor = PyFloat_AsDouble(args[5]);
  int take_sqrt = PyObject_IsTrue(args[6]);
  if (PyErr_Occurred()) return NULL;
  ma_array *x = ma_handle_get(args[1]);
  if (!x) return NULL;
  ma_array *out = NULL, *extra = NULL;
  if (args[2] != Py_None && !(out = ma_handle_get(args[2]))) return NULL;
  if (args[4] != Py_None && !(extra = ma_handle_get(args[4]))) return NULL;
  int tid = ma_kernel_type(x, "reduce");
  if (tid < 0) return NULL;
  if (op < 0 || op >= MA_R_NOPS || tid < 0 || nred < 0 || nred > x->t.ndim)
    return PyErr_Format(PyExc_ValueError, "reduce: bad operation %d or axis count %d", op, nred);
  const ma_red_kernel *k = &ma_red_kernels[op][tid];
  if (!k->init) return PyErr_Format(PyExc_TypeError, "reduce: operation %d does not support this dtype", op);
  int nkept = x->t.ndim - nred;
  if (out && !check_out(out, x, nkept, k->acc, "the output", 1)) return NULL;
  if ((op == MA_R_SSD) != (extra != NULL) || (extra && !check_out(extra, x, nkept, k->acc, "the mean", 0)))
    return extra ? NULL : PyErr_Format(PyExc_ValueError, "reduce: the mean is required for SSD only");
  PyObject *result = NULL; /* the new output's handle when we allocate it */
  if (!out) {
    int err = 0;
    if (!(result = ma_handle_empty(ma_dltypes[k->acc], nkept, x->t.shape, NULL, 0, &err)))
      return err == 1 ? PyErr_Format(PyExc_ValueError, "reduce: output too large") : PyErr_NoMemory();
    out = ma_handle_meta(result);
  }

  unsigned fpe;
  Py_BEGIN_ALLOW_THREADS
  ma_fpe_clear();
  ma_reduce_run(op, x, nkept, out, extra, divisor, take_sqrt);
  fpe = ma_fpe_read();
  Py_END_ALLOW_THREADS
  /* What NumPy's reductions report: sums and products overflow ("overflow
   * encountered in reduce"); min and max compare (NaN raises the invalid
   * flag without an invalid value); the logical ones compute nothing. */
  if (op == MA_R_MIN || op == MA_R_MAX) fpe &= ~(unsigned)MA_FPE_INVALID;
  if (op == MA_R_ALL || op == MA_R_ANY || op == MA_R_COUNT) fpe = 0;
  if (fpe && ma_report_fpe("reduce", fpe) < 0) {
    Py_XDECREF(result);
    return NULL;
  }
  if (result) return result;
  Py_RETURN_NONE;
}

/* argreduce(op, x, out): out[...] = index of the first min (op 0) / max
 * (op 1) along x's last axis (length >= 1); out int64, shape x.shape[:-1]. */
static PyObject *py_argreduce(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "argreduce");
  int op = (int)PyLong_AsLong(args[0]);
  if (PyErr_Occurred()) return NULL;
  ma_array *x = ma_handle_get(args[1]), *out = x ? ma_handle_get(args[2]) : NULL;
  if (!out) return NULL;
  int tid = ma_kernel_type(x, "argreduce");
  if (tid < 0) return NULL;
  if (op < 0 || op > 1 || tid < 0 || x->t.ndim < 1 || x->t.shape[x->t.ndim - 1] < 1)
    return PyErr_Format(PyExc_ValueError, "argreduce: bad operation or empty axis");
  ma_arg_kernel kern = ma_arg_kernels[op][tid];
  if (!kern) return PyErr_Format(PyExc_TypeError, "argreduce: unsupported dtype");
  int nkept = x->t.ndim - 1;
  if (!check_out(out, x, nkept, MA_INT64, "the output", 1)) return NULL;
  Py_BEGIN_ALLOW_THREADS
  ma_argreduce_run(kern, x, out);
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

/* argreduce_all(op, x) -> NumPy's x.argmin() (op 0) or x.argmax() (op 1)
 * of a C-contiguous NDArray on the host with at least one element, as an
 * int64 scalar; None for any other x (the Python route takes it, with its
 * checks and messages).  One call instead of the general route's views
 * and output array: the method is what loops call, per element of work. */
static PyObject *py_argreduce_all(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "argreduce_all");
  int op = (int)PyLong_AsLong(args[0]);
  if (PyErr_Occurred()) return NULL;
  if (op < 0 || op > 1) return PyErr_Format(PyExc_ValueError, "argreduce_all: bad operation %d", op);
  ma_array *x = ma_ndarray_array(args[1]); /* NULL for a device array or anything else */
  int tid = x ? ma_type_of(x->t.dtype) : -1;
  if (tid < 0 || tid >= MA_NTYPES || !ma_arg_kernels[op][tid] || !ma_array_is_contiguous(x, 0)) Py_RETURN_NONE;
  int64_t n = ma_array_size(x);
  if (n < 1) Py_RETURN_NONE;
  ma_arg_kernel kern = ma_arg_kernels[op][tid];
  int64_t at;
  if (n < 4096) { /* a short scan costs less than giving the GIL up and back */
    at = kern(x->t.data, n, 1);
  } else {
    Py_BEGIN_ALLOW_THREADS
    at = kern(x->t.data, n, 1);
    Py_END_ALLOW_THREADS
  }
  return ma_scalar_new(MA_INT64, &at);
}

/* scan(op, x, out, include_initial): cumulative sum (op 0) / product (1)
 * along the last axis.  out: any strides, shape x.shape[:-1] + (n + incl,),
 * dtype the scan kernel's result type. */
static PyObject *py_scan(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "scan");
  int op = (int)PyLong_AsLong(args[0]);
  int incl = PyObject_IsTrue(args[3]);
  if (PyErr_Occurred()) return NULL;
  ma_array *x = ma_handle_get(args[1]), *out = x ? ma_handle_get(args[2]) : NULL;
  if (!out) return NULL;
  int tid = ma_kernel_type(x, "scan");
  if (tid < 0) return NULL;
  int nd = x->t.ndim;
  if (op < 0 || op > 1 || tid < 0 || nd < 1 || out->t.ndim != nd)
    return PyErr_Format(PyExc_ValueError, "scan: bad operation or shapes");
  for (int d = 0; d < nd; d++)
    if (out->t.shape[d] != x->t.shape[d] + (d == nd - 1 ? incl : 0))
      return PyErr_Format(PyExc_ValueError, "scan: output shape does not match");
  int otid = ma_red_kernels[MA_R_SUM][tid].acc;
  if (tid >= MA_FLOAT16) otid = tid; /* floats keep their type */
  if (ma_type_of(out->t.dtype) != otid || (out->flags & MA_READONLY))
    return PyErr_Format(PyExc_ValueError, "scan: wrong output dtype");
  if (ma_array_size(out) == 0) Py_RETURN_NONE;
  unsigned fpe;
  Py_BEGIN_ALLOW_THREADS
  ma_fpe_clear();
  ma_scan_run(op, x, out, incl);
  fpe = ma_fpe_read();
  Py_END_ALLOW_THREADS
  /* NumPy's cumsum and cumprod are add.accumulate and multiply.accumulate */
  if (fpe && ma_report_fpe("accumulate", fpe) < 0) return NULL;
  Py_RETURN_NONE;
}

/* subtract(out, a, b): out = a - b, one dtype, a and b broadcast to out. */
static PyObject *py_subtract(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "subtract");
  ma_array *o = ma_handle_get(args[0]), *a = o ? ma_handle_get(args[1]) : NULL,
           *b = a ? ma_handle_get(args[2]) : NULL;
  if (!b) return NULL;
  int tid = ma_kernel_type(o, "subtract");
  if (tid < 0) return NULL;
  if (tid < 0 || ma_type_of(a->t.dtype) != tid || ma_type_of(b->t.dtype) != tid || (o->flags & MA_READONLY))
    return PyErr_Format(PyExc_TypeError, "subtract: operands must share one dtype");
  const ma_array *ops[3] = {o, a, b};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = ma_iterate(3, ops, ma_sub_loops[tid], NULL);
  Py_END_ALLOW_THREADS
  if (rc != 0) return PyErr_Format(PyExc_ValueError, "subtract: shapes do not broadcast");
  Py_RETURN_NONE;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_reduce_methods[] = {
    FC("reduce", py_reduce, "reduce(op, x, out, nred, extra, divisor, sqrt)"),
    FC("argreduce", py_argreduce, "argreduce(op, x, out)"),
    FC("argreduce_all", py_argreduce_all, "argreduce_all(op, x) -> int64 scalar or None"),
    FC("scan", py_scan, "scan(op, x, out, include_initial)"),
    FC("subtract", py_subtract, "subtract(out, a, b)"),
    {NULL, NULL, 0, NULL}};
