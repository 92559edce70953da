/*
 * The module's setup: ma_install readies the Handle type and puts every
 * binding file's method table, and the NDArrayBase type, into the cffi
 * module, minarray._core.  It is the one file that knows all the others,
 * and none of them calls it.  (pyapi.c is the bottom: it calls none of the
 * other bindings, which call it and, some, each other.)
 */
#include "pyapi.h"

#include "minifloat.h"

/* Called once by minarray._native through cffi (so without the GIL). */
int ma_install(const char *modname) {
  ma_minifloat_setup(); /* the narrow floats' value tables, before any cast */
  PyGILState_STATE st = PyGILState_Ensure();
  int rc = -1;
  PyObject *m = PyImport_ImportModule(modname);
  if (m) {
    PyMethodDef *tables[] = {
        ma_core_methods,            ma_assign_methods,          ma_scalar_methods,          ma_nested_methods,
        ma_fill_methods,            ma_testing_methods,         ma_ndarray_methods,
        ma_dlpack_capsule_methods,  ma_dlpack_import_methods,   ma_dlpack_exchange_methods,
        ma_dlpack_device_methods,   ma_dlpack_entry_methods,    ma_numpy_methods,
        ma_ufunc_methods,
        ma_elementwise_methods,     ma_index_methods,           ma_reduce_methods,
        ma_linalg_methods,          ma_manipulation_methods,    ma_sort_methods,
        ma_views_methods,           ma_convert_methods,         ma_fpe_methods,
        ma_io_methods,              ma_dtype_table_methods,     ma_random_draw_methods,
        ma_text_methods,            ma_bit_packing_methods};
    rc = PyType_Ready(&ma_handle_type) < 0 || PyType_Ready(&ma_ndarray_base_type) < 0 ||
                 PyType_Ready(&ma_ndarray_iter_type) < 0
             ? -1
             : PyModule_AddType(m, &ma_ndarray_base_type);
    if (rc == 0) rc = PyModule_AddType(m, &ma_ufunc_type);
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]) && rc == 0; i++)
      rc = PyModule_AddFunctions(m, tables[i]);
    Py_DECREF(m);
  }
  if (rc < 0) PyErr_Print();
  PyGILState_Release(st);
  return rc;
}
