"""NumPy's everyday names (issue #16): every name the cheat sheet lists
exists and maps as it says, the NumPy spellings of the Array API functions
are the same objects, and the new routines agree with NumPy (values,
dtypes, shapes, errors) over several shapes, dtypes and layouts.

The cheat sheet's rows themselves run in tests/test_docs.py; here the
list is checked as a list, and the routines are compared against NumPy
more widely than one example each."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_errors import raises_as_numpy
from numpy_oracle import np_function
from reduction_helpers import FLOATS, INTS, REAL, array_pairs, values

import minarray as ma

SETTINGS = settings(max_examples=40, deadline=None)
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


# ---- agreement with NumPy ------------------------------------------------------------

def same(got: Any, expected: Any, ulps: int = 0) -> None:
    """Values, dtype and shape equal to NumPy's (tuples and lists element by element)."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            same(g, e, ulps)
        return
    e = np.asarray(expected)
    g = np.asarray(got)
    assert g.dtype == e.dtype, f"dtype {g.dtype}, NumPy {e.dtype}"
    assert g.shape == e.shape, f"shape {g.shape}, NumPy {e.shape}"
    if ulps and e.dtype.kind in "fc":
        np.testing.assert_allclose(g, e, rtol=ulps * np.finfo(e.dtype).eps, atol=0, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, e)


def both(fn: str, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """NumPy's and minarray's results of the same call (NumPy arrays in
    the arguments become minarray arrays on minarray's side)."""
    def conv(v: Any) -> Any:
        if isinstance(v, np.ndarray):
            return ma.asarray(v)
        if isinstance(v, list):
            return [conv(x) for x in v]
        if isinstance(v, tuple):
            return tuple(conv(x) for x in v)
        return v

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np_function(fn)(*args, **kwargs)
        got = getattr(ma, fn)(*conv(args), **{k: conv(v) for k, v in kwargs.items()})
    return got, expected


ORDER_DTYPES = ["int8", "int32", "int64", "uint16", "float16", "float32", "float64"]


@SETTINGS
@given(pair=array_pairs(dtypes=ORDER_DTYPES, min_dims=1, max_dims=3, max_side=7, kind="special"),
       method=st.sampled_from(["linear", "lower", "higher", "nearest", "midpoint"]),
       q=st.sampled_from([0.0, 0.3, 0.5, 1.0, [0.25, 0.75], [[0.1], [0.9]]]), data=st.data())
def test_quantile_matches_numpy(pair: tuple[np.ndarray, ma.NDArray], method: str, q: Any, data: Any) -> None:
    a, x = pair
    axis = data.draw(st.sampled_from([None, *range(-a.ndim, a.ndim)]))
    if a.size == 0 or (axis is not None and a.shape[axis] == 0):
        return
    if a.dtype == np.int8:  # NumPy interpolates int8 in int8, where b - a can wrap; minarray in float64
        a = a // 3
        x = ma.asarray(a)
    with warnings.catch_warnings():  # inf - inf between neighbours: both warn
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np.quantile(a, q, axis=axis, method=method)
        got = ma.quantile(x, q, axis=axis, method=method)
    # float64 is computed as NumPy does it, bit for bit; narrower floats
    # go through float64 (NumPy computes in them), a rounding apart
    same(got, expected, ulps=0 if a.dtype != np.float16 and a.dtype != np.float32 else 2)
    p = np.multiply(q, 100).tolist() if isinstance(q, list) else q * 100
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np.percentile(a, p, axis=axis, method=method)
        got = ma.percentile(x, p, axis=axis, method=method)
    same(got, expected, ulps=4 if a.dtype.kind == "f" else 0)


@SETTINGS
@given(pair=array_pairs(dtypes=ORDER_DTYPES, min_dims=1, max_dims=3, max_side=7, kind="special"), data=st.data())
def test_median_matches_numpy(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, _x = pair
    axis = data.draw(st.sampled_from([None, *range(-a.ndim, a.ndim)]))
    keepdims = data.draw(st.booleans())
    got, expected = both("median", a, axis=axis, keepdims=keepdims)
    same(got, expected)


@SETTINGS
@given(pair=array_pairs(dtypes=["float32", "float64"], min_dims=1, max_dims=3, max_side=6, kind="special"),
       data=st.data())
def test_nan_reductions_match_numpy(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, _x = pair
    if a.size == 0:
        return
    axis = data.draw(st.sampled_from([None, *range(a.ndim)]))
    for fn in ("nansum", "nanprod", "nanmean", "nanmin", "nanmax", "nanmedian", "nanvar", "nanstd"):
        got, expected = both(fn, a, axis=axis)
        same(got, expected, ulps=64)
    got, expected = both("nanquantile", a, [0.2, 0.5], axis=axis)
    if expected.dtype == a.dtype != np.float64:
        # NumPy's result dtype depends on the data here: a slice of NaNs only
        # met first keeps the input's dtype (np.apply_along_axis takes the
        # first slice's); minarray promotes as for any array q
        got = np.asarray(got).astype(a.dtype)
    same(got, expected, ulps=8)
    for fn in ("nancumsum", "nancumprod"):
        got, expected = both(fn, a, axis=axis)
        same(got, expected, ulps=64)


def test_nanarg_and_all_nan_slices() -> None:
    f = np.array([[np.nan, 2.0, -1.0], [3.0, np.nan, 7.0]])
    for fn in ("nanargmin", "nanargmax"):
        for axis in (None, 0, 1):
            got, expected = both(fn, f, axis=axis)
            same(got, expected.astype(np.int64))
    with pytest.raises(ValueError, match="All-NaN"):
        ma.nanargmax(ma.asarray([np.nan, np.nan]))
    got, expected = both("nanmax", np.array([[np.nan, np.nan], [1.0, np.nan]]), axis=1)
    same(got, expected)


def test_var_std_take_ddof_and_correction() -> None:
    a = np.arange(12.0).reshape(3, 4) ** 1.5
    x = ma.asarray(a)
    for kw in ({"ddof": 1}, {"correction": 1}, {"ddof": 0, "correction": 2}, {}):
        for fn in ("var", "std"):
            same(getattr(ma, fn)(x, axis=0, **kw), getattr(np, fn)(a, axis=0, **kw), ulps=4)
    same(x.var(correction=1), a.var(ddof=1), ulps=4)
    same(x.std(ddof=1, axis=1), a.std(ddof=1, axis=1), ulps=4)
    with pytest.raises(ValueError, match="ddof and correction"):
        ma.var(x, ddof=1, correction=1)
    with pytest.raises(ValueError, match="ddof and correction"):
        np.var(a, ddof=1, correction=1)


@SETTINGS
@given(pair=array_pairs(dtypes=REAL, min_dims=0, max_dims=3, max_side=5), data=st.data())
def test_cumsum_cumprod_ptp_match_numpy(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, _x = pair
    axis = data.draw(st.sampled_from([None, *range(a.ndim)]))
    for fn in ("cumsum", "cumprod"):
        got, expected = both(fn, a, axis=axis)
        same(got, expected, ulps=16)
    if a.size and a.dtype != np.bool_:
        got, expected = both("ptp", a, axis=axis)
        same(got, expected)


def test_average_matches_numpy() -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 4))
    for kw in ({}, {"axis": 0}, {"axis": 1, "weights": np.arange(1.0, 5.0)}, {"weights": rng.random((3, 4))},
               {"axis": 0, "weights": np.array([1, 2, 3]), "returned": True}, {"returned": True}):
        got, expected = both("average", a, **kw)
        same(got, expected, ulps=8)
    got, expected = both("average", np.arange(6, dtype=np.int32), weights=np.arange(6, dtype=np.int8))
    same(got, expected)
    with pytest.raises(ZeroDivisionError):
        ma.average(ma.ones(3), weights=ma.zeros(3))
    with pytest.raises(TypeError, match="Axis must be specified"):
        ma.average(ma.ones((2, 3)), weights=ma.ones(3))


# ---- the C selection ---------------------------------------------------------------

@pytest.mark.parametrize("dtype", [*INTS, *FLOATS, "bool"])
@pytest.mark.parametrize("pattern", ["random", "sorted", "reversed", "equal", "organ", "few"])
def test_partition_puts_kth_in_place(dtype: str, pattern: str) -> None:
    rng = np.random.default_rng(7)
    n = 3000  # past the insertion cut-off and the merge sort's, adversarial orders included
    base = {"random": rng.integers(0, 1000, n), "sorted": np.arange(n), "reversed": np.arange(n)[::-1],
            "equal": np.zeros(n, int), "organ": np.concatenate([np.arange(n // 2), np.arange(n // 2)[::-1]]),
            "few": rng.integers(0, 3, n)}[pattern]
    a = (base % 120).astype(dtype) if dtype != "bool" else base % 2 == 1
    if dtype in FLOATS and pattern == "random":
        a[rng.integers(0, n, 30)] = np.nan
    kth = [0, 17, n // 2, n - 1]
    got = np.asarray(ma.partition(ma.asarray(a), kth))
    srt = np.sort(a)
    np.testing.assert_array_equal(got[kth], srt[kth])
    np.testing.assert_array_equal(np.sort(got), srt)  # a permutation of the input
    for k in kth:  # everything before is not larger, everything after not smaller
        with np.errstate(invalid="ignore"):
            assert not np.any(got[:k] > got[k]) and not np.any(got[k + 1:] < got[k])
    idx = np.asarray(ma.argpartition(ma.asarray(a), kth))
    np.testing.assert_array_equal(np.sort(idx), np.arange(n))
    np.testing.assert_array_equal(a[idx][kth], srt[kth])


@SETTINGS
@given(pair=array_pairs(dtypes=REAL, min_dims=1, max_dims=3, max_side=9, kind="special"), data=st.data())
def test_partition_matches_numpy_at_kth(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, x = pair
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = a.shape[axis]
    if n == 0:
        return
    kth = data.draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=3))
    got = np.asarray(ma.partition(x, kth, axis=axis))
    expected = np.partition(a, kth, axis=axis)
    sel = np.take(expected, kth, axis=axis)
    np.testing.assert_array_equal(np.take(got, kth, axis=axis), sel)


# ---- joining, splitting and editing ---------------------------------------------------

@SETTINGS
@given(pair=array_pairs(dtypes=["int16", "float64", "bool"], min_dims=1, max_dims=3, max_side=6), data=st.data())
def test_split_family_matches_numpy(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, x = pair
    axis = data.draw(st.integers(0, a.ndim - 1))
    sections = data.draw(st.integers(1, 4))
    got, expected = both("array_split", a, sections, axis=axis)
    same(got, expected)
    idx = sorted(data.draw(st.lists(st.integers(-3, 8), max_size=3)))
    got, expected = both("split", a, idx, axis=axis)
    same(got, expected)
    if a.shape[axis] % sections == 0:
        same(ma.split(x, sections, axis=axis), np.split(a, sections, axis=axis))
    else:
        with pytest.raises(ValueError, match="equal division"):
            ma.split(x, sections, axis=axis)


def test_stacking_matches_numpy() -> None:
    rng = np.random.default_rng(1)
    for shapes in ([(3,), (3,)], [(2, 3), (1, 3)], [(), ()], [(2, 3, 4), (2, 3, 4)]):
        arrs = [values(rng, "float32", s) for s in shapes]
        for fn in ("vstack", "hstack", "dstack", "column_stack", "atleast_1d", "atleast_2d", "atleast_3d"):
            if fn.startswith("atleast"):
                got, expected = both(fn, *arrs)
            else:
                try:
                    expected = getattr(np, fn)(arrs)
                except ValueError:
                    with pytest.raises(ValueError):
                        getattr(ma, fn)([ma.asarray(v) for v in arrs])
                    continue
                got = getattr(ma, fn)([ma.asarray(v) for v in arrs])
            same(got, expected)
    same(ma.vstack([ma.arange(3, dtype=ma.int8), ma.arange(3.0)]), np.vstack([np.arange(3, dtype=np.int8),
                                                                               np.arange(3.0)]))
    a = np.arange(24).reshape(2, 3, 4)
    for fn, args in (("hsplit", (3,)), ("vsplit", (2,)), ("dsplit", ([1, 3],)), ("fliplr", ()), ("flipud", ()),
                     ("rot90", ()), ("rot90", (2, (2, 0))), ("rot90", (-1, (1, 2))), ("ravel", ()),
                     ("transpose", ((2, 0, 1),))):
        got, expected = both(fn, a, *args)
        same(got, expected)
    same(ma.block([[ma.asarray(a[0]), ma.zeros((3, 2), dtype=ma.int64)]]), np.block([[a[0], np.zeros((3, 2), int)]]))


PAD_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]


@SETTINGS
@given(pair=array_pairs(dtypes=["int32", "float64", "uint8"], min_dims=1, max_dims=3, max_side=4),
       mode=st.sampled_from(PAD_MODES), data=st.data())
def test_pad_matches_numpy(pair: tuple[np.ndarray, ma.NDArray], mode: str, data: Any) -> None:
    a, x = pair
    widths = [tuple(data.draw(st.integers(0, 6)) for _ in range(2)) for _ in range(a.ndim)]
    kw = {"constant_values": data.draw(st.sampled_from([0, 7, ((1, 2),) * a.ndim]))} if mode == "constant" else {}
    try:
        expected = np.pad(a, widths, mode=mode, **kw)
    except ValueError:
        with pytest.raises(ValueError):
            ma.pad(x, widths, mode=mode, **kw)
        return
    same(ma.pad(x, widths, mode=mode, **kw), expected)


@SETTINGS
@given(pair=array_pairs(dtypes=["int64", "float32"], min_dims=1, max_dims=2, max_side=6), data=st.data())
def test_insert_delete_append_match_numpy(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, _x = pair
    axis = data.draw(st.sampled_from([None, *range(a.ndim)]))
    n = a.size if axis is None else a.shape[axis]
    obj = data.draw(st.one_of(st.integers(-n, n), st.lists(st.integers(-n, n), max_size=3)))
    got, expected = both("insert", a, obj, 5, axis=axis)
    same(got, expected)
    if n:
        drop = data.draw(st.one_of(st.integers(-n, n - 1), st.lists(st.integers(-n, n - 1), max_size=3),
                                   st.just(slice(0, None, 2))))
        got, expected = both("delete", a, drop, axis=axis)
        same(got, expected)
    got, expected = both("append", a, a, axis=axis)
    same(got, expected)


# ---- products ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "complex128"])
@pytest.mark.parametrize(("sa", "sb"), [((), (3,)), ((3,), (3,)), ((2, 3), (3,)), ((2, 3), (3, 4)),
                                        ((2, 2, 3), (3,)), ((2, 2, 3), (4, 3, 2)), ((3,), (3, 2))])
def test_dot_inner_vdot_kron_match_numpy(dtype: str, sa: tuple[int, ...], sb: tuple[int, ...]) -> None:
    rng = np.random.default_rng(5)
    a, b = values(rng, dtype, sa), values(rng, dtype, sb)
    tol = 64 if dtype.startswith(("float", "complex")) else 0
    got, expected = both("dot", a, b)
    same(got, expected, ulps=tol)
    if sa and sb and sa[-1] == sb[-1]:
        got, expected = both("inner", a, b)
        same(got, expected, ulps=tol)
    if a.size == b.size:
        got, expected = both("vdot", a, b)
        same(got, expected, ulps=tol)
    got, expected = both("kron", a, b)
    same(got, expected, ulps=tol)


EINSUMS = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]), ("ii->i", [(3, 3)]),
    ("ii", [(4, 4)]), ("ij->ji", [(2, 3)]), ("ij->", [(2, 3)]), ("i,i", [(5,), (5,)]), ("i,j->ij", [(2,), (3,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("...ij,...jk", [(2, 3, 4), (4, 2)]), ("iij->j", [(3, 3, 2)]),
    ("ijk,ikl,lm->jm", [(2, 3, 4), (2, 4, 5), (5, 2)]), ("ab,cd,bd->ac", [(2, 3), (4, 5), (3, 5)]),
    ("i,i,i->", [(4,), (4,), (4,)]), ("bi,bj->bij", [(3, 2), (3, 4)]), ("...i,...i->...", [(2, 1, 3), (4, 3)]),
]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "complex64"])
@pytest.mark.parametrize(("spec", "shapes"), EINSUMS, ids=[e[0] for e in EINSUMS])
def test_einsum_matches_numpy(spec: str, shapes: list[tuple[int, ...]], dtype: str) -> None:
    rng = np.random.default_rng(11)
    ops = [values(rng, dtype, s) for s in shapes]
    tol = 256 if dtype.startswith(("float", "complex")) else 0
    for optimize in (True, False, "optimal"):
        got = ma.einsum(spec, *[ma.asarray(o) for o in ops], optimize=optimize)
        same(got, np.einsum(spec, *ops), ulps=tol)


def test_einsum_path_and_errors() -> None:
    a, b, c = np.ones((2, 30)), np.ones((30, 40)), np.ones((40, 3))
    path, report = ma.einsum_path("ij,jk,kl->il", ma.asarray(a), ma.asarray(b), ma.asarray(c))
    assert path == np.einsum_path("ij,jk,kl->il", a, b, c, optimize="greedy")[0]
    assert "Optimized" in report or "Complete contraction" in report
    with pytest.raises(ValueError):
        ma.einsum("ij,jk->ik", ma.ones((2, 3)), ma.ones((4, 5)))
    with pytest.raises(ValueError):
        np.einsum("ij,jk->ik", np.ones((2, 3)), np.ones((4, 5)))
    with pytest.raises(TypeError, match="subscripts as a string"):
        ma.einsum(ma.ones(3), [0])


def test_cross_trace_diagonal_convolve_match_numpy() -> None:
    rng = np.random.default_rng(2)
    a, b = values(rng, "float64", (4, 3)), values(rng, "float64", (3,))
    for kw in ({}, {"axis": -1}, {"axisc": 0}):
        got, expected = both("cross", a, b, **kw)
        same(got, expected, ulps=8)
    got, expected = both("cross", a.T, b[:, None], axisa=0, axisb=0)
    same(got, expected, ulps=8)
    t = np.arange(60).reshape(3, 4, 5)
    for off in (-2, 0, 3):
        for ax in ((0, 1), (2, 0), (-1, 1)):
            same(ma.trace(ma.asarray(t), off, *ax), np.trace(t, off, *ax))
            same(ma.diagonal(ma.asarray(t), off, *ax), np.diagonal(t, off, *ax))
    for mode in ("full", "same", "valid"):
        for sa, sb in ((5, 3), (2, 6), (1, 1), (4, 4)):
            got, expected = both("convolve", np.arange(sa, dtype=np.int32) - 2, np.arange(sb) * 1.5, mode=mode)
            same(got, expected, ulps=8)
            got, expected = both("convolve", np.arange(sa), np.arange(sb), mode=mode)
            same(got, expected)


# ---- sets, searching, counting, indexing --------------------------------------------

@SETTINGS
@given(pair=array_pairs(dtypes=["int8", "int64", "uint32", "float32", "float64"], max_dims=2, max_side=8,
                        kind="special"), data=st.data())
def test_sets_match_numpy(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, _x = pair
    if a.dtype.kind != "f":  # few distinct values, so they repeat
        a = (a % 5).astype(a.dtype)
    got, expected = both("unique", a, return_index=True, return_inverse=True, return_counts=True)
    same(got[0], expected[0])
    same(got[3], expected[3].astype(np.int64))
    same(got[2], expected[2].astype(np.int64))
    np.testing.assert_array_equal(np.asarray(got[0])[np.asarray(got[2])], a)
    other = values(np.random.default_rng(data.draw(st.integers(0, 99))), str(a.dtype), (5,), "special")
    if a.dtype.kind != "f":
        other = (other % 5).astype(a.dtype)
    for fn in ("intersect1d", "union1d", "setdiff1d", "setxor1d"):
        got, expected = both(fn, a, other)
        same(got, expected)
    for invert in (False, True):
        got, expected = both("isin", a, other, invert=invert)
        same(got, expected)


def test_searching_and_counting_match_numpy() -> None:
    rng = np.random.default_rng(4)
    a = rng.integers(0, 3, (4, 5))
    for fn in ("argwhere", "flatnonzero"):
        got, expected = both(fn, a)
        same(got, expected.astype(np.int64))
    same(ma.argwhere(ma.asarray(0)), np.argwhere(np.array(0)).astype(np.int64))
    same(ma.extract(ma.asarray(a > 0), ma.asarray(a)), np.extract(a > 0, a))
    v = rng.integers(0, 9, 40)
    for kw in ({}, {"minlength": 12}, {"weights": rng.random(40)}):
        got, expected = both("bincount", v, **kw)
        same(got, expected, ulps=8)
    f = rng.standard_normal(50)
    for kw in ({}, {"bins": 7}, {"bins": [-2, -1, 0, 0.5, 3]}, {"range": (-1, 1)}, {"density": True},
               {"weights": rng.random(50)}, {"bins": 3, "range": (0.0, 0.0)}):
        got, expected = both("histogram", f, **kw)
        same(got, expected, ulps=8)
    for bins in ([0.0, 0.5, 1.5], [1.5, 0.5, 0.0]):
        for right in (False, True):
            got, expected = both("digitize", f, bins, right=right)
            same(got, expected.astype(np.int64))
    got, expected = both("lexsort", (v % 3, v % 2))
    same(got, expected)


def test_index_routines_match_numpy() -> None:
    same(ma.unravel_index(ma.asarray([0, 7, 23]), (2, 3, 4)), np.unravel_index([0, 7, 23], (2, 3, 4)))
    for mode in ("raise", "wrap", "clip"):
        idx = ([1, 0], [2, 5]) if mode != "raise" else ([1, 0], [2, 3])
        same(ma.ravel_multi_index(idx, (2, 4), mode=mode), np.ravel_multi_index(idx, (2, 4), mode=mode))
    for fn in ("tril_indices", "triu_indices"):
        for n, k, m in ((3, 0, None), (4, -1, 2), (2, 3, 5)):
            got, expected = both(fn, n, k, m)
            same(got, expected)
    a = np.arange(20.0).reshape(4, 5)
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
        ("put", ([0, 7, -1], [9.0, 8.0]), {}), ("put", ([3, 3], [1.0, 2.0]), {}),
        ("put", ([25, -30], [5.0]), {"mode": "wrap"}), ("put", ([25, -30], [5.0]), {"mode": "clip"}),
        ("place", (a > 12, [0.5, 1.5]), {}), ("put_along_axis", (np.array([[0], [4], [2], [1]]), -1.0, 1), {}),
        ("copyto", (np.arange(5.0),), {}), ("copyto", (np.arange(5),), {"where": a > 4}),
    ]
    for fn, args, kw in calls:
        y, x = a.copy(), ma.asarray(a.copy())
        getattr(np, fn)(y, *args, **kw)
        getattr(ma, fn)(x, *[ma.asarray(v) if isinstance(v, np.ndarray) else v for v in args],
                        **{k: ma.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()})
        same(x, y)
    with pytest.raises(TypeError, match="same_kind"):
        ma.copyto(ma.zeros(3, dtype=ma.int32), ma.ones(3))
    mask = [True, False, True, False, False]
    same(ma.asarray(a)[ma.ix_([0, 3], mask)], a[np.ix_([0, 3], mask)])
    got, expected = both("select", [a < 3, a > 15], [a, -a], 0.5)
    same(got, expected)
    got, expected = both("compress", [0, 1, 1, 0, 1], a, 1)
    same(got, expected)


# ---- creation, logic, mathematics ---------------------------------------------------------

def test_constructors_match_numpy() -> None:
    same(ma.array([[1, 2], [3, 4]], ma.float32, ndmin=4), np.array([[1, 2], [3, 4]], np.float32, ndmin=4))
    x = ma.arange(3)
    assert ma.array(x) is not x and ma.array(x, copy=None) is x
    for k in (-2, 0, 1):
        for v in (np.arange(3), np.arange(12).reshape(3, 4), np.arange(12.0).reshape(4, 3)):
            got, expected = both("diag", v, k)
            same(got, expected)
        got, expected = both("tri", 3, 5, k, np.int8)
        same(got, expected)
        got, expected = both("diagflat", np.arange(4).reshape(2, 2), k)
        same(got, expected)
    for args in ((0, 2, 5), (-1, 1, 4, False), (2, 3, 3, True, 2.0)):
        got, expected = both("logspace", *args)
        same(got, expected, ulps=4)
    for args in ((1, 1000, 4), (-1, -1e4, 5), (2, 5, 7, False)):
        got, expected = both("geomspace", *args)
        same(got, expected, ulps=4)
    same(ma.identity(3, ma.int8), np.identity(3, np.int8))
    same(ma.indices((3, 1, 2), ma.int32), np.indices((3, 1, 2), np.int32))
    same(ma.fromfunction(lambda i, j: i - j, (3, 2), dtype=ma.int16),
         np.fromfunction(lambda i, j: i - j, (3, 2), dtype=np.int16))
    for key in (np.s_[0:4, 1:3], np.s_[-1:1:5j, 0:3], np.s_[0:2:0.5], np.s_[0:1:4j]):
        same(ma.mgrid[key], np.mgrid[key])
    same(ma.ogrid[0:3, 0:4:2], np.ogrid[0:3, 0:4:2])
    t = ma.asarray(np.arange(12.0).reshape(3, 4)).T
    same(ma.copy(t).strides, np.copy(np.arange(12.0).reshape(3, 4).T).strides)


@SETTINGS
@given(pair=array_pairs(dtypes=["float32", "float64", "int32"], max_dims=2, kind="special"))
def test_logic_matches_numpy(pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    b = a + (a.dtype.type(1e-6) if a.dtype.kind == "f" else 0)
    for kw in ({}, {"equal_nan": True}, {"rtol": 0.0, "atol": 1e-3}):
        got, expected = both("isclose", a, b, **kw)
        same(got, expected)
        assert ma.allclose(x, ma.asarray(b), **kw) == np.allclose(a, b, **kw)
    for eq in (False, True):
        assert ma.array_equal(x, ma.asarray(a.copy()), equal_nan=eq) == np.array_equal(a, a.copy(), equal_nan=eq)
    assert ma.array_equal(x, ma.ones((7,))) == np.array_equal(a, np.ones(7))
    assert ma.array_equiv(x, ma.asarray(a[None])) == np.array_equiv(a, a[None])
    if a.dtype.kind == "f":
        for fn in ("isposinf", "isneginf", "iscomplex", "isreal"):
            got, expected = both(fn, a)
            same(got, expected)


def test_isclose_with_scalars_and_infinities() -> None:
    a = np.array([1.0, np.inf, -np.inf, np.nan, 1e10])
    for b in (1.0, np.inf, np.array([1.0 + 1e-9, np.inf, np.inf, np.nan, 1.0001e10])):
        got, expected = both("isclose", a, b)
        same(got, expected)
    assert ma.isclose(1, 1.0000001).item() is True and ma.isscalar(2.0) and not ma.isscalar(ma.asarray(2.0))


MATH_UNARY = ["deg2rad", "rad2deg", "degrees", "radians", "exp2", "fabs", "sinc", "fix", "rint", "cbrt",
              "nan_to_num", "angle"]
MATH_BINARY = ["fmax", "fmin", "fmod", "float_power", "heaviside", "logaddexp2", "divmod"]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "int8", "uint8"])
def test_math_matches_numpy(dtype: str) -> None:
    rng = np.random.default_rng(9)
    a = values(rng, dtype, (4, 6), "special" if dtype.startswith("float") else "any")
    b = values(rng, dtype, (6,), "any")
    if dtype.startswith("u"):
        a %= 20
    for fn in MATH_UNARY:
        got, expected = both(fn, a)
        same(got, expected, ulps=8)
    for fn in MATH_BINARY:
        if fn == "float_power" and dtype.startswith("int"):
            b2 = np.abs(b) % 4
        else:
            b2 = b
        if fn in ("fmod", "divmod") and not dtype.startswith("float"):
            b2 = np.where(b2 == 0, 3, b2).astype(dtype)  # NumPy warns on integer division by zero
        a2 = a
        if fn == "divmod" and dtype.startswith("float"):
            # divmod is minarray's // and %: inf // 2 is the standard's inf
            # (Array API 2025.12), where NumPy gives NaN
            a2 = np.where(np.isinf(a), 1.5, a).astype(dtype)
        got, expected = both(fn, a2, b2)
        same(got, expected, ulps=8)


def test_gradient_trapezoid_interp_cov_match_numpy() -> None:
    rng = np.random.default_rng(6)
    a = rng.standard_normal((5, 6))
    for args, kw in (((), {}), ((0.5,), {}), ((2.0,), {"axis": 1}), ((1.0, 3.0), {"edge_order": 2}),
                     ((), {"axis": (1,)})):
        got, expected = both("gradient", a, *args, **kw)
        same(got, expected, ulps=64)
    same(ma.gradient(ma.arange(6) ** 2), np.gradient(np.arange(6) ** 2))
    for kw in ({}, {"dx": 0.5}, {"axis": 0}, {"x": np.cumsum(rng.random(6))}, {"x": np.cumsum(rng.random((5, 6)), 1)}):
        got, expected = both("trapezoid", a, **kw)
        same(got, expected, ulps=64)
    xp = np.cumsum(rng.random(8))
    fp = rng.standard_normal(8)
    xs = np.concatenate([[xp[0] - 1, xp[0], xp[-1], xp[-1] + 1, np.nan], rng.uniform(xp[0], xp[-1], 20)])
    for kw in ({}, {"left": -5.0, "right": 5.0}):
        got, expected = both("interp", xs, xp, fp, **kw)
        same(got, expected, ulps=64)
    for kw in ({}, {"rowvar": False}, {"bias": True}, {"ddof": 2}, {"y": rng.standard_normal((2, 6))}):
        got, expected = both("cov", a, **kw)
        same(got, expected, ulps=64)
        if "bias" not in kw and "ddof" not in kw:
            got, expected = both("corrcoef", a, **kw)
            same(got, expected, ulps=64)
    got, expected = both("ediff1d", a, to_end=[1, 2])
    same(got, expected)


def test_integer_and_float_decomposition_match_numpy() -> None:
    rng = np.random.default_rng(8)
    for dtype in ("int8", "int32", "int64", "uint16"):
        top = 10 if dtype == "int8" else 50  # lcm overflows int8 otherwise (NumPy and minarray wrap differently)
        a, b = rng.integers(-top, top, (3, 7)), rng.integers(-top, top, 7)
        if dtype.startswith("u"):
            a, b = np.abs(a), np.abs(b)
        a, b = a.astype(dtype), b.astype(dtype)
        for fn in ("gcd", "lcm"):
            got, expected = both(fn, a, b)
            same(got, expected)
    f = np.array([-3.5, 2.25, 0.0, -0.0, np.inf, -np.inf, np.nan, 1e30])
    for dtype in ("float64", "float32", "int16"):
        got, expected = both("modf", f.astype(dtype) if dtype != "int16" else np.arange(-3, 4, dtype=dtype))
        same(got, expected)
        got, expected = both("ldexp", np.arange(-3, 4).astype(dtype), np.arange(-3, 4))
        same(got, expected)
    p = np.cumsum(rng.uniform(-4, 4, (3, 20)), axis=1)
    for kw in ({}, {"axis": 0}, {"discont": 4.0}, {"period": 6.0}):
        got, expected = both("unwrap", p, **kw)
        same(got, expected, ulps=64)


def test_more_constructors_and_editing_match_numpy() -> None:
    for x, kw in (([1, 2, 3], {}), (np.array([1.5, -2.0]), {"N": 4, "increasing": True}), (np.arange(4), {"N": 0})):
        got, expected = both("vander", x, **kw)
        same(got, expected)
    buf = np.arange(10, dtype=np.int32).tobytes()
    for kw in ({"dtype": np.int32}, {"dtype": np.int16, "count": 3, "offset": 4}, {"dtype": np.uint8}):
        ma_kw = {k: getattr(ma, np.dtype(v).name) if k == "dtype" else v for k, v in kw.items()}
        same(ma.frombuffer(buf, **ma_kw), np.frombuffer(buf, **kw))
    assert not ma.frombuffer(buf, dtype=ma.int32).flags.writeable
    same(ma.fromiter((i * i for i in range(6)), dtype=ma.int64, count=4),
         np.fromiter((i * i for i in range(6)), dtype=np.int64, count=4))
    for shape in ((2, 4), 7, (0,), (3, 0)):
        got, expected = both("resize", np.arange(5), shape)
        same(got, expected)
    for trim in ("fb", "f", "b"):
        got, expected = both("trim_zeros", np.array([0, 0, 1, 0, 2, 0]), trim)
        same(got, expected)
    same(ma.trim_zeros(ma.zeros(3)), np.trim_zeros(np.zeros(3)))
    choices = [np.arange(4), np.arange(4) * 10, -np.arange(4)]
    for mode, idx in (("raise", [2, 0, 1, 1]), ("wrap", [5, -1, 3, 0]), ("clip", [5, -1, 3, 0])):
        got, expected = both("choose", np.array(idx), choices, mode=mode)
        same(got, expected)
    got, expected = both("choose", np.array([[0], [1]]), choices)
    same(got, expected)


def test_inspection_and_dtypes_match_numpy() -> None:
    for obj in ([[1, 2, 3]], np.ones((2, 0, 3)), 5.0):
        assert ma.shape(obj) == np.shape(obj) and ma.ndim(obj) == np.ndim(obj) and ma.size(obj) == np.size(obj)
    assert ma.size(np.ones((2, 3, 4)), (0, 2)) == 8
    names = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float16", "float32", "float64", "complex64", "complex128"]
    for x in names:
        for y in names:
            assert ma.promote_types(x, y).name == np.promote_types(x, y).name, (x, y)


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
    r = np.median(x, axis=0, overwrite_input=True)  # an option minarray's median does not take
    assert isinstance(r, np.ndarray)
    r = np.median(x.copy(), 0, out)  # out= positionally: NumPy computes, into out
    assert r is out
    np.testing.assert_array_equal(out, np.median(np.asarray(x), 0))


# ---- histogram sizes past int64 ---------------------------------------------------------

SIZES_TOO_LARGE = {
    "histogram bins 2**62": (lambda m: m.histogram(m.asarray([1.0, 2.0]), bins=2**62), "too large"),
    "histogram bins 2**40": (lambda m: m.histogram(m.asarray([1.0, 2.0]), bins=2**40), "unable to allocate"),
    "histogram bins 2**64": (lambda m: m.histogram(m.asarray([1.0, 2.0]), bins=2**64), "does not fit in 64 bits"),
    "bincount minlength 2**62": (lambda m: m.bincount(m.asarray([1]), minlength=2**62), "too large"),
    "bincount minlength past int64": (lambda m: m.bincount(m.asarray([1]), minlength=2**63),
                                      "does not fit in a 64-bit integer"),
}


@pytest.mark.parametrize("case", SIZES_TOO_LARGE.values(), ids=SIZES_TOO_LARGE.keys())
def test_histogram_sizes_past_int64_raise_as_numpy(case: tuple[Any, str]) -> None:
    call, match = case
    raises_as_numpy(call, match)


def test_histogram_bins_2_63_is_value_error() -> None:
    """NumPy's IndexError here comes from an empty linspace (its arange
    misreads 2**63); minarray refuses the shape."""
    with pytest.raises(ValueError, match="does not fit in 64 bits"):
        ma.histogram(ma.asarray([1.0, 2.0]), bins=2**63)
