/*
 * The Python entry points of sorting, partition, searchsorted and unique:
 * argument checks and the results' handles around one call each to the
 * kernels of csrc/core/sort.c, made without the GIL.
 */
#include "pyapi.h"
#include <string.h>

#include "sort.h"

/* The checks sort and partition share: x of a dtype the keys order (ndim
 * >= 1), out of x's shape and dtype (int64 indices when arg), writeable.
 * 0, or -1 with the error set (`what` names the function). */
static int check_rows(const ma_array *x, const ma_array *out, int arg, const char *what) {
  int tid = ma_kernel_type(x, what);
  if (tid < 0) return -1;
  int nd = x->t.ndim;
  if (!ma_sort_key_bytes(tid)) {
    PyErr_Format(PyExc_TypeError, "%s: unsupported dtype (complex values have no order)", what);
    return -1;
  }
  if (nd < 1 || out->t.ndim != nd || ma_type_of(out->t.dtype) != (arg ? MA_INT64 : tid) ||
      (out->flags & MA_READONLY)) {
    PyErr_Format(PyExc_ValueError, "%s: output does not match", what);
    return -1;
  }
  for (int d = 0; d < nd; d++)
    if (out->t.shape[d] != x->t.shape[d]) {
      PyErr_Format(PyExc_ValueError, "%s: output shape differs", what);
      return -1;
    }
  return 0;
}

/* sort(x, out, descending, arg): sort each run along x's last axis into the
 * matching run of out (x's dtype, or int64 indices when arg): ma_sort. */
static PyObject *py_sort(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "sort");
  ma_array *x = ma_handle_get(args[0]), *out = x ? ma_handle_get(args[1]) : NULL;
  if (!out) return NULL;
  int descending = PyObject_IsTrue(args[2]), arg = PyObject_IsTrue(args[3]);
  if (descending < 0 || arg < 0) return NULL;
  if (check_rows(x, out, arg, "sort") < 0) return NULL;
  if (ma_array_size(x) == 0) Py_RETURN_NONE;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = ma_sort(x, out, descending, arg);
  Py_END_ALLOW_THREADS
  if (rc < 0) return PyErr_NoMemory();
  Py_RETURN_NONE;
}

/* partition(x, out, kth, arg): each run along x's last axis selected into
 * the matching run of out (x's dtype, or int64 indices when arg) so that
 * the positions in kth (int64, 1-d, strictly increasing, in [0, n)) hold
 * what a sort would put there (NumPy's partition/argpartition):
 * ma_partition. */
static PyObject *py_partition(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "partition");
  ma_array *x = ma_handle_get(args[0]), *out = x ? ma_handle_get(args[1]) : NULL,
           *kt = out ? ma_handle_get(args[2]) : NULL;
  if (!kt) return NULL;
  int arg = PyObject_IsTrue(args[3]);
  if (arg < 0) return NULL;
  if (check_rows(x, out, arg, "partition") < 0) return NULL;
  int64_t n = x->t.shape[x->t.ndim - 1];
  if (kt->t.ndim != 1 || ma_type_of(kt->t.dtype) != MA_INT64 || !ma_array_is_contiguous(kt, 0))
    return PyErr_Format(PyExc_ValueError, "partition: kth must be a contiguous 1-d int64 array");
  /* The kernel runs without the GIL and indexes by these positions: it gets
   * a private copy, checked here, not memory another thread can rewrite. */
  int64_t nkth = kt->t.shape[0];
  int64_t *kth = PyMem_Malloc((size_t)(nkth ? nkth : 1) * sizeof *kth);
  if (!kth) return PyErr_NoMemory();
  memcpy(kth, kt->t.data, (size_t)nkth * sizeof *kth);
  for (int64_t j = 0; j < nkth; j++)
    if (kth[j] < 0 || kth[j] >= n || (j && kth[j] <= kth[j - 1])) {
      PyMem_Free(kth);
      return PyErr_Format(PyExc_ValueError, "partition: kth must increase strictly within [0, %lld)", (long long)n);
    }
  int rc = 0;
  if (ma_array_size(x) != 0) {
    Py_BEGIN_ALLOW_THREADS
    rc = ma_partition(x, out, kth, nkth, arg);
    Py_END_ALLOW_THREADS
  }
  PyMem_Free(kth);
  if (rc < 0) return PyErr_NoMemory();
  Py_RETURN_NONE;
}

/* searchsorted(x1, x2, out, right): x1 1-d sorted, x2 any shape of the same
 * dtype, out int64 C-contiguous of x2's shape. */
static PyObject *py_searchsorted(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "searchsorted");
  ma_array *a = ma_handle_get(args[0]), *v = a ? ma_handle_get(args[1]) : NULL,
           *out = v ? ma_handle_get(args[2]) : NULL;
  if (!out) return NULL;
  int right = PyObject_IsTrue(args[3]);
  if (right < 0) return NULL;
  int tid = ma_kernel_type(a, "searchsorted");
  if (tid < 0) return NULL;
  if (!ma_sort_key_bytes(tid) || ma_type_of(v->t.dtype) != tid)
    return PyErr_Format(PyExc_TypeError, "searchsorted: both arrays need one real dtype");
  /* the kernel writes one int64 per element of v into out's memory, in C
   * order: out must be exactly that (a smaller one would be overrun) */
  int same = a->t.ndim == 1 && out->t.ndim == v->t.ndim && ma_type_of(out->t.dtype) == MA_INT64 &&
             ma_array_is_contiguous(out, 0);
  for (int i = 0; same && i < v->t.ndim; i++) same = out->t.shape[i] == v->t.shape[i];
  if (!same)
    return PyErr_Format(PyExc_ValueError, "searchsorted: x1 must be 1-d and out a C-contiguous int64 array of "
                                          "x2's shape");
  if (ma_check_writeable(out) < 0) return NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = ma_searchsorted(a, v, (int64_t *)out->t.data, right);
  Py_END_ALLOW_THREADS
  if (rc < 0) return PyErr_NoMemory();
  Py_RETURN_NONE;
}

static ma_array *new_1d(DLDataType dt, int64_t n) {
  int err = 0;
  return ma_array_empty(dt, 1, &n, 0, &err);
}

/* unique(x) -> (n, values, indices, inverse, counts), handles over the
 * C-ordered elements of x: sorted distinct values (each NaN distinct, -0.0
 * equal to 0.0), the index of each value's first occurrence, each
 * element's position in values (x's shape), and how often each occurs. */
static PyObject *py_unique(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "unique");
  ma_array *x = ma_handle_get(args[0]);
  if (!x) return NULL;
  int tid = ma_kernel_type(x, "unique");
  if (tid < 0) return NULL;
  if (tid < 0 || !ma_sort_key_bytes(tid))
    return PyErr_Format(PyExc_TypeError, "unique: unsupported dtype (complex values have no order)");
  ma_sort_workspace w;
  if (ma_sort_workspace_alloc(&w, ma_array_size(x), 1) < 0) {
    ma_sort_workspace_free(&w);
    return PyErr_NoMemory();
  }
  int64_t groups;
  Py_BEGIN_ALLOW_THREADS
  groups = ma_unique_sort(x, &w);
  Py_END_ALLOW_THREADS
  DLDataType i64 = {kDLInt, 64, 1};
  int err = 0;
  ma_array *values = new_1d(x->t.dtype, groups), *first = new_1d(i64, groups),
           *counts = new_1d(i64, groups), *inverse = ma_array_empty(i64, x->t.ndim, x->t.shape, 0, &err);
  if (!values || !first || !counts || !inverse) {
    ma_array_free(values);
    ma_array_free(first);
    ma_array_free(counts);
    ma_array_free(inverse);
    ma_sort_workspace_free(&w);
    return PyErr_NoMemory();
  }
  Py_BEGIN_ALLOW_THREADS
  ma_unique_fill(x, &w, values, first, inverse, counts);
  Py_END_ALLOW_THREADS
  ma_sort_workspace_free(&w);
  PyObject *hv = ma_handle_new(values), *hf = ma_handle_new(first), *hi = ma_handle_new(inverse),
           *hc = ma_handle_new(counts);
  if (!hv || !hf || !hi || !hc) {
    Py_XDECREF(hv);
    Py_XDECREF(hf);
    Py_XDECREF(hi);
    Py_XDECREF(hc);
    return NULL;
  }
  return Py_BuildValue("(LNNNN)", (long long)groups, hv, hf, hi, hc);
}

/* unique_values(x) -> (n, handle of the n sorted distinct values of x), for
 * real dtypes (ma_unique_keys: each NaN distinct, last); TypeError for
 * complex, which takes unique(). */
static PyObject *py_unique_values(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "unique_values");
  ma_array *x = ma_handle_get(args[0]);
  if (!x) return NULL;
  int tid = ma_kernel_type(x, "unique_values");
  if (tid < 0) return NULL;
  if (!ma_sort_key_bytes(tid))
    return PyErr_Format(PyExc_TypeError, "unique_values: real dtypes only");
  ma_sort_workspace w;
  if (ma_sort_workspace_alloc(&w, ma_array_size(x), 0) < 0) {
    ma_sort_workspace_free(&w);
    return PyErr_NoMemory();
  }
  int64_t groups;
  Py_BEGIN_ALLOW_THREADS
  groups = ma_unique_keys(x, &w);
  Py_END_ALLOW_THREADS
  ma_array *values = new_1d(x->t.dtype, groups);
  if (!values) {
    ma_sort_workspace_free(&w);
    return PyErr_NoMemory();
  }
  ma_unique_keys_fill(x, &w, values);
  ma_sort_workspace_free(&w);
  PyObject *h = ma_handle_new(values);
  return h ? Py_BuildValue("(LN)", (long long)groups, h) : NULL;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_sort_methods[] = {
    FC("unique_values", py_unique_values, "unique_values(x) -> (n, values)"),
    FC("sort", py_sort, "sort(x, out, descending, arg)"),
    FC("partition", py_partition, "partition(x, out, kth, arg)"),
    FC("searchsorted", py_searchsorted, "searchsorted(x1, x2, out, right)"),
    FC("unique", py_unique, "unique(x) -> (n, values, indices, inverse, counts)"),
    {NULL, NULL, 0, NULL}};
