"""Every public function takes what NumPy takes for an array argument.

Cross-cutting: NumPy code in the wild hands plain lists, tuples, Python
scalars, NumPy arrays and objects with ``__array__`` to every function, so
``ma.nonzero([1, 2, 0])`` must do what ``np.nonzero([1, 2, 0])`` does.  This
sweep holds every public function of ``minarray``, ``minarray.linalg`` and
``minarray.fft`` that NumPy also has to it without a list to keep up: the
functions and their known-good sample calls come from the device sweep's
table (tests/test_device_sweep.py, which enumerates them by introspection),
so a new function is swept the day it is added.

For each function, the first sample call that works with minarray arrays is
made again with each array argument in turn (an element of a list argument
included) replaced by the same values as a nested list, a nested tuple, a
Python scalar, a NumPy array and an object that has only ``__array__``; the
same call goes to NumPy, with NumPy arrays for the other arguments.  Where
NumPy returns, minarray must return the same values, dtype and shape; where
NumPy raises, minarray must raise the same exception type.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_device_sweep import EXCLUDED as DEVICE_EXCLUDED
from test_device_sweep import Call, Entry, S, _fill, _slot_name, _slots, entries

import minarray as ma

DType = type(ma.float64)


class ArrayOnly:
    """An array-like with nothing but ``__array__`` (NumPy's oldest door)."""

    def __init__(self, a: np.ndarray[Any, Any]) -> None:
        self._a = a

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        return self._a if dtype is None else self._a.astype(dtype)

    def __repr__(self) -> str:
        return "ArrayOnly"


def _nested_tuple(v: Any) -> Any:
    return tuple(_nested_tuple(e) for e in v) if isinstance(v, list) else v


def _scalar(a: np.ndarray[Any, Any]) -> Any:
    return a.reshape(-1)[0].item() if a.size else 0


# The forms an array argument is swept in: each makes it from the NumPy
# array of the sample's values; minarray and NumPy are handed the same object.
FORMS: dict[str, Callable[[np.ndarray[Any, Any]], Any]] = {
    "list": lambda a: a.tolist(),
    "tuple": lambda a: _nested_tuple(a.tolist()),
    "scalar": _scalar,
    "numpy": lambda a: a.copy(),
    "__array__": lambda a: ArrayOnly(a.copy()),
}

# Functions not swept, with the reason (the device sweep's exclusions are
# not swept either).  The test below checks that every name here exists.
EXCLUDED: dict[str, str] = {
    # DLPack's and memory's doors: their argument is a producer, by definition
    "ma.from_dlpack": "takes a DLPack producer, as NumPy's: a list is not one (TypeError on both sides)",
    "ma.frombuffer": "takes a buffer, not an array-like (NumPy's too)",
    "ma.fromfile": "takes a file, not an array",
    "ma.load": "takes a file, not an array",
    "ma.finfo": "the Array API's finfo takes an array, NumPy's refuses one (tests/test_data_type_functions.py)",
    "ma.iinfo": "the Array API's iinfo takes an array, NumPy's refuses one (tests/test_data_type_functions.py)",
    "ma.printoptions": "takes print options, not arrays, and returns a context manager (tests/test_printing.py)",
}

# Sample calls for NumPy's signature where the device sweep's is the Array
# API's (an argument NumPy requires has a default there).
SAMPLES: dict[str, Call] = {
    "ma.expand_dims": Call((S("f"),), {"axis": 0}),
}

# Where NumPy's refusal is an accident of its implementation, not a rule
# (an attribute looked up on an array-like it never converted, an index
# past the end of a shape tuple, a helper called without its argument),
# minarray may answer as it does for an array: (function, form) -> why.
NUMPY_ACCIDENTS: dict[tuple[str, str], str] = {
    ("ma.array_split", "scalar"): "NumPy calls len() on it (TypeError); minarray: ValueError, a 0-d array has no axis",
    ("ma.tensordot", "scalar"): "NumPy indexes past the 0-d shape (IndexError); minarray: ValueError",
    ("ma.tril", "scalar"): "NumPy calls tri() without its size (TypeError); minarray: ValueError, needs 2-d",
    ("ma.triu", "scalar"): "NumPy calls tri() without its size (TypeError); minarray: ValueError, needs 2-d",
    ("ma.array_split", "__array__"): "NumPy calls len() on it (TypeError); minarray reads it as an array",
    ("ma.trim_zeros", "__array__"): "NumPy slices the object itself (TypeError); minarray reads it as an array",
    ("ma.fft.fftshift", "scalar"): "NumPy unpacks an empty shift list (ValueError); minarray returns the 0-d array",
    ("ma.fft.ifftshift", "scalar"): "NumPy unpacks an empty shift list (ValueError); minarray returns the 0-d array",
    ("ma.histogram2d", "scalar"): "NumPy calls len() on x and y (TypeError); minarray: ValueError, the lengths differ",
    ("ma.histogram2d", "__array__"): "NumPy calls len() on x and y (TypeError); minarray reads them as arrays",
    ("ma.histogramdd", "scalar"): "NumPy iterates over the sample (TypeError); minarray: ValueError, not (N, D)",
    ("ma.histogramdd", "__array__"): "NumPy iterates over the sample (TypeError); minarray reads it as an array",
    ("ma.poly", "scalar"): "NumPy's __array_function__ dispatcher iterates over it (TypeError)",
    ("ma.poly", "__array__"): "NumPy's __array_function__ dispatcher iterates over it (TypeError)",
    ("ma.roots", "scalar"): "NumPy's __array_function__ dispatcher iterates over it (TypeError)",
    ("ma.roots", "__array__"): "NumPy's __array_function__ dispatcher iterates over it (TypeError)",
    ("ma.linalg.tensorinv", "scalar"): "NumPy calls reshape() without a shape (TypeError); minarray: ValueError",
}

# Known differences from NumPy that are not about array-likes (each listed
# in the docs' "What differs"): (function, form) -> what differs.
DIFFERS: dict[tuple[str, str], str] = {
    ("ma.ldexp", "scalar"): "NumPy picks its float16 loop for a Python float mantissa; minarray's weak scalar "
                            "takes the exponent array's float64",
    ("ma.argsort", "scalar"): "NumPy sorts a 0-d array as a 1-d one (array([0])); minarray refuses it as sort does",
    ("ma.linalg.matrix_rank", "scalar"): "NumPy answers 0 or 1 for a 0-d or 1-d input; minarray needs matrices",
    ("ma.bmat", "__array__"): "NumPy's bmat falls off its end for an object that is neither a sequence nor an "
                              "ndarray (returns None); minarray makes the matrix of its elements",
    ("ma.bmat", "scalar"): "NumPy's bmat returns None for a scalar (as above); minarray makes a 1x1 matrix",
}

# Functions whose results differ from NumPy's for arrays too, for a reason
# that is not about array-likes: their oracle is minarray's own result for
# the sample's arrays (where NumPy returns too), which an array-like must
# reproduce bit for bit.
OWN_ORACLE: dict[str, str] = {
    "ma.linalg.eig": "minarray's eigenvalues are always complex; NumPy's are real when all of them are",
    "ma.linalg.eigvals": "minarray's eigenvalues are always complex; NumPy's are real when all of them are",
    "ma.einsum_path": "the report's wording is minarray's own",
    "ma.linalg.svd": "another LAPACK build: singular vectors agree to rounding and sign only",
    "ma.linalg.lstsq": "another LAPACK build: agrees to rounding only",
    "ma.polyfit": "least squares through minarray's lstsq (another LAPACK build): agrees to rounding only",
}

# The results whose values are not defined (uninitialised memory): only the
# dtype and the shape are compared.
UNDEFINED_VALUES = {"ma.empty_like", "ma.empty"}


def _numpy_function(label: str) -> Any:
    """NumPy's function of the same name, or None when NumPy has none."""
    prefix, _, name = label.rpartition(".")
    mod = {"ma": np, "ma.linalg": np.linalg, "ma.fft": np.fft}.get(prefix)
    return getattr(mod, name, None) if mod is not None else None


def _swept() -> list[tuple[Entry, Call | None]]:
    """The functions NumPy also has, each with its first working sample
    call (None when none works: that fails); those whose sample takes no
    array (arange, eye, the dtypes...) have nothing to sweep."""
    out: list[tuple[Entry, Call | None]] = []
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # the savers write their sample files here
        try:
            for e in entries():
                if e.label.split(".")[:2] == ["ma", "random"] or _numpy_function(e.label) is None \
                        or e.label in EXCLUDED:
                    continue
                c = _first_working(e)
                if c is None or any(True for _ in _slots(c)):
                    out.append((e, c))
        finally:
            os.chdir(here)
    return out


def _to_numpy(x: Any) -> Any:
    """A sample argument with minarray arrays turned into NumPy's, minarray
    dtypes into NumPy's."""
    if isinstance(x, ma.NDArray):
        return np.asarray(x).copy()
    if isinstance(x, DType):
        return np.dtype(x.name)
    if isinstance(x, list):
        return [_to_numpy(v) for v in x]
    if isinstance(x, tuple):
        return tuple(_to_numpy(v) for v in x)
    return x


def _first_working(e: Entry) -> Call | None:
    for c in [SAMPLES[e.label]] if e.label in SAMPLES else e.samples:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                e.fn(*_fill(c.args), **{k: _fill(v) for k, v in c.kwargs.items()})
        except Exception:  # not this sample: the next one
            continue
        return c
    return None


def _arguments(c: Call, slot: tuple[Any, ...], form: str) -> tuple[tuple[Any, dict[str, Any]],
                                                                   tuple[Any, dict[str, Any]]]:
    """(minarray's, NumPy's) arguments of ``c``, the one at ``slot`` in ``form``."""
    ma_args, ma_kwargs = list(_fill(c.args)), {k: _fill(v) for k, v in c.kwargs.items()}
    np_args, np_kwargs = _to_numpy(ma_args), _to_numpy(ma_kwargs)
    where = "args" if slot[0] == "a" else "kwargs"
    holders = {"args": (ma_args, np_args), "kwargs": (ma_kwargs, np_kwargs)}[where]
    values = np.asarray(ma_args[slot[1]] if where == "args" else ma_kwargs[slot[1]]) if len(slot) == 2 else \
        np.asarray((ma_args[slot[1]] if where == "args" else ma_kwargs[slot[1]])[slot[2]])
    for h in holders:
        new = FORMS[form](values)
        if len(slot) == 2:
            h[slot[1]] = new
        else:
            seq = list(h[slot[1]])
            seq[slot[2]] = new
            h[slot[1]] = type(h[slot[1]])(seq)
    return (tuple(ma_args), ma_kwargs), (tuple(np_args), np_kwargs)


def _as_numpy_result(r: Any) -> Any:
    if isinstance(r, ma.NDArray):
        return np.asarray(r)
    if isinstance(r, (list, tuple)):
        return [_as_numpy_result(v) for v in r]
    if isinstance(r, DType):
        return np.dtype(r.name)
    return r


def _compare(label: str, got: Any, want: Any, where: str) -> None:
    got = _as_numpy_result(got)
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), f"{got!r} != {want!r}"
        for g, w in zip(got, want, strict=True):
            _compare(label, g, w, where)
        return
    if want is None or isinstance(want, (np.dtype, str, type)):
        assert got == want, f"{got!r} != {want!r}"
        return
    g, w = np.asarray(got), np.asarray(want)
    assert (g.shape, g.dtype) == (w.shape, w.dtype), f"shape, dtype {g.shape}, {g.dtype} != {w.shape}, {w.dtype}"
    if label not in UNDEFINED_VALUES:
        if w.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=0, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, w)


def _same_error(mine: BaseException, numpy_s: BaseException) -> bool:
    """The same exception type as NumPy's, for a caller: the same name
    (minarray's AxisError and LinAlgError are its own classes), or an
    instance of the built-in exception NumPy's derives from (its LinAlgError
    is a ValueError, an AxisError a ValueError and an IndexError)."""
    if type(mine).__name__ == type(numpy_s).__name__:
        return True
    builtin = next(c for c in type(numpy_s).__mro__ if c.__module__ == "builtins")
    return isinstance(mine, builtin)


SWEPT = _swept()


@pytest.mark.parametrize(("entry", "c"), SWEPT, ids=[e.label for e, _ in SWEPT])
def test_array_likes_as_numpy(entry: Entry, c: Call | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the savers write their sample files here
    assert c is not None, f"{entry.label}: no sample call works (add one to test_device_sweep.OVERRIDES)"
    np_fn = _numpy_function(entry.label)
    slots = list(_slots(c))
    failures = []
    for slot in slots:
        for form in FORMS:
            where = f"{entry.label} with {_slot_name(slot)} as a {form}"
            (ma_a, ma_k), (np_a, np_k) = _arguments(c, slot, form)
            if (entry.label, form) in DIFFERS:
                continue
            accident = (entry.label, form) in NUMPY_ACCIDENTS
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    want = np_fn(*np_a, **np_k)
                except Exception as exc:  # NumPy's refusal: minarray must refuse alike
                    if accident or isinstance(exc, AttributeError):
                        # no rule to follow: minarray reads it as an array (or
                        # refuses it), never crashes
                        try:
                            entry.fn(*ma_a, **ma_k)
                        except Exception:  # a clean refusal is fine too
                            pass
                        continue
                    try:
                        entry.fn(*ma_a, **ma_k)
                    except Exception as mexc:  # compared below
                        if not _same_error(mexc, exc):
                            failures.append(f"{where}: raised {type(mexc).__name__}: {mexc}; NumPy raises "
                                            f"{type(exc).__name__}: {exc}")
                        continue
                    failures.append(f"{where}: returned; NumPy raises {type(exc).__name__}: {exc}")
                    continue
                if accident:
                    failures.append(f"{where}: NumPy returns: remove it from NUMPY_ACCIDENTS")
                try:
                    got = entry.fn(*ma_a, **ma_k)
                except Exception as mexc:  # a failure to report
                    failures.append(f"{where}: raised {type(mexc).__name__}: {str(mexc)[:200]}")
                    continue
            if entry.label in OWN_ORACLE:
                want = _as_numpy_result(entry.fn(*_fill(c.args), **{k: _fill(v) for k, v in c.kwargs.items()}))
            try:
                _compare(entry.label, got, want, where)
            except AssertionError as exc:
                failures.append(f"{where}: " + " ".join(str(exc).split())[:300])
            del got, want
    assert not failures, "\n".join(failures)


def test_the_exclusions_name_functions_that_exist() -> None:
    labels = {f"ma.{n}" for n in ma.__all__} | {f"ma.linalg.{n}" for n in dir(ma.linalg)} | \
        {f"ma.fft.{n}" for n in ma.fft.__all__}
    assert set(EXCLUDED) <= labels
    assert {name for name, _ in (*NUMPY_ACCIDENTS, *DIFFERS)} | set(SAMPLES) | set(OWN_ORACLE) <= labels
    assert not set(EXCLUDED) & set(DEVICE_EXCLUDED)


def test_the_sweep_covers_the_namespace() -> None:
    # nothing falls out silently: every public function NumPy has is swept
    # or excluded with a reason
    names = {e.label for e in entries()} | set(EXCLUDED) | set(DEVICE_EXCLUDED)
    for name in ma.__all__:
        obj = getattr(ma, name)
        if not name.startswith("_") and callable(obj) and not isinstance(obj, type) and hasattr(np, name):
            assert f"ma.{name}" in names, f"ma.{name} is neither swept nor excluded"


def test_an_array_method_must_make_an_array() -> None:
    # NumPy's ValueError for an __array__ that returns something else (here
    # the object itself, which would otherwise be asked again and again)
    class Loop:
        def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
            return self

    for xp in (np, ma):
        with pytest.raises(ValueError, match="__array__"):
            xp.asarray(Loop())
