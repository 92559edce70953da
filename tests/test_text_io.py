"""loadtxt, genfromtxt and savetxt against NumPy's: every keyword, the
sources (names, compressed names, paths, open files, lists of lines),
round trips both ways, savetxt's bytes, and malformed input (the same
error type and message, or the same warning and empty result)."""

from __future__ import annotations

import gzip
import io
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minarray as ma
from minarray._text_io import _fast_table

TEXT = "# station, temperature, rain\n1, 12.5, 0.0\n2, 14.0, 3.2\n\n3, 9.8, 12.1  # last\n"


def outcome(fn: Callable[[], Any]) -> tuple[str, Any, list[tuple[str, str]]]:
    """What a call gives: ("ok", value as NumPy, warnings) or ("error",
    (type name, message), warnings)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = fn()
        except Exception as e:  # the error is the result compared
            return "error", (type(e).__name__, str(e)), [(x.category.__name__, str(x.message)) for x in w]
    got = [np.asarray(a) for a in r] if isinstance(r, (list, tuple)) else np.asarray(r)
    return "ok", got, [(x.category.__name__, str(x.message)) for x in w]


def same(fn_name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """np.<fn> and ma.<fn> on the same arguments agree: value (dtype,
    shape, NaNs in place) and warnings, or error type and message."""
    want = outcome(lambda: getattr(np, fn_name)(*args, **kwargs))
    got = outcome(lambda: getattr(ma, fn_name)(*args, **kwargs))
    assert got[0] == want[0], (got, want)
    if want[0] == "error":
        assert got[1] == want[1]
    else:
        w, g = want[1], got[1]
        for a, b in zip(w if isinstance(w, list) else [w], g if isinstance(g, list) else [g], strict=True):
            assert b.dtype == a.dtype and b.shape == a.shape
            np.testing.assert_array_equal(b, a)
    assert [c for c, _ in got[2]] == [c for c, _ in want[2]]
    assert [m.replace("minarray", "numpy") for _, m in got[2]] == [m for _, m in want[2]]


LOADTXT_CASES: list[tuple[str, list[Any], dict[str, Any]]] = [
    ("corpus", TEXT.splitlines(), {"delimiter": ","}),
    ("usecols-int", TEXT.splitlines(), {"delimiter": ",", "usecols": 1}),
    ("usecols-seq", TEXT.splitlines(), {"delimiter": ",", "usecols": (2, 0, -1)}),
    ("whitespace", ["  1 2  ", "\t3\t4"], {}),
    ("one-row", ["1 2"], {}),
    ("one-col", ["1", "2"], {}),
    ("one-value", ["1"], {}),
    ("ndmin1", ["1"], {"ndmin": 1}),
    ("ndmin2-row", ["1 2"], {"ndmin": 2}),
    ("ndmin2-col", ["1", "2"], {"ndmin": 2}),
    ("ndmin3", ["1"], {"ndmin": 3}),
    ("unpack", ["1 2", "3 4", "5 6"], {"unpack": True}),
    ("unpack-usecols", ["1 2 3", "4 5 6"], {"usecols": [0, 2], "unpack": True}),
    ("skiprows", ["#x", "h", "1 2", "3 4"], {"skiprows": 2}),
    ("skiprows-counts-comments", ["#c", "1 2", "3 4"], {"skiprows": 1}),
    ("max_rows", ["1 2", "# c", "", "3 4", "5 6"], {"max_rows": 2}),
    ("max_rows-0", ["1 2"], {"max_rows": 0}),
    ("comments-seq", ["1 2 // x", "# y", "3 4"], {"comments": ["#", "//"]}),
    ("comments-none", ["1,2", "3,4"], {"delimiter": ",", "comments": None}),
    ("comments-empty", ["1 2"], {"comments": ""}),
    ("comment-is-delimiter", ["1,2"], {"delimiter": ",", "comments": ","}),
    ("semicolon", ["1;2", "3;4"], {"delimiter": ";"}),
    ("delimiter-two-chars", ["1 2"], {"delimiter": "ab"}),
    ("delimiter-newline", ["1 2"], {"delimiter": "\n"}),
    ("spaces-around", ["1, 2 ", "3 ,4"], {"delimiter": ","}),
    ("crlf", ["1 2\r\n", "3 4\n"], {}),
    ("bytes-lines", [b"1 2", b"3 4"], {}),
    ("float32", ["1.1 2", "3 4"], {"dtype": np.float32}),
    ("float16", ["1.1 2"], {"dtype": np.float16}),
    ("int", ["1 -2", "+3 4"], {"dtype": int}),
    ("int8-overflow", ["1 300"], {"dtype": np.int8}),
    ("uint-negative", ["1 -1"], {"dtype": np.uint32}),
    ("int-from-float", ["1.5 2"], {"dtype": int}),
    ("bool", ["1 0", "2 0"], {"dtype": bool}),
    ("complex", ["1+2j (3-1j) 2j 4"], {"dtype": complex}),
    ("complex64", ["1+2j 5"], {"dtype": np.complex64}),
    ("complex-upper-J", ["1+2J"], {"dtype": complex}),
    ("specials", ["inf -Infinity nan +nan 1e400 -0"], {}),
    ("exponents", ["1e5 .5 5. -1.25E-3"], {}),
    ("underscore", ["1_0 2"], {}),
    ("hex", ["0x10 2"], {}),
    ("unicode-digit", ["\u0661 2"], {}),
    ("empty-field", ["1,2,3", "4,,6"], {"delimiter": ","}),
    ("trailing-delimiter", ["1,2,"], {"delimiter": ","}),
    ("not-a-number", ["1,2,3", "4,x,6"], {"delimiter": ","}),
    ("not-a-number-usecols", ["1,2", "3,x"], {"delimiter": ",", "usecols": (1,)}),
    ("columns-changed", ["1,2,3", "4,5"], {"delimiter": ","}),
    ("columns-changed-after-comments", ["#c", "", "1,2", "#d", "3"], {"delimiter": ","}),
    ("whitespace-line-is-a-row", ["1,2", "  ", "3,4"], {"delimiter": ","}),
    ("usecols-out-of-range", ["1 2", "3 4"], {"usecols": 5}),
    ("usecols-short-row", ["1;2", "3"], {"delimiter": ";", "usecols": (1,)}),
    ("usecols-float", ["1 2"], {"usecols": 1.5}),
    ("usecols-repeat", ["1 2", "3 4"], {"usecols": (0, 0)}),
    ("converter-dict", ["1 2", "3 4"], {"converters": {0: lambda s: float(s) * 10}}),
    ("converter-negative-key", ["1 2", "3 4"], {"converters": {-1: lambda s: float(s) + 1}}),
    ("converter-callable", ["1 2", "3 4"], {"converters": lambda s: float(s) * 10}),
    ("converter-int", ["1 2"], {"dtype": int, "converters": {0: lambda s: int(s) * 2}}),
    ("converter-bad-key", ["1 2"], {"converters": {5: float}}),
    ("converter-not-callable", ["1 2"], {"converters": 3}),
    ("converter-bytes", ["1 2"], {"converters": {0: lambda s: isinstance(s, bytes)}, "encoding": "bytes"}),
    ("empty", [], {}),
    ("empty-ndmin2", ["# only a comment"], {"ndmin": 2}),
    ("empty-usecols", [], {"usecols": [0, 1]}),
    ("skiprows-negative", ["1 2"], {"skiprows": -1}),
    ("skiprows-float", ["1 2"], {"skiprows": 1.5}),
    ("max_rows-negative", ["1 2"], {"max_rows": -1}),
    ("structured", ["1 2"], {"dtype": [("a", int), ("b", int)]}),
    ("not-iterable", 5, {}),  # type: ignore[list-item]
]

# minarray's own words where NumPy's outcome is a type minarray lacks
DIFFERENT = {"structured"}


@pytest.mark.parametrize("case", [c for c in LOADTXT_CASES if c[0] not in DIFFERENT], ids=lambda c: c[0])
def test_loadtxt_as_numpy(case: tuple[str, Any, dict[str, Any]]) -> None:
    _, lines, kwargs = case
    same("loadtxt", (lines,), kwargs)


@pytest.mark.parametrize("dtype", [[("a", int), ("b", int)], "U", "S4", object])
def test_loadtxt_refuses_non_numeric_dtypes(dtype: Any) -> None:
    # minarray's one refusal of a type it lacks: the family named, NumPy pointed to
    with pytest.raises(TypeError, match=r"^loadtxt: minarray has no dtype .*use NumPy for"):
        ma.loadtxt(["1 2"], dtype=dtype)


@pytest.mark.parametrize("text", [
    "1,2,3\n4,5,6\n", "1,2,3\r\n4,5,6\r\n", "1,2,3\r4,5,6", "# h\n\n1,2 # c\n  3 ,4\n", "1.5e300,-2.25e-300\n",
    "0.1,0.2,0.30000000000000004\n", "1,2,3\n4,5\n", "1,2\n3,x\n", "1,,2\n", "nan,inf,-inf,+nan\n",
    "123456789012345678901234567890,1\n", "1e23,9007199254740993\n", "1,2,\n", "\n\n", "1 2\n",
], ids=lambda t: repr(t))
@pytest.mark.parametrize("how", ["file", "gz", "path", "stringio", "bytesio"])
def test_loadtxt_sources(tmp_path: Path, text: str, how: str) -> None:
    """Every kind of source, through the C reader where it applies."""
    name = tmp_path / ("t.csv.gz" if how == "gz" else "t.csv")
    if how == "gz":
        with gzip.open(name, "wb") as f:
            f.write(text.encode())
    else:
        name.write_bytes(text.encode())
    sources: dict[str, Callable[[], Any]] = {
        "file": lambda: str(name), "gz": lambda: str(name), "path": lambda: name,
        "stringio": lambda: io.StringIO(text.replace("\r\n", "\n").replace("\r", "\n")),
        "bytesio": lambda: io.BytesIO(text.replace("\r\n", "\n").replace("\r", "\n").encode())}
    want = outcome(lambda: np.loadtxt(sources[how](), delimiter=","))
    got = outcome(lambda: ma.loadtxt(sources[how](), delimiter=","))
    assert got[0] == want[0], (got, want)
    if want[0] == "ok":
        assert got[1].dtype == want[1].dtype and got[1].shape == want[1].shape
        np.testing.assert_array_equal(got[1], want[1])
    else:
        assert got[1] == want[1]
    assert [c for c, _ in got[2]] == [c for c, _ in want[2]]


@pytest.mark.parametrize("text, delimiter, comment", [
    (b"1,2,3\n4,5,6\n", ",", "#"), (b"1 2 3\n 4\t5  6 \n", None, "#"), (b"% c\n1;2 % x\n\n3;4\n", ";", "%"),
    (b"1.25e-3,-0,.5,5.\n", ",", None), (b"nan,-inf,Infinity,-NaN\n", ",", "#"),
    (b"0.1,2.2250738585072014e-308,4.9e-324,1.7976931348623157e308\n", ",", "#"),
    (b"12345678901234567890.5,0.000000000000000000000001\n", ",", "#"),
])
def test_c_reader_reads_as_python(text: bytes, delimiter: str | None, comment: str | None) -> None:
    """The C reader (where it takes the input) gives NumPy's table bit
    for bit, and the whole table."""
    from minarray._text_io import _Source

    markers = () if comment is None else (comment,)
    fast = _fast_table(_Source(io.BytesIO(text), None), ma.float64, delimiter, markers, 0, -1)
    assert fast is not None
    want = np.loadtxt(io.BytesIO(text), delimiter=delimiter, comments=comment, ndmin=2)
    assert fast.shape == want.shape
    assert np.asarray(fast).tobytes() == want.tobytes()


@pytest.mark.parametrize("text", [b"1,x\n", b"1,2\n3\n", b"0x10,1\n", b"1_0,1\n", b"nan(1),1\n", b"1,,2\n",
                                  b"1e,2\n", b".,2\n", b"infinit,1\n", b"1,2,\n", b"\xc2\xa01,2\n"])
def test_c_reader_hands_malformed_input_back(text: bytes) -> None:
    """What the C reader does not read as NumPy would, it leaves to the
    Python reader (None), which words NumPy's error."""
    from minarray._text_io import _Source

    assert _fast_table(_Source(io.BytesIO(text), None), ma.float64, ",", ("#",), 0, -1) is None


def test_c_reader_skiprows_and_max_rows() -> None:
    from minarray._text_io import _Source

    text = b"h1\n# c\n1,2\n3,4 # x\n5,6\n"
    fast = _fast_table(_Source(io.BytesIO(text), None), ma.float64, ",", ("#",), 2, 2)
    assert fast is not None
    # a line without data while max_rows counts: NumPy warns, so Python reads it
    assert _fast_table(_Source(io.BytesIO(b"1,2\n\n3,4\n"), None), ma.float64, ",", ("#",), 0, 2) is None
    np.testing.assert_array_equal(np.asarray(fast), np.loadtxt(io.BytesIO(text), delimiter=",", skiprows=2,
                                                                max_rows=2))


def test_loadtxt_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        ma.loadtxt(str(tmp_path / "absent.txt"))


def test_loadtxt_latin1_file(tmp_path: Path) -> None:
    """A non-UTF-8 encoding decodes the file before reading."""
    p = tmp_path / "t.txt"
    p.write_bytes("# caf\xe9\n1 2\n".encode("latin-1"))
    same("loadtxt", (str(p),), {"encoding": "latin-1"})
    p.write_bytes("# caf\xe9\n1 2\n".encode("utf-16"))
    same("loadtxt", (str(p),), {"encoding": "utf-16"})


# ---- round trips and savetxt's bytes -----------------------------------------------------

ARRAYS: list[tuple[str, Any]] = [
    ("f64", np.array([[1.5, -2.25e-300, 3e300], [np.nan, np.inf, -0.0]])),
    ("f32", np.array([[0.1, 2.5]], dtype=np.float32)),
    ("i64", np.array([[1, -2, 3], [4, 5, 6]])),
    ("u8", np.array([1, 2, 255], dtype=np.uint8)),
    ("bool", np.array([[True, False]])),
    ("c128", np.array([[1 + 2j, -1 - 0.5j], [0j, 3 - 4j]])),
    ("1d", np.arange(5.0)),
    ("empty", np.zeros((0, 3))),
]

SAVE_KWARGS: list[tuple[str, dict[str, Any]]] = [
    ("default", {}),
    ("fmt-one", {"fmt": "%.3f"}),
    ("fmt-g", {"fmt": "%g", "delimiter": ","}),
    ("header-footer", {"header": "a b\nc", "footer": "end", "comments": "// "}),
    ("newline", {"newline": "\r\n", "delimiter": "\t"}),
]


@pytest.mark.parametrize("kwargs", SAVE_KWARGS, ids=lambda k: k[0])
@pytest.mark.parametrize("arr", ARRAYS, ids=lambda a: a[0])
def test_savetxt_bytes_as_numpy(tmp_path: Path, arr: tuple[str, Any], kwargs: tuple[str, dict[str, Any]]) -> None:
    _, a = arr
    kw = kwargs[1]
    np.savetxt(tmp_path / "np.txt", a, **kw)
    ma.savetxt(tmp_path / "ma.txt", ma.asarray(a), **kw)
    assert (tmp_path / "ma.txt").read_bytes() == (tmp_path / "np.txt").read_bytes()


@pytest.mark.parametrize("fmt", ["%d", ["%d", "%.2f", "%s"], "%d|%.1e|%g", "%d %d", ["%d"], 5, "%s"])
def test_savetxt_fmt(fmt: Any) -> None:
    a = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int64)
    want_buf, got_buf = io.StringIO(), io.StringIO()
    want = outcome(lambda: np.savetxt(want_buf, a, fmt=fmt) or [])
    got = outcome(lambda: ma.savetxt(got_buf, ma.asarray(a), fmt=fmt) or [])
    assert got[0] == want[0] and (want[0] == "ok" or got[1] == want[1]), (got, want)
    assert got_buf.getvalue() == want_buf.getvalue()


def test_savetxt_complex_fmts() -> None:
    a = np.array([[1 + 2j, 3 - 4j]])
    for fmt in ["%.2f", "%.1f %.1f %.1f %.1f", "%.1f"]:
        want, got = io.StringIO(), io.StringIO()
        np.savetxt(want, a, fmt=fmt)
        ma.savetxt(got, ma.asarray(a), fmt=fmt)
        assert got.getvalue() == want.getvalue()


@pytest.mark.parametrize("x", [np.float64(1.0), np.zeros((2, 2, 2))], ids=["0d", "3d"])
def test_savetxt_refuses_other_ranks(x: Any) -> None:
    with pytest.raises(ValueError) as want:
        np.savetxt(io.StringIO(), x)
    with pytest.raises(ValueError) as got:
        ma.savetxt(io.StringIO(), ma.asarray(x))
    assert str(got.value) == str(want.value)


def test_savetxt_targets(tmp_path: Path) -> None:
    """A binary file, a .gz name (decompressed equal to NumPy's), a bad
    target; a list is accepted as the array."""
    a = [[1.0, 2.0], [3.0, 4.0]]
    b = io.BytesIO()
    ma.savetxt(b, a, fmt="%.1f")
    nb = io.BytesIO()
    np.savetxt(nb, a, fmt="%.1f")
    assert b.getvalue() == nb.getvalue()
    ma.savetxt(tmp_path / "a.txt.gz", a)
    np.savetxt(tmp_path / "n.txt.gz", a)
    assert gzip.decompress((tmp_path / "a.txt.gz").read_bytes()) == gzip.decompress(
        (tmp_path / "n.txt.gz").read_bytes())
    with pytest.raises(ValueError, match="fname must be a string or file handle"):
        ma.savetxt(5, a)


@pytest.mark.parametrize("arr", [a for a in ARRAYS if a[0] != "empty"], ids=lambda a: a[0])
def test_round_trips(tmp_path: Path, arr: tuple[str, Any]) -> None:
    """np.savetxt -> ma.loadtxt and ma.savetxt -> np.loadtxt."""
    _, a = arr
    dt = a.dtype
    np.savetxt(tmp_path / "np.txt", a, fmt="%d" if dt.kind in "biu" else "%.18e")
    got = ma.loadtxt(tmp_path / "np.txt", dtype=dt)
    np.testing.assert_array_equal(np.asarray(got), np.loadtxt(tmp_path / "np.txt", dtype=dt))
    ma.savetxt(tmp_path / "ma.txt", ma.asarray(a), fmt="%d" if dt.kind in "biu" else "%.18e")
    back = np.loadtxt(tmp_path / "ma.txt", dtype=dt)
    np.testing.assert_array_equal(back, np.loadtxt(tmp_path / "np.txt", dtype=dt))


# ---- genfromtxt -------------------------------------------------------------------------

GENFROMTXT_CASES: list[tuple[str, list[Any], dict[str, Any]]] = [
    ("missing-nan", ["1,2,3", "4,,6"], {"delimiter": ","}),
    ("not-a-number-nan", ["1,2,3", "4,x,6"], {"delimiter": ","}),
    ("whitespace-field", ["1,2,3", "4, ,6"], {"delimiter": ","}),
    ("missing-int", ["1,2,3", "4,,6"], {"delimiter": ",", "dtype": int}),
    ("int-from-float", ["1,2", "2.5,6"], {"delimiter": ",", "dtype": int}),
    ("missing-complex", ["1,2", "4,"], {"delimiter": ",", "dtype": complex}),
    ("bool-words", ["True false", "1 0"], {"dtype": bool}),
    ("filling-scalar", ["1,2,3", "4,,6"], {"delimiter": ",", "filling_values": 7}),
    ("filling-list", ["1,", "3,4"], {"delimiter": ",", "filling_values": [1, 5]}),
    ("filling-dict", ["1,", "3,4"], {"delimiter": ",", "filling_values": {-1: 5}}),
    ("missing-values", ["1,N/A,3", "4,5,-999"], {"delimiter": ",", "missing_values": ["N/A", "-999"],
                                                 "filling_values": 0}),
    ("missing-values-dict", ["1,N/A,3", "4,5,-999"], {"delimiter": ",", "missing_values": {1: "N/A", 2: "-999"},
                                                      "filling_values": {1: -1, 2: -2}}),
    ("columns-changed", ["1,2,3", "4,5"], {"delimiter": ","}),
    ("columns-changed-line-numbers", ["h", "#c", "", "1,2,3", "4,5", "6,7,8,9"], {"delimiter": ",",
                                                                               "skip_header": 1}),
    ("invalid-dropped", ["1,2,3", "4,5", "7,8,9"], {"delimiter": ",", "invalid_raise": False}),
    ("usecols", ["1,2,3", "4,,6"], {"delimiter": ",", "usecols": (0, 2)}),
    ("usecols-short-row", ["1,2,3", "4,5", "6"], {"delimiter": ",", "usecols": (0, 1)}),
    ("skip-header-footer", ["a b", "1 2", "3 4", "5 6"], {"skip_header": 1, "skip_footer": 1}),
    ("max_rows", ["1 2 3", "4 5 6"], {"max_rows": 1}),
    ("max_rows-and-footer", ["1 2"], {"max_rows": 1, "skip_footer": 1}),
    ("unpack", ["1 2 3", "4 5 6"], {"unpack": True}),
    ("ndmin2", ["1"], {"ndmin": 2}),
    ("ndmin3", ["1"], {"ndmin": 3}),
    ("empty", [], {}),
    ("skip-everything", ["1 2"], {"skip_header": 5}),
    ("comments", ["1 2 # c", "# x", "3 4"], {}),
    ("no-comments", ["1,2", "3,4"], {"delimiter": ",", "comments": None}),
    ("blank-lines", ["1,2", "", " ", "3,4"], {"delimiter": ","}),
    ("autostrip", ["  1, 2 ,3 "], {"delimiter": ",", "autostrip": True}),
    ("double-space", ["1  2"], {"delimiter": " "}),
    ("fixed-widths", ["123456"], {"delimiter": (1, 2, 3)}),
    ("fixed-width", ["123456"], {"delimiter": 2}),
    ("converters", ["1 2", "3 4"], {"converters": {0: lambda s: float(s) * 10}}),
    ("complex", ["1 2j 3", "4 5 6"], {"dtype": complex}),
    ("float32", ["1.1 2"], {"dtype": np.float32}),
    ("specials", ["1e400 2j 3", "inf nan -inf"], {}),
    ("infer-int", ["1 2", "3 4"], {"dtype": None}),
    ("infer-usecols", ["1 2", "3 4"], {"dtype": None, "usecols": 1}),
    ("bytes-lines", [b"1 2", b"3 4"], {}),
    ("strict-bad-number", ["1,x,3"], {"delimiter": ",", "loose": False}),
    ("strict-empty", ["1,,3"], {"delimiter": ",", "loose": False}),
    ("strict-placeholder", ["1,N/A,3"], {"delimiter": ",", "loose": False, "missing_values": "N/A"}),
    ("strict-placeholder-list", ["1,?,3"], {"delimiter": ",", "loose": False, "missing_values": ["N/A", "?"]}),
]


@pytest.mark.parametrize("case", GENFROMTXT_CASES, ids=lambda c: c[0])
def test_genfromtxt_as_numpy(case: tuple[str, Any, dict[str, Any]]) -> None:
    _, lines, kwargs = case
    same("genfromtxt", (lines,), kwargs)


@pytest.mark.parametrize("kwargs", [{"dtype": [("a", int)]}, {"names": True}, {"usemask": True},
                                    {"dtype": None, "_lines": ["1 2.5"]}, {"dtype": None, "_lines": ["1 a"]}],
                         ids=["structured", "names", "usemask", "infer-mixed", "infer-strings"])
def test_genfromtxt_refuses_structured_results(kwargs: dict[str, Any]) -> None:
    kw = dict(kwargs)
    lines = kw.pop("_lines", ["1 2"])
    with pytest.raises(TypeError, match="genfromtxt"):
        ma.genfromtxt(lines, **kw)


def test_genfromtxt_file_sources(tmp_path: Path) -> None:
    text = "# a\n1,2,3\n4,,6\n"
    (tmp_path / "t.csv").write_text(text)
    with gzip.open(tmp_path / "t.csv.gz", "wt") as f:
        f.write(text)
    for src in [str(tmp_path / "t.csv"), tmp_path / "t.csv", str(tmp_path / "t.csv.gz")]:
        same("genfromtxt", (src,), {"delimiter": ","})
    got = ma.genfromtxt(io.StringIO(text), delimiter=",")
    np.testing.assert_array_equal(np.asarray(got), np.genfromtxt(io.StringIO(text), delimiter=","))


FIELDS = st.one_of(
    st.floats(allow_nan=False).map(repr),
    st.sampled_from(["1e5", ".5", "5.", "-0", "inf", "-Infinity", "+nan", "1e400", "4.9e-324",
                     "123456789012345678901", "0.30000000000000004", " 7\t", ""]),
    st.text(alphabet="0123456789.eE+-,; \t#xinfaINFA", max_size=4))
LINES = st.lists(st.lists(FIELDS, min_size=1, max_size=3).map(",".join)
                 | st.sampled_from(["", "# c", "  ", "1,2 # c"]), max_size=5)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=LINES, newline=st.sampled_from(["\n", "\r\n", "\r"]), final=st.booleans(),
       comment=st.sampled_from(["#", None]), skiprows=st.integers(0, 2), max_rows=st.sampled_from([-1, 0, 1, 3]))
def test_c_reader_never_differs(lines: list[str], newline: str, final: bool, comment: str | None, skiprows: int,
                                max_rows: int) -> None:
    """Whatever table the C reader gives, the Python reader (the
    reference) gives too, bit for bit; where the C reader gives up, the
    Python reader decides."""
    from minarray._text_io import _python_table, _Source

    markers = () if comment is None else (comment,)
    data = (newline.join(lines) + (newline if final else "")).encode()
    fast = _fast_table(_Source(io.BytesIO(data), None), ma.float64, ",", markers, skiprows, max_rows)
    if fast is None:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning would mean the C reader skipped what NumPy reports
        ref = _python_table(_Source(io.BytesIO(data), None), ma.float64, ",", markers, skiprows, max_rows,
                            None, None, False)
    assert fast.shape == ref.shape
    assert np.asarray(fast).tobytes() == np.asarray(ref).tobytes()
