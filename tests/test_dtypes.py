"""dtypes: singletons, names, itemsize/kind, the one DLPack code table, the
spellings accepted wherever a dtype is, and promotion against NumPy."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest
from array_strategies import ALL_DTYPES, NP_BFLOAT16, NP_DTYPES, np_dtype

import minarray as ma
from minarray import _dtypes as _dt

# (name, kind, itemsize, DLPack code, bits) straight from the DLPack header's
# DLDataTypeCode: kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBfloat 4, kDLComplex 5, kDLBool 6
TABLE = [
    ("bool", "b", 1, 6, 8), ("int8", "i", 1, 0, 8), ("int16", "i", 2, 0, 16), ("int32", "i", 4, 0, 32),
    ("int64", "i", 8, 0, 64), ("uint8", "u", 1, 1, 8), ("uint16", "u", 2, 1, 16), ("uint32", "u", 4, 1, 32),
    ("uint64", "u", 8, 1, 64), ("float16", "f", 2, 2, 16), ("bfloat16", "f", 2, 4, 16),
    ("float32", "f", 4, 2, 32), ("float64", "f", 8, 2, 64), ("complex64", "c", 8, 5, 64),
    ("complex128", "c", 16, 5, 128),
]


@pytest.mark.parametrize(("name", "kind", "itemsize", "code", "bits"), TABLE, ids=[t[0] for t in TABLE])
def test_dtype_table(name: str, kind: str, itemsize: int, code: int, bits: int) -> None:
    d = getattr(ma, name)
    assert isinstance(d, ma.DType)
    assert str(d) == name and d.name == name and repr(d) == f"dtype('{name}')"  # NumPy's repr
    assert d.kind == kind and d.itemsize == itemsize and d.bits == bits and d.lanes == 1
    assert d.dlpack == (code, bits, 1)
    assert int(d.code) == code
    assert _dt.from_dlpack_code(code, bits) is d
    assert _dt.from_dlpack_code(code, bits, 2) is None
    # one singleton, however it is reached
    assert ma.asarray([0], dtype=name).dtype is d
    assert _dt.as_dtype(name) is d and _dt.as_dtype(d) is d
    assert pickle.loads(pickle.dumps(d)) is d and copy.deepcopy(d) is d
    assert hash(d) == hash(ma.asarray([1], dtype=d).dtype)


def test_table_is_complete() -> None:
    assert [t[0] for t in TABLE] == [d.name for d in ALL_DTYPES]
    assert len({d.dlpack for d in ALL_DTYPES}) == len(ALL_DTYPES)
    assert all(getattr(ma, d.name) is d for d in ALL_DTYPES)


@pytest.mark.parametrize("d", ALL_DTYPES, ids=str)
def test_numpy_equality_and_conversion(d: ma.DType) -> None:
    if d is ma.bfloat16 and NP_BFLOAT16 is None:
        pytest.skip("bfloat16 needs ml_dtypes")
    nd = np_dtype(d)
    assert d == nd and nd == d
    assert d.numpy == nd
    assert np.dtype(d) == nd  # through DType.dtype
    assert np.zeros(2, dtype=d).dtype == nd
    assert _dt.as_dtype(nd) is d
    assert _dt.as_dtype(nd.type) is d  # np.float32 and friends
    assert d == nd.type
    assert ma.zeros(2, dtype=nd).dtype is d
    others = [o for o in ALL_DTYPES if o is not d]
    assert all(d != o for o in others)
    assert d != "nope" and d == d.name


def test_other_spellings() -> None:
    assert _dt.as_dtype(bool) is ma.bool
    assert _dt.as_dtype(int) is ma.int64
    assert _dt.as_dtype(float) is ma.float64
    assert _dt.as_dtype(complex) is ma.complex128
    assert _dt.as_dtype("double") is ma.float64 and _dt.as_dtype("half") is ma.float16
    assert _dt.as_dtype(np.dtype("<f4")) is ma.float32


def test_torch_dtypes() -> None:
    torch = pytest.importorskip("torch")
    assert _dt.as_dtype(torch.float32) is ma.float32
    assert _dt.as_dtype(torch.bfloat16) is ma.bfloat16
    assert _dt.as_dtype(torch.uint8) is ma.uint8


@pytest.mark.parametrize(
    "bad", ["float128", "f8", "f3", ">f8", "int", "", "object", 3, None, object(), np.dtype("U3"), np.dtype("O"),
            np.dtype(">f8"), np.dtype("datetime64[s]")],
    # an object() has no stable repr (its address): name it by its type
    ids=lambda bad: "object()" if type(bad) is object else repr(bad),
)
def test_unknown_dtypes_raise_type_error(bad: Any) -> None:
    if bad in ("int", "f8"):
        assert _dt.as_dtype(bad) is ma.int64 if bad == "int" else ma.float64  # accepted spellings
        return
    with pytest.raises(TypeError, match=r"dtype|byte order"):
        _dt.as_dtype(bad)
    if bad is not None:
        with pytest.raises(TypeError):
            ma.zeros(2, dtype=bad)


def test_isdtype() -> None:
    assert ma.isdtype(ma.int8, "signed integer") and not ma.isdtype(ma.uint8, "signed integer")
    assert ma.isdtype(ma.uint8, "integral") and ma.isdtype(ma.bfloat16, "real floating")
    assert ma.isdtype(ma.complex64, ("bool", "complex floating"))
    assert ma.isdtype(ma.bool, ma.bool) and not ma.isdtype(ma.bool, "numeric")
    with pytest.raises(ValueError, match="unknown dtype kind"):
        ma.isdtype(ma.int8, "whole")
    with pytest.raises(TypeError):
        ma.isdtype("int8", "integral")  # type: ignore[arg-type]


@pytest.mark.parametrize("a", NP_DTYPES, ids=str)
def test_promotion_matches_numpy(a: ma.DType) -> None:
    for b in NP_DTYPES:
        expected = np.result_type(np_dtype(a), np_dtype(b))
        assert ma.result_type(a, b) == expected, (a, b)
        assert np.can_cast(np_dtype(a), np_dtype(b)) == ma.can_cast(a, b), (a, b)


def test_promotion_with_arrays_and_python_scalars() -> None:
    x = ma.zeros(2, dtype=ma.int8)
    assert ma.result_type(x, 1) is ma.int8
    assert ma.result_type(x, 1.5) is ma.float64
    assert ma.result_type(ma.zeros(2, dtype=ma.float32), 1.5) is ma.float32
    assert ma.result_type(ma.float32, 1j) is ma.complex64
    assert ma.result_type("int16", ma.uint8) is ma.int16
    assert ma.result_type(ma.bfloat16, ma.float16) is ma.float32
    assert ma.result_type(ma.bfloat16, ma.int8) is ma.bfloat16
    assert ma.result_type(ma.bfloat16, ma.complex64) is ma.complex64
    assert ma.can_cast(x, ma.int16) and not ma.can_cast(ma.float32, ma.int64)
    with pytest.raises(ValueError, match="at least one"):
        ma.result_type()
    with pytest.raises(ValueError, match="Python scalars alone"):
        ma.result_type(1, 2.0)
