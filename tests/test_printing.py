"""Printing under NumPy's print options: ``array2string``, ``array_repr``,
``array_str``, ``repr``/``str`` under ``printoptions``, the options
themselves, and ``format_float_positional``/``format_float_scientific``,
each against NumPy's output character for character.  (The default
options' repr and str are tests/test_repr.py's.)"""

from __future__ import annotations

import math
import sys
import threading
import warnings
from typing import Any

import numpy as np
import pytest
from array_strategies import NP_DTYPES, examples, np_dtype, shapes
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy_oracle import prints_like_current

import minarray as ma

FLOAT_TYPES = {"float16": np.float16, "float32": np.float32, "float64": np.float64}


def _values(kind: str) -> st.SearchStrategy[Any]:
    tidy = st.builds(lambda m, s: m * s, st.integers(-999, 999).map(lambda k: k / 8),
                     st.sampled_from([1e-9, 1e-5, 1e-3, 1.0, 10.0, 1e3, 1e7]))
    special = st.sampled_from([0.0, -0.0, math.inf, -math.inf, math.nan])
    return st.one_of(tidy, special, st.floats(-1e30, 1e30))


@st.composite
def arrays(draw: st.DrawFn) -> np.ndarray:
    d = draw(st.sampled_from(NP_DTYPES))
    shape = draw(shapes(max_dims=3, max_side=7, max_size=120))
    if d.kind in "fc":
        elements: Any = _values("f")
        if d.kind == "c":
            elements = st.builds(complex, elements, elements)
    else:
        elements = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return draw(hnp.arrays(np_dtype(d), shape, elements=elements))


OPTIONS = st.fixed_dictionaries({}, optional={
    "precision": st.integers(0, 10),
    "threshold": st.sampled_from([0, 5, 20, 1000]),
    "edgeitems": st.integers(1, 4),
    "linewidth": st.sampled_from([10, 30, 75, 120]),
    "suppress": st.booleans(),
    "nanstr": st.sampled_from(["nan", "NaN", "-"]),
    "infstr": st.sampled_from(["inf", "Infinity"]),
    "sign": st.sampled_from(["-", "+", " "]),
    "floatmode": st.sampled_from(["fixed", "unique", "maxprec", "maxprec_equal"]),
    "legacy": st.sampled_from([False, "1.13", "1.21", "1.25", "2.1", "2.2"]),
})


def _text(make: Any) -> str:
    """The text, or the error's type and message (where NumPy refuses an
    option for an array, as ``floatmode='unique'`` under ``legacy='1.13'``)."""
    try:
        return str(make())
    except (TypeError, ValueError) as e:
        return f"{type(e).__name__}: {e}"


def _same(arr: np.ndarray, options: dict[str, Any]) -> None:
    x = ma.asarray(arr, copy=True)
    with np.printoptions(**options), ma.printoptions(**options):
        if options.get("legacy", False) is not False or prints_like_current(arr):
            assert _text(lambda: repr(x)) == _text(lambda: repr(arr)), f"\nminarray:\n{x!r}\nnumpy:\n{arr!r}"
            assert _text(lambda: str(x)) == _text(lambda: str(arr)), f"\nminarray:\n{x!s}\nnumpy:\n{arr!s}"
        assert (_text(lambda: ma.array2string(x, separator=", ", prefix="  "))
                == _text(lambda: np.array2string(arr, separator=", ", prefix="  ")))


@examples(200)
@given(arrays(), OPTIONS)
def test_printing_under_options_matches_numpy(arr: np.ndarray, options: dict[str, Any]) -> None:
    with np.errstate(all="ignore"):
        arr = arr.copy()
    _same(arr, options)


def _float32_scientific() -> list[np.ndarray]:
    """float32 arrays printed in the scientific layout, whose longest
    shortest text has each length from 1 to 9 digits (the search for it
    reads the values in blocks of 256: arrays longer than one block)."""
    rng = np.random.default_rng(7)
    out = [rng.standard_normal(700).astype(np.float32) * np.float32(1e-3),
           np.array([1e-5, 2.0, -3e6, 0.0, -0.0], dtype=np.float32),
           np.array([1.5e-5, 2.25, np.inf, np.nan, -4e6], dtype=np.float32)]
    for digits in range(1, 9):
        v = np.round(rng.uniform(1, 10, 600), digits - 1) * 10.0 ** rng.integers(-6, 6, 600)
        out.append(v.astype(np.float32))
    return out


@pytest.mark.parametrize("options", [{}, {"precision": 3}, {"precision": 0}, {"sign": "+"}, {"sign": " "},
                                     {"floatmode": "unique"}, {"floatmode": "maxprec_equal"},
                                     {"floatmode": "fixed"}], ids=str)
def test_float32_scientific_in_full_matches_numpy(options: dict[str, Any]) -> None:
    for arr in _float32_scientific():
        _same(arr, {**options, "threshold": 10_000})


@pytest.mark.parametrize("kwargs", [
    {"precision": 3}, {"precision": 2, "suppress_small": True}, {"max_line_width": 20},
    {"threshold": 3, "edgeitems": 1}, {"sign": "+"}, {"sign": " "}, {"floatmode": "fixed", "precision": 4},
    {"floatmode": "maxprec_equal"}, {"floatmode": "unique"}, {"separator": "; ", "prefix": "xy", "suffix": "!"},
    {"formatter": {"float": lambda v: f"<{v:.2f}>"}}, {"formatter": {"all": lambda v: "A"}},
    {"formatter": {"float_kind": lambda v: f"{v:.1f}", "int": hex}},
    {"formatter": {"complexfloat": lambda v: f"{v.real:.1f}|{v.imag:.1f}"}},
    {"formatter": {"bool": lambda v: "T" if v else "F"}},
    {"formatter": {"float": lambda v: f"a\nb{v:.0f}"}},
], ids=lambda kw: ",".join(sorted(kw)) + ":" + ",".join(str(v) for v in kw.values() if not callable(v)
                                                          and not isinstance(v, dict)))
@pytest.mark.parametrize("arr", [
    np.array([1.123456789, 1000.5, 1e-5]), np.arange(30.0).reshape(5, 6) / 7, np.array([1e-20, 1.0, -2.5]),
    np.array([1 + 2j, np.nan - 1j, 3.25j]), np.arange(-5, 25, dtype=np.int16), np.array([True, False, True]),
    np.array([0.1, 0.25, np.inf, -np.inf], dtype=np.float32), np.linspace(0, 1, 7).reshape(7, 1, 1),
], ids=lambda a: f"{a.dtype}{a.shape}")
def test_array2string_arguments(arr: np.ndarray, kwargs: dict[str, Any]) -> None:
    if "formatter" in kwargs and not prints_like_current(arr):
        pytest.skip("NumPy before 2.3 picks other float digits")
    assert ma.array2string(ma.asarray(arr), **kwargs) == np.array2string(arr, **kwargs)


@pytest.mark.parametrize("kwargs", [{}, {"precision": 2}, {"max_line_width": 25}, {"suppress_small": True}],
                         ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()) or "defaults")
@pytest.mark.parametrize("arr", [np.array([1e-9, 3.14159265, 42.0]), np.arange(12, dtype=np.int8).reshape(3, 4),
                                 np.array(2.5), np.zeros((0, 2), dtype=np.float32), np.arange(2000.0)],
                         ids=lambda a: f"{a.dtype}{a.shape}")
def test_array_repr_and_array_str(arr: np.ndarray, kwargs: dict[str, Any]) -> None:
    x = ma.asarray(arr)
    assert ma.array_repr(x, **kwargs) == np.array_repr(arr, **kwargs)
    assert ma.array_str(x, **kwargs) == np.array_str(arr, **kwargs)


def test_the_corpus_example_and_the_nested_printoptions() -> None:
    x = ma.asarray([1.123456789, 1000.5, 1e-5])
    with ma.printoptions(precision=3, suppress=True):
        assert str(x) == "[   1.123 1000.5      0.   ]"
        with ma.printoptions(threshold=10, edgeitems=2):
            assert str(ma.arange(100)) == "[ 0  1 ... 98 99]"
            assert ma.get_printoptions()["precision"] == 3
        assert ma.get_printoptions()["threshold"] == 1000
    assert str(x) == "[1.12345679e+00 1.00050000e+03 1.00000000e-05]"


def test_get_printoptions_has_numpys_keys_and_defaults() -> None:
    assert ma.get_printoptions() == np.get_printoptions()
    with ma.printoptions(legacy="2.1", precision=4) as opts, np.printoptions(legacy="2.1", precision=4) as np_opts:
        assert opts == np_opts == ma.get_printoptions()


def test_set_printoptions_persists_and_resets_formatter() -> None:
    before = ma.get_printoptions()
    try:
        ma.set_printoptions(precision=2, formatter={"int": lambda v: "i"})
        assert str(ma.asarray([1, 2])) == "[i i]"
        assert str(ma.asarray([0.125])) == "[0.12]"
        ma.set_printoptions(linewidth=80)  # formatter is reset by every call, as in NumPy
        assert str(ma.asarray([1, 2])) == "[1 2]"
        assert ma.get_printoptions()["precision"] == 2
    finally:
        ma.set_printoptions(**{k: v for k, v in before.items()})
    assert ma.get_printoptions() == before


BAD_OPTIONS = [
    {"precision": 1.5}, {"precision": "3"}, {"threshold": "a"}, {"threshold": math.nan},
    {"floatmode": "x"}, {"sign": "x"}, {"sign": True},
]


@pytest.mark.parametrize("kwargs", BAD_OPTIONS, ids=lambda kw: ",".join(f"{k}={v!r}" for k, v in kw.items()))
def test_bad_options_raise_as_numpy(kwargs: dict[str, Any]) -> None:
    with pytest.raises(Exception) as want:
        np.set_printoptions(**kwargs)
    before = ma.get_printoptions()
    with pytest.raises(type(want.value), match=str(want.value).split(",")[0]):
        ma.set_printoptions(**kwargs)
    with pytest.raises(type(want.value)):
        ma.array2string(ma.asarray([1.0]), **{"max_line_width" if k == "linewidth" else k: v
                                               for k, v in kwargs.items() if k not in ("nanstr", "infstr")})
    assert ma.get_printoptions() == before  # nothing half set


def test_bad_precision_at_print_and_unknown_legacy_warns() -> None:
    with np.printoptions(precision=-1), ma.printoptions(precision=-1):
        with pytest.raises(ValueError, match="precision must be >= 0"):
            repr(np.array([1.5]))
        with pytest.raises(ValueError, match="precision must be >= 0"):
            repr(ma.asarray([1.5]))
    with pytest.warns(UserWarning, match="legacy printing option"):
        ma.set_printoptions(legacy="1.0")
    assert ma.get_printoptions()["legacy"] is False
    with pytest.raises(TypeError):
        ma.set_printoptions(formatter=3)
    with pytest.raises(TypeError):
        ma.set_printoptions(override_repr=3)
    ma.set_printoptions()


def test_printoptions_restores_on_exception() -> None:
    before = ma.get_printoptions()
    with pytest.raises(RuntimeError), ma.printoptions(precision=1, threshold=3):
        assert str(ma.asarray([0.25, 1.0])) == "[0.2 1. ]"
        raise RuntimeError
    assert ma.get_printoptions() == before


def test_override_repr_and_legacy_shape() -> None:
    with ma.printoptions(override_repr=lambda a: f"<{a.shape}>"):
        assert repr(ma.zeros((2, 3))) == "<(2, 3)>"
    big = np.arange(2000.0)
    with np.printoptions(legacy="2.1"), ma.printoptions(legacy="2.1"):
        assert repr(ma.asarray(big)) == repr(big)
        assert "shape=" not in repr(ma.asarray(big))


def test_each_thread_prints_with_its_own_options() -> None:
    """Two threads inside different ``printoptions`` blocks at the same
    time: each prints with its own (a context variable, as NumPy 2's)."""
    x = ma.asarray([1 / 3, 2 / 3])
    inside = threading.Barrier(2)
    printed = threading.Barrier(2)
    out: dict[int, str] = {}

    def work(precision: int) -> None:
        with ma.printoptions(precision=precision):
            inside.wait()  # both blocks are entered before either prints
            out[precision] = str(x)
            printed.wait()  # neither leaves before both have printed

    threads = [threading.Thread(target=work, args=(p,)) for p in (2, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == {2: "[0.33 0.67]", 5: "[0.33333 0.66667]"}
    assert str(x) == "[0.33333333 0.66666667]"


def test_a_new_thread_starts_from_the_defaults() -> None:
    seen: list[int] = []
    with ma.printoptions(precision=2):
        t = threading.Thread(target=lambda: seen.append(ma.get_printoptions()["precision"]))
        t.start()
        t.join()
    assert seen == [8]


# ---- one float as text ------------------------------------------------------

FLOAT_KWARGS = [
    {}, {"precision": 3}, {"precision": 8, "trim": "."}, {"precision": 4, "unique": False},
    {"precision": 5, "unique": False, "trim": "-"}, {"min_digits": 6}, {"precision": 10, "min_digits": 10},
    {"trim": "0"}, {"trim": "-"}, {"sign": True, "pad_left": 5}, {"precision": 0, "unique": False},
    {"min_digits": 0}, {"precision": 2, "min_digits": 0, "trim": "."},
]


@examples(300)
@given(st.sampled_from(list(FLOAT_TYPES)), st.floats(allow_nan=False, allow_infinity=False, width=16)
       | st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(FLOAT_KWARGS))
def test_format_float_matches_numpy(ftype: str, value: float, kwargs: dict[str, Any]) -> None:
    with np.errstate(all="ignore"):
        v = FLOAT_TYPES[ftype](value)
    x = ma.asarray(v)
    assert ma.format_float_scientific(x, **kwargs) == np.format_float_scientific(v, **kwargs)
    kw = {**kwargs, "pad_right": 4} if "pad_left" in kwargs else kwargs
    assert ma.format_float_positional(x, **kw) == np.format_float_positional(v, **kw)
    if kwargs.get("precision", 1) > 0:
        kw = {**kw, "fractional": False}
        assert ma.format_float_positional(x, **kw) == np.format_float_positional(v, **kw)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf], ids=str)
@pytest.mark.parametrize("sign", [False, True])
def test_format_float_nonfinite(value: float, sign: bool) -> None:
    assert ma.format_float_positional(value, sign=sign) == np.format_float_positional(value, sign=sign)
    assert ma.format_float_scientific(value, sign=sign) == np.format_float_scientific(value, sign=sign)


@pytest.mark.parametrize("kwargs", [{"precision": -1}, {"pad_left": -2}, {"min_digits": 5, "precision": 2},
                                    {"unique": False}, {"precision": 0, "fractional": False}],
                         ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()))
def test_format_float_bad_arguments(kwargs: dict[str, Any]) -> None:
    with pytest.raises((ValueError, TypeError)) as want:
        np.format_float_positional(1.5, **kwargs)
    with pytest.raises(type(want.value), match=str(want.value)[:20]):
        ma.format_float_positional(1.5, **kwargs)


# ---- bfloat16 and the storage types, as NumPy prints them with ml_dtypes ----

def _ml_pairs() -> list[tuple[str, list[float]]]:
    return [
        ("bfloat16", [0.1, 1 / 3, 1e10, 1e-10, 99840.0, 3.0, -0.0, math.nan, -math.inf]),
        ("bfloat16", [float(v) for v in range(-20, 2000, 7)]),
        ("float8_e4m3fn", [0.5, 1.5, 448.0, -0.1015625]),
        ("float8_e5m2", [0.25, -3.0, 57344.0, math.inf]),
        ("int4", [3.0, -2.0, 7.0]),
        ("uint2", [1.0, 0.0, 3.0]),
    ]


@pytest.mark.parametrize(("name", "values"), _ml_pairs(), ids=lambda v: v if isinstance(v, str) else str(len(v)))
@pytest.mark.parametrize("shape", ["flat", "0-d", "2-d"])
def test_ml_dtypes_print_as_numpy_prints_them(name: str, values: list[float], shape: str) -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is optional: it gives NumPy bfloat16 and float8")
    kind = getattr(ml_dtypes, name)
    ref = np.array(values).astype(kind)
    if shape == "0-d":
        ref = ref[:1].reshape(())
    elif shape == "2-d" and ref.size % 2 == 0:
        ref = ref.reshape(2, -1)
    x = ma.asarray(np.array(ref.astype(np.float64)), dtype=getattr(ma, name))
    assert repr(x) == repr(ref)
    assert str(x) == str(ref)
    with ma.printoptions(formatter={"all": lambda v: "A"}), np.printoptions(formatter={"all": lambda v: "A"}):
        assert repr(x) == repr(ref)


def test_module_state_is_untouched() -> None:
    # the suite's other tests rely on the defaults: none of the above leaks
    assert ma.get_printoptions() == np.get_printoptions()
    assert sys.maxsize > 0


# ---- finfo and iinfo print as NumPy's -----------------------------------------

@pytest.mark.parametrize("name", ["float16", "float32", "float64", "complex64"])
def test_finfo_prints_as_numpys(name: str) -> None:
    f, n = ma.finfo(getattr(ma, name)), np.finfo(name)
    assert repr(f) == repr(n)
    assert str(f) == str(n)
    for attr in ("eps", "max", "min", "smallest_normal", "tiny", "resolution"):
        value, want = getattr(f, attr), getattr(n, attr)
        assert isinstance(value, float) and value == float(want), attr
        assert str(value) == str(want) and repr(value) == repr(want), attr
        assert type(value * 2) is float  # arithmetic gives plain floats
    assert f"{f.max:.3e}" == f"{float(n.max):.3e}"


def test_finfo_limits_pickle_and_bfloat16_prints_as_ml_dtypes() -> None:
    import pickle

    f = ma.finfo(ma.float32)
    assert repr(pickle.loads(pickle.dumps(f.max))) == "np.float32(3.4028235e+38)"
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is optional: it gives NumPy bfloat16 and float8")
    b, m = ma.finfo(ma.bfloat16), ml_dtypes.finfo(ml_dtypes.bfloat16)
    for attr in ("eps", "max", "min", "smallest_normal"):
        assert str(getattr(b, attr)) == str(getattr(m, attr)), attr


@pytest.mark.parametrize("name", ["int8", "uint8", "int32", "int64", "uint64"])
def test_iinfo_prints_as_numpys(name: str) -> None:
    i, n = ma.iinfo(getattr(ma, name)), np.iinfo(name)
    assert repr(i) == repr(n)
    assert str(i) == str(n)


# ---- one integer as text: binary_repr and base_repr ---------------------------------


def test_binary_repr_matches_numpy() -> None:
    for n in range(-300, 301):
        for width in (None, 0, 1, 2, 3, 4, 8, 9, 12):
            try:
                want = np.binary_repr(n, width)
            except ValueError as exc:
                with pytest.raises(ValueError, match=str(exc)):
                    ma.binary_repr(n, width)
                continue
            assert ma.binary_repr(n, width) == want, (n, width)
    assert ma.binary_repr(2**70) == np.binary_repr(2**70)
    assert ma.binary_repr(ma.asarray(-5), width=8) == np.binary_repr(-5, width=8)  # an index-able 0-d array
    with pytest.raises(TypeError):
        ma.binary_repr(1.5)


@pytest.mark.parametrize("base", [2, 3, 8, 10, 16, 36])
@pytest.mark.parametrize("padding", [0, 1, 3])
def test_base_repr_matches_numpy(base: int, padding: int) -> None:
    for n in (0, 1, -1, 5, -5, 35, 36, 1295, -1296, 2**70, -(2**70)):
        assert ma.base_repr(n, base, padding) == np.base_repr(n, base, padding), n


@pytest.mark.parametrize("base", [-1, 0, 1, 37])
def test_base_repr_refuses_bases_numpy_refuses(base: int) -> None:
    with pytest.raises(ValueError) as want:
        np.base_repr(5, base)
    with pytest.raises(ValueError, match=str(want.value)):
        ma.base_repr(5, base)
