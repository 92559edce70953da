/* The elementwise engine (filled in by the elementwise work). */
#include "pyapi.h"

PyMethodDef ma_elementwise_methods[] = {{NULL, NULL, 0, NULL}};
