/*
 * matmul's Python entry point: the checks memory safety needs, then one
 * call to the kernels of csrc/core/gemm.c without the GIL, and the
 * floating-point flags it raised reported as NumPy reports them.
 */
#include "gemm.h"
#include "pyapi.h"

/* matmul(a, b, out, conj_a[, operation]): out[..., m, n] = conj?(a)[..., m, k] . b[..., k, n]
 * Floating-point errors are reported as NumPy's `operation` reports them
 * (default "matmul"; "dot", "vecdot", ...).
 *
 * All three share one dtype (float64, float32, complex128, complex64, int64
 * or uint64) and have the same number of dimensions (>= 2); the batch
 * dimensions of a and b broadcast to out's (stride 0 where they repeat).
 * Python checks shapes and casts; this checks what memory safety needs. */
static PyObject *py_matmul(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 4 && nargs != 5) {
    PyErr_Format(PyExc_TypeError, "matmul() takes 4 or 5 arguments (%zd given)", nargs);
    return NULL;
  }
  const char *operation = nargs == 5 ? PyUnicode_AsUTF8(args[4]) : "matmul";
  if (!operation) return NULL;
  ma_array *a = ma_handle_get(args[0]);
  ma_array *b = a ? ma_handle_get(args[1]) : NULL;
  ma_array *c = b ? ma_handle_get(args[2]) : NULL;
  if (!c) return NULL;
  int conj = PyObject_IsTrue(args[3]);
  if (conj < 0) return NULL;
  /* Vector operands, NumPy's matmul rule: a 1-d first operand is a row
   * (1, k), a 1-d second one a column (k, 1), and the output lacks the
   * axis each adds.  The matrices are headers on this stack over the same
   * memory; the originals hold it for the call. */
  _Alignas(ma_array) unsigned char row_mem[MA_ARRAY_BYTES(2)], col_mem[MA_ARRAY_BYTES(2)], out_mem[MA_ARRAY_BYTES(2)];
  int nda = a->t.ndim, ndb = b->t.ndim;
  if ((nda == 1 && ndb >= 1 && ndb <= 2) || (ndb == 1 && nda == 2)) {
    int64_t m = nda == 2 ? a->t.shape[0] : 1, k = a->t.shape[nda - 1], n = ndb == 2 ? b->t.shape[1] : 1;
    int ndc = nda + ndb - 2;
    if (c->t.ndim != ndc || (nda == 2 && c->t.shape[0] != m) || (ndb == 2 && c->t.shape[ndc - 1] != n)) {
      PyErr_SetString(PyExc_ValueError, "matmul kernel: the output does not fit the vector product");
      return NULL;
    }
    const int64_t a_shape[2] = {m, k}, a_strides[2] = {nda == 2 ? a->t.strides[0] : 0, a->t.strides[nda - 1]};
    const int64_t b_shape[2] = {b->t.shape[0], n}, b_strides[2] = {b->t.strides[0], ndb == 2 ? b->t.strides[1] : 0};
    const int64_t c_shape[2] = {m, n},
                  c_strides[2] = {nda == 2 ? c->t.strides[0] : 0, ndb == 2 ? c->t.strides[ndc - 1] : 0};
    a = ma_array_init(row_mem, NULL, a->t.data, a->t.dtype, 2, a_shape, a_strides, a->flags);
    b = ma_array_init(col_mem, NULL, b->t.data, b->t.dtype, 2, b_shape, b_strides, b->flags);
    c = ma_array_init(out_mem, NULL, c->t.data, c->t.dtype, 2, c_shape, c_strides, c->flags);
  }
  int ta = ma_type_of(a->t.dtype);
  if (!ma_matmul_type_ok(ta) || ta != ma_type_of(b->t.dtype) || ta != ma_type_of(c->t.dtype)) {
    PyErr_SetString(PyExc_TypeError,
                    "matmul kernel needs three arrays of one dtype among float64, float32, "
                    "complex128, complex64, int64 and uint64");
    return NULL;
  }
  int nd = c->t.ndim;
  if (nd < 2 || a->t.ndim != nd || b->t.ndim != nd) {
    PyErr_SetString(PyExc_ValueError, "matmul kernel needs arrays of one ndim >= 2");
    return NULL;
  }
  int64_t m = c->t.shape[nd - 2], n = c->t.shape[nd - 1], k = a->t.shape[nd - 1];
  if (a->t.shape[nd - 2] != m || b->t.shape[nd - 2] != k || b->t.shape[nd - 1] != n) {
    PyErr_SetString(PyExc_ValueError, "matmul kernel: core dimensions do not match");
    return NULL;
  }
  for (int d = 0; d < nd - 2; d++) {
    int64_t sz = c->t.shape[d];
    if (a->t.shape[d] != sz && a->t.shape[d] != 1) goto bad_batch;
    if (b->t.shape[d] != sz && b->t.shape[d] != 1) goto bad_batch;
  }
  if (c->flags & MA_READONLY) {
    PyErr_SetString(PyExc_ValueError, "matmul output is read-only");
    return NULL;
  }
  if (ma_array_size(c) == 0) Py_RETURN_NONE;
  int failed;
  unsigned fpe;
  Py_BEGIN_ALLOW_THREADS
  fpe = ma_matmul(a, b, c, conj, &failed);
  Py_END_ALLOW_THREADS
  if (failed) return PyErr_NoMemory();
  if (fpe && ma_report_fpe(operation, fpe) < 0) return NULL;
  Py_RETURN_NONE;
bad_batch:
  PyErr_SetString(PyExc_ValueError, "matmul kernel: batch dimensions do not broadcast");
  return NULL;
}

PyMethodDef ma_linalg_methods[] = {
    {"matmul", (PyCFunction)(void (*)(void))py_matmul, METH_FASTCALL,
     "matmul(a, b, out, conj_a[, operation]): out = conj?(a) @ b over broadcast batches; a 1-d a or b "
     "(not both beside a 3-d or more) is a row or a column, as in NumPy's matmul"},
    {NULL, NULL, 0, NULL}};
