"""minarray.testing's assertions against numpy.testing's: the same verdict
on the same inputs, and the same message line by line, the arrays' reprs
at the precision NumPy's message uses included."""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.testing as nt
import numpy.testing._private.utils as np_ulp  # NumPy's nulp_diff is not public
import pytest
from array_strategies import examples
from hypothesis import given
from hypothesis import strategies as st

import minarray as ma
import minarray.testing as mt
from minarray.testing import _ulp as mt_ulp

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "uint64", "float16", "float32", "float64",
          "complex64", "complex128"]
SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.5, 1e-9, 1e300, np.nan, np.inf, -np.inf, 1.0 + 1e-8, 3.0 - 2e-7]


def _outcome(func: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, str]:
    """('pass', '') or (the exception's type, its message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            func(*args, **kwargs)
    except (AssertionError, ValueError, TypeError) as exc:
        return type(exc).__name__, str(exc)
    return "pass", ""


# Which of 0.0 and -0.0 NumPy's max returns depends on their order in its
# SIMD loop, and minarray's max may pick the other: the one place where the
# two messages may differ in a value.
_ZERO_TIE = "Max relative difference among violations: -0.\n"


def _split(message: str, names: tuple[str, str]) -> tuple[str, str]:
    """A failure message cut where the two arrays' reprs start."""
    message = message.replace(_ZERO_TIE, _ZERO_TIE.replace("-", ""))
    at = message.find(f"\n {names[0]}: ")
    return (message, "") if at < 0 else (message[:at], message[at:])


def check_same(name: str, actual: Any, desired: Any, *, names: tuple[str, str] = ("ACTUAL", "DESIRED"),
               **kwargs: Any) -> None:
    """Run ``name`` from numpy.testing on NumPy's inputs and from
    minarray.testing on minarray's; same verdict, same message."""
    def to_ma(v: Any) -> Any:
        return ma.asarray(v) if isinstance(v, np.ndarray) else v

    want = _outcome(getattr(nt, name), actual, desired, **kwargs)
    got = _outcome(getattr(mt, name), to_ma(actual), to_ma(desired), **kwargs)
    assert got[0] == want[0], f"{name}: NumPy {want[0]}, minarray {got[0]}\n{want[1]}\n---\n{got[1]}"
    if want[0] != "AssertionError":
        return
    want_head, want_tail = _split(want[1], names)
    got_head, got_tail = _split(got[1], names)
    assert got_head == want_head
    assert got_tail == want_tail


@st.composite
def arrays(draw: st.DrawFn, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    values = draw(st.lists(st.sampled_from(SPECIAL), min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nan and inf cast to integers
        return np.array(values, dtype=np.float64).astype(dtype).reshape(shape)


@st.composite
def pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    """An (actual, desired) pair: equal arrays with a few elements changed,
    arrays of other dtypes or shapes, or an array and a scalar."""
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(st.lists(st.integers(0, 3), min_size=0, max_size=3).map(tuple))
    desired = draw(arrays(dtype, shape))
    kind = draw(st.sampled_from(["edit", "edit", "edit", "dtype", "shape", "scalar", "scalar_first"]))
    if kind == "dtype":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # complex to real
            actual = desired.astype(draw(st.sampled_from(DTYPES)))
    elif kind == "shape":
        actual = draw(arrays(dtype, draw(st.lists(st.integers(0, 3), max_size=3).map(tuple))))
    elif kind in ("scalar", "scalar_first"):
        scalar = draw(st.sampled_from([*SPECIAL, 3, True]))
        actual = draw(arrays(dtype, shape))
        return (scalar, actual) if kind == "scalar_first" else (actual, scalar)
    else:
        actual = desired.copy()
        flat = actual.reshape(-1)
        for i in draw(st.lists(st.integers(0, max(flat.size - 1, 0)), max_size=7)) if flat.size else []:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                flat[i] = np.asarray(draw(st.sampled_from(SPECIAL))).astype(dtype)
    return actual, desired


@examples(300)
@given(pairs(), st.sampled_from([1e-7, 1e-3, 0.0]), st.sampled_from([0, 1e-12, 0.5]), st.booleans(),
       st.booleans())
def test_assert_allclose_like_numpy(pair: tuple[Any, Any], rtol: float, atol: float, equal_nan: bool,
                                    strict: bool) -> None:
    check_same("assert_allclose", *pair, rtol=rtol, atol=atol, equal_nan=equal_nan, strict=strict)


@examples(300)
@given(pairs(), st.booleans())
def test_assert_array_equal_like_numpy(pair: tuple[Any, Any], strict: bool) -> None:
    check_same("assert_array_equal", *pair, strict=strict)


def _listed(v: Any) -> Any:
    return v.tolist() if isinstance(v, np.ndarray) else v


@examples(200)
@given(pairs(), st.sampled_from(["assert_allclose", "assert_array_equal", "assert_array_almost_equal",
                                 "assert_equal"]))
def test_nested_lists_like_numpy(pair: tuple[Any, Any], name: str) -> None:
    """Python lists (and scalars) on both sides, as most tests pass them."""
    check_same(name, _listed(pair[0]), _listed(pair[1]))


@examples(200)
@given(pairs(), st.sampled_from([0, 3, 6, 9]))
def test_assert_array_almost_equal_like_numpy(pair: tuple[Any, Any], decimal: int) -> None:
    check_same("assert_array_almost_equal", *pair, decimal=decimal)


@examples(200)
@given(pairs(), st.booleans())
def test_assert_array_less_like_numpy(pair: tuple[Any, Any], strict: bool) -> None:
    check_same("assert_array_less", *pair, strict=strict, names=("x", "y"))


@examples(200)
@given(pairs(), st.booleans())
def test_assert_equal_like_numpy(pair: tuple[Any, Any], strict: bool) -> None:
    check_same("assert_equal", *pair, strict=strict)


@examples(200)
@given(pairs(), st.sampled_from([0, 3, 7, 10]))
def test_assert_almost_equal_like_numpy(pair: tuple[Any, Any], decimal: int) -> None:
    check_same("assert_almost_equal", *pair, decimal=decimal)


SCALARS = [0.0, -0.0, 1.0, 2.3333333333333, 2.33333334, np.nan, np.inf, -np.inf, 1, 2, True, 1 + 2j,
           complex(np.nan, 1), 1e-300]


@pytest.mark.parametrize("name", ["assert_equal", "assert_almost_equal", "assert_allclose",
                                  "assert_array_equal"])
@pytest.mark.parametrize("pair", [(a, b) for i, a in enumerate(SCALARS) for b in SCALARS[i:]],
                         ids=lambda p: f"{p[0]!r}-{p[1]!r}")
def test_scalars_like_numpy(name: str, pair: tuple[Any, Any]) -> None:
    check_same(name, *pair)


@pytest.mark.parametrize(("actual", "desired"), [
    ([1, 2], [1, 2]), ([1, 2], [1, 3]), ((1, [2.0, np.nan]), (1, [2.0, np.nan])), ([1, 2], (1, 2)),
    ([1, [2, 3]], [1, [2, 4]]), ({"a": 1, "b": [2.0]}, {"a": 1, "b": [2.0]}), ({"a": 1}, {"a": 2}),
    ({"a": 1}, {"b": 1}), ({"a": 1}, [1]), (5, [5]), ([5], 5), ("a", "a"), ("a", "b"), (None, None),
    (None, 0), (["x", 1.0], ["x", 1.0]),
], ids=lambda v: repr(v))
def test_assert_equal_containers_like_numpy(actual: Any, desired: Any) -> None:
    check_same("assert_equal", actual, desired)


@pytest.mark.parametrize("name", ["assert_equal", "assert_almost_equal", "assert_array_equal"])
@pytest.mark.parametrize(("actual", "desired"), [
    (np.float64(1.0), 2.0), (np.int64(3), np.int64(4)), (np.float32(1.5), np.float32(1.5)),
    (np.float64(np.nan), np.nan), (2, np.int8(3)), (np.bool_(True), False),
], ids=repr)
def test_scalars_of_numpy_types_like_numpy(name: str, actual: Any, desired: Any) -> None:
    """A minarray scalar is compared and shown as NumPy's ("Items are not
    equal", ``np.float64(1.0)``), not as a 0-d array."""
    def to_ma(v: Any) -> Any:
        return getattr(ma, v.dtype.name)(v.item()) if isinstance(v, np.generic) else v

    want = _outcome(getattr(nt, name), actual, desired)
    got = _outcome(getattr(mt, name), to_ma(actual), to_ma(desired))
    assert got[0] == want[0]
    if want[0] == "AssertionError":  # other errors are minarray's own words
        assert got[1] == want[1]


@pytest.mark.parametrize("err_msg", ["", "short note", "a note long enough to go on its own line " * 2, "two\nlines"])
@pytest.mark.parametrize("verbose", [True, False])
def test_err_msg_and_verbose_like_numpy(err_msg: str, verbose: bool) -> None:
    a, b = np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.5, 3.0])
    for name in ("assert_allclose", "assert_array_equal", "assert_array_almost_equal"):
        check_same(name, a, b, err_msg=err_msg, verbose=verbose)
    check_same("assert_equal", 1, 2, err_msg=err_msg, verbose=verbose)


def test_long_arrays_cut_to_three_lines_like_numpy() -> None:
    a = np.arange(40.0).reshape(8, 5)
    check_same("assert_array_equal", a, a + 1)
    check_same("assert_array_equal", a, np.where(a > 30, a + 1, a))  # "First 5 mismatches"


def test_numpy_docstring_message() -> None:
    """The failure NumPy's own docstring shows for assert_allclose."""
    with pytest.raises(AssertionError) as info:
        mt.assert_allclose(ma.asarray([1.0, 2.0, 3.0]), [1.0, 2.0, 3.1])
    assert str(info.value).splitlines()[1:6] == [
        "Not equal to tolerance rtol=1e-07, atol=0", "", "Mismatched elements: 1 / 3 (33.3%)",
        "Mismatch at index:", " [2]: 3.0 (ACTUAL), 3.1 (DESIRED)"]


def test_assert_raises() -> None:
    mt.assert_raises(ZeroDivisionError, lambda x: 1 / x, 0)
    with mt.assert_raises(ValueError):
        int("x")
    with pytest.raises(AssertionError, match="ZeroDivisionError not raised"):
        mt.assert_raises(ZeroDivisionError, lambda: 1)
    with pytest.raises(KeyError):  # another exception is not caught
        mt.assert_raises(ValueError, {}.__getitem__, 1)
    mt.assert_raises_regex(ValueError, "invalid literal", int, "x")


def test_assert_warns() -> None:
    def warns(n: int) -> int:
        warnings.warn("careful", UserWarning, stacklevel=2)
        return n * n

    assert mt.assert_warns(UserWarning, warns, 4) == 16
    with mt.assert_warns(UserWarning):
        warns(1)
    with pytest.raises(AssertionError, match="No warning raised when calling <lambda>"):
        mt.assert_warns(UserWarning, lambda: 1)
    with pytest.warns(RuntimeWarning), mt.assert_warns(UserWarning):  # others pass through
        warnings.warn("other", RuntimeWarning, stacklevel=1)
        warns(1)
    with pytest.raises(RuntimeError, match="at least one arg"):
        mt.assert_warns(UserWarning, x=1)


def test_assert_() -> None:
    mt.assert_(True)
    with pytest.raises(AssertionError, match=r"^boom$"):
        mt.assert_(0, "boom")
    with pytest.raises(AssertionError, match=r"^lazy$"):
        mt.assert_([], lambda: "lazy")


def test_works_without_numpy() -> None:
    """NumPy is optional: the assertions run on minarray alone."""
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import minarray as ma, minarray.testing as mt\n"
        "mt.assert_allclose([1.0, float('nan')], ma.asarray([1.0, float('nan')]))\n"
        "mt.assert_array_equal(ma.arange(3), [0, 1, 2])\n"
        "mt.assert_equal({'a': [1, 2]}, {'a': [1, 2]})\n"
        "try:\n"
        "    mt.assert_allclose([1.0, 2.0, 3.0], [1.0, 2.0, 3.1])\n"
        "except AssertionError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert "Mismatched elements: 1 / 3 (33.3%)" in out.stdout
    assert " DESIRED: array([1. , 2. , 3.1])" in out.stdout


# ---- ULP comparisons, strings, significant digits, no warnings ----------------------


def _ulp_outcome(func: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, str, Any]:
    """(verdict, message, returned value as NumPy data)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ret = func(*args, **kwargs)
    except (AssertionError, ValueError, TypeError, NotImplementedError) as exc:
        return type(exc).__name__, str(exc), None
    return "pass", "", None if ret is None else np.asarray(ret)


@examples(200)
@given(pairs(), st.sampled_from([0, 1, 3, 1e20]))
def test_ulp_assertions_like_numpy(pair: tuple[Any, Any], ulps: float) -> None:
    actual, desired = pair

    def to_ma(v: Any) -> Any:
        return ma.asarray(v) if isinstance(v, np.ndarray) else v

    for name, kwargs in (("assert_array_max_ulp", {"maxulp": ulps}),
                         ("assert_array_almost_equal_nulp", {"nulp": int(min(ulps, 10))}),
                         ("nulp_diff", {})):
        ours, theirs = (mt_ulp, np_ulp) if name == "nulp_diff" else (mt, nt)
        want = _ulp_outcome(getattr(theirs, name), actual, desired, **kwargs)
        got = _ulp_outcome(getattr(ours, name), to_ma(actual), to_ma(desired), **kwargs)
        # the same verdict; the same message where it is the assertion's
        # own (an operation's refusal, of booleans say, is worded by each library)
        assert got[0] == want[0], (name, want, got)
        if want[0] == "AssertionError":
            assert got[1] == want[1]
        if want[2] is not None:
            assert got[2].dtype == want[2].dtype and got[2].shape == want[2].shape
            np.testing.assert_array_equal(got[2], want[2])


def test_nulp_diff_counts_the_values_between() -> None:
    x = np.array([1.0, -1.0, 0.0, 5e-324, np.nan], dtype=np.float64)
    y = np.array([np.nextafter(1.0, 2.0), -1.0, -0.0, -5e-324, -np.nan])
    want = np_ulp.nulp_diff(x, y)
    got = mt_ulp.nulp_diff(ma.asarray(x), ma.asarray(y))
    np.testing.assert_array_equal(np.asarray(got), want)
    assert np.asarray(got).tolist() == [[1.0, 0.0, 0.0, 2.0, 0.0]]
    for dtype in ("float16", "float32"):
        a = np.array([1.0, 2.0], dtype=dtype)
        np.testing.assert_array_equal(np.asarray(mt_ulp.nulp_diff(a, a * 1.5)), np_ulp.nulp_diff(a, a * 1.5))
    with pytest.raises(ValueError, match="same shape"):
        mt_ulp.nulp_diff(np.ones(2), np.ones(3))


@pytest.mark.parametrize(("actual", "desired"), [
    ("abc", "abc"), ("abc\nxyz\n", "abc\nxyq\n"), ("a\nb\nc\n", "a\nB\nc\n"), ("one", "two\nthree"),
    ("x", 1), (b"x", "x"), ("", "a"),
], ids=["equal", "one-line", "middle-line", "line-count", "desired-not-str", "actual-bytes", "empty"])
def test_assert_string_equal_like_numpy(actual: Any, desired: Any) -> None:
    assert _outcome(mt.assert_string_equal, actual, desired) == _outcome(nt.assert_string_equal, actual, desired)


@pytest.mark.parametrize(("actual", "desired", "significant"), [
    (3.14159, 3.1416, 6), (3.14159, 3.1416, 4), (1e-30, 1.0000001e-30, 7), (0.0, 0.0, 7), (0.0, 1e-300, 7),
    (np.nan, np.nan, 7), (np.nan, 1.0, 7), (np.inf, np.inf, 7), (np.inf, -np.inf, 7), (-5.0, 5.0, 3),
    (123456.0, 123457.0, 6), (123456.0, 123457.0, 5),
], ids=lambda v: repr(v))
def test_assert_approx_equal_like_numpy(actual: float, desired: float, significant: int) -> None:
    want = _outcome(nt.assert_approx_equal, actual, desired, significant=significant)
    assert _outcome(mt.assert_approx_equal, actual, desired, significant=significant) == want


def test_assert_no_warnings() -> None:
    assert mt.assert_no_warnings(lambda v: v + 1, 1) == 2
    with pytest.raises(AssertionError, match="Got warnings when calling warn"):
        mt.assert_no_warnings(warnings.warn, "loud")
    with mt.assert_no_warnings():
        pass
    with pytest.raises(AssertionError, match="Got warnings: "):
        with mt.assert_no_warnings():
            warnings.warn("loud", stacklevel=1)


def test_nulp_comparison_keeps_python_numbers_weak() -> None:
    # float16 0 against the Python float 1e-9: NumPy subtracts in float16
    # (a weak Python number), where the difference rounds to 0
    for lib, x in ((nt, np.asarray(0.0, dtype=np.float16)), (mt, ma.asarray(0.0, dtype=ma.float16))):
        lib.assert_array_almost_equal_nulp(x, 1e-9, 0)
    with pytest.raises(AssertionError, match="not equal to 0 ULP"):
        mt.assert_array_almost_equal_nulp(ma.asarray(0.0), 1e-9, 0)
