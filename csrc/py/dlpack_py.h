/*
 * What the DLPack binding files share.  DLPack's Python side is split by
 * job:
 *   dlpack_capsule.c   the capsule protocol: NDArray.__dlpack__'s capsules
 *                      and their destructor, max_version's negotiation,
 *                      consuming a capsule, peeking at one;
 *   dlpack_import.c    from_dlpack: the one import sequence every door's
 *                      tensor goes through, and asking a producer for its
 *                      tensor (the exchange API or __dlpack__);
 *   dlpack_exchange.c  the C exchange API, both ways: minarray's table and
 *                      imports through a producer's;
 *   dlpack_device.c    device arrays: where an array lives, and re-export
 *                      through the producer it came from;
 *   dlpack_entry.c     NDArray.__dlpack__ and ma.from_dlpack as C callables.
 * (The NumPy fast path of from_numpy reads NumPy's own struct:
 * csrc/py/numpy_struct.c.)
 *
 * What DLPack itself asks of a producer and a consumer (building a managed
 * tensor, deleting it, validating a foreign one, adopting its memory) is
 * plain C in csrc/core/dlpack_core.c, with the ownership picture: read that
 * first.  These files add what Python needs around it.
 *
 * Why C at all: a DLPack exchange costs per call, not per byte.  Building
 * the capsule here, and consuming a producer's capsule here, keeps an
 * exchange within a few hundred nanoseconds; the capsule destructor must be
 * C anyway, because it runs after the exporting NDArray is gone
 * (python_spec.rst, "Syntax for data interchange with DLPack").
 */
#ifndef MINARRAY_DLPACK_PY_H
#define MINARRAY_DLPACK_PY_H

#include "dlpack_core.h"
#include "pyapi.h"

/* Run `stmt` with no exception pending, then restore the one that was.
 * Used wherever a producer's deleter may run on an error path (directly,
 * through a buffer release, or through a capsule destructor): deleters and
 * destructors may run Python code, which must neither see nor clear our
 * exception (numpy#32697 is this bug). */
#define KEEPING_ERROR(stmt)                   \
  do {                                        \
    PyObject *et_, *ev_, *tb_;                \
    PyErr_Fetch(&et_, &ev_, &tb_);            \
    stmt;                                     \
    PyErr_Restore(et_, ev_, tb_);             \
  } while (0)

/* ---- set once by dlpack_setup (dlpack_import.c) -------------------------- */

extern PyObject *ma_str_dlpack, *ma_str_exchange_api; /* "__dlpack__", "__dlpack_c_exchange_api__" */
extern PyObject *ma_max_version_arg; /* (1, 3): the version minarray reads */

/* ---- the capsule protocol (dlpack_capsule.c) ------------------------------ */

/* Reads a (int, int) tuple named `what` in messages; -1 with TypeError
 * (ValueError when out of range) otherwise. */
int ma_int_pair(PyObject *o, const char *what, long *x, long *y);
/* Whether max_version asks for a versioned capsule (major >= 1): 1 or 0,
 * or -1 with the error set. */
int ma_wants_versioned(PyObject *max_version);
/* A new capsule over a managed tensor viewing `a` (versioned or legacy),
 * with the DLPack `flags`; NULL with the error set. */
PyObject *ma_export_capsule(const ma_array *a, int versioned, uint64_t flags);
/* A C-contiguous copy of `a` in a fresh owned buffer (device CPU); NULL
 * with the error set. */
ma_array *ma_copy_of(const ma_array *a);
/* Consume DLPack capsule `cap` through ma_import_managed: renamed used_*
 * once its tensor passed every check.  NULL with the error set. */
ma_array *ma_consume_capsule(PyObject *cap, int opts, int terms, int *copied, void *room);
/* Renames a consumed capsule used_* (its destructor then leaves the tensor
 * to its consumer); -1 with the error set. */
int ma_capsule_mark_used(PyObject *cap, int versioned);
/* export(h, stream, max_version, dl_device, copy): __dlpack__'s body;
 * NotImplemented for a device array to re-export through its producer. */
PyObject *py_dlpack_export(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

/* ---- the import sequence and from_dlpack (dlpack_import.c) ---------------- */

/* ma_import_managed's terms, or-ed (beside ma_dlpack_check's opts). */
#define MA_IMPORT_LEGACY_READONLY 1 /* a legacy struct imports read-only */
#define MA_IMPORT_AS_CPU 2          /* memory the CPU can address reports as the CPU */
#define MA_IMPORT_CPU_OR_BACK 4     /* a handed-over tensor the CPU cannot address is given back */

/* The one import of a managed tensor `p` (DLManagedTensorVersioned when
 * `versioned`, else DLManagedTensor), whichever door it came by. */
ma_array *ma_import_managed(void *p, int versioned, PyObject *cap, int opts, int terms, int *copied, void *room);
/* Releases an import's array, built in `room` or allocated. */
void ma_import_drop(ma_array *a, void *room);
/* from_dlpack(x, want_cpu, copy) -> NDArray */
PyObject *py_dlpack_import(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

/* ---- a producer's exchange API (dlpack_exchange.c) ------------------------ */

/* The exchange API's capsule name, "dlpack_exchange_api". */
extern const char ma_exchange_api_name[];
/* The DLPack C exchange API of type `tp`, or NULL (no error set). */
const DLPackExchangeAPI *ma_exchange_api_of(PyTypeObject *tp);
/* Import x through `api`: the array, or NULL with the error set, or NULL
 * with *fallback set when __dlpack__ must be asked instead. */
ma_array *ma_import_via_api(const DLPackExchangeAPI *api, PyObject *x, int opts, int terms, int *copied,
                            int *fallback, void *room);

/* ---- device arrays (dlpack_device.c) -------------------------------------- */

/* Whether `b` is the foreign buffer over an imported DLPack tensor (its
 * release calls a producer's deleter). */
int ma_is_dlpack_import(const ma_buffer *b);

#endif
