"""NumPy's testing assertions (``numpy.testing``) over minarray's own
operations, so that tests written for NumPy run without NumPy installed.

Each function keeps NumPy's signature, defaults and semantics: scalars
compare against every element of an array, NaNs in the same places are
equal (``equal_nan``), infinities must match in place and sign, ``strict``
also requires equal shapes and dtypes, and a failure raises
``AssertionError`` with NumPy's message, line by line (the header, the
mismatch count, the first mismatching indices, the largest absolute and
relative differences among them, then the two arrays' reprs).

The arrays in a message are printed as NumPy's are: ``array_repr`` at the
message's precision (8 digits, 6 for the array comparisons, ``decimal``
for ``assert_array_almost_equal``).
"""

from __future__ import annotations

import contextlib
import difflib
import math
import numbers
import operator
import traceback
import unittest
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from minarray import (
    _coerce,
    _dtypes,
    _elementwise,
    _errstate,
    _manipulation,
    _printing,
    _searching,
    _statistical,
    _utility,
)
from minarray._array_object import NDArray

__all__ = [
    "assert_", "assert_allclose", "assert_almost_equal", "assert_approx_equal", "assert_array_almost_equal",
    "assert_array_equal", "assert_array_less", "assert_equal", "assert_no_warnings", "assert_raises",
    "assert_raises_regex", "assert_string_equal", "assert_warns",
]

_Names = tuple[str, str]
if TYPE_CHECKING:  # (minarray may import this module before it is complete)
    _Compare = Callable[[NDArray, NDArray], Any]


def assert_(val: object, msg: object = "") -> None:
    """Raise ``AssertionError(msg)`` unless ``val`` is true; unlike the
    ``assert`` statement it also runs under ``python -O``.  ``msg`` may be a
    callable, called only on failure."""
    __tracebackhide__ = True
    if not val:
        try:
            text = msg() if callable(msg) else msg
        except TypeError:
            text = msg
        raise AssertionError(text)


def _is_array(x: object) -> bool:
    """An array object (minarray's, NumPy's, a tensor), as opposed to a
    scalar or a Python sequence: what NumPy's ``isinstance(x, ndarray)``
    tests for, widened to the arrays minarray converts.  Scalars of NumPy
    have a shape but no ``__len__``; minarray's stand for them."""
    if isinstance(x, NDArray):
        return not isinstance(x, _dtypes.scalar_class)
    return hasattr(x, "shape") and hasattr(x, "__len__") and not isinstance(x, (str, bytes))


def _isscalar(x: object) -> bool:
    """NumPy's ``isscalar``: Python numbers, strings and NumPy's scalars."""
    if isinstance(x, (numbers.Number, str, bytes)):
        return True
    return getattr(x, "shape", None) == () and not hasattr(x, "__len__")


def _is_complex(x: object) -> bool:
    if isinstance(x, numbers.Complex) and not isinstance(x, numbers.Real):
        return True
    kind = getattr(getattr(x, "dtype", None), "kind", None)
    return kind == "c"


def _repr(a: object, precision: int) -> str:
    try:
        if isinstance(a, NDArray) and _is_array(a):
            return _printing.array_repr(a, precision=precision)
        return repr(a)
    except Exception as exc:  # a broken repr must not hide the assertion
        return f"[repr failed for <{type(a).__name__}>: {exc}]"


def _build_err_msg(arrays: Sequence[object], err_msg: object, header: str = "Items are not equal:",
                   verbose: bool = True, names: _Names = ("ACTUAL", "DESIRED"), precision: int = 8) -> str:
    """NumPy's ``build_err_msg``: the header, the caller's message (on the
    header's line when it is short and single-line), then each object's
    repr (an array's at ``precision`` digits) cut to its first three lines."""
    lines = ["\n" + header]
    text = str(err_msg)
    if text:
        if "\n" not in text and len(text) < 79 - len(header):
            lines = [lines[0] + " " + text]
        else:
            lines.append(text)
    if verbose:
        for name, a in zip(names, arrays, strict=False):
            r = _repr(a, precision)
            if r.count("\n") > 3:
                r = "\n".join(r.splitlines()[:3]) + "..."
            lines.append(f" {name}: {r}")
    return "\n".join(lines)


def _value_text(v: NDArray) -> str:
    """One value as NumPy's ``array2string`` prints a 0-d array (``1.``,
    ``6.66669964e-09``, ``inf``): the element of a one-element array."""
    return str(_manipulation.reshape(v, (1,)))[1:-1]


def _same_positions(x: NDArray, y: NDArray, func: Callable[[NDArray], NDArray],
                    what: str, fail: Callable[[str], AssertionError]) -> NDArray:
    """Where ``func`` holds must be the same in ``x`` and ``y`` (NaNs, or
    infinities); returns the places (0-d when either side is 0-d: then it
    holds everywhere or nowhere)."""
    x_id, y_id = func(x), func(y)
    if bool(_utility.any(x_id != y_id)):
        raise fail(f"\n{what} location mismatch:")
    return x_id if x_id.ndim == 0 else y_id


def _difference_remarks(x: NDArray, y: NDArray, invalids: NDArray) -> list[str]:
    """The largest absolute and relative differences among the violations,
    as NumPy reports them (none for booleans, which do not subtract)."""
    with _errstate.errstate(all="ignore"):
        try:
            error = _elementwise.abs(x - y)
        except TypeError:
            return []
        if x.dtype.kind == "u":  # the difference wraps one way: take the other if smaller
            if error.ndim == 0:
                # NumPy's message has no differences here (its in-place
                # minimum fails on the scalar that 0-d operands give)
                return []
            error = _elementwise.minimum(error, _elementwise.abs(y - x))
        remarks = ["Max absolute difference among violations: " + _value_text(_statistical.max(error[invalids]))]
        picked = _elementwise.logical_and(invalids, y != 0)
        if not bool(_utility.any(picked)):
            rel = _coerce.asarray(math.inf)
        else:
            ys = _manipulation.broadcast_to(y, error.shape)[picked]
            rel = _statistical.max(error[picked] / _elementwise.abs(ys))
        remarks.append("Max relative difference among violations: " + _value_text(rel))
    return remarks


def _index_remarks(ox: NDArray, oy: NDArray, invalids: NDArray, flagged: NDArray,
                   names: _Names) -> list[str]:
    """Where the first five mismatches are, with both values."""
    if invalids.ndim == 0:
        return []
    if flagged.ndim > 0:
        positions = _searching.argwhere(_elementwise.logical_not(flagged))[invalids]
    else:
        positions = _searching.argwhere(invalids)
    rows = []
    for p in positions[:5]:
        at = tuple(p.tolist())
        vx = ox if ox.ndim == 0 else ox[at]
        vy = oy if oy.ndim == 0 else oy[at]
        rows.append(f" {list(at)}: {vx} ({names[0]}), {vy} ({names[1]})")
    n = positions.shape[0]
    title = "Mismatch at index:" if n == 1 else "Mismatch at indices:" if n <= 5 else \
        "First 5 mismatches are at indices:"
    return [title + "\n" + "\n".join(rows)]


def _assert_array_compare(comparison: _Compare, x: Any, y: Any, err_msg: object = "", verbose: bool = True,
                          header: str = "", equal_nan: bool = True, equal_inf: bool = True, *,
                          strict: bool = False, names: _Names = ("ACTUAL", "DESIRED"), precision: int = 6) -> None:
    """NumPy's ``assert_array_compare``: every pair of elements (a scalar
    against each element of the other side) must satisfy ``comparison``,
    once NaNs (``equal_nan``) and infinities (``equal_inf``) in the same
    places have been set aside."""
    __tracebackhide__ = True
    ox = x = _coerce.asarray(x)
    oy = y = _coerce.asarray(y)
    err_msg = str(err_msg)

    def fail(remark: str, a: object = x, b: object = y) -> AssertionError:
        return AssertionError(_build_err_msg([a, b], err_msg + remark, header=header,
                                             verbose=verbose, names=names, precision=precision))

    try:
        if strict:
            same = x.shape == y.shape and x.dtype == y.dtype
        else:
            same = x.shape == () or y.shape == () or x.shape == y.shape
        if not same:
            if x.shape != y.shape:
                raise fail(f"\n(shapes {x.shape}, {y.shape} mismatch)")
            raise fail(f"\n(dtypes {x.dtype}, {y.dtype} mismatch)")

        flagged = _coerce.asarray(False)
        if equal_nan:
            flagged = _same_positions(x, y, _elementwise.isnan, "nan", fail)
        if equal_inf:
            not_flagged = _elementwise.logical_not(flagged)
            infs = _same_positions(x, y, lambda a: _elementwise.logical_and(_elementwise.isinf(a), not_flagged),
                                   "inf", fail)
            if bool(_utility.any(infs)):
                xi, yi = (x[infs], y[infs]) if x.ndim > 0 and y.ndim > 0 else (x, y)
                if bool(_utility.any(xi != yi)):
                    raise fail("\ninf values mismatch:", xi, yi)
            flagged = _elementwise.logical_or(flagged, infs)

        if flagged.ndim > 0:
            kept = _elementwise.logical_not(flagged)
            x, y = x[kept], y[kept]
            if x.size == 0:
                return
        elif bool(flagged):
            return  # everything set aside: nothing left to compare

        val = _coerce.asarray(comparison(x, y))
        if bool(_utility.all(val)):
            return
        invalids = _elementwise.logical_not(val)
        reduced = _manipulation.reshape(val, (-1,))
        n_mismatch = reduced.size - int(_statistical.sum(reduced))
        n_elements = flagged.size if flagged.ndim != 0 else reduced.size
        remarks = [f"Mismatched elements: {n_mismatch} / {n_elements} ({100 * n_mismatch / n_elements:.3g}%)"]
        remarks += _index_remarks(ox, oy, invalids, flagged, names)
        remarks += _difference_remarks(x, y, invalids)
        raise fail("\n" + "\n".join(remarks), ox, oy)
    except ValueError:
        trace = traceback.format_exc()
        raise ValueError(_build_err_msg([x, y], err_msg, header=f"error during assertion:\n\n{trace}\n\n{header}",
                                        verbose=verbose, names=names, precision=precision)) from None


def assert_array_equal(actual: Any, desired: Any, err_msg: object = "", verbose: bool = True, *,
                       strict: bool = False) -> None:
    """Fail unless the two array-likes have the same shape (or one is a
    scalar) and equal elements; NaNs in the same places are equal.
    ``strict=True`` also requires equal shapes and dtypes."""
    __tracebackhide__ = True
    _assert_array_compare(operator.eq, actual, desired, err_msg, verbose, header="Arrays are not equal",
                          strict=strict)


def assert_array_less(x: Any, y: Any, err_msg: object = "", verbose: bool = True, *, strict: bool = False) -> None:
    """Fail unless every element of ``x`` is strictly less than the
    matching one of ``y`` (NaNs in the same places are skipped)."""
    __tracebackhide__ = True
    _assert_array_compare(operator.lt, x, y, err_msg, verbose, header="Arrays are not strictly ordered `x < y`",
                          equal_inf=False, strict=strict, names=("x", "y"))


def assert_array_almost_equal(actual: Any, desired: Any, decimal: int = 6, err_msg: object = "",
                              verbose: bool = True) -> None:
    """Fail unless ``abs(desired - actual) < 1.5 * 10**(-decimal)``
    elementwise (shapes and NaNs as in `assert_array_equal`)."""
    __tracebackhide__ = True
    bound = 1.5 * 10.0 ** (-decimal)

    def compare(x: NDArray, y: NDArray) -> NDArray:
        # y made inexact first, so that abs() of the most negative integer
        # cannot overflow.
        y = _coerce.asarray(y, dtype=_dtypes.result_type(y, 1.0))
        return _elementwise.abs(x - y) < bound

    _assert_array_compare(compare, actual, desired, err_msg, verbose,
                          header=f"Arrays are not almost equal to {decimal:d} decimals", precision=decimal)


def assert_allclose(actual: Any, desired: Any, rtol: float = 1e-7, atol: float = 0, equal_nan: bool = True,
                    err_msg: object = "", verbose: bool = True, *, strict: bool = False) -> None:
    """Fail unless ``abs(actual - desired) <= atol + rtol * abs(desired)``
    elementwise (`isclose`'s test, with NumPy's tighter default
    ``rtol=1e-7`` and ``atol=0``); NaNs in the same places are equal when
    ``equal_nan``.  ``strict=True`` also requires equal shapes and dtypes."""
    __tracebackhide__ = True

    def compare(x: NDArray, y: NDArray) -> NDArray:
        return _elementwise.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)

    _assert_array_compare(compare, actual, desired, str(err_msg), verbose,
                          header=f"Not equal to tolerance rtol={rtol:g}, atol={atol:g}",
                          equal_nan=equal_nan, strict=strict)


def _parts(x: Any) -> tuple[Any, Any]:
    """The real and imaginary parts of a scalar or array (0 for a real)."""
    if not _is_complex(x):
        return x, 0
    if isinstance(x, complex):
        return x.real, x.imag
    a = _coerce.asarray(x)
    return _elementwise.real(a), _elementwise.imag(a)


def _nan(x: Any) -> bool:
    return bool(_elementwise.isnan(_coerce.asarray(x)))


def assert_equal(actual: Any, desired: Any, err_msg: object = "", verbose: bool = True, *,
                 strict: bool = False) -> None:
    """Fail unless the two objects are equal: dicts key by key, lists and
    tuples item by item, arrays with `assert_array_equal`, scalars with
    ``==``, where NaN equals NaN and ``0.0`` differs from ``-0.0``."""
    __tracebackhide__ = True
    if isinstance(desired, dict):
        if not isinstance(actual, dict):
            raise AssertionError(repr(type(actual)))
        assert_equal(len(actual), len(desired), err_msg, verbose)
        for k in desired:
            if k not in actual:
                raise AssertionError(repr(k))
            assert_equal(actual[k], desired[k], f"key={k!r}\n{err_msg}", verbose)
        return
    if isinstance(desired, (list, tuple)) and isinstance(actual, (list, tuple)):
        assert_equal(len(actual), len(desired), err_msg, verbose)
        for k in range(len(desired)):
            assert_equal(actual[k], desired[k], f"item={k!r}\n{err_msg}", verbose)
        return
    if _is_array(actual) or _is_array(desired):
        assert_array_equal(actual, desired, err_msg, verbose, strict=strict)
        return
    msg = _build_err_msg([actual, desired], err_msg, verbose=verbose)
    if _is_complex(actual) or _is_complex(desired):
        # apart, so that NaNs, infinities and signed zeros of each part count
        (ar, ai), (dr, di) = _parts(actual), _parts(desired)
        try:
            assert_equal(ar, dr)
            assert_equal(ai, di)
        except AssertionError:
            raise AssertionError(msg) from None
    if _isscalar(desired) != _isscalar(actual):
        raise AssertionError(msg)
    with contextlib.suppress(TypeError, ValueError):
        if _nan(desired) and _nan(actual):
            return
        if desired == 0 and actual == 0 and bool(_elementwise.signbit(_coerce.asarray(desired))) != bool(
                _elementwise.signbit(_coerce.asarray(actual))):
            raise AssertionError(msg)
    if not (desired == actual):
        raise AssertionError(msg)


def assert_almost_equal(actual: Any, desired: Any, decimal: int = 7, err_msg: object = "",
                        verbose: bool = True) -> None:
    """Fail unless ``abs(desired - actual) < 1.5 * 10**(-decimal)``; arrays,
    lists and tuples go to `assert_array_almost_equal`."""
    __tracebackhide__ = True

    def failure() -> AssertionError:
        return AssertionError(_build_err_msg([actual, desired], err_msg, verbose=verbose,
                                             header=f"Arrays are not almost equal to {decimal:d} decimals"))

    if _is_complex(actual) or _is_complex(desired):
        (ar, ai), (dr, di) = _parts(actual), _parts(desired)
        try:
            assert_almost_equal(ar, dr, decimal=decimal)
            assert_almost_equal(ai, di, decimal=decimal)
        except AssertionError:
            raise failure() from None
    if _is_array(actual) or _is_array(desired) or isinstance(actual, (tuple, list)) \
            or isinstance(desired, (tuple, list)):
        # (NumPy does not pass verbose on here either)
        assert_array_almost_equal(actual, desired, decimal, err_msg)
        return
    try:
        a, d = _coerce.asarray(actual), _coerce.asarray(desired)
        if not (bool(_elementwise.isfinite(d)) and bool(_elementwise.isfinite(a))):
            if bool(_elementwise.isnan(d)) or bool(_elementwise.isnan(a)):
                if not (bool(_elementwise.isnan(d)) and bool(_elementwise.isnan(a))):
                    raise failure()
            elif not desired == actual:
                raise failure()
            return
    except TypeError:
        pass
    if abs(desired - actual) >= 1.5 * 10.0 ** (-decimal):
        raise failure()


class _Checker(unittest.TestCase):
    """A test case whose only use is its ``assertRaises`` family."""

    def nop(self) -> None:
        pass


_checker = _Checker("nop")


def assert_raises(*args: Any, **kwargs: Any) -> Any:
    """``assert_raises(exception_class, callable, *args, **kwargs)`` fails
    unless the call raises ``exception_class``; ``assert_raises(exc)``
    alone is a context manager (unittest's ``assertRaises``)."""
    __tracebackhide__ = True
    return _checker.assertRaises(*args, **kwargs)


def assert_raises_regex(exception_class: type[BaseException], expected_regexp: str, *args: Any,
                        **kwargs: Any) -> Any:
    """As `assert_raises`, and the message must match ``expected_regexp``."""
    __tracebackhide__ = True
    return _checker.assertRaisesRegex(exception_class, expected_regexp, *args, **kwargs)


@contextlib.contextmanager
def _warns(warning_class: type[Warning], name: str | None = None) -> Iterator[None]:
    __tracebackhide__ = True
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    matched = [w for w in caught if issubclass(w.category, warning_class)]
    for w in caught:
        if not issubclass(w.category, warning_class):  # not ours: pass it on
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if not matched:
        raise AssertionError("No warning raised" + (f" when calling {name}" if name is not None else ""))


def assert_warns(warning_class: type[Warning], *args: Any, **kwargs: Any) -> Any:
    """Fail unless ``func(*args, **kwargs)`` warns ``warning_class``, and
    return its result; without a callable, a context manager.  Other
    warnings pass through.  (NumPy 2.4 deprecates this function in favour
    of ``pytest.warns``; minarray keeps it without the warning.)"""
    __tracebackhide__ = True
    if not args and not kwargs:
        return _warns(warning_class)
    if not args:
        if "match" in kwargs:
            raise RuntimeError("assert_warns does not use 'match' kwarg, use pytest.warns instead")
        raise RuntimeError("assert_warns(...) needs at least one arg")
    func, rest = args[0], args[1:]
    with _warns(warning_class, name=getattr(func, "__name__", None)):
        return func(*rest, **kwargs)


@contextlib.contextmanager
def _no_warnings(name: str | None = None) -> Iterator[None]:
    __tracebackhide__ = True
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    if caught:
        raise AssertionError(f"Got warnings{f' when calling {name}' if name is not None else ''}: {caught}")


def assert_no_warnings(*args: Any, **kwargs: Any) -> Any:
    """Fail if ``func(*args, **kwargs)`` warns, else return its result;
    without a callable, a context manager."""
    __tracebackhide__ = True
    if not args:
        return _no_warnings()
    func, rest = args[0], args[1:]
    with _no_warnings(name=getattr(func, "__name__", None)):
        return func(*rest, **kwargs)


def assert_approx_equal(actual: Any, desired: Any, significant: int = 7, err_msg: object = "",
                        verbose: bool = True) -> None:
    """Fail unless two numbers agree to ``significant`` digits, both scaled
    by the power of ten of their mean magnitude; NaN equals only NaN and an
    infinity only itself."""
    __tracebackhide__ = True
    actual, desired = float(actual), float(desired)
    if desired == actual:
        return
    mean = 0.5 * (abs(desired) + abs(actual))
    scale = 10.0 ** math.floor(math.log10(mean)) if mean > 0 and math.isfinite(mean) else math.nan
    msg = _build_err_msg([actual, desired], err_msg,
                         header=f"Items are not equal to {significant:d} significant digits:", verbose=verbose)
    if not (math.isfinite(desired) and math.isfinite(actual)):
        if math.isnan(desired) or math.isnan(actual):
            if not (math.isnan(desired) and math.isnan(actual)):
                raise AssertionError(msg)
        elif desired != actual:
            raise AssertionError(msg)
        return
    # NumPy's scaled difference: NaN (never >= the bound) where the mean
    # magnitude is zero, which two different finite numbers cannot reach
    if abs(desired / scale - actual / scale) >= 10.0 ** -(significant - 1):
        raise AssertionError(msg)


def assert_string_equal(actual: object, desired: object) -> None:
    """Fail unless two strings are equal, with the lines that differ marked
    as ``difflib.Differ`` marks them."""
    __tracebackhide__ = True
    if not isinstance(actual, str):
        raise AssertionError(repr(type(actual)))
    if not isinstance(desired, str):
        raise AssertionError(repr(type(desired)))
    if actual == desired:
        return
    diff = list(difflib.Differ().compare(actual.splitlines(True), desired.splitlines(True)))
    shown: list[str] = []
    while diff:
        d1 = diff.pop(0)
        if d1.startswith("  "):
            continue
        if not d1.startswith("- "):
            raise AssertionError(repr(d1))
        group = [d1]
        d2 = diff.pop(0)
        if d2.startswith("? "):
            group.append(d2)
            d2 = diff.pop(0)
        if not d2.startswith("+ "):
            raise AssertionError(repr(d2))
        group.append(d2)
        if diff:
            d3 = diff.pop(0)
            if d3.startswith("? "):
                group.append(d3)
            else:
                diff.insert(0, d3)
        if d2[2:] != d1[2:]:
            shown.extend(group)
    if shown:
        raise AssertionError("Differences in strings:\n" + "".join(shown).rstrip())
