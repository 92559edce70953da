"""Load the compiled core.

`core` is the extension module: cffi's `ffi`/`lib` for plain C functions,
plus the CPython functions the core installs into it at import (see
csrc/py/pyapi.h).  Everything else in minarray reaches C through this module,
and minarray/_core.pyi types every one of those functions for mypy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from minarray._array_object import NDArray

try:
    import minarray._core as _core
except ImportError as exc:  # pragma: no cover - depends on how it was installed
    raise ImportError(
        "minarray's C core (minarray._core) is not built here. In a source checkout run "
        "`pip install -e .` (or `python csrc/build_ffi.py`); after a plain `pip install .`, "
        "run Python from outside the checkout so the installed package is imported."
    ) from exc

ffi: Any = _core.ffi  # cffi's FFI (its methods are not annotated)
lib = _core.lib

if lib.ma_install(b"minarray._core") != 0:  # pragma: no cover - build defect
    raise ImportError("minarray._core could not install its functions")

core = _core


def host_pointer(a: NDArray, ctype: str = "void *") -> Any:
    """``a``'s data as a C pointer of type ``ctype``, for a C function that
    reads or writes the elements: the one way minarray turns an array into
    a pointer for C.

    The address comes from ``core.host_ptr``, which passes the one device
    guard (ma_handle_get in csrc/py/pyapi.c): a device array raises the
    RuntimeError naming its device instead of handing C memory the process
    cannot read.  ``NDArray.data_ptr`` is the address as metadata (views,
    DLPack, alignment) and must never be cast into a pointer
    (tests/test_device_sweep.py checks that no module does).  The caller
    keeps ``a`` alive while C uses the pointer."""
    return ffi.cast(ctype, core.host_ptr(a._h))
