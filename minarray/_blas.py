"""The BLAS/LAPACK library: found, loaded and kept in step with minarray's
thread count.

minarray's matrix products and ``minarray.linalg`` run on OpenBLAS from the
``scipy-openblas64`` wheel, the build NumPy itself ships (64-bit LAPACK
integers; symbols renamed ``scipy_<name>64_`` so it never clashes with
another BLAS in the process).  The C core opens it by path
(csrc/core/blas.c): Python finds the file, C resolves the routines.

If the wheel is missing, matrix products still work on minarray's own
kernel, and the LAPACK-based functions raise :class:`RuntimeError` naming
the package to install.
"""

from __future__ import annotations

import importlib.util
import os

from minarray._native import ffi, lib

#: Why the library is not loaded ("" when it is).
load_error = ""


def _library_path() -> str | None:
    """The wheel's shared library, or None when the wheel is missing.

    The package is located without being imported: importing it loads
    importlib.metadata (~20 ms, a third of minarray's import) for a version
    string.  Its layout is the one ``get_lib_dir()`` and ``get_library()``
    describe, asked directly if the file is not where expected."""
    spec = importlib.util.find_spec("scipy_openblas64")
    if spec is None or not spec.submodule_search_locations:
        return None
    lib_dir = os.path.join(next(iter(spec.submodule_search_locations)), "lib")
    found = os.listdir(lib_dir) if os.path.isdir(lib_dir) else []
    names = sorted(n for n in found if n.startswith("libscipy_openblas"))
    if names:
        return os.path.join(lib_dir, names[0])
    import scipy_openblas64 as wheel  # optional: scipy-openblas64 is not a dependency of minarray

    return os.path.join(str(wheel.get_lib_dir()), str(wheel.get_library(fullname=True)))


def _load() -> str:
    path = _library_path()
    if path is None:
        return "the scipy-openblas64 package is not installed (pip install scipy-openblas64)"
    if lib.ma_blas_load(path.encode(), b"scipy_", b"64_") != 0:
        return f"cannot load {path}: {ffi.string(lib.ma_blas_error()).decode(errors='replace')}"
    return ""


def sync_threads() -> None:
    """Give OpenBLAS minarray's thread count: one of the two pools runs at
    a time (a product runs on OpenBLAS's threads, everything else on
    minarray's), so neither oversubscribes the cores.

    OpenBLAS must not change its count while a call of it runs in another
    thread (that deadlocks it), so this waits until no BLAS or LAPACK call
    is in flight, holding back those that start meanwhile, and reads the
    count only then (csrc/core/blas.h).  The GIL is released while it
    waits."""
    lib.ma_blas_sync_threads()


def require(fname: str) -> None:
    """Raise RuntimeError when ``fname`` cannot run for want of LAPACK."""
    if load_error:
        raise RuntimeError(f"{fname} needs LAPACK: {load_error}")


def info() -> dict[str, object]:
    """What was loaded: OpenBLAS's configuration, the kernel family it chose
    for this CPU, and its thread count."""
    return {
        "loaded": bool(lib.ma_blas_loaded()),
        "config": ffi.string(lib.ma_blas_config()).decode(),
        "corename": ffi.string(lib.ma_blas_corename()).decode(),
        "num_threads": int(lib.ma_blas_get_num_threads()),
        "error": load_error,
    }


load_error = _load()
if not load_error:
    sync_threads()
