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

import os

from minarray._native import ffi, lib

#: Why the library is not loaded ("" when it is).
load_error = ""


def _load() -> str:
    try:
        import scipy_openblas64 as wheel
    except ImportError:
        return "the scipy-openblas64 package is not installed (pip install scipy-openblas64)"
    path = os.path.join(wheel.get_lib_dir(), wheel.get_library(fullname=True))
    if lib.ma_blas_load(path.encode(), b"scipy_", b"64_") != 0:
        return f"cannot load {path}: {ffi.string(lib.ma_blas_error()).decode(errors='replace')}"
    return ""


def sync_threads() -> None:
    """Give OpenBLAS minarray's thread count: one of the two pools runs at
    a time (a product runs on OpenBLAS's threads, everything else on
    minarray's), so neither oversubscribes the cores."""
    lib.ma_blas_set_num_threads(lib.ma_get_num_threads())


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
