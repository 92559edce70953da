"""The cffi builder for minarray._core (API / out-of-line mode).

setup.py names this file in `cffi_modules`; running it directly builds the
extension in place (`python csrc/build_ffi.py`), which is handy while
working on the C code.

Build switches (environment variables):
  MINARRAY_SANITIZE=1   compile and link with AddressSanitizer and
                        UndefinedBehaviorSanitizer (see docs/reliability.md)
  MINARRAY_DEBUG=1      -O0 -g, assertions on
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import importlib  # noqa: E402


def _cdef_section(path: Path) -> str:
    """The declarations between a header's cdef markers, verbatim, so cffi
    (and the layout tests) see exactly what the C compiler sees."""
    match = re.search(r"/\* cdef-begin.*?\*/(.*)/\* cdef-end \*/", path.read_text(), re.S)
    if match is None:
        raise RuntimeError(f"{path.relative_to(ROOT)} lost its cdef markers")
    return match.group(1)


def _core_headers() -> list[Path]:
    """The plain-C core's headers that declare entry points for Python: those
    of csrc/core/ with a cdef section, in name order."""
    return [p for p in sorted((HERE / "core").glob("*.h")) if "cdef-begin" in p.read_text()]


CDEF = _cdef_section(HERE / "dlpack.h") + "".join(_cdef_section(p) for p in _core_headers()) + """
#define DLPACK_MAJOR_VERSION ...
#define DLPACK_MINOR_VERSION ...
#define DLPACK_FLAG_BITMASK_READ_ONLY ...
#define DLPACK_FLAG_BITMASK_IS_COPIED ...
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED ...
#define MA_ALIGNMENT ...
#define MA_MAXDIMS ...

typedef struct {
  int64_t live_buffers;
  int64_t live_bytes;
  int64_t total_allocations;
  int64_t live_foreign;
  int64_t total_foreign;
  int64_t failed_allocations;
  int64_t cached_bytes;
} ma_stats_t;

void ma_stats(ma_stats_t *out);
void ma_fail_allocation_after(int64_t n);
int ma_install(const char *modname);
int ma_get_num_threads(void);
void ma_set_num_threads(int n);
int ma_default_num_threads(void);
int64_t ma_get_parallel_min(void);
void ma_set_parallel_min(int64_t n);
void ma_iterate_counts(int64_t *out);
int64_t ma_pool_jobs(void);
int64_t ma_get_tile_min_span(void);
void ma_set_tile_min_span(int64_t n);

/* csrc/testing.c: the tests' fake DLPack producer */
typedef struct { int64_t calls; uint64_t last_thread; } ma_test_counter;
void ma_test_deleter_versioned(DLManagedTensorVersioned *self);
void ma_test_deleter_legacy(DLManagedTensor *self);
int64_t ma_test_calls(const ma_test_counter *c);
void *ma_test_capsule_destructor(void);
void *ma_test_context(int versioned);
void *ma_test_exchange_api(void);
"""

def _generated() -> str:
    """The output of every csrc/gen_*.py generator, in name order."""
    parts = []
    for path in sorted(HERE.glob("gen_*.py")):
        parts.append(importlib.import_module(path.stem).source())
    return "\n".join(parts)


SOURCE = """
#include "pyapi.h"
#include "copy.h"
#include "iterate.h"
#include "threads.h"
#include "scalar.h"
#include "testing.h"
""" + "".join(f'#include "core/{p.name}"\n' for p in _core_headers()) + _generated()


def _flags() -> tuple[list[str], list[str]]:
    # -O3: gcc only vectorises the simple inner loops at -O3.  No
    # -march=native: the wheel must load on any x86-64 (or arm64) machine;
    # wider instruction sets are chosen at run time by the kernels.
    # -fno-math-errno lets sqrt and friends vectorise; it changes no result.
    compile_args = ["-std=gnu11", "-O3", "-fno-math-errno", "-Wall", "-Wno-unused-function"]
    link_args: list[str] = []
    if os.environ.get("MINARRAY_DEBUG") == "1":
        compile_args = ["-std=gnu11", "-O0", "-g", "-UNDEBUG", "-Wall", "-Wno-unused-function"]
    if os.environ.get("MINARRAY_SANITIZE") == "1":
        san = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined"]
        compile_args += [*san, "-g", "-O1"]
        link_args += san
    return compile_args, link_args


def _sources() -> list[str]:
    # setuptools wants paths relative to the project root.  csrc/core/ is the
    # plain-C core (no Python.h); csrc/ the rest.
    return sorted(os.path.relpath(p, ROOT) for p in [*HERE.glob("*.c"), *HERE.glob("core/*.c")])


compile_args, link_args = _flags()
ffi = FFI()
ffi.cdef(CDEF)
ffi.set_source(
    "minarray._core",
    SOURCE,
    sources=_sources(),
    include_dirs=[os.path.relpath(HERE, ROOT)],
    # cffi defaults to the limited API, which lacks METH_FASTCALL and the
    # vectorcall protocol the installed functions use.
    define_macros=[("_CFFI_NO_LIMITED_API", None)],
    py_limited_api=False,  # so the built file is not tagged abi3 either
    extra_compile_args=compile_args,
    extra_link_args=link_args,
    # dl: the BLAS/LAPACK library is opened at run time (csrc/core/blas.c)
    libraries=["m", "dl"],
)

if __name__ == "__main__":
    os.chdir(ROOT)
    ffi.compile(tmpdir=str(ROOT), verbose=False)
