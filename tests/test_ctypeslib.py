"""``minarray.ctypeslib`` against ``numpy.ctypeslib``: ctypes types of
dtypes, arrays over ctypes memory and back, and ndpointer's checks, on
the same inputs; and C functions (libc's memset and memcpy) called with
arrays through ctypes."""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
import pytest

import minarray as ma


def _outcome(fn: Any) -> tuple[str, str]:
    try:
        return "ok", repr(fn())
    except (TypeError, NotImplementedError, KeyError) as e:
        return type(e).__name__, str(e)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                   "uint64", "float32", "float64", "float16", "complex128"])
def test_as_ctypes_type_as_numpy(dtype: str) -> None:
    assert _outcome(lambda: ma.ctypeslib.as_ctypes_type(dtype)) == _outcome(
        lambda: np.ctypeslib.as_ctypes_type(dtype))
    assert ma.ctypeslib.c_intp is np.ctypeslib.c_intp


def test_as_array_views_ctypes_memory() -> None:
    buf = (ctypes.c_double * 4)(1, 2, 3, 4)
    a = ma.ctypeslib.as_array(buf)
    a[0] = 9.0
    assert buf[0] == 9.0 and a.tolist() == [9.0, 2.0, 3.0, 4.0]
    p = ctypes.cast(buf, ctypes.POINTER(ctypes.c_double))
    got, want = ma.ctypeslib.as_array(p, shape=(2, 2)), np.ctypeslib.as_array(p, shape=(2, 2))
    assert got.tolist() == want.tolist() and got.dtype == ma.float64
    with pytest.raises(TypeError, match="requires a shape argument"):
        ma.ctypeslib.as_array(p)
    nested = ((ctypes.c_int * 3) * 2)()
    nested[1][2] = 5
    assert ma.ctypeslib.as_array(nested).tolist() == np.ctypeslib.as_array(nested).tolist()


def test_as_ctypes_shares_and_keeps_the_array() -> None:
    x = ma.arange(4.0)
    c = ma.ctypeslib.as_ctypes(x)
    c[1] = 7.0
    assert x.tolist() == [0.0, 7.0, 2.0, 3.0]
    assert type(c).__name__ == type(np.ctypeslib.as_ctypes(np.arange(4.0))).__name__
    del x
    assert c[1] == 7.0  # the array lives while the ctypes array does
    for lib in (np, ma):
        with pytest.raises(TypeError, match="strided arrays not supported"):
            lib.ctypeslib.as_ctypes(lib.arange(6.0)[::2])
        ro = lib.arange(3.0)
        ro.flags.writeable = False
        with pytest.raises(TypeError, match="readonly arrays unsupported"):
            lib.ctypeslib.as_ctypes(ro)


@pytest.mark.parametrize(("kwargs", "arg"), [
    ({"dtype": "float64", "ndim": 1, "flags": "C_CONTIGUOUS"}, "f1"),
    ({"dtype": "float64", "ndim": 1, "flags": "C_CONTIGUOUS"}, "i1"),
    ({"dtype": "float64", "ndim": 1, "flags": "C_CONTIGUOUS"}, "f2"),
    ({"dtype": "float64", "ndim": 1, "flags": "C_CONTIGUOUS"}, "strided"),
    ({"dtype": "float64", "ndim": 1, "flags": "C_CONTIGUOUS"}, "list"),
    ({"shape": (2, 2)}, "f2"), ({"shape": (3,)}, "f2"), ({"flags": ["W", "A"]}, "readonly"),
    ({"flags": "C,W"}, "f1"), ({"flags": 1024}, "readonly"), ({"flags": "bogus"}, "f1"),
], ids=lambda v: str(v))
def test_ndpointer_checks_as_numpy(kwargs: dict[str, Any], arg: str) -> None:
    def make(lib: Any) -> Any:
        ro = lib.arange(3.0)
        ro.flags.writeable = False
        return {"f1": lib.arange(3.0), "i1": lib.arange(3), "f2": lib.ones((2, 2)),
                "strided": lib.arange(6.0)[::2], "list": [1.0], "readonly": ro}[arg]

    def check(lib: Any) -> Any:
        pointer = lib.ctypeslib.ndpointer(**kwargs)
        return type(pointer.from_param(make(lib))).__name__ != ""

    assert _outcome(lambda: check(ma)) == _outcome(lambda: check(np))


def test_c_functions_called_with_arrays() -> None:
    libc = ctypes.CDLL(None)
    memset = libc.memset
    memset.argtypes = [ma.ctypeslib.ndpointer(dtype=ma.uint8, flags="C,W"), ctypes.c_int, ctypes.c_size_t]
    z = ma.zeros(4, dtype=ma.uint8)
    memset(z, 7, 4)
    assert z.tolist() == [7, 7, 7, 7]
    memcpy = libc.memcpy
    memcpy.restype = ma.ctypeslib.ndpointer(dtype=ma.float64, shape=(2,))
    memcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
    src, dst = ma.asarray([1.5, 2.5]), ma.zeros(2)
    out = memcpy(dst.ctypes.data, src.ctypes.data, 16)
    assert isinstance(out, ma.NDArray) and out.tolist() == [1.5, 2.5] and dst.tolist() == [1.5, 2.5]
    assert ma.ctypeslib.ndpointer(dtype=ma.uint8, flags="C,W") is memset.argtypes[0]  # one class per spec


def test_load_library_finds_a_library_beside_a_file(tmp_path: Any) -> None:
    import minarray._native as native

    folder = native.__file__.rsplit("/", 1)[0]
    core = next(p for p in __import__("os").listdir(folder) if p.startswith("_core") and p.endswith(".so"))
    lib = ma.ctypeslib.load_library(core, native.__file__)
    assert isinstance(lib, ctypes.CDLL)
    with pytest.raises(OSError, match="no file with expected extension"):
        ma.ctypeslib.load_library("no_such_library", tmp_path)
