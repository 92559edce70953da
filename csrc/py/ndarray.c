/*
 * The NDArray type's C side.
 *
 * NDArrayBase is a C type holding an array's fields (ma_ndobject: the
 * handle, shape and strides tuples, dtype, base); NDArray
 * (minarray/_array_object.py) is its Python subclass, with the methods.  C reads
 * and writes the fields as struct members, and Python as the members _h,
 * _shape, _strides, _dtype and _base.  minarray._array_object hands the class and
 * its dtypes to ndarray_setup() once at import; from then on imports,
 * elementwise results and new empty arrays are made here, in one place,
 * an order of magnitude faster than a Python constructor path.
 */
#include "pyapi.h" /* Python.h first, as CPython requires */

#include <stddef.h>
#include <structmember.h> /* T_OBJECT_EX */

/* ---- NDArrayBase ------------------------------------------------------- */

static int nd_traverse(PyObject *self, visitproc visit, void *arg) {
  ma_ndobject *o = MA_ND(self);
  Py_VISIT(o->shape);
  Py_VISIT(o->strides);
  Py_VISIT(o->dtype);
  Py_VISIT(o->base); /* an imported array's producer may refer back to it */
  Py_VISIT(o->retired);
  return 0;
}

static int nd_clear(PyObject *self) {
  ma_ndobject *o = MA_ND(self);
  Py_CLEAR(o->shape);
  Py_CLEAR(o->strides);
  Py_CLEAR(o->dtype);
  Py_CLEAR(o->base);
  Py_CLEAR(o->retired);
  return 0;
}

/* The handle goes last: its release may run a foreign owner's code, after
 * the references that could lead back here are gone.  (NDArray, the heap
 * subclass, is deallocated through CPython's subtype_dealloc, which calls
 * this and then drops its reference to the class: not ours to drop.) */
static void nd_dealloc(PyObject *self) {
  PyObject_GC_UnTrack(self);
  if (MA_ND(self)->weakrefs) PyObject_ClearWeakRefs(self);
  nd_clear(self);
  Py_CLEAR(MA_ND(self)->h);
  Py_TYPE(self)->tp_free(self);
}

/* The shape and strides tuples are made on first use, by Python's _shape
 * and _strides or C's ma_nd_shape and ma_nd_strides, not with the array: a
 * view or a result whose dims nobody reads costs two tuples (and their
 * deallocation) less, a fifth of a basic slice (AMD EPYC Zen 4).  Borrowed
 * reference, or NULL with an error. */
static PyObject *dims_of(PyObject *self, int strides) {
  ma_ndobject *o = MA_ND(self);
  PyObject **slot = strides ? &o->strides : &o->shape;
  if (*slot) return *slot;
  ma_array *a = o->h ? ma_handle_meta(o->h) : NULL;
  if (!a) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_AttributeError, strides ? "_strides" : "_shape");
    return NULL;
  }
  *slot = ma_dims_tuple(a->t.ndim, strides ? a->t.strides : a->t.shape);
  return *slot;
}

PyObject *ma_nd_shape(PyObject *x) { return dims_of(x, 0); }
PyObject *ma_nd_strides(PyObject *x) { return dims_of(x, 1); }

static PyObject *get_shape(PyObject *self, void *unused) {
  (void)unused;
  return Py_XNewRef(dims_of(self, 0));
}

static PyObject *get_strides(PyObject *self, void *unused) {
  (void)unused;
  return Py_XNewRef(dims_of(self, 1));
}

/* _dtype and _base read and write as plain members, except that storing
 * an object the garbage collector tracks makes the NDArray tracked too
 * (ma_ndarray_wrap's rule: a cycle through it stays collectable). */
typedef struct {
  size_t offset;
  const char *name;
} nd_field;
static const nd_field field_dtype = {offsetof(ma_ndobject, dtype), "_dtype"};
static const nd_field field_base = {offsetof(ma_ndobject, base), "_base"};

static PyObject *get_field(PyObject *self, void *closure) {
  const nd_field *f = (const nd_field *)closure;
  PyObject *v = *(PyObject **)((char *)self + f->offset);
  if (!v)
    return PyErr_Format(PyExc_AttributeError, "'%.200s' object has no attribute '%s'", Py_TYPE(self)->tp_name,
                        f->name);
  return Py_NewRef(v);
}

static int set_field(PyObject *self, PyObject *value, void *closure) {
  const nd_field *f = (const nd_field *)closure;
  if (value && PyObject_GC_IsTracked(value) && !PyObject_GC_IsTracked(self)) PyObject_GC_Track(self);
  Py_XSETREF(*(PyObject **)((char *)self + f->offset), Py_XNewRef(value));
  return 0;
}

/* The hottest attribute reads are C descriptors, not Python properties: a
 * third of the time (x.shape took 69 ns as a property, x._shape 23). */
static int set_shape(PyObject *self, PyObject *value, void *unused) {
  (void)unused;
  if (!value) {
    PyErr_SetString(PyExc_AttributeError, "Cannot delete array shape");
    return -1;
  }
  return ma_ndarray_set_shape(self, value);
}

static PyObject *get_ndim(PyObject *self, void *unused) {
  (void)unused;
  ma_array *a = MA_ND(self)->h ? ma_handle_meta(MA_ND(self)->h) : NULL;
  return a ? PyLong_FromLong(a->t.ndim) : NULL;
}

static PyObject *get_size(PyObject *self, void *unused) {
  (void)unused;
  ma_array *a = MA_ND(self)->h ? ma_handle_meta(MA_ND(self)->h) : NULL;
  return a ? PyLong_FromLongLong(ma_array_size(a)) : NULL;
}

static PyObject *get_itemsize(PyObject *self, void *unused) {
  (void)unused;
  ma_array *a = MA_ND(self)->h ? ma_handle_meta(MA_ND(self)->h) : NULL;
  return a ? PyLong_FromLongLong(ma_elsize(a->t.dtype)) : NULL;
}

static PyObject *get_nbytes(PyObject *self, void *unused) {
  (void)unused;
  ma_array *a = MA_ND(self)->h ? ma_handle_meta(MA_ND(self)->h) : NULL;
  return a ? PyLong_FromLongLong(ma_array_size(a) * ma_elsize(a->t.dtype)) : NULL;
}

/* NumPy's strides: in bytes (the fields hold them in elements) */
static PyObject *get_byte_strides(PyObject *self, void *unused) {
  (void)unused;
  ma_array *a = MA_ND(self)->h ? ma_handle_meta(MA_ND(self)->h) : NULL;
  if (!a) return NULL;
  int64_t item = ma_elsize(a->t.dtype), st[MA_MAXDIMS];
  for (int i = 0; i < a->t.ndim; i++) st[i] = a->t.strides[i] * item;
  return ma_dims_tuple(a->t.ndim, st);
}

static PyGetSetDef nd_getset[] = {
    {"itemsize", get_itemsize, NULL, "Bytes per element.", NULL},
    {"nbytes", get_nbytes, NULL, "Bytes the elements occupy (size * itemsize).", NULL},
    {"strides", get_byte_strides, NULL, "Strides in bytes, as NumPy reports them.", NULL},
    {"T", ma_ndarray_T, NULL, "The array with its axes reversed (a view).", NULL},
    {"shape", get_shape, set_shape,
     "The length of each axis.  Assigning it reshapes the array in place, as NumPy allows: only into a shape "
     "that lays over the memory as it lies (else AttributeError; reshape copies when it must).",
     NULL},
    {"dtype", get_field, NULL, "The element type.", (void *)&field_dtype},
    {"ndim", get_ndim, NULL, "The number of axes.", NULL},
    {"size", get_size, NULL, "The number of elements.", NULL},
    {"_shape", get_shape, NULL, "the shape, a tuple of ints", NULL},
    {"_strides", get_strides, NULL, "the strides in elements", NULL},
    {"_dtype", get_field, set_field, "the DType", (void *)&field_dtype},
    {"_base", get_field, set_field, "the object whose memory this views, or None", (void *)&field_base},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMemberDef nd_members[] = {
    {"_h", T_OBJECT_EX, offsetof(ma_ndobject, h), 0, "the handle: an object owning the C metadata"},
    {NULL, 0, 0, 0, NULL}};

/* ---- the buffer protocol (PEP 3118) --------------------------------------
 *
 * memoryview(x), bytes(x), struct, hashlib, file writes and C extensions
 * read an NDArray's memory in place, with NumPy's format strings (each
 * DType's `format`, handed over by ndarray_setup).  An export keeps the
 * NDArray (view->obj, as the protocol wants) and one reference to its
 * buffer (so even a handle swapped under it cannot free the memory), until
 * the consumer releases it.  What the array cannot give raises BufferError:
 * a writable export of a read-only array, a contiguity it does not have, a
 * format for a dtype that has none (bfloat16; its bytes are still
 * available to consumers that ask for no format). */

typedef struct {
  ma_buffer *buf;     /* retained for the export's lifetime */
  Py_ssize_t dims[];  /* shape[ndim] then strides[ndim], in bytes */
} nd_export;

static int nd_getbuffer(PyObject *self, Py_buffer *view, int flags) {
  ma_array *a = ma_ndarray_array(self);
  if (!a) {
    /* an array on another device: the one guard's words (ma_handle_get),
     * as the BufferError the protocol raises */
    if (!PyErr_Occurred() && MA_ND(self)->h && !ma_handle_get(MA_ND(self)->h) &&
        PyErr_ExceptionMatches(PyExc_RuntimeError)) {
      PyObject *et, *ev, *tb;
      PyErr_Fetch(&et, &ev, &tb);
      PyErr_Format(PyExc_BufferError, "%S", ev ? ev : Py_None);
      Py_XDECREF(et);
      Py_XDECREF(ev);
      Py_XDECREF(tb);
    }
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_BufferError, "the NDArray is not initialised: nothing to export");
    return -1;
  }
  int tid = ma_type_of(a->t.dtype), nd = a->t.ndim;
  const char *why = NULL;
  if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && (a->flags & MA_READONLY))
    why = "the array is read-only: it cannot export a writable buffer";
  else if ((flags & PyBUF_FORMAT) == PyBUF_FORMAT && !ma_nd.formats[tid][0]) {
    PyErr_Format(PyExc_BufferError,
                 "%S has no buffer-protocol format string (PEP 3118 has no code for it): read its bytes with "
                 "x.tobytes(), or share it through DLPack",
                 ma_nd.dtypes[tid]);
    return -1;
  } else if ((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !ma_array_is_contiguous(a, 0))
    why = "the array is not C-contiguous, but the consumer asked for a C-contiguous buffer";
  else if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !ma_array_is_contiguous(a, 1))
    why = "the array is not Fortran-contiguous, but the consumer asked for a Fortran-contiguous buffer";
  else if ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !ma_array_is_contiguous(a, 0) &&
           !ma_array_is_contiguous(a, 1))
    why = "the array is not contiguous, but the consumer asked for a contiguous buffer";
  else if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !ma_array_is_contiguous(a, 0))
    why = "the array is not C-contiguous and the consumer cannot take strides (copy it first, or use x.tobytes())";
  if (why) {
    PyErr_SetString(PyExc_BufferError, why);
    return -1;
  }
  nd_export *e = (nd_export *)PyMem_Malloc(sizeof(nd_export) + 2 * (size_t)nd * sizeof(Py_ssize_t));
  if (!e) {
    PyErr_NoMemory();
    return -1;
  }
  Py_ssize_t item = ma_type_size[tid];
  for (int i = 0; i < nd; i++) {
    e->dims[i] = (Py_ssize_t)a->t.shape[i];
    e->dims[nd + i] = (Py_ssize_t)a->t.strides[i] * item;
  }
  e->buf = a->buf;
  ma_buffer_retain(e->buf);
  view->buf = a->t.data;
  view->obj = Py_NewRef(self);
  view->len = (Py_ssize_t)ma_array_size(a) * item; /* fits: ma_nbytes checked it */
  view->readonly = (a->flags & MA_READONLY) != 0;
  view->format = (flags & PyBUF_FORMAT) == PyBUF_FORMAT ? ma_nd.formats[tid] : NULL;
  /* a consumer that takes no shape takes plain bytes (PEP 3118: itemsize 1
   * unless it asked for the format), as CPython's own exporters give them */
  int shaped = (flags & PyBUF_ND) == PyBUF_ND;
  view->itemsize = shaped || view->format ? item : 1;
  view->ndim = shaped ? nd : 1;
  view->shape = shaped ? e->dims : NULL;
  view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? e->dims + nd : NULL;
  view->suboffsets = NULL;
  view->internal = e;
  return 0;
}

static void nd_releasebuffer(PyObject *self, Py_buffer *view) {
  (void)self;
  nd_export *e = (nd_export *)view->internal;
  if (!e) return;
  view->internal = NULL;
  ma_buffer_release(e->buf);
  PyMem_Free(e);
}

static PyBufferProcs nd_as_buffer = {nd_getbuffer, nd_releasebuffer};

/* ---- x[key] --------------------------------------------------------------
 *
 * NDArray.__getitem__ is this type's mp_subscript (ma_nd_subscript,
 * csrc/py/views.c): NDArray defines no __getitem__ of its own, so it
 * inherits the C slot and x[key] calls it without a method lookup.
 * sq_item is there so that NDArrays stay sequences to CPython
 * (PySequence_Check), as they were with a __getitem__ in Python: NDArray
 * itself gets CPython's generic sq_item, which calls __getitem__. */

static PyObject *nd_item(PyObject *self, Py_ssize_t i) {
  PyObject *key = PyLong_FromSsize_t(i);
  if (!key) return NULL;
  PyObject *r = ma_nd_subscript(self, key);
  Py_DECREF(key);
  return r;
}

/* iter(x): x[0], x[1]... read one at a time, as NumPy's iteration reads
 * them.  The elements of a 1-d array on the host are NumPy's scalars,
 * copied straight from the array (no key to parse); any other array's
 * items come from x[i] (views, or a device array's 0-d views). */
typedef struct {
  PyObject_HEAD
  PyObject *x;       /* the array (NULL once exhausted) */
  ma_array *a;       /* x's array when 1-d on the host, else NULL */
  Py_ssize_t i, n;
} nd_iterator;

static void nditer_dealloc(PyObject *self) {
  Py_XDECREF(((nd_iterator *)self)->x);
  PyObject_Free(self);
}

static PyObject *nditer_next(PyObject *self) {
  nd_iterator *it = (nd_iterator *)self;
  if (!it->x || it->i >= it->n) {
    Py_CLEAR(it->x);
    return NULL; /* StopIteration */
  }
  Py_ssize_t i = it->i++;
  return it->a ? ma_scalar_at(it->a, (int64_t)i * it->a->t.strides[0]) : nd_item(it->x, i);
}

PyTypeObject ma_ndarray_iter_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "minarray._core.NDArrayIterator",
    .tp_basicsize = sizeof(nd_iterator),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = nditer_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = nditer_next,
};

static PyObject *nd_iter(PyObject *self) {
  ma_array *m = ma_ndarray_meta(self);
  if (!m) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "iter(x) needs an initialised NDArray");
    return NULL;
  }
  if (m->t.ndim == 0) /* at iter(), not at the first next(), as NumPy */
    return PyErr_Format(PyExc_TypeError, "iteration over a 0-d array");
  nd_iterator *it = PyObject_New(nd_iterator, &ma_ndarray_iter_type);
  if (!it) return NULL;
  it->x = Py_NewRef(self);
  it->a = m->t.ndim == 1 ? ma_ndarray_array(self) : NULL; /* NULL on a device */
  it->i = 0;
  it->n = (Py_ssize_t)m->t.shape[0];
  return (PyObject *)it;
}

static PyMethodDef nd_methods[] = {
    {"item", (PyCFunction)(void (*)(void))ma_ndarray_item_method, METH_FASTCALL, ma_ndarray_item_doc},
    {NULL, NULL, 0, NULL}};

/* len(x): the length of the first axis; a 0-d array has none. */
static Py_ssize_t nd_length(PyObject *self) {
  ma_array *a = MA_ND(self)->h ? ma_handle_meta(MA_ND(self)->h) : NULL;
  if (!a) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "len() of an uninitialized array");
    return -1;
  }
  if (a->t.ndim == 0) {
    PyErr_SetString(PyExc_TypeError, "len() of unsized object (a 0-d array)");
    return -1;
  }
  return (Py_ssize_t)a->t.shape[0];
}

static PyMappingMethods nd_as_mapping = {.mp_subscript = ma_nd_subscript};
static PySequenceMethods nd_as_sequence = {.sq_length = nd_length, .sq_item = nd_item};

PyTypeObject ma_ndarray_base_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "minarray._core.NDArrayBase",
    .tp_doc = "The fields of an NDArray, in C (minarray._array_object.NDArray adds the methods).",
    .tp_basicsize = sizeof(ma_ndobject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = nd_dealloc,
    .tp_traverse = nd_traverse,
    .tp_clear = nd_clear,
    .tp_members = nd_members,
    .tp_getset = nd_getset,
    .tp_methods = nd_methods,
    .tp_weaklistoffset = offsetof(ma_ndobject, weakrefs),
    .tp_as_buffer = &nd_as_buffer,
    .tp_as_mapping = &nd_as_mapping,
    .tp_as_sequence = &nd_as_sequence,
    .tp_iter = nd_iter,
};

/* ---- building NDArrays ----------------------------------------------------- */

ma_ndarray_class ma_nd;

int ma_kernel_type(const ma_array *a, const char *what) {
  int tid = ma_type_of(a->t.dtype);
  if (tid < 0) {
    PyErr_Format(PyExc_TypeError, "%s: unsupported dtype", what);
    return -1;
  }
  if (tid >= MA_NTYPES) {
    PyErr_Format(PyExc_TypeError, "%s: no kernel takes %R, a storage type; cast it with astype first",
                 what, ma_nd.dtypes[tid]);
    return -1;
  }
  return tid;
}

int ma_ndarray_add_method(PyMethodDef *def) {
  PyObject *descr = PyDescr_NewMethod(ma_nd.type, def);
  if (!descr || PyObject_SetAttrString((PyObject *)ma_nd.type, def->ml_name, descr) < 0) {
    Py_XDECREF(descr);
    return -1;
  }
  Py_DECREF(descr);
  return 0;
}

/* NDArray objects are reused, as the handles are (pyapi.c): every view and
 * every result is one, made and dropped at the rate of the calls.  NDArray
 * is a Python class, so CPython gives it its generic allocation and
 * deallocation (PyType_GenericAlloc and subtype_dealloc, which walks the
 * class's bases for slots, a __dict__ and finalizers on every free).
 * NDArray has none of those (__slots__ = (), no __del__: ndarray_setup
 * checks), so ndarray_setup installs nd_type_dealloc as its tp_dealloc:
 * NDArrayBase's deallocation, then the object onto a free list instead of
 * back to the allocator, and nd_object takes it from there.  Together they
 * were a seventh of a basic slice's time.  A subclass of
 * NDArray keeps CPython's subtype_dealloc, which calls nd_type_dealloc as
 * its base's deallocator; its instances are freed, never kept. */
#define ND_FREE_MAX 64
static PyObject *nd_free[ND_FREE_MAX];
static int nd_nfree;

/* A new NDArray, every field NULL, not tracked by the garbage collector
 * (ma_ndarray_wrap decides). */
static PyObject *nd_object(void) {
  if (!nd_nfree) {
    PyObject *obj = ma_nd.type->tp_alloc(ma_nd.type, 0);
    if (obj) PyObject_GC_UnTrack(obj);
    return obj;
  }
  PyObject *obj = nd_free[--nd_nfree];
  PyObject_Init(obj, ma_nd.type); /* a new reference, and one to the class */
  return obj;
}

/* The deallocator of NDArray and, as their base's, of its subclasses'
 * instances.  Like nd_dealloc, plus what CPython's deallocator of a heap
 * type does around it: the trashcan (a long chain of arrays over arrays is
 * freed without deep recursion) and the reference to the class. */
static void nd_type_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self); /* a no-op for an untracked one */
  Py_TRASHCAN_BEGIN(self, nd_type_dealloc)
  if (MA_ND(self)->weakrefs) PyObject_ClearWeakRefs(self);
  nd_clear(self);
  PyObject *h = MA_ND(self)->h;
  MA_ND(self)->h = NULL;
  if ((tp == ma_nd.type || tp == ma_nd.scalar) && nd_nfree < ND_FREE_MAX)
    nd_free[nd_nfree++] = self; /* every field NULL again (nd_object sets the class) */
  else
    tp->tp_free(self);
  /* the handle last, as in nd_dealloc: its release may run a foreign
   * owner's code (which may make NDArrays: self is already put away) */
  Py_XDECREF(h);
  Py_DECREF(tp);
  Py_TRASHCAN_END
}

int ma_ndarray_tid(PyObject *dtype) {
  for (int i = 0; i < MA_NALLTYPES; i++)
    if (ma_nd.dtypes[i] == dtype) return i;
  return -1;
}

int ma_ndarray_as_tid(PyObject *obj) {
  static PyObject *as_dtype;
  if (!ma_python_function(&as_dtype, "minarray._dtypes", "as_dtype")) return -1;
  PyObject *dt = PyObject_CallOneArg(as_dtype, obj);
  if (!dt) return -1;
  int tid = ma_ndarray_tid(dt);
  Py_DECREF(dt); /* a singleton: ndarray_setup holds it */
  if (tid < 0) PyErr_Format(PyExc_TypeError, "%R is not a minarray dtype", obj);
  return tid;
}

/* ma_ndarray_wrap's body, for the class `tp`: NDArray itself (from the free
 * list) or a subclass of it (ma_ndarray_wrap_as). */
static inline PyObject *wrap_as(PyTypeObject *tp, PyObject *h, PyObject *shape, PyObject *strides,
                                PyObject *base) {
  ma_array *a = ma_handle_meta(h); /* device arrays are NDArrays too */
  int tid = a ? ma_type_of(a->t.dtype) : -1;
  if (!ma_nd.type || tid < 0) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "minarray._array_object is not initialised");
    goto fail;
  }
  /* NULL shape or strides: made on first use (dims_of) */
  /* NDArray's and Scalar's instances come from the free list; a
   * subclass's from its own allocator, tracked by the collector from the
   * start (its __dict__ may hold anything) */
  int exact = tp == ma_nd.type || tp == ma_nd.scalar;
  PyObject *obj = exact ? nd_object() : tp->tp_alloc(tp, 0);
  if (!obj) goto fail;
  if (tp != ma_nd.type && exact) { /* a Scalar: the same object, of the other class */
    Py_INCREF(tp);
    Py_SET_TYPE(obj, tp);
    Py_DECREF(ma_nd.type);
  }
  MA_ND(obj)->h = h;
  MA_ND(obj)->shape = shape;
  MA_ND(obj)->strides = strides;
  MA_ND(obj)->dtype = Py_NewRef(ma_nd.dtypes[tid]);
  MA_ND(obj)->base = Py_NewRef(base ? base : Py_None);
  /* The collector tracks an NDArray only when its base is tracked, as
   * CPython tracks a tuple only while it holds a tracked object.  Its other
   * fields (handle, int tuples, the dtype singleton) lead to no other
   * object, so a cycle through it passes through its base: when the base
   * is untracked (None, a NumPy array, a capsule, an untracked NDArray) the
   * collector could never free that cycle anyway.  Fresh arrays and views
   * of them (most NDArrays) so skip tracking, as NumPy's arrays do: a few
   * percent of a basic slice. */
  if (exact && PyObject_GC_IsTracked(MA_ND(obj)->base)) PyObject_GC_Track(obj);
  return obj;
fail:
  Py_XDECREF(shape);
  Py_XDECREF(strides);
  /* the handle's destructor may release a foreign buffer, whose owner's
   * code must not see (or clear) the pending exception */
  {
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    Py_DECREF(h);
    PyErr_Restore(et, ev, tb);
  }
  return NULL;
}

PyObject *ma_ndarray_wrap(PyObject *h, PyObject *shape, PyObject *strides, PyObject *base) {
  return wrap_as(ma_nd.type, h, shape, strides, base);
}

PyObject *ma_ndarray_wrap_as(PyTypeObject *tp, PyObject *h, PyObject *shape, PyObject *strides, PyObject *base) {
  return wrap_as(tp, h, shape, strides, base);
}

/* ---- NumPy's scalars -----------------------------------------------------------
 *
 * NumPy returns a scalar (np.float64, np.int64...) where a computation's
 * result is 0-d: an element read by integer indices, a reduction over every
 * axis, an elementwise function of 0-d operands.  minarray returns a Scalar
 * there (minarray/_scalar.py): a 0-d NDArray, as the Array API asks, that
 * is read-only and hashable and prints as NumPy's scalar does.  It holds
 * memory of its own, so a later write to the array it was read from does
 * not change it (`t = x[0]; x[0] = x[1]; x[1] = t` swaps, as in NumPy).
 * Other 0-d arrays (asarray(5), zeros(()), x.reshape(()), x[...]) stay
 * NDArrays, as NumPy's stay arrays. */

/* r (stolen) as a Scalar when it is a 0-d NDArray on the host, in place:
 * only for an r nothing else can write through. */
static PyObject *scalar_retag(PyObject *r) {
  if (!r || !ma_nd.scalar || Py_TYPE(r) != ma_nd.type) return r;
  ma_array *a = ma_handle_meta(MA_ND(r)->h);
  if (!a || a->t.ndim != 0 || ((ma_handle *)MA_ND(r)->h)->device) return r;
  a->flags |= MA_READONLY;
  /* the same layout (Scalar adds no fields: scalar_setup checks), so the
   * object changes class as `r.__class__ = Scalar` would change it; a
   * class's instances hold a reference to it */
  Py_INCREF(ma_nd.scalar);
  Py_SET_TYPE(r, ma_nd.scalar);
  Py_DECREF(ma_nd.type);
  return r;
}

PyObject *ma_scalar_result(PyObject *r) { return scalar_retag(r); }

/* A new Scalar holding a copy of the element at `src`, of dtype `dt`. */
static PyObject *scalar_new(DLDataType dt, const char *src) {
  int err = 0;
  PyObject *h = ma_handle_empty(dt, 0, NULL, NULL, 0, &err);
  if (!h) return ma_alloc_error(0, NULL, (int)ma_elsize(dt)); /* 0-d: no size overflows */
  ma_array *r = ma_handle_meta(h);
  memcpy(r->t.data, src, (size_t)ma_elsize(dt));
  r->flags |= MA_READONLY;
  return ma_ndarray_wrap_as(ma_nd.scalar ? ma_nd.scalar : ma_nd.type, h, NULL, NULL, NULL);
}

/* Scalars kept for reuse, as CPython keeps floats: a scalar's allocation
 * and deallocation (the object, its handle, its buffer) were over half of
 * what `s * t` or `x[i]` cost.  scalar_setup makes SCALAR_POOL of each
 * kernel type once, and the pool holds them for the process (so the
 * allocator's live count never moves with it); a new scalar is one of them
 * that nobody else holds any more, its element overwritten.  "Nobody"
 * covers every way to reach its memory: a reference to the object (a weak
 * one too), to its handle, or to its buffer (a view, an export), and the
 * fields Python may have reassigned.  The bool scalars are NumPy's two
 * singletons, np.True_ and np.False_, shared and never overwritten. */
#define SCALAR_POOL 8
static PyObject *scalar_pool[MA_NTYPES][SCALAR_POOL];
static PyObject *scalar_bools[2];

/* The element memory of pooled scalar `s` of kernel type `tid` when only
 * the pool holds it, else NULL. */
static char *scalar_free_data(PyObject *s, int tid) {
  ma_ndobject *o = MA_ND(s);
  if (Py_REFCNT(s) != 1 || Py_TYPE(s) != ma_nd.scalar || o->weakrefs || o->base != Py_None ||
      o->dtype != ma_nd.dtypes[tid] || !o->h || !MA_HANDLE_CHECK(o->h) || Py_REFCNT(o->h) != 1)
    return NULL;
  const ma_handle *h = (const ma_handle *)o->h;
  const ma_array *a = h->a;
  if (h->device || !a || a->t.ndim != 0 || a->t.dtype.code != ma_dltypes[tid].code ||
      a->t.dtype.bits != ma_dltypes[tid].bits || a->t.dtype.lanes != 1 || !(a->flags & MA_READONLY) ||
      !a->buf || !a->buf->owned || a->t.data != a->buf->data ||
      __atomic_load_n(&a->buf->refcount, __ATOMIC_ACQUIRE) != 1)
    return NULL;
  return (char *)a->t.data;
}

PyObject *ma_scalar_new(int tid, const void *src) {
  if (tid == MA_BOOL && scalar_bools[0]) return Py_NewRef(scalar_bools[*(const uint8_t *)src != 0]);
  if (tid > MA_BOOL && tid < MA_NTYPES)
    for (int i = 0; i < SCALAR_POOL && scalar_pool[tid][i]; i++) {
      char *d = scalar_free_data(scalar_pool[tid][i], tid);
      if (d) {
        memcpy(d, src, (size_t)ma_type_size[tid]);
        return Py_NewRef(scalar_pool[tid][i]);
      }
    }
  return scalar_new(ma_dltypes[tid], (const char *)src);
}

PyObject *ma_scalar_at(const ma_array *a, int64_t off) {
  int tid = ma_type_of(a->t.dtype);
  const char *src = (const char *)a->t.data + off * ma_elsize(a->t.dtype);
  return tid < MA_NTYPES ? ma_scalar_new(tid, src) : scalar_new(a->t.dtype, src);
}

/* The pool and the bool singletons (above), made once. */
static int scalar_pool_fill(void) {
  static const uint8_t zero[16] = {0}, one = 1;
  if (scalar_bools[0]) return 0;
  for (int tid = MA_BOOL + 1; tid < MA_NTYPES; tid++)
    for (int i = 0; i < SCALAR_POOL; i++)
      if (!(scalar_pool[tid][i] = scalar_new(ma_dltypes[tid], (const char *)zero))) return -1;
  if (!(scalar_bools[1] = scalar_new(ma_dltypes[MA_BOOL], (const char *)&one))) return -1;
  if (!(scalar_bools[0] = scalar_new(ma_dltypes[MA_BOOL], (const char *)zero))) return -1;
  return 0;
}

/* scalar_result(x) -> x as NumPy's scalar when x is a 0-d NDArray on the
 * host, else x itself (NumPy's PyArray_Return), for the Python routines
 * that compute a 0-d result: x itself when nothing but the caller holds it
 * and its memory (a new result), else a copy of its element. */
static PyObject *py_scalar_result(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "scalar_result");
  PyObject *x = args[0];
  if (!ma_nd.scalar || Py_TYPE(x) != ma_nd.type || !MA_ND(x)->h || ((ma_handle *)MA_ND(x)->h)->device)
    return Py_NewRef(x);
  ma_array *a = ma_handle_meta(MA_ND(x)->h);
  if (!a || a->t.ndim != 0) return Py_NewRef(x);
  /* The caller's variable and this call's argument are two references: a
   * third, a view's base, an export or a second holder of the handle or
   * the buffer would see the element, so those get a copy. */
  int alone = Py_REFCNT(x) <= 2 && Py_REFCNT(MA_ND(x)->h) == 1 && MA_ND(x)->base == Py_None &&
              !(a->flags & MA_READONLY) && __atomic_load_n(&a->buf->refcount, __ATOMIC_ACQUIRE) == 1;
  return alone ? scalar_retag(Py_NewRef(x)) : ma_scalar_at(a, 0);
}

/* scalar_of(dtype, value) -> the scalar of `dtype` holding the Python
 * scalar `value` (ma.float32(3.0)), stored by NumPy's rules (an int must
 * fit, a float to an integer type truncates...), or None when `value` is
 * not an exact Python bool, int, float or complex (minarray._dtypes then
 * converts it as asarray does). */
static PyObject *py_scalar_of(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "scalar_of");
  PyTypeObject *t = Py_TYPE(args[1]);
  int tid = ma_ndarray_tid(args[0]);
  if (tid < 0 || !ma_nd.scalar ||
      !(t == &PyFloat_Type || t == &PyLong_Type || t == &PyBool_Type || t == &PyComplex_Type))
    Py_RETURN_NONE;
  int err = 0;
  PyObject *h = ma_handle_empty(ma_dltypes[tid], 0, NULL, NULL, 0, &err);
  if (!h) return ma_alloc_error(0, NULL, ma_type_size[tid]);
  ma_array *a = ma_handle_meta(h);
  if (ma_store_scalar(args[1], tid, a->t.data) < 0) {
    Py_DECREF(h);
    return NULL;
  }
  a->flags |= MA_READONLY;
  return ma_ndarray_wrap_as(ma_nd.scalar, h, NULL, NULL, NULL);
}

/* scalar_setup(Scalar): minarray/_scalar.py's class, a subclass of NDArray
 * that adds no fields (scalar_retag changes an NDArray's class to it). */
static PyObject *py_scalar_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "scalar_setup");
  PyTypeObject *tp = (PyTypeObject *)args[0];
  if (!ma_nd.type || !PyType_Check(args[0]) || tp->tp_base != ma_nd.type ||
      tp->tp_basicsize != ma_nd.type->tp_basicsize || tp->tp_dictoffset || tp->tp_finalize || tp->tp_del) {
    PyErr_SetString(PyExc_TypeError, "scalar_setup(Scalar) expects a direct subclass of NDArray with no fields");
    return NULL;
  }
  Py_XSETREF(ma_nd.scalar, (PyTypeObject *)Py_NewRef(args[0]));
  tp->tp_dealloc = nd_type_dealloc; /* NDArray's: its objects go to the one free list */
  if (scalar_pool_fill() < 0 || ma_scalar_math_install() < 0) return NULL; /* its operators (csrc/py/scalar_math.c) */
  Py_RETURN_NONE;
}

/* ---- subclasses -------------------------------------------------------------
 *
 * An operation on an instance of a subclass of NDArray returns that
 * subclass, as NumPy's do (x.view(MyArray), then slices, operators...).
 * The C paths make a plain NDArray; only when an input's type is not
 * NDArray itself (MA_RESULT_LIKE: one pointer compare on the common path)
 * is the result handed to minarray/_subclass.py, the one routine that
 * decides its type and calls __array_finalize__ or __array_wrap__. */
static PyObject *py_like, *py_wrap; /* _subclass.like(obj, result), _subclass.wrap(result, name, *inputs) */

PyObject *ma_subclass_like(PyObject *r, PyObject *src) {
  /* a 0-d result of a scalar's method is a scalar (NumPy: PyArray_Return);
   * r is new, and its memory either its own or the read-only scalar's */
  if (Py_TYPE(src) == ma_nd.scalar) return scalar_retag(r);
  if (!r || Py_TYPE(r) != ma_nd.type || !py_like) return r; /* a scalar, None, or already the subclass */
  PyObject *out = PyObject_CallFunctionObjArgs(py_like, src, r, NULL);
  Py_DECREF(r);
  return out;
}

PyObject *ma_subclass_wrap(PyObject *r, const char *name, PyObject *const *xs, int n) {
  if (!r || Py_TYPE(r) != ma_nd.type || !py_wrap) return r;
  PyObject *argv[5] = {r, PyUnicode_FromString(name)};
  if (!argv[1]) {
    Py_DECREF(r);
    return NULL;
  }
  for (int k = 0; k < n && k < 3; k++) argv[2 + k] = xs[k];
  PyObject *out = PyObject_Vectorcall(py_wrap, argv, (size_t)(2 + n), NULL);
  Py_DECREF(argv[1]);
  Py_DECREF(r);
  return out;
}

/* subclass_setup(like, wrap): minarray/_subclass.py's two routines */
static PyObject *py_subclass_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "subclass_setup");
  if (!PyCallable_Check(args[0]) || !PyCallable_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "subclass_setup(like, wrap) needs two callables");
    return NULL;
  }
  Py_XSETREF(py_like, Py_NewRef(args[0]));
  Py_XSETREF(py_wrap, Py_NewRef(args[1]));
  Py_RETURN_NONE;
}

ma_array *ma_ndarray_array(PyObject *x) {
  if (!ma_nd.type || !PyObject_TypeCheck(x, ma_nd.type)) return NULL;
  PyObject *h = MA_ND(x)->h;
  if (!h || !MA_ND(x)->base || !MA_HANDLE_CHECK(h)) return NULL;
  ma_array *a = ma_handle_get(h); /* NULL for a device handle: cleared below */
  if (!a) PyErr_Clear();
  return a;
}

ma_array *ma_ndarray_meta(PyObject *x) {
  ma_array *a = ma_ndarray_array(x);
  if (a || PyErr_Occurred() || !ma_nd.type || !PyObject_TypeCheck(x, ma_nd.type) || !MA_ND(x)->h ||
      !MA_ND(x)->base)
    return a;
  a = ma_handle_meta(MA_ND(x)->h);
  if (!a) PyErr_Clear();
  return a;
}

PyObject *ma_ndarray_new(ma_array *a, PyObject *base) {
  PyObject *h = ma_handle_new(a); /* owns `a` from here on */
  return h ? ma_ndarray_wrap(h, NULL, NULL, base) : NULL;
}

/* The dims of `shape`, an integer or a tuple or list of them (anything
 * with __index__): the count, or -1 with NumPy's error set (TypeError for
 * an entry that is not an integer, ValueError for a negative one or too
 * many).  *plain is set when shape is an exact tuple of exact ints, which
 * can then serve as the array's shape tuple itself. */
static int shape_dims(PyObject *shape, int64_t *out, int *plain) {
  PyObject *t = NULL, *const *items = &shape; /* a bare integer: one entry */
  Py_ssize_t n = 1;
  *plain = PyTuple_CheckExact(shape);
  if (PyTuple_Check(shape) || PyList_Check(shape)) {
    /* (a list's items could change under __index__: read a tuple of them) */
    if (!(t = PyTuple_Check(shape) ? Py_NewRef(shape) : PySequence_Tuple(shape))) return -1;
    items = ((PyTupleObject *)t)->ob_item;
    n = PyTuple_GET_SIZE(t);
  }
  int rc = -1;
  PyObject *too_big = NULL; /* the first entry past int64 (borrowed) */
  for (Py_ssize_t i = 0; i < n; i++) { /* in order: the first bad entry is the error */
    PyObject *k = items[i], *ix = NULL; /* ix: k's __index__, when k is not an exact int */
    if (!PyLong_CheckExact(k)) {
      *plain = 0;
      if (!(ix = PyNumber_Index(k))) {
        PyErr_Clear();
        ma_not_an_integer("shape entry", k);
        goto done;
      }
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(ix ? ix : k, &overflow);
    Py_XDECREF(ix);
    if (overflow > 0 && !too_big) too_big = k;
    if (overflow < 0 || (!overflow && v < 0)) {
      PyObject *given = t ? PySequence_Tuple(t) : PyTuple_Pack(1, k);
      if (given) PyErr_Format(PyExc_ValueError, "negative dimensions are not allowed: shape %R", given);
      Py_XDECREF(given);
      goto done;
    }
    if (i < MA_MAXDIMS) out[i] = overflow ? INT64_MAX : v;
  }
  if (n > MA_MAXDIMS)
    PyErr_Format(PyExc_ValueError, "shape has %zd dimensions; at most %d are supported", n, MA_MAXDIMS);
  else if (too_big)
    PyErr_Format(PyExc_ValueError, "shape entry %R does not fit in 64 bits", too_big);
  else
    rc = (int)n;
done:
  Py_XDECREF(t);
  return rc;
}

/* ndarray_empty(shape, dtype, zero) -> a new C-contiguous NDArray: the
 * one implementation of empty/zeros (and of every internal allocation).
 * shape is an integer or a tuple or list of them; dtype a DType, or
 * anything else minarray._dtypes.as_dtype turns into one (called only for
 * those: the common call pays no Python). */
static PyObject *py_ndarray_empty(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(3, "ndarray_empty");
  int64_t dims[MA_MAXDIMS];
  int plain, tid = ma_ndarray_tid(args[1]);
  if (tid < 0) { /* a dtype name, a NumPy dtype...: minarray._dtypes.as_dtype says which DType, or words the error */
    tid = ma_ndarray_as_tid(args[1]);
    if (tid < 0) return NULL;
  }
  int nd = shape_dims(args[0], dims, &plain);
  if (nd < 0) return NULL;
  /* an exact tuple of exact ints is immutable: it can be the shape itself */
  PyObject *shape = plain ? Py_NewRef(args[0]) : ma_dims_tuple(nd, dims);
  if (!shape) return NULL;
  int err = 0;
  PyObject *h = ma_handle_empty(ma_dltypes[tid], nd, dims, NULL, PyObject_IsTrue(args[2]), &err);
  if (!h) {
    ma_empty_error(shape, err, ma_type_size[tid]);
    Py_DECREF(shape);
    return NULL;
  }
  return ma_ndarray_wrap(h, shape, NULL, NULL);
}

/* shape_tuple(shape) -> the shape ndarray_empty would make of `shape`, as
 * a tuple of ints, with the same errors: the shape rule of every creation
 * routine (random's size= too), written once. */
static PyObject *py_shape_tuple(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "shape_tuple");
  int64_t dims[MA_MAXDIMS];
  int plain, nd = shape_dims(args[0], dims, &plain);
  if (nd < 0) return NULL;
  return plain ? Py_NewRef(args[0]) : ma_dims_tuple(nd, dims);
}

/* ndarray_setup(NDArray, dtypes): dtypes lists the DType singletons in
 * ma_type order, each checked against its DLPack code and bits. */
static PyObject *py_ndarray_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(2, "ndarray_setup");
  if (!PyType_Check(args[0]) || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != MA_NALLTYPES) {
    PyErr_SetString(PyExc_TypeError, "ndarray_setup(NDArray, dtypes) expects a type and a tuple of all dtypes");
    return NULL;
  }
  PyTypeObject *tp = (PyTypeObject *)args[0];
  ma_ndarray_class nd = {0};
  /* no fields, no __dict__, no finalizer: what nd_type_dealloc relies on */
  if (!PyType_IsSubtype(tp, &ma_ndarray_base_type) || tp->tp_basicsize != ma_ndarray_base_type.tp_basicsize ||
      tp->tp_dictoffset || tp->tp_itemsize || tp->tp_finalize || tp->tp_del || !(tp->tp_flags & Py_TPFLAGS_HEAPTYPE) ||
      tp->tp_base != &ma_ndarray_base_type) {
    PyErr_Format(PyExc_TypeError, "%.200s must subclass NDArrayBase directly and add no fields, __dict__ or __del__",
                 tp->tp_name);
    return NULL;
  }
  for (int i = 0; i < MA_NALLTYPES; i++) {
    PyObject *dt = PyTuple_GET_ITEM(args[1], i);
    PyObject *code = PyObject_GetAttrString(dt, "code"), *bits = PyObject_GetAttrString(dt, "bits");
    long c = code ? PyLong_AsLong(code) : -1, b = bits ? PyLong_AsLong(bits) : -1;
    Py_XDECREF(code);
    Py_XDECREF(bits);
    if (PyErr_Occurred()) return NULL;
    if (c != ma_dltypes[i].code || b != ma_dltypes[i].bits)
      return PyErr_Format(PyExc_ValueError, "dtype %R is out of ma_type order (position %d)", dt, i);
    PyObject *fmt = PyObject_GetAttrString(dt, "format");
    Py_ssize_t n = 0;
    const char *f = fmt && PyUnicode_Check(fmt) ? PyUnicode_AsUTF8AndSize(fmt, &n) : NULL;
    if (f && (size_t)n < sizeof nd.formats[i]) memcpy(nd.formats[i], f, (size_t)n + 1);
    Py_XDECREF(fmt);
    if (!f || (size_t)n >= sizeof nd.formats[i]) {
      if (!PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "dtype %R needs a buffer format string of at most 3 characters", dt);
      return NULL;
    }
  }
  /* the module keeps the class and the dtypes alive (module-level objects
   * of minarray); hold references all the same */
  for (int i = 0; i < MA_NALLTYPES; i++) {
    nd.dtypes[i] = Py_NewRef(PyTuple_GET_ITEM(args[1], i));
    Py_XDECREF(ma_nd.dtypes[i]);
  }
  /* objects kept for the previous class (a second setup) are freed */
  while (nd_nfree) ma_nd.type->tp_free(nd_free[--nd_nfree]);
  nd.type = (PyTypeObject *)Py_NewRef(tp);
  nd.scalar = ma_nd.scalar;
  Py_XDECREF(ma_nd.type);
  ma_nd = nd;
  tp->tp_dealloc = nd_type_dealloc;
  Py_RETURN_NONE;
}

/* ndarray_wrap(h, shape, strides, base) -> NDArray: the one builder, for
 * Python (C calls ma_ndarray_wrap).  shape/strides are the tuples the caller
 * has, or None to make them from the handle; the dtype is the handle's. */
static PyObject *py_ndarray_wrap(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "ndarray_wrap");
  if (!MA_HANDLE_CHECK(args[0])) {
    PyErr_SetString(PyExc_TypeError, "ndarray_wrap expects a handle");
    return NULL;
  }
  PyObject *shape = args[1] == Py_None ? NULL : Py_NewRef(args[1]);
  PyObject *strides = args[2] == Py_None ? NULL : Py_NewRef(args[2]);
  return ma_ndarray_wrap(Py_NewRef(args[0]), shape, strides, args[3]);
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_ndarray_methods[] = {
    FC("ndarray_wrap", py_ndarray_wrap, "ndarray_wrap(h, shape, strides, base) -> NDArray"),
    FC("ndarray_setup", py_ndarray_setup, "ndarray_setup(NDArray, dtypes)"),
    FC("ndarray_empty", py_ndarray_empty, "ndarray_empty(shape, dtype, zero) -> NDArray"),
    FC("shape_tuple", py_shape_tuple, "shape_tuple(shape) -> tuple of ints"),
    FC("subclass_setup", py_subclass_setup, "subclass_setup(like, wrap)"),
    FC("scalar_setup", py_scalar_setup, "scalar_setup(Scalar)"),
    FC("scalar_of", py_scalar_of, "scalar_of(dtype, value) -> the scalar, or None for a value not a Python scalar"),
    FC("scalar_result", py_scalar_result, "scalar_result(x) -> x as NumPy's scalar if 0-d, else x"),
    {NULL, NULL, 0, NULL}};
