"""NumPy's everyday names (issue #16): every name the cheat sheet lists
exists and maps as it says, the NumPy spellings of the Array API functions
are the same objects, and across the routines: the methods, the errors and
warnings NumPy gives, and NumPy's functions on minarray arrays.  Each
routine's agreement with NumPy (values, dtypes, shapes, over several
shapes, dtypes and layouts) is tested with its chapter (test_statistical.py
for ``median``, test_joining.py for ``vstack``...).

The cheat sheet's rows themselves run in tests/test_docs.py; here the
list is checked as a list."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy_oracle import same

import minarray as ma

CHEATSHEET = Path(__file__).resolve().parent.parent / "docs" / "cheatsheet.md"

# ---- the list ---------------------------------------------------------------------

NAMES_HEADER = re.compile(r"^\|\s*NumPy\s*\|\s*minarray\s*\|\s*maps as\s*\|")
ROW = re.compile(r"^\|\s*`(?P<np>[^`]+)`\s*\|\s*`(?P<ma>[^`]+)`\s*\|(?P<maps>[^|]*)\|")


def name_rows() -> list[tuple[int, str, str, str]]:
    """(line, NumPy cell, minarray cell, maps-as cell) of the name tables,
    and of the expressions listed after them as "Also as in NumPy" (the
    rows that would only change ``np.`` to ``ma.``: same name, or a method)."""
    from test_docs import same_spelling_rows

    rows, inside, names = [], False, False
    text = CHEATSHEET.read_text()
    for i, line in enumerate(text.splitlines(), 1):
        if NAMES_HEADER.match(line):
            inside = names = True
            continue
        if inside and not line.startswith("|"):
            inside = False
        m = ROW.match(line) if inside else None
        if m:
            rows.append((i, m.group("np"), m.group("ma"), m.group("maps").strip()))
    start = text.count("\n", 0, text.index("## Every everyday NumPy name")) + 1 if names else 0
    for line, np_expr, ma_expr in same_spelling_rows(text):
        if line > start:
            rows.append((line, np_expr, ma_expr, "same name" if "np." in np_expr else "method"))
    return sorted(rows)


def _function_name(cell: str, prefix: str) -> str | None:
    m = re.search(rf"\b{prefix}\.(\w+)", cell)
    return m.group(1) if m else None


def _method_name(cell: str) -> str:
    """The NDArray method a row exercises: the last ``.name(`` call on an
    array (``(y := a.copy(), y.sort())[0]`` is ``sort``), or the dunder
    the builtin calls."""
    if cell.startswith("divmod("):
        return "__divmod__"
    if cell.startswith('f"'):
        return "__format__"
    calls = re.findall(r"\.(\w+)\(", cell.replace("ma.", "").replace(".copy()", ""))
    return calls[-1]


ROWS = name_rows()


def test_the_list_is_long() -> None:
    # NumPy's everyday surface, not a sample: a couple of hundred rows
    assert len(ROWS) >= 200, len(ROWS)


@pytest.mark.parametrize(("line", "np_cell", "ma_cell", "maps"), ROWS, ids=[f"line{r[0]}" for r in ROWS])
def test_listed_name_exists_and_maps_as_stated(line: int, np_cell: str, ma_cell: str, maps: str) -> None:
    if maps == "method":
        name = _method_name(ma_cell)
        assert callable(getattr(ma.NDArray, name, None)), f"NDArray has no method {name}"
        assert hasattr(np.ndarray, name), f"{name} is not a NumPy method"
        return
    np_name = _function_name(np_cell, "np")
    ma_name = _function_name(ma_cell, "ma")
    assert np_name is not None and ma_name is not None, (np_cell, ma_cell)
    assert np_name == ma_name, f"line {line}: NumPy's {np_name} is listed as ma.{ma_name}"
    assert hasattr(np, np_name), f"np.{np_name} is not a NumPy name"
    assert hasattr(ma, ma_name), f"ma.{ma_name} is missing"
    assert ma_name in ma.__all__, f"ma.{ma_name} is not exported in __all__"
    same = re.fullmatch(r"same object as `ma\.(\w+)`", maps)
    if same:
        assert getattr(ma, ma_name) is getattr(ma, same.group(1)), f"ma.{ma_name} is not ma.{same.group(1)}"
    else:
        assert maps in ("same name", "NumPy's defaults"), f"line {line}: unknown mapping {maps!r}"


# The names issue #16 asks for by name: each exists, and the cheat sheet lists it.
ISSUE_NAMES = """
array copy identity diag diagonal tri logspace fromfunction ravel transpose atleast_1d atleast_2d atleast_3d
vstack hstack dstack column_stack split array_split fliplr flipud rot90 pad append insert delete cumsum cumprod
median average percentile quantile ptp nansum nanprod nanmean nanvar nanstd nanmin nanmax nanargmin nanargmax
nanmedian nanpercentile nanquantile nancumsum nancumprod argwhere flatnonzero extract put isin intersect1d
union1d setdiff1d dot vdot inner outer einsum kron trace cross allclose isclose array_equal array_equiv
promote_types shape ndim size unique absolute power arccos arcsin arctan arctan2 arccosh arcsinh arctanh
left_shift right_shift invert bitwise_not concatenate
""".split()


@pytest.mark.parametrize("name", ISSUE_NAMES)
def test_issue_names_exist_and_are_listed(name: str) -> None:
    assert hasattr(ma, name) and name in ma.__all__
    listed = {_function_name(r[1], "np") for r in ROWS} | {_function_name(r[2], "ma") for r in ROWS}
    text = CHEATSHEET.read_text()
    assert name in listed or f"`np.{name}(" in text, f"{name} is not in the cheat sheet"


# NumPy's spelling -> the Array API function it is (one object, two names).
SPELLINGS = {
    "absolute": "abs", "arccos": "acos", "arccosh": "acosh", "arcsin": "asin", "arcsinh": "asinh",
    "arctan": "atan", "arctan2": "atan2", "arctanh": "atanh", "invert": "bitwise_invert",
    "bitwise_not": "bitwise_invert", "left_shift": "bitwise_left_shift", "right_shift": "bitwise_right_shift",
    "power": "pow", "conjugate": "conj", "true_divide": "divide", "mod": "remainder", "concatenate": "concat",
    "around": "round", "amax": "max", "amin": "min",
}


@pytest.mark.parametrize(("numpy_name", "api_name"), sorted(SPELLINGS.items()))
def test_numpy_spelling_is_the_array_api_function(numpy_name: str, api_name: str) -> None:
    assert getattr(ma, numpy_name) is getattr(ma, api_name)
    # and NumPy itself has both names for one function
    assert hasattr(np, numpy_name) and hasattr(np, api_name)


def test_every_array_api_function_has_its_numpy_spelling() -> None:
    """Each Array API function NumPy has under another name: that name too."""
    import minarray._elementwise as ew

    for name in ew.__all__:
        if not hasattr(np, name):  # NumPy 2 spells all of them; a new one would need a spelling here
            assert name in SPELLINGS.values(), name
    for numpy_name, api_name in SPELLINGS.items():
        assert numpy_name in ma.__all__ and api_name in ma.__all__


NEW_MODULES = ["_creation", "_data_type_functions", "_elementwise", "_histograms", "_indexing", "_inspection",
               "_joining", "_linear_algebra", "_manipulation", "_statistical", "_utility"]


def test_api_reference_documents_the_new_modules() -> None:
    api = "".join(p.read_text() for p in (CHEATSHEET.parent / "api").glob("*.md"))
    for module in NEW_MODULES:
        assert f"automodule:: minarray.{module}" in api, f"docs/api has no page section for minarray.{module}"


# ---- methods ----------------------------------------------------------------------------

def test_sort_method_sorts_in_place_through_views() -> None:
    a = np.array([[5, 1, 4], [2, 8, 0]])
    x = ma.asarray(a.copy())
    col = x[:, 1]
    x.sort(axis=0)
    a.sort(axis=0)
    same(x, a)
    same(col, a[:, 1])  # a view sees the sort: it happened in place
    v = x[1]
    v.sort()
    same(x[1], np.sort(a[1]))
    with pytest.raises(ValueError, match="order"):
        x.sort(order="f")


def test_view_reinterprets_bytes_like_numpy() -> None:
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    x = ma.asarray(a)
    for dt in ("int32", "uint32", "float32", "int16", "int8", "int64", "float64", "complex64"):
        same(x.view(getattr(ma, dt)), a.view(dt))
    y = x.view(ma.uint8)
    y[0, 0] = 7
    assert int(x[0, 0]) == 7  # same memory
    same(x[:, ::2].view(ma.float32), a[:, ::2].view(np.float32))
    with pytest.raises(ValueError):
        x[:, ::2].view(ma.int64)
    with pytest.raises(ValueError):
        ma.asarray(np.arange(3, dtype=np.int8)).view(ma.int16)
    assert x.view() is not x and x.view().dtype is ma.int32
    # the base by the views' rule: x wraps NumPy's memory, so its views' base is x
    assert x.view(ma.uint8).base is x and x[1:].view(ma.int16).base is x


def test_format_imatmul_divmod() -> None:
    x = ma.asarray(3.14159)
    assert f"{x:.2f}" == "3.14" and f"{x:>8.1e}" == f"{3.14159:>8.1e}"
    assert f"{ma.arange(3)}" == str(ma.arange(3))
    with pytest.raises(TypeError):
        f"{ma.arange(3):.2f}"
    a = np.arange(6.0).reshape(2, 3)
    m = np.arange(9.0).reshape(3, 3)
    x = ma.asarray(a.copy())
    before = x
    x @= ma.asarray(m)
    a @= m
    assert x is before
    same(x, a)
    with pytest.raises(ValueError):
        x @= ma.ones((3, 4))
    xi = ma.arange(4).reshape(2, 2)
    with pytest.raises(TypeError, match="same_kind"):
        xi @= ma.eye(2)
    same(divmod(ma.arange(-3, 4), 2), divmod(np.arange(-3, 4), 2))
    same(divmod(7.5, ma.asarray([2.0, -2.0])), divmod(7.5, np.array([2.0, -2.0])))


def test_methods_match_functions() -> None:
    a = np.arange(12.0).reshape(3, 4) - 5
    x = ma.asarray(a)
    same(x.argsort(axis=0), np.argsort(a, axis=0, kind="stable").astype(np.int64))
    same(x.clip(-2, 3), a.clip(-2, 3))
    same((x / 3).round(), (a / 3).round())
    same((x + 1j).conjugate(), (a + 1j).conjugate())
    same(x.nonzero(), tuple(i.astype(np.int64) for i in a.nonzero()))
    same(x.dot(x.T), a.dot(a.T))
    same(x.trace(1), a.trace(1))
    same(x.diagonal(-1), a.diagonal(-1))
    same(x.repeat([1, 0, 2], axis=0), a.repeat([1, 0, 2], axis=0))
    same(x.take([3, 0]), a.take([3, 0]))
    same(x.compress([1, 0, 1]), a.compress([1, 0, 1]))
    same(ma.arange(5.0).searchsorted(2.5), np.int64(np.arange(5.0).searchsorted(2.5)))
    y, b = x.copy(), a.copy()
    y.put([1, -1], [7.0]), b.put([1, -1], [7.0])
    same(y, b)
    p = ma.asarray([5, 2, 9, 1, 7])
    p.partition(2)
    assert p[2].item() == 5 and p.argpartition(0)[0].item() == int(np.argmin(np.asarray(p)))


# ---- bad input: NumPy's exceptions ------------------------------------------------------

BAD = [
    ("split", (np.arange(5), 2), {}),
    ("array_split", (np.arange(5), 0), {}),
    ("quantile", (np.arange(5.0), 1.5), {}),
    ("percentile", (np.arange(5.0), -1), {}),
    ("quantile", (np.arange(5.0), 0.5), {"method": "bogus"}),
    ("pad", (np.arange(5), -1), {}),
    ("pad", (np.zeros((0, 2)), 1), {"mode": "edge"}),
    ("dot", (np.ones((2, 3)), np.ones((2, 3))), {}),
    ("inner", (np.ones(3), np.ones(4)), {}),
    ("vdot", (np.ones(3), np.ones(4)), {}),
    ("cross", (np.ones(4), np.ones(4)), {}),
    ("average", (np.ones(3),), {"weights": np.zeros(3)}),
    ("average", (np.ones((2, 3)),), {"weights": np.ones(3)}),
    ("unravel_index", (np.array([6]), (2, 3)), {}),
    ("ravel_multi_index", (([2], [0]), (2, 3)), {}),
    ("fliplr", (np.ones(3),), {}),
    ("rot90", (np.ones((2, 2)),), {"axes": (0, 0)}),
    ("delete", (np.arange(3), 5), {}),
    ("insert", (np.arange(3), 5, 1), {}),
    ("bincount", (np.array([1, -1]),), {}),
    ("histogram", (np.arange(3.0),), {"bins": [2, 1, 3]}),
    ("partition", (np.arange(3), 3), {}),
    ("diag", (np.ones((2, 2, 2)),), {}),
    ("hsplit", (np.array(1),), {}),
    ("vsplit", (np.ones(3), 1), {}),
    ("geomspace", (0, 1), {}),
    ("select", ([np.array([1, 0])], [np.ones(2)]), {}),
    ("interp", ([1.0], [1.0, 2.0], [1.0]), {}),
    ("convolve", (np.ones(0), np.ones(2)), {}),
    ("cov", (np.ones((2, 2, 2)),), {}),
    ("nanargmin", (np.array([np.nan, np.nan]),), {}),
    ("einsum", ("ij,jk", np.ones((2, 3)), np.ones((4, 2))), {}),
    ("isposinf", (np.array([1j]),), {}),
    ("put", (np.arange(3), [5], [1]), {}),
    ("choose", (np.array([3]), [np.ones(1), np.ones(1)]), {}),
    ("gcd", (np.ones(2), np.ones(2)), {}),
    ("vander", (np.ones((2, 2)),), {}),
    ("resize", (np.ones(2), -1), {}),
]


@pytest.mark.parametrize(("fn", "args", "kwargs"), BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_input_raises_what_numpy_raises(fn: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    def conv(v: Any) -> Any:
        if isinstance(v, np.ndarray):
            return ma.asarray(v)
        if isinstance(v, list):
            return [conv(x) for x in v]
        return v

    with pytest.raises(Exception) as np_err:
        getattr(np, fn)(*args, **kwargs)
    with pytest.raises(Exception) as ma_err:
        getattr(ma, fn)(*[conv(a) for a in args], **{k: conv(v) for k, v in kwargs.items()})
    expected = np_err.type
    # NumPy's AxisError is both a ValueError and an IndexError
    assert issubclass(ma_err.type, expected) or issubclass(expected, ma_err.type) or \
        (expected.__name__ == "AxisError" and issubclass(ma_err.type, (ValueError, IndexError))), \
        f"{fn}: NumPy raises {expected.__name__}, minarray {ma_err.type.__name__}: {ma_err.value}"
    assert str(ma_err.value), "the message says what was wrong"


# ---- floating-point warnings: where NumPy warns, and only there ----------------------------

def _warnings_of(fn: Any) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return sorted(str(w.message) for w in caught if issubclass(w.category, RuntimeWarning))


SILENT = [
    ("isclose", lambda m: m.isclose(m.asarray([np.inf, -np.inf, np.nan, 1.0]), m.asarray([np.inf, np.inf, 1.0, 1.0]))),
    ("allclose", lambda m: m.allclose(m.asarray([np.inf, 1.0]), m.asarray([np.inf, 1.0]))),
    ("cbrt", lambda m: m.cbrt(m.asarray([np.inf, -np.inf, 0.0, -0.0, np.nan, 8.0]))),
    ("logaddexp2", lambda m: m.logaddexp2(m.asarray([np.inf, -np.inf]), m.asarray([np.inf, -np.inf]))),
    ("modf", lambda m: m.modf(m.asarray([np.inf, -2.5]))),
    ("interp", lambda m: m.interp(m.asarray([0.5, 1.0]), m.asarray([0.0, 1.0, 1.0]), m.asarray([0.0, 1.0, 2.0]))),
]


@pytest.mark.parametrize(("name", "call"), SILENT, ids=[s[0] for s in SILENT])
def test_no_warning_where_numpy_has_none(name: str, call: Any) -> None:
    assert _warnings_of(lambda: call(np)) == []
    assert _warnings_of(lambda: call(ma)) == []


WARNS = [
    ("nanmin", lambda m: m.nanmin(m.asarray([[np.nan, 1.0], [np.nan, np.nan]]), axis=1)),
    ("nanmedian", lambda m: m.nanmedian(m.asarray([np.nan, np.nan]))),
    ("nanmean", lambda m: m.nanmean(m.asarray([np.nan, np.nan]))),
    ("nanvar", lambda m: m.nanvar(m.asarray([np.nan, 1.0]), ddof=1)),
]


@pytest.mark.parametrize(("name", "call"), WARNS, ids=[w[0] for w in WARNS])
def test_numpys_warning_for_empty_slices(name: str, call: Any) -> None:
    assert _warnings_of(lambda: call(ma)) == _warnings_of(lambda: call(np))


# ---- NumPy's functions on minarray arrays (__array_function__) -----------------------------

DISPATCHED = [
    ("median", lambda m, x: m.median(x, 0)),
    ("quantile", lambda m, x: m.quantile(x, [0.25, 0.5], axis=1)),
    ("nanmean", lambda m, x: m.nanmean(x, axis=0)),
    ("average", lambda m, x: m.average(x, 1, x[0])),
    ("vstack", lambda m, x: m.vstack([x, x[0]])),
    ("split", lambda m, x: m.split(x, 2, axis=1)),
    ("pad", lambda m, x: m.pad(x, 1, mode="edge")),
    ("einsum", lambda m, x: m.einsum("ij,kj->ik", x, x)),
    ("unique", lambda m, x: m.unique(x % 3, return_counts=True)),
    ("isin", lambda m, x: m.isin(x, x[0])),
    ("histogram", lambda m, x: m.histogram(x, bins=3)),
    ("partition", lambda m, x: m.partition(x, 1, axis=0, kind="introselect")[1]),
    ("kron", lambda m, x: m.kron(x[:2, :2], x[:2, :2])),
    ("trace", lambda m, x: m.trace(x, 1)),
    ("allclose", lambda m, x: m.allclose(x, x + 1e-12)),
    ("shape", lambda m, x: m.shape(x)),
]


@pytest.mark.parametrize(("name", "call"), DISPATCHED, ids=[d[0] for d in DISPATCHED])
def test_numpy_functions_run_minarrays_on_minarray_arrays(name: str, call: Any) -> None:
    a = np.arange(12.0).reshape(3, 4) ** 1.5
    x = ma.asarray(a)
    got = call(np, x)  # np.<name> on a minarray array: minarray's function runs
    items = got if isinstance(got, (tuple, list)) else [got]
    assert all(isinstance(g, (ma.NDArray, bool, int)) for g in items), [type(g) for g in items]
    same(got, call(np, a), ulps=16)


def test_numpy_options_minarray_lacks_fall_back_to_numpy() -> None:
    x = ma.arange(12.0).reshape(3, 4)
    out = np.empty(4)
    r = np.quantile(x, 0.5, axis=0, method="inverted_cdf", weights=np.ones((3, 4)))  # an option minarray lacks
    assert isinstance(r, np.ndarray)
    r = np.median(x.copy(), 0, out)  # out= positionally: NumPy computes, into out
    assert r is out
    np.testing.assert_array_equal(out, np.median(np.asarray(x), 0))
