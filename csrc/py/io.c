/*
 * Bytes in and out: an array's elements as a bytes object in C or Fortran
 * order (x.tobytes, pickling, tofile), and arrays over memory-mapped files
 * (ma.load(..., mmap_mode=...)).  minarray/_io.py and minarray/_npy_format.py
 * are the Python side.
 */
#include "pyapi.h" /* Python.h first, as CPython requires */

#include "copy.h"

#include <fcntl.h> /* fallocate (pyapi.h defines _GNU_SOURCE through Python.h) */

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

/* Element strides of a contiguous array of `shape`, C or Fortran order. */
static void contiguous_strides(int nd, const int64_t *shape, int fortran, int64_t *strides) {
  int64_t s = 1;
  for (int k = 0; k < nd; k++) {
    int i = fortran ? k : nd - 1 - k;
    strides[i] = s;
    s *= shape[i] ? shape[i] : 1;
  }
}

/* Copies of at least this many bytes release the GIL. */
#define IO_KEEP_GIL_BYTES (1 << 16)

/* tobytes(h, fortran) -> bytes: the elements in C (or Fortran) order. */
static PyObject *py_tobytes(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "tobytes");
  ma_array *a = ma_handle_get(args[0]);
  int fortran = a ? PyObject_IsTrue(args[1]) : -1;
  if (fortran < 0) return NULL;
  int tid = ma_type_of(a->t.dtype);
  size_t nbytes = (size_t)ma_array_size(a) * (size_t)ma_type_size[tid]; /* fits: ma_nbytes checked it */
  PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)nbytes);
  if (!out || nbytes == 0) return out;
  char *dst = PyBytes_AS_STRING(out);
  if (nbytes < IO_KEEP_GIL_BYTES && ma_array_is_contiguous(a, fortran)) {
    memcpy(dst, a->t.data, nbytes);
    return out;
  }
  /* The bytes object's storage is fresh memory: huge pages first (a
   * pickle of 100 MB spent most of its time in page faults), then the
   * copy kernel, split over the thread pool, writes into it, seen as an
   * array of a's shape in the order asked for. */
  ma_advise_hugepages(dst, nbytes);
  int64_t strides[MA_MAXDIMS];
  contiguous_strides(a->t.ndim, a->t.shape, fortran, strides);
  ma_array *d = ma_array_new(NULL, dst, a->t.dtype, a->t.ndim, a->t.shape, strides, 0);
  if (!d) {
    Py_DECREF(out);
    return PyErr_NoMemory();
  }
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = ma_copyto(d, a); /* d is new memory: no overlap, no snapshot */
  Py_END_ALLOW_THREADS
  if (rc < 0) PyErr_NoMemory(); /* (-2; the shapes match, so never -1) */
  ma_array_free(d);
  if (rc < 0) Py_CLEAR(out);
  return out;
}

/* map_file(fd, offset, shape, code, bits, fortran, mode) -> handle over the
 * open file `fd` mapped into memory, the elements starting `offset` bytes
 * into it, contiguous in C (or Fortran) order; mode 0 read-only (the array
 * too), 1 read-write, 2 copy-on-write (see ma_buffer_map).  The file must
 * hold every element (ValueError otherwise: nothing past its end is ever
 * mapped), `offset` must keep them aligned, and the array must not be
 * empty (there is nothing to map: the caller makes an ordinary one). */
static PyObject *py_map_file(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(7, "map_file");
  long fd = PyLong_AsLong(args[0]);
  if (fd == -1 && PyErr_Occurred()) return NULL;
  long long offset = PyLong_AsLongLong(args[1]);
  if (offset == -1 && PyErr_Occurred()) return NULL;
  if (fd < 0 || fd > INT_MAX) {
    PyErr_Format(PyExc_ValueError, "map_file: %ld is not a file descriptor", fd);
    return NULL;
  }
  int64_t shape[MA_MAXDIMS], strides[MA_MAXDIMS];
  int nd = ma_parse_dims(args[2], shape, "shape");
  DLDataType dt;
  if (nd < 0 || ma_parse_dtype(args[3], args[4], &dt) < 0) return NULL;
  int tid = ma_type_of(dt), fortran = PyObject_IsTrue(args[5]);
  long mode = PyLong_AsLong(args[6]);
  if (fortran < 0 || (mode == -1 && PyErr_Occurred())) return NULL;
  if (tid < 0 || mode < 0 || mode > 2) {
    PyErr_SetString(PyExc_ValueError, "map_file: unknown dtype or mode");
    return NULL;
  }
  size_t nbytes, end;
  if (ma_nbytes(nd, shape, (size_t)ma_type_size[tid], &nbytes) != 0)
    return ma_empty_error(args[2], 1, ma_type_size[tid]);
  if (nbytes == 0) {
    PyErr_SetString(PyExc_ValueError, "map_file: an empty array has nothing to map");
    return NULL;
  }
  if (offset < 0 || offset % ma_type_alignment(tid) != 0) {
    PyErr_Format(PyExc_ValueError,
                 "the data starts at byte %lld of the file, which is not aligned for %S's elements: the file "
                 "cannot be mapped (load it without mmap_mode)",
                 offset, ma_nd.dtypes[tid]);
    return NULL;
  }
  struct stat st;
  if (fstat((int)fd, &st) != 0) return PyErr_SetFromErrno(PyExc_OSError);
  if (__builtin_add_overflow((size_t)offset, nbytes, &end) || st.st_size < 0 || end > (size_t)st.st_size) {
    PyErr_Format(PyExc_ValueError,
                 "the file holds %lld bytes, but its header describes %zu bytes of data from byte %lld: it is "
                 "truncated, or the header is wrong",
                 (long long)st.st_size, nbytes, offset);
    return NULL;
  }
  ma_buffer *b;
  Py_BEGIN_ALLOW_THREADS b = ma_buffer_map((int)fd, end, (int)mode);
  Py_END_ALLOW_THREADS
  if (!b) return PyErr_SetFromErrno(errno == ENOMEM ? PyExc_MemoryError : PyExc_OSError);
  contiguous_strides(nd, shape, fortran, strides);
  ma_array *a = ma_array_new(b, (char *)b->data + offset, dt, nd, shape, strides, mode == 0 ? MA_READONLY : 0);
  ma_buffer_release(b); /* the array holds the only reference: dropping it unmaps */
  return ma_handle_new(a);
}

/* preallocate(fd, offset, nbytes): reserve the file's blocks for the
 * `nbytes` about to be written at `offset`, without changing its size
 * (Linux fallocate with FALLOC_FL_KEEP_SIZE, as NumPy's tofile does).  On
 * ext4 a large write into reserved blocks takes about half as long, and
 * a full disk shows up here (OSError ENOSPC) before anything is written.
 * Returns True when the blocks were reserved, False when the file or the
 * system cannot say (a pipe, another OS): the write then goes ahead. */
static PyObject *py_preallocate(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "preallocate");
  long fd = PyLong_AsLong(args[0]);
  long long offset = fd == -1 && PyErr_Occurred() ? -1 : PyLong_AsLongLong(args[1]);
  long long nbytes = offset == -1 && PyErr_Occurred() ? -1 : PyLong_AsLongLong(args[2]);
  if (nbytes == -1 && PyErr_Occurred()) return NULL;
  if (fd < 0 || fd > INT_MAX || offset < 0 || nbytes <= 0) Py_RETURN_FALSE;
#if defined(__linux__) && defined(FALLOC_FL_KEEP_SIZE)
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = fallocate((int)fd, FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)nbytes);
  Py_END_ALLOW_THREADS
  if (rc == 0) Py_RETURN_TRUE;
  if (errno == ENOSPC) {
    PyErr_Format(PyExc_OSError, "not enough free space to write %lld bytes", nbytes);
    return NULL;
  }
#endif
  Py_RETURN_FALSE;
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_io_methods[] = {
    FC("tobytes", py_tobytes, "tobytes(h, fortran) -> bytes"),
    FC("preallocate", py_preallocate, "preallocate(fd, offset, nbytes) -> bool"),
    FC("map_file", py_map_file, "map_file(fd, offset, shape, code, bits, fortran, mode) -> handle"),
    {NULL, NULL, 0, NULL}};
