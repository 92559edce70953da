"""Inspection (minarray/_inspection.py): the namespace
(__array_namespace__, __array_api_version__), __array_namespace_info__,
and NumPy's shape, ndim and size asked as functions."""

from __future__ import annotations

import numpy as np
import pytest
from test_data_type_functions import KINDS

import minarray as ma


def test_namespace_and_version() -> None:
    x = ma.ones(3)
    assert x.__array_namespace__() is ma
    assert x.__array_namespace__(api_version="2024.12") is ma
    assert x.__array_namespace__(api_version="2025.12") is ma
    assert ma.__array_api_version__ == "2025.12"
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2099.01")


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


# ---- NumPy's questions about arrays and types --------------------------------------------

def test_inspection_and_dtypes_match_numpy() -> None:
    for obj in ([[1, 2, 3]], np.ones((2, 0, 3)), 5.0):
        assert ma.shape(obj) == np.shape(obj) and ma.ndim(obj) == np.ndim(obj) and ma.size(obj) == np.size(obj)
    assert ma.size(np.ones((2, 3, 4)), (0, 2)) == 8
    names = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float16", "float32", "float64", "complex64", "complex128"]
    for x in names:
        for y in names:
            assert ma.promote_types(x, y).name == np.promote_types(x, y).name, (x, y)
