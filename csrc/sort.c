/* Placeholder method table; the module's kernels are added here. */
#include "pyapi.h"

PyMethodDef ma_sort_methods[] = {{NULL, NULL, 0, NULL}};
