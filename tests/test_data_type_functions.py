"""The data type functions (minarray/_data_type_functions.py: astype,
can_cast, finfo, iinfo, isdtype, result_type) against NumPy."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from array_strategies import NP_DTYPES, np_dtype
from numpy_errors import raises_as_numpy
from numpy_oracle import same

import minarray as ma

# complex to real casts are compared with NumPy's values, their ComplexWarning aside
pytestmark = pytest.mark.filterwarnings("ignore::minarray.exceptions.ComplexWarning")

KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric"]


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "complex64", "complex128"])
def test_finfo_matches_numpy(name: str) -> None:
    f, n = ma.finfo(getattr(ma, name)), np.finfo(name)
    assert f.bits == n.bits
    for attr in ("eps", "max", "min", "smallest_normal", "tiny", "resolution"):
        value = getattr(f, attr)
        assert isinstance(value, float), attr  # (a float subclass that prints as NumPy prints the limit)
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


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_can_cast_under_numpys_casting_rules(casting: str) -> None:
    for d1 in NP_DTYPES:
        for d2 in NP_DTYPES:
            want = np.can_cast(np_dtype(d1), np_dtype(d2), casting)
            assert ma.can_cast(d1, d2, casting) == want, (d1, d2)
            assert ma.can_cast(ma.zeros(1, dtype=d1), d2, casting=casting) == want, (d1, d2)
    with pytest.raises(ValueError):
        ma.can_cast(ma.int8, ma.int16, "sometimes")


def test_result_type_with_python_scalars_is_weak() -> None:
    assert ma.result_type(ma.int8, 1) == ma.int8
    assert ma.result_type(ma.float32, 1.0) == ma.float32
    assert ma.result_type(ma.int16, 1.0) == ma.float64
    assert ma.result_type(ma.float32, 1j) == ma.complex64
    assert ma.result_type(ma.int32, ma.int8, True) == ma.int32
    with pytest.raises(ValueError):
        ma.result_type()
    # Python scalars alone: NumPy's default types (the standard asks for
    # an array or dtype among them, NumPy's code passes none)
    assert ma.result_type(1, 2.0) == ma.float64


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


# NumPy's abstract scalar types, by name: minarray's are its own classes.
ABSTRACT = ["generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
            "complexfloating", "flexible", "character"]
# the scalar types minarray lacks: named, placed in the tree, never made
LACKING = ["datetime64", "timedelta64", "str_", "bytes_", "object_", "void"]


@pytest.mark.parametrize("d", NP_DTYPES, ids=str)
def test_issubdtype_of_each_dtype_matches_numpy(d: ma.DType) -> None:
    nd = np_dtype(d)
    for name in ABSTRACT + LACKING:
        expected = np.issubdtype(nd, getattr(np, name))
        assert ma.issubdtype(d, getattr(ma, name)) is expected, name
        assert ma.issubdtype(d, getattr(np, name)) is expected, name  # NumPy's abstract types too
        assert ma.issubdtype(d.name, getattr(ma, name)) is expected, name
        assert issubclass(d, getattr(ma, name)) is expected, name  # a dtype is minarray's scalar type
        assert issubclass(d.type, getattr(ma, name)) is expected, name  # NumPy's scalar type of it
        assert issubclass(d.type, getattr(np, name)) is expected, name
        value = nd.type(1)  # isinstance of NumPy's scalars, as with NumPy's abstract types
        assert isinstance(value, getattr(ma, name)) is isinstance(value, getattr(np, name)), name
    for other in NP_DTYPES:
        assert ma.issubdtype(d, other) is np.issubdtype(nd, np_dtype(other)), other
    assert not isinstance(1.0, ma.floating) and not isinstance(ma.asarray(1.0), ma.floating)  # as NumPy


def test_issubdtype_of_abstract_types_and_spellings_matches_numpy() -> None:
    for a in ABSTRACT + LACKING:
        for b in ABSTRACT + LACKING:
            expected = np.issubdtype(getattr(np, a), getattr(np, b))
            assert ma.issubdtype(getattr(ma, a), getattr(ma, b)) is expected, (a, b)
            assert issubclass(getattr(ma, a), getattr(ma, b)) is expected, (a, b)
    for spelling in (float, int, complex, bool, "f4", "i8", "u1", "?", "c8", np.float32, np.uint16):
        for name in ABSTRACT:
            expected = np.issubdtype(spelling, getattr(np, name))
            assert ma.issubdtype(spelling, getattr(ma, name)) is expected, (spelling, name)
    assert ma.issubdtype(ma.float64, "f8") and not ma.issubdtype(ma.int32, ma.int64)
    x = ma.ones(3, dtype=ma.float32)
    assert ma.issubdtype(x.dtype, ma.floating) and not ma.issubdtype(x.dtype, ma.integer)
    with pytest.raises(TypeError, match="minarray has no dtype 'U3'"):
        ma.issubdtype("U3", ma.character)  # a spelling of a type minarray lacks is no dtype here


def test_issubdtype_places_bfloat16_and_storage_types_by_kind() -> None:
    """ml_dtypes registers them under np.generic alone; minarray places them
    by what they hold (a float8 is a floating type), as isdtype does."""
    assert ma.issubdtype(ma.bfloat16, ma.floating) and ma.isdtype(ma.bfloat16, "real floating")
    assert ma.issubdtype(ma.float8_e4m3fn, ma.floating) and ma.issubdtype(ma.int4, ma.signedinteger)
    assert ma.issubdtype(ma.uint2, ma.unsignedinteger) and ma.issubdtype(ma.complex32, ma.complexfloating)


def test_abstract_types_make_no_instances() -> None:
    for name in ABSTRACT:
        with pytest.raises(TypeError, match=f"cannot create 'minarray.{name}' instances"):
            getattr(ma, name)()
        with pytest.raises(TypeError, match="abstract"):
            ma.dtype(getattr(ma, name))
        with pytest.raises(TypeError):
            np.dtype(getattr(np, name))  # NumPy 2 refuses them too
        assert repr(getattr(ma, name)) == f"<class 'minarray.{name}'>"
        assert name in ma.__all__


# ---- NumPy's type utilities: iterable, real_if_close, common_type, min_scalar_type... --------

ITERABLES: dict[str, Any] = {
    "list": lambda m: [1, 2], "tuple": lambda m: (), "str": lambda m: "ab", "int": lambda m: 3,
    "float": lambda m: 1.5, "none": lambda m: None, "1-d": lambda m: m.arange(3), "0-d": lambda m: m.asarray(3.0),
    "scalar": lambda m: m.arange(3)[0], "generator": lambda m: (i for i in range(2)), "dict": lambda m: {1: 2},
}


@pytest.mark.parametrize("case", ITERABLES)
def test_iterable_as_numpy(case: str) -> None:
    assert ma.iterable(ITERABLES[case](ma)) is np.iterable(ITERABLES[case](np))


REAL_IF_CLOSE: dict[str, tuple[Any, dict[str, Any]]] = {
    "tiny-imag": ([1 + 1e-15j, 2 - 3e-15j], {}),
    "real-input": ([1, 2], {}),
    "float-input": ([1.5, 2.0], {}),
    "large-imag": ([1 + 1e-10j, 2], {}),
    "complex64": (np.array([1 + 1e-7j], np.complex64), {"tol": 1000}),
    "complex64-too-large": (np.array([1 + 1e-4j], np.complex64), {"tol": 1000}),
    "absolute-tol": ([1 + 0.01j, 2], {"tol": 0.1}),
    "absolute-tol-fails": ([1 + 0.2j, 2], {"tol": 0.1}),
    "2-d": (np.array([[1 + 0j, 2], [3, 4j * 1e-20]]), {}),
    "scalar": (3 + 0j, {}),
}


@pytest.mark.parametrize("case", REAL_IF_CLOSE)
def test_real_if_close_as_numpy(case: str) -> None:
    a, kw = REAL_IF_CLOSE[case]
    same(ma.real_if_close(a, **kw), np.real_if_close(a, **kw))
    if isinstance(a, np.ndarray):
        same(ma.real_if_close(ma.asarray(a), **kw), np.real_if_close(a, **kw))


COMMON_TYPE = [(), ("int8",), ("float16",), ("float32",), ("float16", "float32"), ("int32", "float32"),
               ("float32", "complex64"), ("float64", "complex64"), ("complex128",), ("uint64", "float16"),
               ("complex64",)]


@pytest.mark.parametrize("dtypes", COMMON_TYPE, ids=str)
def test_common_type_as_numpy(dtypes: tuple[str, ...]) -> None:
    want = np.common_type(*(np.zeros(2, d) for d in dtypes))
    got = ma.common_type(*(ma.zeros(2, dtype=getattr(ma, d)) for d in dtypes))
    assert got is getattr(ma, np.dtype(want).name)


def test_common_type_errors_as_numpy() -> None:
    raises_as_numpy(lambda m: m.common_type(m.zeros(2, dtype=m.bool)), "non-numeric array")
    raises_as_numpy(lambda m: m.common_type([1.0, 2.0]), "dtype")


MIN_SCALAR: list[Any] = [True, False, 0, 255, 256, 65535, 65536, 2**32, 2**63, -1, -128, -129, -2**15 - 1,
                         -2**31 - 1, -2**63, 1.0, 64999.9, 65000.0, -65000.0, 65520.0, 1e5, 3.3e38, 3.4e38, 1e39,
                         1e-50, float("nan"), float("inf"), -float("inf"), 1 + 1j, 1e39j, -1e39 + 0j,
                         complex(float("nan"), 0), complex(1, float("inf")), np.float32(3), np.int8(5), np.uint64(3),
                         np.float32(1e38), np.array(300), np.array([1, 2], np.int8), np.array(-1.5)]


@pytest.mark.parametrize("value", MIN_SCALAR, ids=repr)
def test_min_scalar_type_as_numpy(value: Any) -> None:
    want = np.min_scalar_type(value)
    got = ma.min_scalar_type(ma.asarray(value) if isinstance(value, np.ndarray) else value)
    assert got is getattr(ma, want.name)


def test_min_scalar_type_of_a_list_is_its_array_dtype() -> None:
    assert ma.min_scalar_type([1, 2]) is getattr(ma, np.min_scalar_type([1, 2]).name)


MINTYPECODE: list[tuple[Any, dict[str, Any]]] = [
    (["d", "f", "S"], {}), ("idF", {}), ("idD", {}), (["i", "l"], {}), ("fF", {}), (["e"], {}), ("", {}),
    ("id", {"default": "f"}), ("hbBf", {"typeset": "bBhf"}), ("?", {"typeset": "?bB"}),
]


@pytest.mark.parametrize(("chars", "kw"), MINTYPECODE, ids=str)
def test_mintypecode_as_numpy(chars: Any, kw: dict[str, Any]) -> None:
    assert ma.mintypecode(chars, **kw) == np.mintypecode(chars, **kw)


def test_mintypecode_reads_arrays_as_numpy() -> None:
    assert ma.mintypecode([ma.ones(2, dtype=ma.float32), "d"]) == np.mintypecode([np.ones(2, np.float32), "d"])
    assert ma.mintypecode([ma.ones(2, dtype=ma.complex64)]) == np.mintypecode([np.ones(2, np.complex64)])


@pytest.mark.parametrize("char", [*"?bBhHiIlLqQfdgFDGSUVO", "S1"])
def test_typename_as_numpy(char: str) -> None:
    assert ma.typename(char) == np.typename(char)


def test_typename_errors_as_numpy() -> None:
    raises_as_numpy(lambda m: m.typename("e"), "e")
    raises_as_numpy(lambda m: m.typename("zz"), "zz")


def test_typecodes_are_numpys_for_minarrays_types() -> None:
    assert ma.typecodes.keys() == np.typecodes.keys()
    for key, chars in np.typecodes.items():
        held = ""
        for c in chars:
            try:
                ma.dtype(c)
            except TypeError:
                continue
            held += c
        assert ma.typecodes[key] == held, key
    assert ma.asarray([1.5]).dtype.char in ma.typecodes["AllFloat"]
    assert ma.asarray([1]).dtype.char in ma.typecodes["AllInteger"]


def test_sctypedict_holds_numpys_names_of_minarrays_types() -> None:
    for name, t in ma.sctypeDict.items():
        if name not in np.sctypeDict:  # a storage type NumPy knows through ml_dtypes, when it is loaded
            assert t.name == name and t not in (ma.float64, ma.int64), name
            continue
        assert t is getattr(ma, np.dtype(np.sctypeDict[name]).name), name
    # every name NumPy gives one of its own types that minarray holds
    for name, t in np.sctypeDict.items():
        if t.__module__ == "numpy" and np.dtype(t).kind in "biufc" and np.dtype(t).name in ma.sctypeDict:
            assert name in ma.sctypeDict, name


def test_scalar_type_lists_pythons_then_minarrays_types() -> None:
    assert ma.ScalarType[:7] == np.ScalarType[:7]
    for v in (3, 2.5, 1j, True, b"x", "s", ma.float32(2), ma.asarray([1, 2], dtype=ma.uint8)[0], np.int16(3)):
        assert isinstance(v, ma.ScalarType) == isinstance(v, np.ScalarType) or isinstance(v, ma.NDArray), v
    assert isinstance(ma.float32(2), ma.ScalarType)
    assert not isinstance([1], ma.ScalarType)


def test_little_endian_as_numpy() -> None:
    assert ma.little_endian is np.little_endian


def test_true_and_false_as_numpy() -> None:
    for name in ("True_", "False_"):
        got, want = getattr(ma, name), getattr(np, name)
        assert repr(got) == repr(want)
        assert got == want and bool(got) is bool(want)
        assert got.dtype == ma.bool and got.ndim == 0
    assert ma.asarray([True, False])[0] == ma.True_
    assert ma.asarray([True, False])[1] == ma.False_
    assert ma.True_ != ma.False_
    with pytest.raises((TypeError, ValueError)):
        ma.True_[()] = False  # read-only: the constant stays
    assert bool(ma.True_)
