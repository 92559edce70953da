"""The namespace: __array_namespace__, __array_api_version__,
__array_namespace_info__, the constants, and the data type functions
(astype, can_cast, finfo, iinfo, isdtype, result_type) against NumPy."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from array_strategies import NP_DTYPES, np_dtype

import minarray as ma

KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric"]


def test_namespace_and_version() -> None:
    x = ma.ones(3)
    assert x.__array_namespace__() is ma
    assert x.__array_namespace__(api_version="2024.12") is ma
    assert x.__array_namespace__(api_version="2025.12") is ma
    assert ma.__array_api_version__ == "2025.12"
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2099.01")


def test_constants() -> None:
    assert ma.e == math.e and ma.pi == math.pi
    assert ma.inf == math.inf and math.isnan(ma.nan)
    assert ma.newaxis is None
    assert ma.ones((2, 3))[:, ma.newaxis].shape == (2, 1, 3)
    for c in (ma.e, ma.pi, ma.inf, ma.nan):
        assert type(c) is float


def test_info_object() -> None:
    info = ma.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] is True
    assert caps["data-dependent shapes"] is True
    assert caps["max dimensions"] == 64
    ma.ones((1,) * 64)  # the advertised limit is real
    with pytest.raises(ValueError):
        ma.ones((1,) * 65)
    assert info.default_device() == "cpu"
    assert info.devices() == ("cpu",)  # a tuple since 2025.12
    assert ma.ones(2).device == info.default_device()
    assert info.default_dtypes() == {
        "real floating": ma.float64, "complex floating": ma.complex128,
        "integral": ma.int64, "indexing": ma.int64,
    }
    assert info.default_dtypes(device="cpu") == info.default_dtypes()
    # the defaults are what the creation functions use
    assert ma.ones(2).dtype == info.default_dtypes()["real floating"]
    assert ma.asarray([1, 2]).dtype == info.default_dtypes()["integral"]
    assert ma.asarray([1j]).dtype == info.default_dtypes()["complex floating"]


def test_info_dtypes() -> None:
    info = ma.__array_namespace_info__()
    every = info.dtypes()
    standard = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float32", "float64", "complex64", "complex128"]
    for name in standard:
        assert every[name] is getattr(ma, name)
    # the standard's dtypes only: minarray's float16 and bfloat16 are extras
    assert sorted(every) == sorted(standard)
    for kind in KINDS:
        sub = info.dtypes(kind=kind)
        assert sub == {n: d for n, d in every.items() if ma.isdtype(d, kind)}
        assert sub, kind
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {"bool", "complex64", "complex128"}
    assert info.dtypes(kind=ma.int8) == {"int8": ma.int8}
    assert info.dtypes(device="cpu") == every
    with pytest.raises(ValueError):
        info.dtypes(device="cuda")
    with pytest.raises(ValueError):
        info.dtypes(kind="floating")
    with pytest.raises(ValueError):
        info.default_dtypes(device="gpu")


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "complex64", "complex128"])
def test_finfo_matches_numpy(name: str) -> None:
    f, n = ma.finfo(getattr(ma, name)), np.finfo(name)
    assert f.bits == n.bits
    for attr in ("eps", "max", "min", "smallest_normal", "tiny", "resolution"):
        value = getattr(f, attr)
        assert type(value) is float, attr
        assert value == float(getattr(n, attr)), attr
    assert f.precision == n.precision
    assert f.dtype.name == n.dtype.name
    assert f.dtype.kind == "f"
    # from an array too
    assert ma.finfo(ma.ones(2, dtype=getattr(ma, name))) == f


def test_finfo_bfloat16_matches_ml_dtypes() -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes provides NumPy's bfloat16")
    f, n = ma.finfo(ma.bfloat16), ml_dtypes.finfo(ml_dtypes.bfloat16)
    assert f.bits == 16
    for attr in ("eps", "max", "min", "smallest_normal"):
        assert getattr(f, attr) == float(getattr(n, attr)), attr
    assert f.dtype is ma.bfloat16


@pytest.mark.parametrize("name", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
def test_iinfo_matches_numpy(name: str) -> None:
    i, n = ma.iinfo(getattr(ma, name)), np.iinfo(name)
    assert (i.bits, i.max, i.min) == (n.bits, int(n.max), int(n.min))
    assert type(i.max) is int and type(i.min) is int
    assert i.dtype is getattr(ma, name)
    assert ma.iinfo(ma.zeros(1, dtype=getattr(ma, name))) == i
    assert ma.iinfo(name) == i


def test_finfo_iinfo_errors() -> None:
    with pytest.raises(ValueError, match="floating"):
        ma.finfo(ma.int32)
    with pytest.raises(ValueError, match="floating"):
        ma.finfo(ma.bool)
    with pytest.raises(ValueError, match="integer"):
        ma.iinfo(ma.float32)
    with pytest.raises(ValueError, match="integer"):
        ma.iinfo(ma.bool)
    with pytest.raises(TypeError):
        ma.finfo("no such type")


@pytest.mark.parametrize("d1", NP_DTYPES, ids=str)
def test_result_type_and_can_cast_match_numpy(d1: ma.DType) -> None:
    for d2 in NP_DTYPES:
        n1, n2 = np_dtype(d1), np_dtype(d2)
        assert ma.result_type(d1, d2) == np.result_type(n1, n2), d2
        assert ma.result_type(ma.zeros(1, dtype=d1), d2) == np.result_type(n1, n2), d2
        assert ma.can_cast(d1, d2) == np.can_cast(n1, n2, casting="safe"), d2
        assert ma.can_cast(ma.zeros(1, dtype=d1), d2) == np.can_cast(n1, n2, casting="safe"), d2


def test_result_type_with_python_scalars_is_weak() -> None:
    assert ma.result_type(ma.int8, 1) == ma.int8
    assert ma.result_type(ma.float32, 1.0) == ma.float32
    assert ma.result_type(ma.int16, 1.0) == ma.float64
    assert ma.result_type(ma.float32, 1j) == ma.complex64
    assert ma.result_type(ma.int32, ma.int8, True) == ma.int32
    with pytest.raises(ValueError):
        ma.result_type()
    with pytest.raises(ValueError):
        ma.result_type(1, 2.0)


@pytest.mark.parametrize("dtype", NP_DTYPES, ids=str)
def test_isdtype_matches_numpy(dtype: ma.DType) -> None:
    for kind in KINDS:
        assert ma.isdtype(dtype, kind) == np.isdtype(np_dtype(dtype), kind), kind
    assert ma.isdtype(dtype, dtype)
    assert ma.isdtype(dtype, ("bool", dtype))
    with pytest.raises(ValueError):
        ma.isdtype(dtype, "floating")


def test_isdtype_bfloat16() -> None:
    assert ma.isdtype(ma.bfloat16, "real floating") and ma.isdtype(ma.bfloat16, "numeric")
    assert not ma.isdtype(ma.bfloat16, "integral")


@pytest.mark.parametrize("src", NP_DTYPES, ids=str)
def test_astype_matches_numpy(src: ma.DType) -> None:
    for dst in NP_DTYPES:
        check_astype(src, dst)


def check_astype(src: ma.DType, dst: ma.DType) -> None:
    values: Any = [0, 1, 2, 100] if src.kind in "iub" else [0.0, 1.5, -2.0, 100.25]
    if src.kind == "b":
        values = [True, False, True, True]
    if src.kind == "u" or dst.kind == "u":
        values = [abs(v) for v in values]
    a_np = np.asarray(values).astype(np_dtype(src))
    a = ma.asarray(a_np, copy=True)
    got = ma.astype(a, dst)
    assert got.dtype == dst
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        expected = a_np.astype(np_dtype(dst))
    np.testing.assert_array_equal(np.asarray(got), expected)
    assert got is not a
    same = ma.astype(a, src, copy=False)
    assert same is a
    assert ma.astype(a, src) is not a
    with pytest.raises(ValueError):
        ma.astype(a, dst, device="gpu")
