"""How many threads minarray's large kernels use.

NumPy runs every elementwise operation on one core.  minarray splits large
ones (from about 65 536 elements; see ``docs/performance.md``) over a small
persistent pool of native threads, the calling thread included.  Results
do not depend on the thread count: each element is computed by the same
code whichever thread runs it.

The count comes from, in order: :func:`set_num_threads`, the environment
variable ``MINARRAY_NUM_THREADS`` (read when first needed), the number of
CPUs the process may run on.
"""

from __future__ import annotations

import os
import warnings

from minarray import _blas
from minarray._native import ffi, lib

__all__ = [
    "get_num_threads", "set_num_threads",
]


#: Mirrors MA_MAX_THREADS in csrc/core/threads.h.
MAX_THREADS = 256


ENV_VAR = "MINARRAY_NUM_THREADS"


def get_num_threads() -> int:
    """The number of threads large kernels use (1 means single-threaded)."""
    return int(lib.ma_get_num_threads())


def set_num_threads(n: int | None, /) -> None:
    """Use `n` threads (1 to 256) for large kernels from now on, in every
    Python thread; ``None`` restores the default (``MINARRAY_NUM_THREADS``,
    else the CPU count).

    OpenBLAS, which runs matrix products and ``minarray.linalg``, gets the
    same count (capped at its build's maximum, 64 for the wheel's build).

    Safe to call from any thread, also while others run kernels, products
    or ``minarray.linalg``: it waits for a kernel running on minarray's
    pool, and for every BLAS/LAPACK call in flight in any thread (calls
    that start meanwhile wait for it), because OpenBLAS must not change its
    count under a running call.  It waits with the GIL released.  When it
    returns, :func:`get_num_threads` and OpenBLAS's count agree, unless
    another thread has set a count meanwhile; once every setter has
    returned they agree again."""
    if n is None:
        lib.ma_set_num_threads(0)
        _blas.sync_threads()
        return
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"set_num_threads() expects an int or None, got {type(n).__name__}")
    if not 1 <= n <= MAX_THREADS:
        raise ValueError(f"set_num_threads() expects 1 to {MAX_THREADS} threads, got {n}")
    lib.ma_set_num_threads(n)
    _blas.sync_threads()


def _default_num_threads() -> int:
    """What ``set_num_threads(None)`` restores (internal)."""
    return int(lib.ma_default_num_threads())


def _check_environment() -> None:
    """Warn once, at import, about a value the C side will ignore."""
    value = os.environ.get(ENV_VAR, "").strip()
    if not value:
        return
    try:
        ok = int(value) >= 1
    except ValueError:
        ok = False
    if not ok:
        warnings.warn(f"{ENV_VAR}={value!r} is not a positive integer and is ignored; "
                      f"using {_default_num_threads()} threads", RuntimeWarning, stacklevel=3)


def _get_parallel_min() -> int:
    """Element count from which kernels split over threads (internal)."""
    return int(lib.ma_get_parallel_min())


def _set_parallel_min(n: int) -> None:
    """Change that count; 0 restores the default.  For tests and tuning:
    a small value sends small arrays down the threaded paths."""
    lib.ma_set_parallel_min(n)


def _get_tile_min_span() -> int:
    """Bytes one row must span of a strided operand before the iterator
    walks in tiles (internal)."""
    return int(lib.ma_get_tile_min_span())


def _set_tile_min_span(n: int) -> None:
    """Change that span; 0 restores the default.  For tests and tuning."""
    lib.ma_set_tile_min_span(n)


def _pool_jobs() -> int:
    """Jobs handed to the thread pool's workers so far (internal)."""
    return int(lib.ma_pool_jobs())


def _iterate_counts() -> tuple[int, int]:
    """(iterations split over threads, iterations walked in tiles) so far,
    process-wide (internal; tests use it to check they reach those paths)."""
    out = ffi.new("int64_t[2]")
    lib.ma_iterate_counts(out)
    return int(out[0]), int(out[1])


_check_environment()
