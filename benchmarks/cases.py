"""The benchmark cases, as data.

A case is a name, a size and three callables: ``setup()`` builds the inputs
once (NumPy arrays, shared by both sides so they compute the same thing),
``minarray(inputs)`` and ``reference(inputs)`` each return the zero-argument
call to time.  Inputs are built just before a case runs and dropped after,
so the 100 MB cases do not all live at once.

A factory raises :class:`Missing` when minarray does not have the function
yet: the table says "missing" rather than dropping or faking the case.  It
raises :class:`Unavailable` when the reference library is not installed.
"""

from __future__ import annotations

import importlib
import os
import pickle
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

Call = Callable[[], object]
Inputs = dict[str, Any]


class Missing(Exception):
    """minarray does not (yet) provide what the case measures."""


class Unavailable(Exception):
    """The reference library of a case is not installed."""


@dataclass(frozen=True)
class Case:
    group: str  # allocation, scalar, elementwise, reduction, ufunc, bits, indexing, linalg, random, dlpack, io
    name: str  # what is measured, e.g. "add float32 contiguous"
    size: int  # elements (bytes for allocation cases)
    unit: str  # "elements" or "bytes"
    vs: str  # the reference, e.g. "numpy" or "torch.from_numpy"
    setup: Callable[[], Inputs]
    minarray: Callable[[Inputs], Call]
    reference: Callable[[Inputs], Call]
    # seconds to pause before each timed block (timing.compare): for
    # references whose thread pool keeps spinning after a call
    settle: float = 0.0
    # a second reference, PyTorch's CPU kernels on the same inputs (shared
    # with NumPy through torch.from_numpy), run on as many threads as
    # minarray: None where the case has no PyTorch counterpart
    torch: Callable[[Inputs], Call] | None = None

    @property
    def id(self) -> str:
        """Stable key used to match runs in ``--compare``."""
        return f"{self.group}/{self.name}/{self.size}"

    @property
    def label(self) -> str:
        """What ``--filter`` searches: group, name and size."""
        return f"{self.group} {self.name} {self.size}"


# ---- helpers ---------------------------------------------------------------


def ma_get(path: str) -> Any:
    """``minarray.<path>`` or :class:`Missing`."""
    obj: Any = importlib.import_module("minarray")
    for part in path.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise Missing(f"minarray.{path}") from None
    return obj


def ref_module(name: str) -> Any:
    """An optional reference library, or :class:`Unavailable`."""
    try:
        return importlib.import_module(name)
    except ImportError:
        raise Unavailable(f"{name} is not installed") from None


def torch_module() -> Any:
    """PyTorch, set to use as many threads as minarray does now (the
    comparison is per thread count: ``--threads N`` sets both), or
    :class:`Unavailable`."""
    torch = ref_module("torch")
    threads = ma_get("get_num_threads")()
    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)
    return torch


def to_torch(x: Any) -> Any:
    """A tensor over the same memory as NumPy array `x` (a view of it keeps
    a view's strides)."""
    return torch_module().from_numpy(x) if isinstance(x, np.ndarray) else x


def to_ma(x: np.ndarray) -> Any:
    """A copy of `x` in minarray's own memory (not a view of NumPy's, so
    alignment and huge-page treatment are minarray's)."""
    return ma_get("asarray")(x, copy=True)


def _rng() -> np.random.Generator:
    return np.random.default_rng(20261126)


def _uniform(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    # (0.1, 3): valid for sqrt, no overflow in exp, sin on its core range.
    return _rng().uniform(0.1, 3.0, size=shape).astype(dtype)


# ---- sizes ---------------------------------------------------------------------

ALLOC_BYTES = (10, 10**3, 10**5, 10**6, 10**7, 10**8)
ELEM_SIZES = (1, 100, 10**4, 10**6, 16 * 10**6)
OUT_SIZES = (1, 100, 10**6, 16 * 10**6)
OPERATOR_SIZES = (1, 100, 10**6)
STRIDED_SIZES = (10**4, 10**6, 16 * 10**6)
SQUARE_SIDES = (1000, 4000)
REDUCE_SIZES = (100, 10**4, 10**6, 16 * 10**6)
RECT_SHAPES = ((2000, 500), (500, 2000))
MATMUL_SIDES = (16, 64, 128, 512, 1024, 2048)
LAPACK_SIDES = (300, 500)
LAPACK_FUNCS = ("solve", "inv", "svd", "eigh")
DLPACK_SIZES = (10**3, 10**6)
FLOATS = ("float32", "float64")
UNARY = ("sqrt", "exp", "log", "sin")
# Unary functions also timed writing into out=: what the thread sweep
# compares at large sizes (no allocation, no first touch of a result).
UNARY_OUT = ("exp", "sin")
UNARY_OUT_SIZES = (10**6, 16 * 10**6)
BINARY = ("add", "multiply")


# ---- scalars -------------------------------------------------------------------


def _scalars() -> Iterator[Case]:
    """Arithmetic on scalars, one operation at a time (``x[i] * w + 1``),
    and a loop of it over a 1-d array, as user code writes it."""
    exprs: dict[str, Callable[[Any, Any], Any]] = {
        "s + 1": lambda s, t: s + 1,
        "s * t": lambda s, t: s * t,
        "s < 0.5": lambda s, t: s < 0.5,
        "-s": lambda s, t: -s,
        "float(s)": lambda s, t: float(s),
    }
    for dtype in ("float64", "int64"):
        for text, fn in exprs.items():
            def mk(inp: Inputs, dtype: str = dtype, fn: Callable[[Any, Any], Any] = fn) -> Call:
                x = to_ma(np.array([3, 2], dtype=dtype))
                s, t = x[0], x[1]
                return lambda: fn(s, t)

            def rf(inp: Inputs, dtype: str = dtype, fn: Callable[[Any, Any], Any] = fn) -> Call:
                x = np.array([3, 2], dtype=dtype)
                s, t = x[0], x[1]
                return lambda: fn(s, t)

            yield Case("scalar", f"{text} {dtype}", 1, "elements", "numpy", dict, mk, rf)

    n = 1000

    def loop(x: Any, w: Any) -> Any:
        total = x[0] * 0
        for i in range(len(x)):
            total += x[i] * w
        return total

    def setup() -> Inputs:
        return {"x": _uniform((n,), "float64")}

    def mk_loop(inp: Inputs) -> Call:
        x = to_ma(inp["x"])
        w = x[1]
        return lambda: loop(x, w)

    def rf_loop(inp: Inputs) -> Call:
        x = inp["x"]
        w = x[1]
        return lambda: loop(x, w)

    yield Case("scalar", "total += x[i] * w float64", n, "elements", "numpy", setup, mk_loop, rf_loop)


# ---- allocation ----------------------------------------------------------------


def _allocation() -> Iterator[Case]:
    for fname in ("empty", "zeros", "ones"):
        for nbytes in ALLOC_BYTES:
            def mk(inp: Inputs, fname: str = fname, n: int = nbytes) -> Call:
                f, dt = ma_get(fname), ma_get("uint8")
                return lambda: f((n,), dtype=dt)

            def rf(inp: Inputs, fname: str = fname, n: int = nbytes) -> Call:
                f = getattr(np, fname)
                return lambda: f((n,), dtype=np.uint8)

            yield Case("allocation", f"{fname} uint8", nbytes, "bytes", "numpy", dict, mk, rf)


# ---- elementwise ---------------------------------------------------------------


def _call(f: Any, args: list[Any], out: Any = None) -> Call:
    """The call f(*args[, out=out]) as code would write it: f(x) and f(x, y)
    spelled out (f(*args) builds a tuple per call and takes another path
    through the interpreter, which costs the sides unequally)."""
    if out is not None:
        if len(args) == 1:
            (x,) = args
            return lambda: f(x, out=out)
        x, y = args
        return lambda: f(x, y, out=out)
    if len(args) == 1:
        (x,) = args
        return lambda: f(x)
    x, y = args
    return lambda: f(x, y)


def _ew_case(op: str, dtype: str, layout: str, size: int, shapes: list[tuple[int, ...]],
             views: list[Callable[[Any], Any]], *, out: bool = False) -> Case:
    """`op` applied to inputs of `shapes`, input k passed through `views[k]`
    (slicing, transposing) on both sides, outside the timed call.  With
    `out`, both sides write into an array made once, outside the timed call
    (the hot-loop form that allocates nothing)."""

    def setup() -> Inputs:
        return {"args": [_uniform(s, dtype) for s in shapes]}

    def mk(inp: Inputs) -> Call:
        f = ma_get(op)
        args = [v(to_ma(a)) for v, a in zip(views, inp["args"], strict=True)]
        return _call(f, args, f(*args) if out else None)

    def rf(inp: Inputs) -> Call:
        f = getattr(np, op)
        args = [v(a) for v, a in zip(views, inp["args"], strict=True)]
        return _call(f, args, f(*args) if out else None)

    def pt(inp: Inputs) -> Call:
        f = getattr(torch_module(), op)
        args = [v(to_torch(a)) for v, a in zip(views, inp["args"], strict=True)]
        return _call(f, args, f(*args) if out else None)

    return Case("elementwise", f"{op} {dtype} {layout}", size, "elements", "numpy", setup, mk, rf, torch=pt)


def _operator_case(dtype: str, size: int) -> Case:
    """``x + y`` through the operator (NDArray.__add__), the spelling most
    code uses, against NumPy's and PyTorch's."""

    def setup() -> Inputs:
        return {"x": _uniform((size,), dtype), "y": _uniform((size,), dtype)}

    def mk(inp: Inputs) -> Call:
        x, y = to_ma(inp["x"]), to_ma(inp["y"])
        return lambda: x + y

    def rf(inp: Inputs) -> Call:
        x, y = inp["x"], inp["y"]
        return lambda: x + y

    def pt(inp: Inputs) -> Call:
        x, y = to_torch(inp["x"]), to_torch(inp["y"])
        return lambda: x + y

    return Case("elementwise", f"x + y {dtype}", size, "elements", "numpy", setup, mk, rf, torch=pt)


def _ident(x: Any) -> Any:
    return x


def _every_other(x: Any) -> Any:
    return x[::2]


def _transpose(x: Any) -> Any:
    return x.T


def _elementwise() -> Iterator[Case]:
    for n in OPERATOR_SIZES:
        yield _operator_case("float64", n)
    for op in BINARY + UNARY:
        arity = 2 if op in BINARY else 1
        for dtype in FLOATS:
            for n in ELEM_SIZES:
                yield _ew_case(op, dtype, "contiguous", n, [(n,)] * arity, [_ident] * arity)
            if arity == 2:
                for n in OUT_SIZES:
                    yield _ew_case(op, dtype, "contiguous out=", n, [(n,)] * 2, [_ident] * 2, out=True)
            elif op in UNARY_OUT:
                for n in UNARY_OUT_SIZES:
                    yield _ew_case(op, dtype, "contiguous out=", n, [(n,)], [_ident], out=True)
            for n in STRIDED_SIZES:
                yield _ew_case(op, dtype, "x[::2]", n, [(2 * n,)] * arity, [_every_other] * arity)
            if arity == 2:
                for m in SQUARE_SIDES:
                    yield _ew_case(op, dtype, f"broadcast ({m},{m}) with ({m},)", m * m, [(m, m), (m,)], [_ident] * 2)
                for m in SQUARE_SIDES:
                    # A.T + B: the first operand transposed, the second not,
                    # so no loop order walks both contiguously.
                    yield _ew_case(op, dtype, f"transposed A.T with B ({m},{m})", m * m, [(m, m), (m, m)],
                                   [_transpose, _ident])


# ---- reductions ----------------------------------------------------------------


def _reduce_case(op: str, dtype: str, shape: tuple[int, ...], axis: int | None) -> Case:
    # 1-D cases differ only by size; 2-D ones name their shape and axis.
    where = "all" if axis is None else f"({','.join(map(str, shape))}) axis={axis}"

    def setup() -> Inputs:
        return {"x": _uniform(shape, dtype)}

    def mk(inp: Inputs) -> Call:
        f = ma_get(op)
        x = to_ma(inp["x"])
        return lambda: f(x, axis=axis)

    def rf(inp: Inputs) -> Call:
        f = getattr(np, op)
        x = inp["x"]
        return lambda: f(x, axis=axis)

    def pt(inp: Inputs) -> Call:
        # amax, not max: torch.max(x, dim) also returns the indices
        f = getattr(torch_module(), "amax" if op == "max" else op)
        x = to_torch(inp["x"])
        return (lambda: f(x)) if axis is None else (lambda: f(x, dim=axis))

    size = int(np.prod(shape))
    return Case("reduction", f"{op} {dtype} {where}", size, "elements", "numpy", setup, mk, rf, torch=pt)


def _reductions() -> Iterator[Case]:
    for op in ("sum", "max", "mean"):
        for dtype in FLOATS:
            for n in REDUCE_SIZES:
                yield _reduce_case(op, dtype, (n,), None)
            for m in SQUARE_SIDES:
                for axis in (0, 1):
                    yield _reduce_case(op, dtype, (m, m), axis)
            for shape in RECT_SHAPES:  # both axis orders of a non-square array
                for axis in (0, 1):
                    yield _reduce_case(op, dtype, shape, axis)


# ---- ufunc methods ---------------------------------------------------------------


def _ufuncs() -> Iterator[Case]:
    """NumPy's ufunc methods on float64: add.reduce of 1M elements (the
    kernels of sum), add.at of 1M values into 1000 bins (repeated indices),
    multiply.outer of two 1000-element vectors."""
    def case(name: str, size: int, setup: Callable[[], Inputs], call: Callable[[Any, Inputs, bool], Call]) -> Case:
        def mk(inp: Inputs) -> Call:
            ma_get("ufunc")  # Missing before ufunc objects
            return call(importlib.import_module("minarray"), inp, True)

        def rf(inp: Inputs) -> Call:
            return call(np, inp, False)

        return Case("ufunc", name, size, "elements", "numpy", setup, mk, rf)

    n = 10**6

    def reduce_setup() -> Inputs:
        return {"x": _uniform((n,), "float64")}

    def reduce(lib: Any, inp: Inputs, is_ma: bool) -> Call:
        x = to_ma(inp["x"]) if is_ma else inp["x"]
        return lambda: lib.add.reduce(x)

    def at_setup() -> Inputs:
        rng = _rng()
        return {"bins": np.zeros(1000), "idx": rng.integers(0, 1000, n), "vals": rng.uniform(0, 1, n)}

    def at(lib: Any, inp: Inputs, is_ma: bool) -> Call:
        conv = to_ma if is_ma else (lambda v: v.copy())
        bins, idx, vals = conv(inp["bins"]), conv(inp["idx"]), conv(inp["vals"])
        return lambda: lib.add.at(bins, idx, vals)

    def outer_setup() -> Inputs:
        return {"a": _uniform((1000,), "float64"), "b": _uniform((1000,), "float64")}

    def outer(lib: Any, inp: Inputs, is_ma: bool) -> Call:
        a, b = (to_ma(inp["a"]), to_ma(inp["b"])) if is_ma else (inp["a"], inp["b"])
        return lambda: lib.multiply.outer(a, b)

    yield case("add.reduce float64", n, reduce_setup, reduce)
    yield case("add.at float64 (1000 bins)", n, at_setup, at)
    yield case("multiply.outer float64 (1000,)x(1000,)", 1000 * 1000, outer_setup, outer)


# ---- bit packing ---------------------------------------------------------------


def _bit_packing() -> Iterator[Case]:
    """packbits of 10^6 bools (1-d, and a (1000, 1000) array along each
    axis), unpackbits of the 10^6 bits back."""
    def case(name: str, shape: tuple[int, ...], unpack: bool, axis: int | None) -> Case:
        def setup() -> Inputs:
            bits = _rng().integers(0, 2, shape).astype(bool)
            return {"x": np.packbits(bits, axis=axis) if unpack else bits}

        def timed(lib: Any, x: Any) -> Call:
            f = lib.unpackbits if unpack else lib.packbits
            return lambda: f(x, axis=axis)

        def mk(inp: Inputs) -> Call:
            ma_get("packbits")  # Missing before packbits
            return timed(importlib.import_module("minarray"), to_ma(inp["x"]))

        def rf(inp: Inputs) -> Call:
            return timed(np, inp["x"])

        return Case("bits", name, int(np.prod(shape)), "elements", "numpy", setup, mk, rf)

    yield case("packbits bool", (10**6,), False, None)
    yield case("packbits bool (1000,1000) axis=0", (1000, 1000), False, 0)
    yield case("packbits bool (1000,1000) axis=1", (1000, 1000), False, 1)
    yield case("unpackbits uint8", (10**6,), True, None)


# ---- statistics ----------------------------------------------------------------

STAT_SIZES = (10**4, 10**6)


def _statistics() -> Iterator[Case]:
    """Order statistics and unique against NumPy: median and a percentile
    of float64 (selection, no sort), unique of int64 with few and with many
    distinct values and randint(0, n) of n (the case the performance issue
    names), of int32 with few, of float64 with few and with many."""
    def case(name: str, n: int, data: Callable[[np.random.Generator, int], np.ndarray], fn: str,
             *args: Any) -> Case:
        def setup() -> Inputs:
            return {"x": data(_rng(), n)}

        def mk(inp: Inputs) -> Call:
            f, x = ma_get(fn), to_ma(inp["x"])
            return lambda: f(x, *args)

        def rf(inp: Inputs) -> Call:
            f, x = getattr(np, fn), inp["x"]
            return lambda: f(x, *args)

        return Case("statistics", name, n, "elements", "numpy", setup, mk, rf)

    def uniform(rng: np.random.Generator, n: int) -> np.ndarray:
        return rng.uniform(0.1, 3.0, n)

    def few(rng: np.random.Generator, n: int) -> np.ndarray:
        return rng.integers(0, 1000, n)

    def many(rng: np.random.Generator, n: int) -> np.ndarray:
        return rng.integers(0, 10 * n, n)

    def upto_n(rng: np.random.Generator, n: int) -> np.ndarray:
        # randint(0, n) of n: about 63% distinct, all inside a small range
        return rng.integers(0, n, n)

    def few_int32(rng: np.random.Generator, n: int) -> np.ndarray:
        return rng.integers(0, 100, n, dtype=np.int32)

    def few_float(rng: np.random.Generator, n: int) -> np.ndarray:
        return rng.integers(0, 100, n).astype(np.float64) / 8

    for n in STAT_SIZES:
        yield case("median float64", n, uniform, "median")
        yield case("percentile(30) float64", n, uniform, "percentile", 30)
        yield case("unique int64 (1000 values)", n, few, "unique")
        yield case("unique int64 (mostly distinct)", n, many, "unique")
        yield case("unique int64 (randint(0, n))", n, upto_n, "unique")
        yield case("unique int32 (100 values)", n, few_int32, "unique")
        yield case("unique float64 (100 values)", n, few_float, "unique")
        yield case("unique float64 (mostly distinct)", n, uniform, "unique")


# ---- indexing ------------------------------------------------------------------

INDEX_SIZES = (10**4, 10**6)


def _basic_view_case() -> Case:
    """A basic slice, ``X[1:50, ::2]`` of a 100 x 100 float64 array: a view,
    so the time is all per-call overhead."""

    def setup() -> Inputs:
        return {"x": _uniform((100, 100), "float64")}

    def mk(inp: Inputs) -> Call:
        x = to_ma(inp["x"])
        return lambda: x[1:50, ::2]

    def rf(inp: Inputs) -> Call:
        x = inp["x"]
        return lambda: x[1:50, ::2]

    def pt(inp: Inputs) -> Call:
        x = to_torch(inp["x"])
        return lambda: x[1:50, ::2]

    return Case("indexing", "X[1:50, ::2] view", 100 * 100, "elements", "numpy", setup, mk, rf, torch=pt)


def _indexing() -> Iterator[Case]:
    """Gathers and scatters through index arrays and masks, float64, on an
    array of n elements (1-d, or 1000 rows for the 2-d keys): a tenth of the
    elements picked at random, or every other one by a mask."""
    def case(name: str, n: int, key_of: Callable[[np.ndarray, np.random.Generator], Any], setter: bool,
             shape: Callable[[int], tuple[int, ...]]) -> Case:
        def setup() -> Inputs:
            rng = _rng()
            x = _uniform(shape(n), "float64")
            return {"x": x, "key": key_of(x, rng)}

        def as_ma(key: Any) -> Any:
            if isinstance(key, tuple):
                return tuple(as_ma(k) for k in key)
            return ma_get("asarray")(key) if isinstance(key, np.ndarray) else key

        def mk(inp: Inputs) -> Call:
            x, key = to_ma(inp["x"]), as_ma(inp["key"])
            return (lambda: x.__setitem__(key, 0.0)) if setter else (lambda: x[key])

        def rf(inp: Inputs) -> Call:
            x, key = inp["x"].copy(), inp["key"]
            return (lambda: x.__setitem__(key, 0.0)) if setter else (lambda: x[key])

        def as_torch(key: Any) -> Any:
            if isinstance(key, tuple):
                return tuple(as_torch(k) for k in key)
            return to_torch(key)

        def pt(inp: Inputs) -> Call:
            x, key = to_torch(inp["x"].copy()), as_torch(inp["key"])
            return (lambda: x.__setitem__(key, 0.0)) if setter else (lambda: x[key])

        return Case("indexing", name, n, "elements", "numpy", setup, mk, rf, torch=pt)

    def flat(n: int) -> tuple[int, ...]:
        return (n,)

    def rows(n: int) -> tuple[int, ...]:
        return (1000, n // 1000)

    def idx(x: np.ndarray, rng: np.random.Generator) -> Any:
        return rng.integers(0, x.shape[0], x.size // 10)

    def mask(x: np.ndarray, rng: np.random.Generator) -> Any:
        return rng.random(x.shape) < 0.5

    def cols(x: np.ndarray, rng: np.random.Generator) -> Any:
        return (slice(None), rng.integers(0, x.shape[1], x.shape[1] // 10))

    def pairs(x: np.ndarray, rng: np.random.Generator) -> Any:
        m = x.size // 10
        return (rng.integers(0, x.shape[0], m), rng.integers(0, x.shape[1], m))

    yield _basic_view_case()
    for n in INDEX_SIZES:
        yield case("x[idx] int64", n, idx, False, flat)
        yield case("x[idx] = 0.0", n, idx, True, flat)
        yield case("x[mask]", n, mask, False, flat)
        yield case("x[mask] = 0.0", n, mask, True, flat)
        yield case("X[:, cols]", n, cols, False, rows)
        yield case("X[rows, cols]", n, pairs, False, rows)
        yield case("X[rows, cols] = 0.0", n, pairs, True, rows)


# ---- linalg --------------------------------------------------------------------


def _linalg() -> Iterator[Case]:
    for dtype in FLOATS:
        for m in MATMUL_SIDES:
            def setup(m: int = m, dtype: str = dtype) -> Inputs:
                return {"a": _uniform((m, m), dtype), "b": _uniform((m, m), dtype)}

            def mk(inp: Inputs) -> Call:
                f = ma_get("matmul")
                a, b = to_ma(inp["a"]), to_ma(inp["b"])
                return lambda: f(a, b)

            def rf(inp: Inputs) -> Call:
                a, b = inp["a"], inp["b"]
                return lambda: np.matmul(a, b)

            def pt(inp: Inputs) -> Call:
                torch = torch_module()
                a, b = to_torch(inp["a"]), to_torch(inp["b"])
                return lambda: torch.matmul(a, b)

            # Both sides run on OpenBLAS's threads, which spin ~0.1 s after
            # each call: let them sleep before each block, both sides.
            yield Case("linalg", f"matmul {dtype} ({m},{m})@({m},{m})", m * m, "elements", "numpy", setup, mk, rf,
                       settle=0.25, torch=pt)
    for fname in LAPACK_FUNCS:
        for m in LAPACK_SIDES:
            yield _lapack_case(fname, m)


def _lapack_case(fname: str, m: int) -> Case:
    """``linalg.<fname>`` of an m x m float64 matrix (symmetric positive
    definite for eigh; a right-hand side of 10 columns for solve)."""

    def setup() -> Inputs:
        a = _rng().standard_normal((m, m))
        if fname == "eigh":
            a = a @ a.T + m * np.eye(m)
        return {"a": a, "b": _rng().standard_normal((m, 10))}

    def call(f: Any, a: Any, b: Any) -> Call:
        if fname == "solve":
            return lambda: f(a, b)
        return lambda: f(a)

    def mk(inp: Inputs) -> Call:
        return call(ma_get(f"linalg.{fname}"), to_ma(inp["a"]), to_ma(inp["b"]))

    def rf(inp: Inputs) -> Call:
        return call(getattr(np.linalg, fname), inp["a"], inp["b"])

    what = f"({m},{m}),({m},10)" if fname == "solve" else f"({m},{m})"
    return Case("linalg", f"{fname} float64 {what}", m * m, "elements", "numpy", setup, mk, rf, settle=0.25)


# ---- random --------------------------------------------------------------------

RANDOM_SIZES = (100, 10**6)


def _random() -> Iterator[Case]:
    """Draws from a Generator seeded alike on both sides (the same numbers,
    so the same work): each call draws n new values into a new array."""
    draws: list[tuple[str, Callable[[Any, int], Call], tuple[int, ...]]] = [
        ("random float64", lambda g, n: lambda: g.random(n), RANDOM_SIZES),
        ("standard_normal float64", lambda g, n: lambda: g.standard_normal(n), RANDOM_SIZES),
        ("integers(0, 100) int64", lambda g, n: lambda: g.integers(0, 100, n), RANDOM_SIZES),
        ("random float32", lambda g, n: lambda: g.random(n, dtype="float32"), (10**6,)),
        ("standard_normal float32", lambda g, n: lambda: g.standard_normal(n, dtype="float32"), (10**6,)),
        ("standard_exponential float64", lambda g, n: lambda: g.standard_exponential(n), (10**6,)),
        ("integers(0, 100) uint8", lambda g, n: lambda: g.integers(0, 100, n, dtype="uint8"), (10**6,)),
        ("permutation", lambda g, n: lambda: g.permutation(n), (10**6,)),
    ]
    for name, draw, sizes in draws:
        for n in sizes:
            def mk(inp: Inputs, draw: Callable[[Any, int], Call] = draw, n: int = n) -> Call:
                return draw(ma_get("random.default_rng")(20261126), n)

            def rf(inp: Inputs, draw: Callable[[Any, int], Call] = draw, n: int = n) -> Call:
                return draw(np.random.default_rng(20261126), n)

            yield Case("random", name, n, "elements", "numpy", dict, mk, rf)


def _random_legacy() -> Iterator[Case]:
    """The legacy API: draws from a RandomState seeded alike on both sides
    (MT19937, the same numbers, so the same work).  Size 1 is the one-value
    call (no size: a Python number), which scripts make in loops."""
    draws: list[tuple[str, Callable[[Any, int], Call], tuple[int, ...]]] = [
        ("legacy rand float64", lambda r, n: r.rand if n == 1 else lambda: r.rand(n), (1, 100, 10**6)),
        ("legacy randn float64", lambda r, n: r.randn if n == 1 else lambda: r.randn(n), (1, 100, 10**6)),
        ("legacy normal(2, 3) float64", lambda r, n: lambda: r.normal(2.0, 3.0, None if n == 1 else n), (1, 100)),
        ("legacy randint(0, 100) int64", lambda r, n: lambda: r.randint(0, 100, None if n == 1 else n),
         (1, 100, 10**6)),
        ("legacy choice(n, 1000, replace=False)", lambda r, n: lambda: r.choice(n, 1000, replace=False), (10**6,)),
    ]
    for name, draw, sizes in draws:
        for n in sizes:
            def mk(inp: Inputs, draw: Callable[[Any, int], Call] = draw, n: int = n) -> Call:
                return draw(ma_get("random.RandomState")(20261126), n)

            def rf(inp: Inputs, draw: Callable[[Any, int], Call] = draw, n: int = n) -> Call:
                return draw(np.random.RandomState(20261126), n)

            yield Case("random", name, n, "elements", "numpy", dict, mk, rf)


# ---- DLPack --------------------------------------------------------------------


def _ma_exports_dlpack() -> None:
    if not hasattr(ma_get("NDArray"), "__dlpack__"):
        raise Missing("minarray.NDArray.__dlpack__")


def _dlpack() -> Iterator[Case]:
    for n in DLPACK_SIZES:
        def setup(n: int = n) -> Inputs:
            return {"x": _uniform((n,), "float32")}

        def np_from_ma(inp: Inputs) -> Call:
            _ma_exports_dlpack()
            x = to_ma(inp["x"])
            return lambda: np.from_dlpack(x)

        def np_from_np(inp: Inputs) -> Call:
            x = inp["x"]
            return lambda: np.from_dlpack(x)

        yield Case("dlpack", "np.from_dlpack(ma)", n, "elements", "np.from_dlpack(np)", setup, np_from_ma, np_from_np)

        def ma_from_np(inp: Inputs) -> Call:
            f, x = ma_get("from_dlpack"), inp["x"]
            return lambda: f(x)

        yield Case("dlpack", "ma.from_dlpack(np)", n, "elements", "np.from_dlpack(np)", setup, ma_from_np, np_from_np)

        def ma_from_torch(inp: Inputs) -> Call:
            f = ma_get("from_dlpack")
            t = ref_module("torch").from_numpy(inp["x"])
            return lambda: f(t)

        def np_from_torch(inp: Inputs) -> Call:
            t = ref_module("torch").from_numpy(inp["x"])
            return lambda: np.from_dlpack(t)

        yield Case("dlpack", "ma.from_dlpack(torch)", n, "elements", "np.from_dlpack(torch)", setup,
                   ma_from_torch, np_from_torch)

        def torch_from_ma(inp: Inputs) -> Call:
            torch = ref_module("torch")
            _ma_exports_dlpack()
            x = to_ma(inp["x"])
            return lambda: torch.from_dlpack(x)

        def torch_from_np(inp: Inputs) -> Call:
            torch, x = ref_module("torch"), inp["x"]
            return lambda: torch.from_dlpack(x)

        yield Case("dlpack", "torch.from_dlpack(ma)", n, "elements", "torch.from_dlpack(np)", setup,
                   torch_from_ma, torch_from_np)

        def ma_from_numpy(inp: Inputs) -> Call:
            f, x = ma_get("from_numpy"), inp["x"]
            return lambda: f(x)

        def torch_from_numpy(inp: Inputs) -> Call:
            torch, x = ref_module("torch"), inp["x"]
            return lambda: torch.from_numpy(x)

        yield Case("dlpack", "ma.from_numpy", n, "elements", "torch.from_numpy", setup, ma_from_numpy,
                   torch_from_numpy)

        def ma_asdlpack(inp: Inputs) -> Call:
            f, x = ma_get("asdlpack"), inp["x"]
            return lambda: f(x)

        def pydlpack_asdlpack(inp: Inputs) -> Call:
            f, x = ref_module("dlpack").asdlpack, inp["x"]
            return lambda: f(x)

        yield Case("dlpack", "ma.asdlpack(np)", n, "elements", "pydlpack asdlpack", setup, ma_asdlpack,
                   pydlpack_asdlpack)


# ---- data in and out: pickle and .npy files -----------------------------------------

IO_BYTES = (10**6, 10**8)


def _io() -> Iterator[Case]:
    """Round trips of a float64 array of n bytes: pickled (protocol 5) with
    the data in the byte stream or out of band, and with protocol 4 (bytes,
    in the stream), saved to and loaded from a
    .npy file (in a temporary directory, each side its own file), and a
    memory-mapped load (both sides map the same file)."""

    def setup(n: int) -> Callable[[], Inputs]:
        def make() -> Inputs:
            tmp = tempfile.TemporaryDirectory(prefix="minarray-bench-")  # removed when the inputs go
            x = _uniform((n // 8,), "float64")
            path = os.path.join(tmp.name, "shared.npy")
            np.save(path, x)
            return {"x": x, "tmp": tmp, "shared": path}
        return make

    def in_band(pk: Any, x: Any) -> Call:
        return lambda: pk.loads(pk.dumps(x, protocol=5))

    def protocol4(pk: Any, x: Any) -> Call:
        return lambda: pk.loads(pk.dumps(x, protocol=4))

    def out_of_band(pk: Any, x: Any) -> Call:
        def call() -> object:
            buffers: list[Any] = []
            data = pk.dumps(x, protocol=5, buffer_callback=buffers.append)
            return pk.loads(data, buffers=buffers)
        return call

    def save_load(save: Any, load: Any, path: str, x: Any) -> Call:
        def call() -> object:
            save(path, x)
            return load(path)
        return call

    for n in IO_BYTES:
        for name, how in (("pickle float64 in-band", in_band), ("pickle float64 out-of-band", out_of_band),
                          ("pickle float64 protocol 4", protocol4)):
            def mk(inp: Inputs, how: Callable[[Any, Any], Call] = how) -> Call:
                return how(pickle, to_ma(inp["x"]))

            def rf(inp: Inputs, how: Callable[[Any, Any], Call] = how) -> Call:
                return how(pickle, inp["x"])

            yield Case("io", name, n, "bytes", "numpy", setup(n), mk, rf)

        def mk_npy(inp: Inputs) -> Call:
            return save_load(ma_get("save"), ma_get("load"), os.path.join(inp["tmp"].name, "ma.npy"), to_ma(inp["x"]))

        def rf_npy(inp: Inputs) -> Call:
            return save_load(np.save, np.load, os.path.join(inp["tmp"].name, "np.npy"), inp["x"])

        yield Case("io", "save + load .npy float64", n, "bytes", "numpy", setup(n), mk_npy, rf_npy)

        yield Case("io", "load .npy mmap_mode='r'", n, "bytes", "numpy", setup(n),
                   _reads(lambda: ma_get("load"), "shared", mmap_mode="r"),
                   _reads(lambda: np.load, "shared", mmap_mode="r"))


def _reads(get: Callable[[], Any], key: str, **kwargs: Any) -> Callable[[Inputs], Call]:
    """A side that reads the file the inputs name under ``key`` with the
    reader ``get()`` returns (called when the case is built, so a missing
    minarray function is reported as Missing)."""
    def side(inp: Inputs) -> Call:
        read, path = get(), inp[key]
        return lambda: read(path, **kwargs)
    return side


# loadtxt's table: about 10 MB of CSV, 8 float64 columns written "%.10g"
TEXT_ROWS = 100_000


def _text() -> Iterator[Case]:
    """loadtxt of a numeric CSV file of about 10 MB (both sides read the
    same file, written once by NumPy's savetxt)."""

    def setup() -> Inputs:
        tmp = tempfile.TemporaryDirectory(prefix="minarray-bench-")  # removed when the inputs go
        path = os.path.join(tmp.name, "table.csv")
        np.savetxt(path, _rng().standard_normal((TEXT_ROWS, 8)), fmt="%.10g", delimiter=",")
        return {"tmp": tmp, "path": path}

    yield Case("io", "loadtxt csv float64 (10 MB)", TEXT_ROWS * 8, "elements", "numpy", setup,
               _reads(lambda: ma_get("loadtxt"), "path", delimiter=","),
               _reads(lambda: np.loadtxt, "path", delimiter=","))


# ---- printing ------------------------------------------------------------------


def _printing() -> Iterator[Case]:
    """repr and str against NumPy's: a 1000x1000 float64 array (summarised:
    its edges print), a 100x100 one printed in full (the threshold raised
    past its size: every element is formatted), the same in float32 (its
    shortest digits are searched, float64's are Python's repr), and a small
    array's str (the cost of one call)."""
    def case(name: str, shape: tuple[int, ...], dtype: str, text: Callable[[Any], str], full: bool) -> Case:
        def setup() -> Inputs:
            return {"x": _rng().standard_normal(shape).astype(dtype)}

        def timed(printoptions: Any, x: Any) -> Call:
            if not full:
                return lambda: text(x)

            def call() -> object:
                with printoptions(threshold=x.size):
                    return text(x)
            return call

        def mk(inp: Inputs) -> Call:
            return timed(ma_get("printoptions"), to_ma(inp["x"]))

        def rf(inp: Inputs) -> Call:
            return timed(np.printoptions, inp["x"])

        return Case("printing", name, int(np.prod(shape)), "elements", "numpy", setup, mk, rf)

    yield case("repr float64 (summarised)", (1000, 1000), "float64", repr, False)
    yield case("repr float64 (in full)", (100, 100), "float64", repr, True)
    yield case("repr float32 (in full)", (100, 100), "float32", repr, True)
    yield case("str float64", (8,), "float64", str, False)


def all_cases() -> list[Case]:
    """Every case, in the order the table prints them."""
    return [*_allocation(), *_scalars(), *_elementwise(), *_reductions(), *_ufuncs(), *_bit_packing(), *_statistics(),
            *_indexing(), *_linalg(),
            *_random(), *_random_legacy(), *_dlpack(), *_io(), *_printing(), *_text()]
