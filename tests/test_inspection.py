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


# ---- may_share_memory and shares_memory ---------------------------------------------


def _strided_pairs(count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Pairs of NumPy views of one byte buffer, of random item sizes, shapes,
    offsets and strides (negative and zero too): the everyday cases and the
    awkward ones, whose answer NumPy's exact solver gives."""
    rng = np.random.default_rng(7)
    buf = np.zeros(2000, dtype=np.int8)
    pairs = []
    for _ in range(count):
        made = []
        for _ in range(2):
            itemsize = int(rng.choice([1, 2, 4, 8]))
            shape = tuple(int(n) for n in rng.integers(1, 6, size=int(rng.integers(1, 4))))
            strides = tuple(int(rng.choice([0, 1, 2, 3, 5, 7, 11, 16, -1, -3])) * itemsize for _ in shape)
            offset = int(rng.integers(800, 1000)) // itemsize * itemsize
            made.append(np.ndarray(shape, dtype=f"i{itemsize}", buffer=buf, offset=offset, strides=strides))
        pairs.append((made[0], made[1]))
    return pairs


PAIRS = _strided_pairs(400)


@pytest.mark.parametrize("chunk", range(4))
def test_shares_memory_is_exact_as_numpys(chunk: int) -> None:
    answers = []
    for a, b in PAIRS[chunk::4]:
        x, y = ma.asarray(a), ma.asarray(b)  # views of the same bytes
        assert x.data_ptr == a.ctypes.data
        answers.append(np.shares_memory(a, b))
        assert ma.shares_memory(x, y) == answers[-1]
        assert ma.may_share_memory(x, y, max_work=-1) == answers[-1]
        assert ma.may_share_memory(x, y) == np.may_share_memory(a, b)
    assert any(answers) and not all(answers)  # both answers were asked for


@pytest.mark.parametrize(("left", "right"), [
    (slice(None, None, 2), slice(1, None, 2)), (slice(None), slice(3, None)), (slice(0, 3), slice(3, None)),
    (slice(0, 0), slice(None)), (slice(None, None, -1), slice(4, 6))])
def test_views_of_one_array_share_as_numpy(left: slice, right: slice) -> None:
    n = np.arange(10)
    x = ma.arange(10)
    for fn in ("shares_memory", "may_share_memory"):
        assert getattr(ma, fn)(x[left], x[right]) == getattr(np, fn)(n[left], n[right]), fn


def test_shares_memory_of_new_arrays_is_false() -> None:
    x = ma.arange(4.0)
    assert ma.shares_memory(x, x)
    assert not ma.shares_memory(x, x.copy())
    assert not ma.shares_memory([1, 2], [1, 2]) and not np.shares_memory([1, 2], [1, 2])
    assert not ma.shares_memory(x, 3)
    n = np.arange(4.0)
    for dtype in ("float64", "float32"):
        assert ma.shares_memory(ma.asarray(x, dtype=dtype), x) == np.shares_memory(np.asarray(n, dtype=dtype), n)


def test_shares_memory_max_work_as_numpy() -> None:
    n = np.arange(10)
    x = ma.arange(10)
    with pytest.raises(ma.exceptions.TooHardError, match="Exceeded max_work"):
        ma.shares_memory(x, x, max_work=0)
    with pytest.raises(np.exceptions.TooHardError):
        np.shares_memory(n, n, max_work=0)
    assert ma.shares_memory(x[::2], x[1::2], max_work=100) is np.shares_memory(n[::2], n[1::2], max_work=100)
    for xp, arr in ((np, n), (ma, x)):
        with pytest.raises(ValueError, match="Invalid value for max_work"):
            xp.shares_memory(arr, arr, max_work=-5)


# ---- isfortran and the flags it reads -------------------------------------------------------

ISFORTRAN = {
    "c-2d": lambda m: m.ones((3, 4)),
    "f-2d": lambda m: m.ones((3, 4)).T,
    "1-d": lambda m: m.ones(4),
    "column": lambda m: m.ones((4, 1)).T,
    "strided": lambda m: m.ones((4, 6))[::2, ::2],
    "0-d": lambda m: m.asarray(1.0),
    "empty": lambda m: m.ones((0, 3)).T,
}


@pytest.mark.parametrize("layout", ISFORTRAN)
def test_isfortran_and_flags_as_numpy(layout: str) -> None:
    n, a = ISFORTRAN[layout](np), ISFORTRAN[layout](ma)
    assert ma.isfortran(a) is np.isfortran(n)
    for flag in ("fnc", "forc", "aligned", "contiguous", "fortran", "behaved", "carray"):
        assert getattr(a.flags, flag) == getattr(n.flags, flag), flag
    for key in ("C", "F", "W", "O", "A", "X", "FNC", "FORC", "ALIGNED", "C_CONTIGUOUS", "CONTIGUOUS", "FORTRAN",
                "BEHAVED", "B", "CARRAY", "CA"):
        assert a.flags[key] == n.flags[key], key
    # farray as NumPy documents it: NumPy's own getter tests its three bits
    # with "any of", so it calls a strided array an farray
    f = n.flags
    assert a.flags.farray == a.flags["FA"] == (f.aligned and f.writeable and f.f_contiguous and not f.c_contiguous)
    for key in ("c", "w", "fortran", "NOPE"):  # NumPy's keys are upper case
        with pytest.raises(KeyError, match="Unknown flag"):
            n.flags[key]
        with pytest.raises(KeyError, match="Unknown flag"):
            a.flags[key]


def test_isfortran_needs_an_array_as_numpy() -> None:
    with pytest.raises(AttributeError):
        np.isfortran([[1, 2]])
    with pytest.raises(AttributeError, match="flags"):
        ma.isfortran([[1, 2]])
