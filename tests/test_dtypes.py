"""dtypes: singletons, names, itemsize/kind, the one DLPack code table, the
spellings accepted wherever a dtype is, and promotion against NumPy."""

from __future__ import annotations

import copy
import pickle
import re
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



@pytest.mark.parametrize("scalars", [(3.0, -2), (True, 1), (1, 1j), (True,), (1.0,), (True, False), (2, 3),
                                     (1j, True, 2.5)])
def test_result_type_of_python_scalars_alone_is_numpys(scalars: tuple[Any, ...]) -> None:
    # NumPy reads each as its default type (int64, float64...), the widest kind winning
    assert str(ma.result_type(*scalars)) == str(np.result_type(*scalars))


# Every spelling NumPy's np.dtype accepts for the types minarray has: the
# names and NumPy's aliases, its character codes, type strings with each
# byte order mark that is native or moot, Python types, NumPy's scalar types.
SPELLINGS: list[Any] = [
    *(d.name for d in NP_DTYPES),
    "float", "int", "complex", "bool_", "byte", "ubyte", "short", "ushort", "intc", "uintc", "int_", "intp", "uintp",
    "long", "ulong", "uint", "longlong", "ulonglong", "half", "single", "double", "csingle", "cdouble",
    *"?bBhHiIlLqQpPefdFD",
    "b1", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16",
    "<f8", "=i4", "|b1", "<b1", ">b1", "|u1", ">i1", "=c16", "<u2", "=f2", "<d", "=?",
    bool, int, float, complex,
    *(np.dtype(d.name).type for d in NP_DTYPES), np.bool_, np.intp, np.longlong, np.double,
    *(np.dtype(d.name) for d in NP_DTYPES), np.dtype(">u1"),
]


@pytest.mark.parametrize("spelling", SPELLINGS, ids=lambda s: getattr(s, "__name__", None) or repr(s))
def test_dtype_of_every_numpy_spelling(spelling: Any) -> None:
    expected = np.dtype(spelling)
    got = ma.dtype(spelling)
    assert got is getattr(ma, expected.name) and got.name == expected.name
    assert got == expected and expected == got
    assert got == spelling  # equality is "ma.dtype(other) is self"


def test_dtype_is_the_class_of_the_singletons() -> None:
    assert ma.dtype is ma.DType
    assert all(isinstance(d, ma.dtype) for d in _dt.ALL)
    assert ma.dtype("f4") is ma.float32 and ma.dtype(ma.float32) is ma.float32
    assert ma.dtype(None) is ma.float64 and np.dtype(None).name == "float64"  # NumPy's default
    assert ma.dtype("f8", align=True, copy=True) is ma.float64  # NumPy's signature; nothing to align or copy
    holder = type("Holder", (), {"dtype": np.dtype("i2")})()  # not an array, but with a dtype
    assert ma.dtype(holder) is ma.int16 and np.dtype(holder) == np.int16
    with pytest.raises(TypeError, match="from an array"):
        ma.dtype(np.zeros(2, dtype=np.uint32))  # as np.dtype: an array is no dtype spelling
    assert ma.dtype(ml_dtypes_or_skip().bfloat16) is ma.bfloat16


def ml_dtypes_or_skip() -> Any:
    return pytest.importorskip("ml_dtypes", reason="ml_dtypes is optional: it gives NumPy bfloat16 and float8")


# NumPy's attributes of a dtype, read from minarray's and from NumPy's.
ATTRS = ["name", "kind", "char", "num", "itemsize", "str", "byteorder", "alignment", "isbuiltin", "isnative",
         "descr", "shape", "ndim", "names", "fields", "hasobject", "subdtype", "metadata"]


@pytest.mark.parametrize("d", NP_DTYPES, ids=str)
def test_attributes_are_numpys(d: ma.DType) -> None:
    nd = np.dtype(d.name)
    for attr in ATTRS:
        assert getattr(d, attr) == getattr(nd, attr), attr
    assert d.base is d and nd.base == nd
    assert d.type is nd.type  # NumPy's scalar type: x.dtype.type is np.float64
    assert issubclass(d.type, np.generic)
    assert d.newbyteorder("=") is d and d.newbyteorder("<") is d and d.newbyteorder("|") is d


@pytest.mark.parametrize("d", NP_DTYPES, ids=str)
def test_scalar_type_name_flags_and_order_are_numpys(d: ma.DType) -> None:
    """``np.float32.__name__``, ``dtype.flags``, and NumPy's order of dtypes
    by safe casting (``<``, ``<=``, ``>``, ``>=`` against every other type,
    given as a dtype or as another spelling)."""
    nd = np.dtype(d.name)
    assert d.__name__ == nd.type.__name__ == d.name
    assert d.flags == nd.flags
    for o in NP_DTYPES:
        no = np.dtype(o.name)
        got = (d < o, d <= o, d > o, d >= o, d < o.name, d >= no)
        assert got == (nd < no, nd <= no, nd > no, nd >= no, nd < no, nd >= no), (d, o)


def test_numpy_2_intp_codes_and_typecodes() -> None:
    """'n' and 'N' (NumPy 2's intp and uintp codes) name the same dtypes as in
    NumPy, and ``typecodes`` lists NumPy's codes of the types minarray has."""
    for code in "nNpP":
        assert ma.dtype(code).name == np.dtype(code).name
    held = set("?bBhHiIlLqQnNpPefdFD")
    for group, codes in ma.typecodes.items():
        assert codes == "".join(c for c in np.typecodes[group] if c in held), group


@pytest.mark.parametrize("d", [ma.bfloat16, *_dt.STORAGE], ids=str)
def test_attributes_of_ml_dtypes_types(d: ma.DType) -> None:
    """bfloat16 and the storage types report what ml_dtypes registers with
    NumPy, except ``kind``: minarray keeps the kind of what they hold
    (ml_dtypes says 'V' for most, 'f' for float8_e5m2, 'W' for complex32),
    as its promotion rules and kernels read it."""
    ml_dtypes = ml_dtypes_or_skip()
    if not hasattr(ml_dtypes, d.name):
        with pytest.raises(TypeError, match=f"NumPy has no {d.name}"):
            _ = d.char
        assert d.type is d  # no NumPy type: minarray's own
        return
    nd = np.dtype(getattr(ml_dtypes, d.name))
    for attr in ATTRS:
        if attr != "kind":
            assert getattr(d, attr) == getattr(nd, attr), attr
    family = re.sub(r"\d.*", "", d.name)  # float, bfloat, complex, int, uint
    assert d.kind == {"float": "f", "bfloat": "f", "complex": "c", "int": "i", "uint": "u"}[family]
    assert d.type is nd.type


def test_newbyteorder_refuses_a_real_swap() -> None:
    assert ma.int8.newbyteorder() is ma.int8  # one byte: nothing to swap
    assert ma.bool.newbyteorder(">") is ma.bool
    for order in ("S", ">", "B"):
        with pytest.raises(TypeError, match="native byte order only"):
            ma.float64.newbyteorder(order)
    with pytest.raises(ValueError, match="byte order"):
        ma.float64.newbyteorder("x")
    with pytest.raises(TypeError, match="big-endian: minarray holds native byte order only"):
        ma.dtype(">f8")
    with pytest.raises(TypeError, match="big-endian"):
        ma.dtype(np.dtype(">i4"))


# What equality is asked about: every spelling, the other dtypes, and
# things that spell no dtype (False, never an error).
OTHERS: list[Any] = [
    *SPELLINGS, *NP_DTYPES, ma.bfloat16, "f", "F8", "Float64", "xx", "", "float128", "g", "U3", "O", ">f8",
    "datetime64", object, str, bytes, None, 0, 1.0, [1], (1,), np.floating, np.generic, ma.floating, ma.generic,
    ma.datetime64, np.dtype("U3"), np.dtype("M8[s]"), np.dtype([("x", "f8")]),
]


def _np_equal(nd: Any, other: Any) -> bool:
    try:
        return bool(nd == other)
    except TypeError:
        return False


@pytest.mark.parametrize("d", NP_DTYPES, ids=str)
def test_equality_truth_table_is_numpys(d: ma.DType) -> None:
    nd = np.dtype(d.name)
    for other in OTHERS:
        np_other = np.dtype(other.name) if isinstance(other, ma.DType) and other is not ma.bfloat16 else other
        # (NumPy's float64 == None holds, as np.dtype(None) is float64;
        # minarray's does not: None names no dtype, the Array API's reading)
        expected = _np_equal(nd, np_other) and other is not None
        assert (d == other) is expected, other
        assert (d != other) is not expected, other
        if isinstance(other, (str, type)) or other is None:
            assert (other == d) is expected, other  # reflected: str and type defer to the dtype
    # the Array API's comparisons stay exact: identity between dtypes
    assert all((d == o) is (d is o) for o in _dt.ALL)


def test_hash_is_one_per_dtype() -> None:
    assert len({hash(d) for d in _dt.ALL}) == len(_dt.ALL)
    assert {ma.float64: 1}[ma.dtype("f8")] == 1


# Out of scope: what NumPy holds and minarray does not (DLPack carries
# numbers and booleans only).
OUT_OF_SCOPE: list[Any] = [
    [("x", float)], [("x", "f8"), ("y", "i4")], {"names": ["a"], "formats": ["f8"]}, (float, (2,)), "i4,f8",
    "M8[s]", "M8", "datetime64", "datetime64[ns]", "m8", "m8[ms]", "timedelta64", "U10", "U", "<U4", "str",
    "unicode", str, "S5", "S", "bytes", bytes, "O", "object", object, "V8", "void",
    np.dtype("U3"), np.dtype("S2"), np.dtype("O"), np.dtype("M8[s]"), np.dtype("m8[s]"), np.dtype("V4"),
    np.dtype([("x", "f8")]), np.str_, np.bytes_, np.object_, np.datetime64, np.timedelta64, np.void,
    ma.datetime64, ma.timedelta64, ma.str_, ma.bytes_, ma.object_, ma.void,
]

OUT_OF_SCOPE_IDS = [f"{i}-{getattr(s, '__name__', None) or s}" for i, s in enumerate(OUT_OF_SCOPE)]


@pytest.mark.parametrize("spelling", OUT_OF_SCOPE, ids=OUT_OF_SCOPE_IDS)
def test_types_minarray_lacks_are_refused_by_name(spelling: Any) -> None:
    family = r"(datetime64|timedelta64|str|bytes|object|void|structured)"
    message = rf"minarray has no dtype .* \({family}\): minarray holds numeric and boolean types only.*use NumPy"
    with pytest.raises(TypeError, match=message):
        ma.dtype(spelling)
    with pytest.raises(TypeError, match=message):
        ma.zeros(2, dtype=spelling)
    with pytest.raises(TypeError, match=message):
        ma.asarray([1, 2], dtype=spelling)
    with pytest.raises(TypeError, match=message):
        ma.ones(2).astype(spelling)
    assert not (ma.float64 == spelling)


@pytest.mark.parametrize("name", ["datetime64", "timedelta64", "str_", "bytes_", "object_", "void"])
def test_names_of_types_minarray_lacks_refuse_when_called(name: str) -> None:
    t = getattr(ma, name)
    assert t is getattr(_dt, name) and name in ma.__all__
    with pytest.raises(TypeError, match=rf"minarray has no dtype '{name}'.*use NumPy"):
        t(0)
    assert issubclass(t, ma.generic) and issubclass(np.dtype(name).type, getattr(np, name))


@pytest.mark.parametrize(
    "array", [np.array(["a", "bc"]), np.array([b"a"]), np.array([1, None], dtype=object),
              np.array([1], dtype="M8[s]"), np.array([1], dtype="m8[s]"), np.zeros(2, dtype=[("x", "f8")]),
              np.zeros(2, dtype="V4")],
    ids=lambda a: a.dtype.str,
)
def test_numpy_arrays_minarray_cannot_hold(array: Any) -> None:
    for route in (ma.asarray, ma.array, ma.dlpack.from_numpy, lambda a: ma.asarray(a, dtype=ma.float64),
                  lambda a: ma.asarray(a[::-1])):
        with pytest.raises(TypeError, match=r"minarray has no dtype .*use NumPy"):
            route(array)


@pytest.mark.parametrize("values", [["a", "b"], [b"a"], [[b"ab"]], "abc", [None], None], ids=repr)
def test_python_values_minarray_cannot_hold(values: Any) -> None:
    expected = np.asarray(values).dtype
    spelling = "object" if expected.kind == "O" else expected.str
    with pytest.raises(TypeError, match=rf"NumPy would hold it as dtype '{re.escape(spelling)}'.*use NumPy"):
        ma.asarray(values)


def test_a_dtype_and_an_array_compare_as_numpys() -> None:
    """An array is no dtype spelling (NumPy 2 refuses np.dtype(ndarray)):
    == with one is the array's comparison, as with NumPy's dtypes."""
    n = np.ones(2)
    assert np.array_equal(ma.float64 == n, np.dtype("f8") == n)
    assert np.array_equal(ma.float64 != n, np.dtype("f8") != n)
    x = ma.ones(2)
    assert (ma.float64 == x) is (x == ma.float64) is False
    with pytest.raises(TypeError, match="from an array"):
        ma.dtype(x)
    with pytest.raises(TypeError, match="from an array"):
        np.dtype(n)


@pytest.mark.parametrize("name", ["uint", "long", "ulong"])
def test_numpy_2_c_type_names_are_the_same_dtypes(name: str) -> None:
    # NumPy 2's np.uint, np.long and np.ulong (its docstrings compare with np.uint)
    assert str(getattr(ma, name)) == np.dtype(getattr(np, name)).name
    assert ma.dtype(name) is getattr(ma, name)


# ---- NumPy's extended precision: names that refuse with the reason ---------------------------

EXTENDED = ["longdouble", "clongdouble", "float128", "complex256"]


@pytest.mark.parametrize("name", EXTENDED)
def test_extended_precision_names_refuse_with_the_reason(name: str) -> None:
    t = getattr(ma, name)  # the name exists: no AttributeError
    assert name in ma.__all__
    kind = "floating" if name in ("longdouble", "float128") else "complexfloating"
    assert issubclass(t, getattr(ma, kind)) and issubclass(getattr(np, name), getattr(np, kind))
    assert ma.issubdtype(t, getattr(ma, kind))
    for use in (lambda: t(1.0), lambda: ma.dtype(t), lambda: ma.zeros(2, dtype=t),
                lambda: ma.asarray([1.0], dtype=t), lambda: ma.arange(3).astype(t)):
        with pytest.raises(TypeError, match=r"extended precision.*float64 and complex128.*NumPy"):
            use()


def test_extended_precision_aliases_are_the_same_classes_as_numpy() -> None:
    assert (ma.float128 is ma.longdouble) == (np.float128 is np.longdouble)
    assert (ma.complex256 is ma.clongdouble) == (np.complex256 is np.clongdouble)


@pytest.mark.parametrize("spelling", ["g", "G", "<g", "longdouble", "clongdouble", "float128", "complex256",
                                      "f16", "c32"])
def test_extended_precision_spellings_refuse_with_the_reason(spelling: str) -> None:
    assert np.dtype(spelling).itemsize >= 16  # NumPy's long double types
    with pytest.raises(TypeError, match=rf"no dtype '{re.escape(spelling)}' \(extended precision\)"):
        ma.dtype(spelling)
