"""The one-call fast paths of asarray, item/float, arange and matmul against
the general route they shortcut (and NumPy): same values, dtype, strides,
base and read-only flag, and the cases they must leave to the general
route; and copy/astype, one C call each, against NumPy."""

from __future__ import annotations

import operator
import re
import warnings
from typing import Any

import numpy as np
import pytest

import minarray as ma
from minarray._native import core

# complex to real casts are compared with NumPy's values, their ComplexWarning aside
pytestmark = pytest.mark.filterwarnings("ignore::minarray.exceptions.ComplexWarning")

FAST_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
               np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]


def _layout(x: ma.NDArray) -> tuple[Any, ...]:
    return (x.shape, x._strides, x.dtype, x.base is None, x.flags.writeable, x.__array_interface__["data"][0])


def _general(obj: Any, **kw: Any) -> ma.NDArray:
    # device="cpu" skips the fast paths: the general route, as before them
    return ma.asarray(obj, device="cpu", **kw)


# ---- copy / astype ------------------------------------------------------------

def _ma_sources() -> list[ma.NDArray]:
    base = ma.arange(24).reshape(2, 3, 4)
    ro = ma.asarray(np.arange(6.0))
    ro_np = np.arange(6.0)
    ro_np.flags.writeable = False
    return [base, base[:, 1:, ::2], base[::-1], base.T, ma.zeros((0, 3)), ma.asarray(2.5),
            ma.asarray(ro_np), ro[::2], ma.asarray(np.arange(5.0).astype(np.complex64))]


@pytest.mark.parametrize("src", _ma_sources(), ids=lambda a: f"{a.dtype}{a.shape}{a._strides}")
@pytest.mark.parametrize("dtype", [None, ma.float32, ma.int8, ma.bool, ma.complex128, ma.bfloat16])
def test_copy_and_astype_match_numpy(src: ma.NDArray, dtype: ma.DType | None) -> None:
    out = src.copy() if dtype is None else src.astype(dtype)
    assert out.base is None and out.flags.writeable and out.flags.c_contiguous
    assert out._strides == ma.empty(src.shape)._strides
    assert out.dtype == (src.dtype if dtype is None else dtype)
    if dtype is not ma.bfloat16:
        src_np = np.asarray(src)
        if src_np.dtype.kind == "c" and dtype is not None and dtype.kind != "c":
            src_np = src_np.real  # what a complex-to-real cast keeps, without NumPy's warning
        want = src_np.astype(src_np.dtype if dtype is None else np.dtype(str(dtype)))
        np.testing.assert_array_equal(np.asarray(out), want)


def test_copy_and_astype_normalise_their_arguments() -> None:
    m = ma.arange(3)
    # a dtype name or a NumPy type is a DType before the one C call
    assert m.astype("float32").dtype == ma.float32
    assert m.astype(np.float32).dtype == ma.float32
    with pytest.raises(ValueError, match="order must be"):
        m.copy(order="X")
    f = ma.arange(6).reshape(2, 3).copy(order="F")
    assert f.flags.f_contiguous and not f.flags.c_contiguous


def test_copy_of_an_overlapping_view_is_independent() -> None:
    m = ma.arange(10)
    c = m[::-1].copy()
    m[0] = 100
    assert c.tolist() == list(range(9, -1, -1))


# ---- item / float / int / bool ----------------------------------------------------

def _outcome(conv: Any, x: Any) -> Any:
    """conv(x)'s value with its type, or its error's type and message."""
    try:
        v = conv(x)
    except (TypeError, ValueError) as e:
        return type(e), str(e)
    return type(v), v


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "float64", "complex64"])
@pytest.mark.parametrize("shape", [(), (1, 1), (3,), (0,)], ids=str)
def test_scalar_conversions(dtype: str, shape: tuple[int, ...]) -> None:
    """item(), bool(), int(), float(), complex() and operator.index():
    NumPy's values and NumPy's errors, word for word (ndarray_item raises
    them in C)."""
    n = np.ones(shape, dtype=dtype)
    x = ma.asarray(n)
    for conv in (lambda a: a.item(), bool, int, float, complex, operator.index):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NumPy's ComplexWarning has no minarray twin
            want = _outcome(conv, n)
        assert _outcome(conv, x) == want, conv


def test_scalar_conversions_bfloat16() -> None:
    x = ma.ones((), dtype=ma.bfloat16)
    assert (x.item(), float(x), int(x), bool(x)) == (1.0, 1.0, 1, True)
    with pytest.raises(TypeError, match="only integer scalar arrays"):
        operator.index(x)


ITEM_CALLS = [
    (), (4,), (-1,), (6,), (-7,), (1, 2), ((1, 2),), ((4,),), (1, -1), (2, 0), (0, -4), (1, 2, 0), ((),),
    (1.0,), (True,), (np.int8(3),), ("1",), ([1, 2],), (None,), (1, 2.0), (2**62,), (np.array(2),),
    (np.array([2]),), tuple(range(70)),
]
ITEM_ARRAYS = {
    "2-d": lambda m: m.arange(6).reshape(2, 3),
    "transposed": lambda m: m.arange(6.0).reshape(2, 3).T,
    "reversed": lambda m: m.arange(6).reshape(2, 3)[:, ::-1],
    "strided 3-d slice": lambda m: m.arange(24).reshape(2, 3, 4)[:, 1],
    "0-d": lambda m: m.asarray(5),
    "size 1": lambda m: m.ones((1, 1), dtype=m.complex64),
    "empty": lambda m: m.zeros(0, dtype=m.bool),
}


@pytest.mark.parametrize("layout", ITEM_ARRAYS)
@pytest.mark.parametrize("args", ITEM_CALLS, ids=repr)
def test_item_with_indices_is_numpys(layout: str, args: tuple[Any, ...]) -> None:
    """x.item(*args) against NumPy's: the value and its Python type, or the
    same error class and words (a flat index, one per axis, a tuple of them,
    and every refusal)."""
    def outcome(x: Any) -> tuple[Any, ...]:
        try:
            v = x.item(*args)
        except (TypeError, ValueError, IndexError, OverflowError) as e:
            return (type(e), str(e) if isinstance(e, (ValueError, IndexError)) else "")
        return (v, type(v))

    assert outcome(ITEM_ARRAYS[layout](ma)) == outcome(ITEM_ARRAYS[layout](np))


def test_item_reads_its_indices_before_the_array() -> None:
    """An index whose __index__ reshapes the array: the element is found
    with the shape the array has once every index has been read."""
    x = ma.arange(6).reshape(2, 3)

    class Reshaping:
        def __index__(self) -> int:
            x.shape = (3, 2)
            return 1

    assert x.item(Reshaping(), 1) == 3  # x[1, 1] of the (3, 2) array; it was 4 at (2, 3)


def test_ndarray_item_refuses() -> None:
    with pytest.raises(TypeError, match="expects an NDArray"):
        core.ndarray_item(np.ones(()), 0)
    with pytest.raises(TypeError, match="expects an NDArray"):
        core.ndarray_item(3.0, 1)
    with pytest.raises(TypeError, match="expects an NDArray"):
        core.ndarray_copy(np.ones(2), None)
    with pytest.raises(TypeError, match="minarray dtype or None"):
        core.ndarray_copy(ma.ones(2), "float32")


# ---- asarray of NumPy arrays ------------------------------------------------------

def _np_sources() -> list[np.ndarray]:
    base = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    ro = np.arange(6.0)
    ro.flags.writeable = False
    return [
        base, base[:, 1:, ::2], base[::-1], base.T, base[:1, :1], base[:, :1, :1], base[:, 0],
        np.empty((0, 3)), np.empty((3, 0))[:, ::2], np.full((), 2.0), ro,
        np.asfortranarray(base),
    ] + [np.arange(5).astype(t) for t in FAST_DTYPES]


@pytest.mark.parametrize("src", _np_sources(), ids=lambda a: f"{a.dtype}{a.shape}{a.strides}")
@pytest.mark.parametrize("kw", [{}, {"copy": False}, {"copy": True}, {"copy": None},
                                {"dtype": ma.float64}, {"dtype": ma.float32}, {"dtype": ma.float64, "copy": True}])
def test_asarray_numpy_matches_general_route(src: np.ndarray, kw: dict[str, Any]) -> None:
    try:
        want = _general(src, **kw)
    except Exception as e:
        with pytest.raises(type(e), match=re.escape(str(e))):
            ma.asarray(src, **kw)
        return
    got = ma.asarray(src, **kw)
    assert type(got) is ma.NDArray
    if want.base is src:  # shared: exactly the same view
        assert got.base is src
        assert _layout(got) == _layout(want)
    else:  # copied: a fresh C-contiguous array either way
        assert got.base is None and got.flags.writeable
        assert (got.shape, got._strides, got.dtype) == (want.shape, want._strides, want.dtype)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_numpy_asarray_answers_for_every_numpy_array() -> None:
    """The NumPy intake answers for every plain numpy.ndarray: a view, why
    only a copy can hold it, or the error; None only for other objects."""
    ma.asarray(np.zeros(1))  # registers numpy.ndarray with the C side
    raw = np.zeros(17, dtype=np.uint8)
    for obj in (np.ma.masked_array([1.0, 2.0]),  # a subclass: the interface route
                [1.0, 2.0], 3.0, np.float64(1.0), ma.zeros(3), None):
        assert core.numpy_asarray(obj) is None, obj
    for obj in (np.arange(3, dtype=">f8" if np.little_endian else "<f8"),  # byte-swapped
                raw[1:9].view(np.int64)):  # misaligned
        assert isinstance(core.numpy_asarray(obj), str), obj
    for obj in (np.array([1, None], dtype=object), np.arange(3, dtype=np.longdouble), np.zeros(4, dtype="M8[s]"),
                np.zeros(3, dtype=[("a", "f8")])):
        with pytest.raises(TypeError, match=r"unsupported dtype|minarray has no dtype"):
            core.numpy_asarray(obj)


def test_numpy_fast_path_stays_off_for_an_abi_it_does_not_know() -> None:
    """The fast path reads NumPy's struct only for a C ABI it knows; with
    any other it is off and the slower routes give the same arrays."""
    from numpy._core._multiarray_umath import _get_ndarray_c_version

    x = np.arange(6.0).reshape(2, 3)[:, ::2]
    assert core.numpy_set_type(np.ndarray, _get_ndarray_c_version())
    assert core.numpy_asarray(x) is not None
    try:
        assert not core.numpy_set_type(np.ndarray, 0x03000000)
        assert core.numpy_asarray(x) is None and core.dlpack_from_numpy(x) is None
        for conv in (ma.asarray, ma.from_numpy):
            y = conv(x)
            assert y.data_ptr == x.ctypes.data and y.tolist() == x.tolist()
    finally:
        assert core.numpy_set_type(np.ndarray, _get_ndarray_c_version())


def test_asarray_numpy_declined_cases_keep_behaviour() -> None:
    swapped = np.arange(3, dtype=">f8" if np.little_endian else "<f8")
    out = ma.asarray(swapped)
    assert out.dtype == ma.float64 and out.tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="byte order"):
        ma.asarray(swapped, copy=False)
    with pytest.raises(TypeError):
        ma.asarray(np.array([1, None], dtype=object))
    raw = np.zeros(40, dtype=np.uint8)
    mis = raw[1:33].view(np.float64)  # NumPy marks it unaligned: the C path declines it
    for kw in ({}, {"copy": False}, {"copy": True}):
        try:
            want = _general(mis, **kw).tolist()
        except Exception as e:
            with pytest.raises(type(e), match=re.escape(str(e))):
                ma.asarray(mis, **kw)
        else:
            assert ma.asarray(mis, **kw).tolist() == want


def test_asarray_numpy_fast_path_is_a_view() -> None:
    src = np.arange(6.0).reshape(2, 3)
    a = ma.asarray(src)
    a[0, 0] = 9.0
    assert src[0, 0] == 9.0 and a.base is src
    ro = src.copy()
    ro.flags.writeable = False
    assert not ma.asarray(ro).flags.writeable
    assert ma.asarray(ro, copy=True).flags.writeable


def test_asarray_ndarray_paths() -> None:
    m = ma.arange(6).reshape(2, 3)
    assert ma.asarray(m) is m and ma.asarray(m, copy=False) is m
    c = ma.asarray(m, copy=True)
    assert c is not m and c.base is None and c.tolist() == m.tolist()
    assert ma.asarray(m, dtype=ma.int64) is m
    f = ma.asarray(m, dtype=ma.float32)
    assert f.dtype == ma.float32 and f.tolist() == m.tolist()
    with pytest.raises(ValueError, match="needs a copy"):
        ma.asarray(m, dtype=ma.float32, copy=False)
    with pytest.raises(ValueError, match="unsupported device"):
        ma.asarray(m, device="gpu")


# ---- asarray of nested sequences ----------------------------------------------------

@pytest.mark.parametrize("obj", [[1.0, 2.0, 3.0], (1, 2), [True, False], [1j, 2], [[1, 2], [3, 4]], [], [[], []],
                                 ((1.5,),), [2**63], [-1, 2**63], [2**64], [np.float32(1), 2.0], [[1], [2, 3]],
                                 [1, "a"], [ma.ones(2), ma.zeros(2)]])
@pytest.mark.parametrize("dtype", [None, ma.float32, ma.int8, "float64"])
def test_asarray_sequences_match_general_route(obj: Any, dtype: Any) -> None:
    try:
        want = _general(obj, dtype=dtype)
    except Exception as e:
        with pytest.raises(type(e), match=re.escape(str(e))):
            ma.asarray(obj, dtype=dtype)
        return
    got = ma.asarray(obj, dtype=dtype)
    assert (got.shape, got._strides, got.dtype, got.base) == (want.shape, want._strides, want.dtype, None)
    assert got.tolist() == want.tolist()


def test_ndarray_from_nested_takes_every_leaf() -> None:
    """One walk settles every nested list: no None for a caller to redo."""
    assert core.ndarray_from_nested([2**63], None).dtype == ma.uint64
    assert core.ndarray_from_nested([np.float32(1)], None).dtype == ma.float32
    with pytest.raises(TypeError, match="minarray dtype or None"):
        core.ndarray_from_nested([1.0], "float32")
    with pytest.raises(ValueError, match="copy=False is impossible for a list"):
        ma.asarray([1.0], copy=False)
    assert ma.asarray([1.0], copy=True).tolist() == [1.0]


class _ListWithInterface(list):  # type: ignore[type-arg]
    @property
    def __array_interface__(self) -> dict[str, Any]:
        return np.arange(3.0).__array_interface__


def test_list_subclass_takes_the_general_route() -> None:
    assert ma.asarray(_ListWithInterface([7])).shape == (3,)


# ---- arange -------------------------------------------------------------------

@pytest.mark.parametrize("args", [(0,), (5,), (-3,), (2, 9), (9, 2), (9, 2, -2), (-5, 5, 3), (0, 10, 100),
                                  (2**53 - 3, 2**53 - 1), (2**53, 2**53 + 4), (-(2**53) - 2, -(2**53)),
                                  (1, 5, 2**60)])
def test_arange_ints_match_numpy(args: tuple[int, ...]) -> None:
    out = ma.arange(*args)
    want = np.arange(*args)
    assert out.dtype == ma.int64 and out._strides == (1,)
    np.testing.assert_array_equal(np.asarray(out), want)


def test_arange_fast_path_leaves_the_rest() -> None:
    with pytest.raises(ValueError, match="step must not be zero"):
        ma.arange(0, 5, 0)
    with pytest.raises(TypeError, match="not a bool"):
        ma.arange(True)
    assert ma.arange(np.int64(3)).tolist() == [0, 1, 2]
    assert ma.arange(3, dtype=ma.float32).dtype == ma.float32
    assert ma.arange(3.0).dtype == ma.float64
    with pytest.raises(ValueError, match="unsupported device"):
        ma.arange(3, device="gpu")


# ---- concat ---------------------------------------------------------------------------

@pytest.mark.parametrize("parts", [
    [(3,), (2,)], [(2, 3), (1, 3), (0, 3)], [(0,), (0,)], [(2, 0), (3, 0)], [(1, 2, 2)],
])
@pytest.mark.parametrize("dtype", [ma.float64, ma.int8, ma.complex64, ma.bool])
def test_concat_axis0_matches_numpy(parts: list[tuple[int, ...]], dtype: ma.DType) -> None:
    nps = [np.arange(int(np.prod(s))).reshape(s).astype(str(dtype)) for s in parts]
    arrs = [ma.asarray(a) for a in nps]
    for seq in (arrs, tuple(arrs)):
        out = ma.concat(seq)
        want = np.concatenate(nps)
        assert out.dtype == dtype and out.base is None and out._strides == ma.empty(want.shape)._strides
        np.testing.assert_array_equal(np.asarray(out), want)
    if parts[0][0] > 1:
        out = ma.concat([arrs[0][::-1], *arrs[1:]])
        np.testing.assert_array_equal(np.asarray(out), np.concatenate([nps[0][::-1], *nps[1:]]))


def test_concat_fast_path_leaves_the_rest() -> None:
    a, b = ma.arange(3), ma.arange(3.0)
    assert ma.concat([a, b]).dtype == ma.float64
    assert ma.concat([a, a], axis=np.int64(0)).tolist() == [0, 1, 2] * 2
    assert ma.concat([a, a], axis=-1).tolist() == [0, 1, 2] * 2
    assert ma.concat([a, a], axis=None).tolist() == [0, 1, 2] * 2
    with pytest.raises(ValueError, match="zero-dimensional"):
        ma.concat([ma.asarray(1), ma.asarray(2)])
    with pytest.raises(ValueError, match="same number of dimensions"):
        ma.concat([a, ma.asarray(1)])
    with pytest.raises(ValueError, match="must match exactly"):
        ma.concat([ma.ones((2, 3)), ma.ones((2, 2))])
    with pytest.raises(TypeError, match="tuple or list"):
        ma.concat(a)
    with pytest.raises(ValueError, match="at least one"):
        ma.concat([])


# ---- matmul -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [ma.float64, ma.float32, ma.complex128, ma.complex64, ma.int64, ma.uint64,
                                   ma.int8, ma.float16, ma.bool])
@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((1, 1), (1, 1)), ((0, 3), (3, 2)), ((2, 0), (0, 3))])
def test_matmul_2d_matches_numpy(dtype: ma.DType, shapes: tuple[tuple[int, int], tuple[int, int]]) -> None:
    rng = np.random.default_rng(0)
    a_np = rng.integers(-3, 4, size=shapes[0]).astype(str(dtype))
    b_np = rng.integers(-3, 4, size=shapes[1]).astype(str(dtype))
    out = ma.asarray(a_np) @ ma.asarray(b_np)
    want = a_np @ b_np
    assert out.dtype == dtype and out.shape == want.shape and out.base is None
    np.testing.assert_array_equal(np.asarray(out), want)
    t = ma.asarray(a_np.T.copy()).T @ ma.asarray(b_np)  # strided operand
    np.testing.assert_array_equal(np.asarray(t), want)


def test_matmul_fast_path_leaves_the_rest() -> None:
    a = ma.ones((2, 3))
    with pytest.raises(ValueError, match="last dimension of x1"):
        a @ ma.ones((2, 3))
    assert (a @ ma.ones((3, 2), dtype=ma.float32)).dtype == ma.float64
    assert (a @ ma.ones(3)).shape == (2,)
    assert (ma.ones((4, 2, 3)) @ ma.ones((3, 5))).shape == (4, 2, 5)
