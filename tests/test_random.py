"""minarray.random against numpy.random: the same seeds and calls must give
the same numbers, bit for bit, and the same error types."""

from __future__ import annotations

import math
import pickle
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minarray as ma

np = pytest.importorskip("numpy", reason="NumPy is the oracle of the random streams")

from numpy_oracle import generator_method, seed_sequence  # noqa: E402  (it needs NumPy)

SEEDS = [0, 1, 42, 12345, 2**32 + 5, 2**100 + 3, [1, 2, 3]]
SIZES: list[Any] = [0, 1, 7, 1000, (3, 5)]
BITGENS = ["PCG64", "PCG64DXSM"]


def pair(seed: Any = 42, kind: str = "PCG64") -> tuple[Any, Any]:
    """A minarray and a NumPy Generator seeded alike."""
    mg = ma.random.Generator(getattr(ma.random, kind)(seed))
    ng = np.random.Generator(getattr(np.random, kind)(seed))
    return mg, ng


def same(got: Any, want: Any) -> None:
    """Bit-identical results: arrays of the same dtype, shape and bytes, or
    Python scalars equal to NumPy's (same bits for floats)."""
    if isinstance(want, np.ndarray):
        assert isinstance(got, ma.NDArray), type(got)
        g = np.from_dlpack(got) if got.size else np.empty(got.shape, dtype=want.dtype)
        assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype, want.shape)
        assert g.tobytes() == np.ascontiguousarray(want).tobytes(), (g.ravel()[:8], want.ravel()[:8])
        return
    assert not isinstance(got, ma.NDArray) or got.ndim > 0, f"expected a scalar, got {got!r}"
    if isinstance(want, (float, np.floating)):
        assert isinstance(got, float), type(got)
        assert np.float64(got).tobytes() == np.float64(want).tobytes(), (got, want)
    elif isinstance(want, (bool, np.bool_)):
        assert isinstance(got, bool) and got == bool(want)
    elif isinstance(want, bytes):
        assert got == want
    elif isinstance(want, (int, np.integer)):
        assert isinstance(got, int) and not isinstance(got, bool) and got == int(want), (got, want)
    else:
        same(got, np.asarray(want))


def both(mg: Any, ng: Any, name: str, *args: Any, **kwargs: Any) -> None:
    """Call method `name` on both generators and compare; then the states."""
    same(getattr(mg, name)(*args, **kwargs), generator_method(ng, name)(*args, **kwargs))
    assert mg.bit_generator.state == ng.bit_generator.state


def to_ma(x: Any) -> Any:
    return ma.asarray(np.ascontiguousarray(x)) if isinstance(x, np.ndarray) else x


# ---- SeedSequence and the bit generators ------------------------------------


@pytest.mark.parametrize("entropy", [0, 1, 2**32 - 1, 2**32, 2**200 + 17, [1, 2, 3], [2**40, 7], range(5),
                                     ["0x1f", "123", 5]])
@pytest.mark.parametrize("spawn_key", [(), (3,), (1, 2**33)])
def test_seed_sequence_pool_and_state(entropy: Any, spawn_key: tuple[int, ...]) -> None:
    ms = ma.random.SeedSequence(entropy, spawn_key=spawn_key)
    ns = seed_sequence(entropy, spawn_key=spawn_key)
    assert ms.pool.tolist() == ns.pool.tolist()
    for n in (0, 1, 4, 9):
        assert ms.generate_state(n).tolist() == ns.generate_state(n).tolist()
        assert ms.generate_state(n, "uint64").tolist() == ns.generate_state(n, np.uint64).tolist()
    assert ma.random.SeedSequence(entropy, pool_size=8).pool.tolist() == \
        seed_sequence(entropy, pool_size=8).pool.tolist()


def test_seed_sequence_spawn_and_errors() -> None:
    ms, ns = ma.random.SeedSequence(7), np.random.SeedSequence(7)
    for _ in range(2):
        for m, n in zip(ms.spawn(3), ns.spawn(3), strict=True):
            assert m.spawn_key == n.spawn_key
            assert m.generate_state(4).tolist() == n.generate_state(4).tolist()
    assert ms.n_children_spawned == 6
    assert "entropy=7" in repr(ms) and "n_children_spawned=6" in repr(ms)
    assert ma.random.SeedSequence().entropy >= 0  # fresh OS entropy
    for bad, err in ((-1, ValueError), (1.5, TypeError), ([1, -2], ValueError), ([[1, 2.5]], TypeError),
                     ("abc", TypeError), (["abc"], ValueError), ({1: 2}, TypeError)):
        with pytest.raises(err):
            seed_sequence(bad)
        with pytest.raises(err):
            ma.random.SeedSequence(bad)
    # nested entropy or spawn key: refused since NumPy 2.5, a list holding itself included
    looped: list[Any] = [1]
    looped.append(looped)
    for nested in ([[1, 2], [3]], [(1,), 2], [b"ab", 1], [np.array(5), 1], np.array([[1, 2], [3, 4]]), looped):
        for kwargs in ({"entropy": nested}, {"entropy": 1, "spawn_key": nested}):
            with pytest.raises(TypeError):
                seed_sequence(**kwargs)
            with pytest.raises(TypeError, match="nested sequences"):
                ma.random.SeedSequence(**kwargs)
    with pytest.raises(TypeError, match="nested sequences"):  # minarray's 2-d array, as NumPy's above
        ma.random.SeedSequence(ma.asarray([[1, 2], [3, 4]]))
    with pytest.raises(ValueError):
        ma.random.SeedSequence(1, pool_size=3)
    with pytest.raises(ValueError):
        ms.spawn(-1)
    with pytest.raises(ValueError):
        ms.generate_state(2, "int64")


@pytest.mark.parametrize("kind", BITGENS)
@pytest.mark.parametrize("seed", SEEDS)
def test_bit_generator_seeding_and_raw(kind: str, seed: Any) -> None:
    mb, nb = getattr(ma.random, kind)(seed), getattr(np.random, kind)(seed)
    assert mb.state == nb.state
    same(mb.random_raw(9), nb.random_raw(9))
    same(mb.random_raw(), nb.random_raw())
    assert mb.random_raw(3, output=False) is None
    nb.random_raw(3, output=False)
    assert mb.state == nb.state


@pytest.mark.parametrize("kind", BITGENS)
def test_advance_jumped_and_state_round_trip(kind: str) -> None:
    mg, ng = pair(2024, kind)
    for delta in (1, 12345, 2**64 + 3, 2**127, -5):
        mg.bit_generator.advance(delta)
        ng.bit_generator.advance(delta)
        assert mg.bit_generator.state == ng.bit_generator.state
    for jumps in (1, 3):
        mj, nj = mg.bit_generator.jumped(jumps), ng.bit_generator.jumped(jumps)
        assert mj.state == nj.state
        assert mg.bit_generator.state == ng.bit_generator.state  # the original is untouched
    # An odd number of 32-bit draws leaves a buffered half: it must travel.
    both(mg, ng, "random", 3, dtype="float32")
    assert mg.bit_generator.state["has_uint32"] == 1
    ng2 = np.random.Generator(getattr(np.random, kind)())
    ng2.bit_generator.state = mg.bit_generator.state
    mg2 = ma.random.Generator(getattr(ma.random, kind)())
    mg2.bit_generator.state = ng.bit_generator.state
    both(mg2, ng2, "random", 5, dtype="float32")
    same(mg.integers(0, 7, 11, dtype="uint8"), ng.integers(0, 7, 11, dtype=np.uint8))
    # advance drops the buffered half, as NumPy does
    mg.bit_generator.advance(0)
    ng.bit_generator.advance(0)
    assert mg.bit_generator.state == ng.bit_generator.state


def test_bad_state_changes_nothing() -> None:
    b = ma.random.PCG64(5)
    before = b.state
    for bad, err in (([], TypeError), ({"bit_generator": "PCG64DXSM"}, ValueError),
                     ({**before, "state": {"state": -1, "inc": 1}}, ValueError),
                     ({**before, "state": {"state": 2**128, "inc": 1}}, ValueError),
                     ({**before, "uinteger": 2**32}, ValueError),
                     ({"bit_generator": "PCG64", "state": {}}, ValueError)):
        with pytest.raises(err):
            b.state = bad
        assert b.state == before
    with pytest.raises(NotImplementedError):
        ma.random.BitGenerator()


def test_default_rng_forms_and_pickle() -> None:
    g = ma.random.default_rng(3)
    assert ma.random.default_rng(g) is g
    b = ma.random.PCG64DXSM(3)
    assert ma.random.default_rng(b).bit_generator is b
    for seed in (ma.random.SeedSequence(9), np.random.SeedSequence(9), [9], 9):
        same(ma.random.default_rng(seed).random(4), np.random.default_rng(9).random(4))
    assert isinstance(ma.random.default_rng().random(), float)
    assert str(g) == "Generator(PCG64)"
    g.random(3)
    g2 = pickle.loads(pickle.dumps(g))
    assert g2.bit_generator.state == g.bit_generator.state
    assert g2.random(3).tolist() == g.random(3).tolist()
    with pytest.raises(TypeError):
        ma.random.Generator(np.random.PCG64(1))
    for numpy_side in (np.random.PCG64(1), np.random.default_rng(1)):
        with pytest.raises(TypeError, match="copy its state"):
            ma.random.default_rng(numpy_side)


def test_spawn_matches_numpy() -> None:
    mg, ng = pair(11)
    for m, n in zip(mg.spawn(3), ng.spawn(3), strict=True):
        same(m.random(5), n.random(5))
    for m, n in zip(mg.bit_generator.spawn(2), ng.bit_generator.spawn(2), strict=True):
        assert m.state == n.state
    with pytest.raises(ValueError):
        mg.spawn(-1)


# ---- the distributions ---------------------------------------------------------


@pytest.mark.parametrize("kind", BITGENS)
@pytest.mark.parametrize("seed", SEEDS[:5])
def test_floats(kind: str, seed: Any) -> None:
    mg, ng = pair(seed, kind)
    for size in [*SIZES, None]:
        for dtype in ("float64", "float32"):
            both(mg, ng, "random", size, dtype=dtype)
            both(mg, ng, "standard_normal", size, dtype=dtype)
            both(mg, ng, "standard_exponential", size, dtype=dtype)
            both(mg, ng, "standard_exponential", size, dtype=dtype, method="inv")
            both(mg, ng, "standard_gamma", 0.5, size, dtype=dtype)
            both(mg, ng, "standard_gamma", 3.5, size, dtype=dtype)
        both(mg, ng, "normal", 1.5, 2.0, size)
        both(mg, ng, "exponential", 3.0, size)
        both(mg, ng, "uniform", -2.0, 5.0, size)
        both(mg, ng, "gamma", 1.0, 2.0, size)
        both(mg, ng, "beta", 0.5, 0.7, size)
        both(mg, ng, "beta", 2.5, 0.7, size)


def test_large_fills_and_tails() -> None:
    # 10^6 draws reach the ziggurats' rare branches (tail, wedges) many times.
    mg, ng = pair(7)
    for dtype in ("float64", "float32"):
        both(mg, ng, "standard_normal", 10**6, dtype=dtype)
        both(mg, ng, "standard_exponential", 10**6, dtype=dtype)
    both(mg, ng, "random", 10**6)


def test_large_uniform_fills_do_not_depend_on_the_thread_count() -> None:
    # random() and random_raw() split large fills over the thread pool,
    # each chunk starting from the state advanced to its first value.
    before = ma.get_num_threads()
    try:
        for threads in (1, 2, 3):
            ma.set_num_threads(threads)
            for kind in BITGENS:
                mg, ng = pair(99, kind)
                both(mg, ng, "random", 200_003)
                same(mg.bit_generator.random_raw(70_001), ng.bit_generator.random_raw(70_001))
                assert mg.bit_generator.state == ng.bit_generator.state
    finally:
        ma.set_num_threads(before)


def test_out_arrays() -> None:
    mg, ng = pair(5)
    for method, dtype in (("random", "float64"), ("random", "float32"), ("standard_normal", "float64"),
                          ("standard_normal", "float32"), ("standard_exponential", "float64")):
        mo, no = ma.zeros((4, 3), dtype=dtype), np.zeros((4, 3), dtype=dtype)
        r = getattr(mg, method)(out=mo, dtype=dtype)
        getattr(ng, method)(out=no, dtype=dtype)
        assert r is mo
        same(mo, no)
        mf, nf = ma.zeros((3, 4), dtype=dtype).T, np.zeros((3, 4), dtype=dtype).T
        getattr(mg, method)(size=(4, 3), out=mf, dtype=dtype)
        getattr(ng, method)(size=(4, 3), out=nf, dtype=dtype)
        same(mf, nf)
    mo, no = ma.zeros(5), np.zeros(5)
    mg.standard_gamma(2.0, out=mo)
    ng.standard_gamma(2.0, out=no)
    same(mo, no)
    for bad_out, err in ((ma.zeros(5, dtype="float32"), TypeError), (ma.zeros(10)[::2], ValueError)):
        with pytest.raises(err):
            mg.random(out=bad_out)
    with pytest.raises(ValueError):
        mg.random(size=4, out=ma.zeros(5))
    assert mg.bit_generator.state == ng.bit_generator.state


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8", "bool"])
def test_integers_every_dtype(dtype: str) -> None:
    info = np.iinfo(dtype) if dtype != "bool" else None
    lo, hi = (info.min, info.max) if info is not None else (0, 1)
    ranges = [(0, 1), (0, 2), (lo, hi), (lo, hi + 1), (hi - 1, hi + 1), (0, hi // 3 + 1)]
    if info is not None:
        ranges += [(0, 100), (5, 6), (lo, lo + 1), (lo // 2, hi // 2), (0, 255), (0, 257), (0, 2**15 + 1)]
    for seed in (0, 3, 2**70):
        mg, ng = pair(seed)
        for low, high in ranges:
            high_ok = min(high, hi + 1)
            if not low < high_ok:
                continue
            for size in (None, 0, 1, 5, 33, (2, 3)):
                both(mg, ng, "integers", low, high_ok, size, dtype=dtype)
                both(mg, ng, "integers", low, high_ok - 1, size, dtype=dtype, endpoint=True)
        both(mg, ng, "integers", lo, hi, 999, dtype=dtype, endpoint=True)  # the full range
        both(mg, ng, "integers", 7 if dtype != "bool" else 1, size=9, dtype=dtype)  # high alone


def test_integers_arrays_and_defaults() -> None:
    mg, ng = pair(99)
    both(mg, ng, "integers", 10)
    both(mg, ng, "integers", -5, 5, 1001)
    both(mg, ng, "integers", 0, 100, 10**5)
    both(mg, ng, "integers", 0, 2**64 - 1, 17, dtype="uint64", endpoint=True)
    both(mg, ng, "integers", 2**63 - 1, 2**64, 9, dtype="uint64")
    # array bounds: broadcast, drawn one element at a time
    lows, highs = np.array([0, 5, -3]), np.array([[10], [20]])
    for dtype in ("int64", "int32", "int16", "int8", "uint8", "uint16", "uint32", "uint64"):
        lw = np.abs(lows) if dtype.startswith("u") else lows
        same(mg.integers(to_ma(lw), to_ma(highs), dtype=dtype), ng.integers(lw, highs, dtype=dtype))
        same(mg.integers(to_ma(lw), 30, size=(4, 3), dtype=dtype), ng.integers(lw, 30, size=(4, 3), dtype=dtype))
        same(mg.integers(0, to_ma(highs), endpoint=True, dtype=dtype),
             ng.integers(0, highs, endpoint=True, dtype=dtype))
    same(mg.integers(0, to_ma(np.array([1, 2, 2])), dtype="bool"), ng.integers(0, np.array([1, 2, 2]), dtype=bool))
    assert mg.bit_generator.state == ng.bit_generator.state


def test_discrete_distributions() -> None:
    mg, ng = pair(31)
    for n, p in ((0, 0.5), (10, 0.0), (10, 1.0), (10, 0.3), (1000, 0.4), (1000, 0.9), (5, 0.999), (2**40, 0.25),
                 (100, 0.5)):
        for size in (None, 0, 1, 1001):
            both(mg, ng, "binomial", n, p, size)
    for lam in (0.0, 0.5, 5.0, 9.99, 10.0, 50.0, 1e6):
        for size in (None, 1, 1001):
            both(mg, ng, "poisson", lam, size)
    both(mg, ng, "poisson", size=5)
    both(mg, ng, "binomial", 10.5, 0.5, 3)  # n truncates
    both(mg, ng, "binomial", 10**6, 0.3, 20000)  # BTPE: thousands reach its Stirling step
    # a stream where NumPy 2.5's Stirling bound (gh-31238) first decides a draw
    # otherwise than 2.4's, at draw 444: minarray draws as 2.5 does
    mg, ng = pair(1)
    both(mg, ng, "binomial", 1000, 0.4, 1000)


def test_parameter_arrays() -> None:
    mg, ng = pair(8)
    loc, scale = np.array([0.0, 1.0, -2.0]), np.array([[1.0], [0.5]])
    same(mg.normal(to_ma(loc), to_ma(scale)), ng.normal(loc, scale))
    same(mg.normal(to_ma(loc), 2.0, size=(4, 3)), ng.normal(loc, 2.0, size=(4, 3)))
    same(mg.normal([1.0, 2.0], 0.0), ng.normal([1.0, 2.0], 0.0))
    same(mg.uniform(to_ma(loc), 3.0), ng.uniform(loc, 3.0))
    same(mg.exponential(to_ma(scale)), ng.exponential(scale))
    same(mg.gamma(to_ma(np.array([0.3, 1.0, 4.0])), 2.0), ng.gamma(np.array([0.3, 1.0, 4.0]), 2.0))
    same(mg.standard_gamma(to_ma(np.array([0.3, 4.0], dtype="float32")), dtype="float32"),
         ng.standard_gamma(np.array([0.3, 4.0], dtype="float32"), dtype="float32"))
    same(mg.beta([0.5, 2.0], to_ma(np.array([[0.5], [3.0]]))), ng.beta([0.5, 2.0], np.array([[0.5], [3.0]])))
    binomial = generator_method(ng, "binomial")
    same(mg.binomial(to_ma(np.array([10, 2000])), 0.4), binomial(np.array([10, 2000]), 0.4))
    same(mg.binomial(50, to_ma(np.array([0.1, 0.9]))), binomial(50, np.array([0.1, 0.9])))
    same(mg.poisson(to_ma(np.array([1.0, 30.0])), size=(3, 2)), ng.poisson(np.array([1.0, 30.0]), size=(3, 2)))
    same(mg.normal(ma.asarray(1.5), 2.0), ng.normal(np.asarray(1.5), 2.0))  # 0-d arrays are scalars
    with pytest.raises(ValueError, match="not compatible"):
        mg.normal(to_ma(loc), 1.0, size=4)
    assert mg.bit_generator.state == ng.bit_generator.state


# ---- lognormal, multinomial and dirichlet ------------------------------------------------


@pytest.mark.parametrize("size", [None, 0, 1, 1000, (3, 5)], ids=repr)
@pytest.mark.parametrize("args", [(), (0.5, 2.0), (-3.0, 0.0), (0, 1), (1000.0, 1.0), (0.0, float("nan")),
                                  ([0.0, 1.0, -2.0], 0.5), (1.0, [[1.0], [0.0]])], ids=repr)
def test_lognormal(args: tuple[Any, ...], size: Any) -> None:
    if size is not None and any(isinstance(a, list) for a in args):
        size = np.broadcast_shapes(*(np.shape(a) for a in args))
    mg, ng = pair(21)
    both(mg, ng, "lognormal", *args, size=size)
    both(mg, ng, "lognormal", *args, size=size)


# (n, pvals): the early stop, zero and one probabilities (no draw for a zero
# probability or no trials left), pvals summing below 1 (the last takes the
# rest), one category, BTPE's large counts
MULTINOMIAL_CASES: list[tuple[int, list[float]]] = [
    (10, [0.2, 0.3, 0.5]), (0, [0.5, 0.5]), (20, [0.0, 0.5, 0.5]), (20, [0.0, 1.0]), (20, [1.0, 0.0, 0.0]),
    (20, [0.5, 0.0, 0.5]), (7, [0.1, 0.2]), (5, [1.0]), (3, [0.4]), (1000, [0.1] * 10),
    (2**40, [0.3, 0.25, 0.45]), (1, [1 / 6] * 6),
]


@pytest.mark.parametrize("seed", [0, 1, 42, [1, 2, 3]], ids=repr)
@pytest.mark.parametrize("size", [None, 0, 1, 7, (3, 5), (), (2, 0, 3)], ids=repr)
@pytest.mark.parametrize(("n", "pvals"), MULTINOMIAL_CASES, ids=[f"{n}-{p[:3]}" for n, p in MULTINOMIAL_CASES])
def test_multinomial(n: int, pvals: list[float], size: Any, seed: Any) -> None:
    mg, ng = pair(seed)
    both(mg, ng, "multinomial", n, pvals, size)
    both(mg, ng, "multinomial", n, pvals, size=size)


def test_multinomial_broadcasts_n_and_the_rows_of_pvals() -> None:
    """n (any shape) and the rows of pvals (its last axis the categories)
    broadcast, with size when given; float n truncates; pvals may be a
    strided view or float32 (cast to float64 before the draws)."""
    mg, ng = pair(12)
    multinomial = generator_method(ng, "multinomial")
    p2 = np.array([[0.2, 0.3, 0.5], [0.0, 1.0, 0.0], [0.6, 0.1, 0.3]])
    calls: list[tuple[Any, Any, Any]] = [
        ([10, 20], [0.2, 0.3, 0.5], None), ([[0], [5], [100]], [0.5, 0.5], None), (10, p2, None),
        (np.array([1, 50, 2000]), p2, None), ([[3], [7]], p2, None), (10, p2, (4, 3)), ([5, 6], [0.5, 0.5], (3, 2)),
        (np.array([], dtype=np.int64), [0.5, 0.5], None), (5.5, p2, None), ([5.0, 6.9], [0.5, 0.5], None),
        (True, p2[:1], (2, 1)), (7, p2.astype(np.float32), None), (4, p2.reshape(3, 1, 3), (2, 3, 4)),
    ]
    for n, pvals, size in calls:
        same(mg.multinomial(to_ma(n), to_ma(pvals), size), multinomial(n, pvals, size))
    same(mg.multinomial(9, ma.asarray(p2)[:, ::-1]), multinomial(9, p2[:, ::-1]))
    same(mg.multinomial(np.int64(9), [0.5, 0.5], 2), multinomial(9, [0.5, 0.5], 2))
    assert mg.bit_generator.state == ng.bit_generator.state


# (n, pvals, size, exception, message)
MULTINOMIAL_ERRORS: list[tuple[Any, Any, Any, type[Exception], str]] = [
    (5, 0.5, None, ValueError, "pvals must have at least 1 dimension and the last dimension of pvals must be greater"),
    (5, [], None, ValueError, "pvals must have at least 1 dimension"),
    (5, [[]], 3, ValueError, "pvals must have at least 1 dimension"),
    (5, [0.5, -0.1, 0.6], None, ValueError, "pvals < 0, pvals > 1 or pvals contains NaNs"),
    (5, [[0.5, 0.5], [float("nan"), 0.5]], None, ValueError, "pvals < 0, pvals > 1 or pvals contains NaNs"),
    (5, [0.7, 0.7, 0.1], None, ValueError, re.escape("sum(pvals[:-1]) > 1.0")),
    (5, [[0.5, 0.5, 0.0], [0.7, 0.7, 0.0]], None, ValueError, re.escape("sum(pvals[...,:-1]) > 1.0")),
    (5, np.array([0.5, 0.5000001, 0.0], dtype=np.float32), None, ValueError,
     re.escape("sum(pvals[:-1].astype(np.float64)) > 1.0. The pvals array is cast to 64-bit floating point")),
    (-1, [0.5, 0.5], None, ValueError, "n < 0"),
    ([5, -1], [0.5, 0.5], None, ValueError, "n < 0"),
    (-1, [[0.5, 0.5]], None, ValueError, "n < 0"),
    (-1, [0.5, 0.5], -1, ValueError, "negative dimensions are not allowed"),  # the size first, as NumPy
    (5, [[0.2, 0.8], [0.3, 0.7]], (3, 1), ValueError,
     re.escape("Output size (3, 1) is not compatible with broadcast dimensions of inputs (3, 2).")),
    ([1, 2, 3], [[0.5, 0.5], [0.5, 0.5]], None, ValueError, "broadcast"),
    ("5", [0.5, 0.5], None, TypeError, "an integer is required"),
    (2**63, [0.5, 0.5], None, OverflowError, "Python int too large to convert to C long"),
]


@pytest.mark.parametrize(("n", "pvals", "size", "exc", "msg"), MULTINOMIAL_ERRORS,
                         ids=[f"{e[4][:30]}-{i}" for i, e in enumerate(MULTINOMIAL_ERRORS)])
def test_multinomial_errors(n: Any, pvals: Any, size: Any, exc: type[Exception], msg: str) -> None:
    mg, ng = pair(2)
    with pytest.raises(exc, match=msg):
        ng.multinomial(n, pvals, size)
    with pytest.raises(exc, match=msg):
        mg.multinomial(n, to_ma(pvals), size)
    assert mg.bit_generator.state == ng.bit_generator.state


# alphas of both of NumPy's branches: stick breaking when every alpha is
# below 0.1 (with zeros: the rows stop at the first j after which every
# alpha is 0; all zeros: no draw at all), else gammas over their row's sum
# (an alpha of 0 gives 0 there; a NaN, NaN rows: NumPy refuses only alpha < 0);
# 0.1 itself is the gamma branch
DIRICHLET_CASES: list[list[float]] = [
    [1.0, 2.0, 3.0], [0.5], [3.0], [100.0, 0.5, 1.0, 7.5], [0.0, 2.0], [0.1, 0.05], [float("nan"), 1.0],
    [float("inf"), 1.0], [], [0.05], [0.05, 0.02, 0.01], [1e-3] * 5, [0.05, 0.0, 0.02], [0.05, 0.02, 0.0, 0.0],
    [0.0, 0.05], [0.0, 0.0], [-0.0, 0.0], [0.09, 0.0999],
]


@pytest.mark.parametrize("seed", [0, 1, 42], ids=repr)
@pytest.mark.parametrize("size", [None, 0, 1, 7, (3, 5), ()], ids=repr)
@pytest.mark.parametrize("alpha", DIRICHLET_CASES, ids=repr)
def test_dirichlet(alpha: list[float], size: Any, seed: Any) -> None:
    mg, ng = pair(seed)
    both(mg, ng, "dirichlet", alpha, size)
    both(mg, ng, "dirichlet", ma.asarray(alpha), size=size)
    both(mg, ng, "dirichlet", tuple(alpha), size)


def test_dirichlet_long_rows_and_a_strided_alpha() -> None:
    mg, ng = pair(6)
    alpha = np.linspace(0.2, 40.0, 300)
    both(mg, ng, "dirichlet", alpha, 50)
    same(mg.dirichlet(ma.asarray(alpha)[::-3], 4), ng.dirichlet(alpha[::-3], 4))
    small = np.linspace(0.0, 0.09, 40)
    same(mg.dirichlet(ma.asarray(small)[::-1], (5, 2)), ng.dirichlet(small[::-1], (5, 2)))
    assert mg.bit_generator.state == ng.bit_generator.state


@pytest.mark.parametrize(("alpha", "exc", "msg"), [
    ([1.0, -1.0], ValueError, "alpha < 0"), ([0.05, -1e-300], ValueError, "alpha < 0"),
    (1.0, TypeError, "has no len"), ([[1.0, 2.0]], ValueError, "too deep|dimension"),
    (np.ones((2, 2)), ValueError, "too deep"),
], ids=repr)
def test_dirichlet_errors(alpha: Any, exc: type[Exception], msg: str) -> None:
    mg, ng = pair(2)
    with pytest.raises(exc, match=msg):
        ng.dirichlet(alpha)
    with pytest.raises(exc, match=msg):
        mg.dirichlet(to_ma(alpha))
    with pytest.raises(ValueError, match="negative dimensions"):
        mg.dirichlet([1.0], size=-1)
    assert mg.bit_generator.state == ng.bit_generator.state


# ---- choice and permutations ------------------------------------------------------


def test_choice() -> None:
    mg, ng = pair(17)
    a = np.arange(24.0).reshape(6, 4)
    cases: list[tuple[Any, dict[str, Any]]] = [
        (10, {}), (10, {"size": 5}), (10, {"size": (2, 3)}), (10, {"size": 0}), (10, {"size": ()}),
        (10, {"size": 10, "replace": False}), (10, {"size": 4, "replace": False, "shuffle": False}),
        (5, {"size": 6, "p": [0.1, 0.0, 0.5, 0.4, 0.0]}),
        (5, {"size": 3, "replace": False, "p": [0.1, 0.0, 0.5, 0.4, 0.0]}),
        (5, {"replace": False, "p": [0.1, 0.0, 0.5, 0.4, 0.0]}),
        (20000, {"size": 5000, "replace": False}),  # the tail-shuffle path
        (20000, {"size": 300, "replace": False, "shuffle": False}),  # the tail shuffle without a final shuffle
        (20000, {"size": 100, "replace": False}),  # Floyd
        (2**40, {"size": 5, "replace": False}),  # Floyd with 64-bit draws
        (np.array([3, 1, 4, 1, 5]), {"size": 7}), (np.array([3.5, 1.0]), {}), ([1, 2, 3], {"size": ()}),
        (a, {"size": 3}), (a, {"size": 2, "axis": 1}), (a, {}), (a, {"size": 4, "replace": False, "axis": 0}),
        (a, {"size": (2, 2), "axis": -1, "p": [0.25, 0.25, 0.25, 0.25]}),
        (0, {"size": 0}), (np.array([]), {"size": 0}),
    ]
    for arg, kw in cases:
        marg = to_ma(arg)
        same(mg.choice(marg, **kw), ng.choice(arg, **kw))
        assert mg.bit_generator.state == ng.bit_generator.state, (arg, kw)


def test_shuffle_permutation_permuted() -> None:
    mg, ng = pair(23)
    for n in (0, 1, 2, 17, 1000):
        both(mg, ng, "permutation", n)
    x = np.arange(60.0).reshape(5, 12)
    for ax in (0, 1, -1):
        same(mg.permutation(to_ma(x), axis=ax), ng.permutation(x, axis=ax))
    same(mg.permutation([5, 6, 7]), ng.permutation([5, 6, 7]))
    for dtype in ("float64", "float32", "int8", "complex128", "bool"):
        nx = (np.arange(31) % 3).astype(dtype)
        mx = to_ma(nx)
        mg.shuffle(mx)
        ng.shuffle(nx)
        same(mx, nx)
    # strided 1-d, n-d along each axis, a list
    nx, mx = np.arange(40), ma.arange(40)
    mg.shuffle(mx[::3])
    ng.shuffle(nx[::3])
    same(mx, nx)
    for ax in (0, 1):
        ny, my = x.copy(), to_ma(x.copy())
        mg.shuffle(my, axis=ax)
        ng.shuffle(ny, axis=ax)
        same(my, ny)
    # a NumPy array is shuffled in place, through a zero-copy view
    nx, ox = np.arange(50.0).reshape(10, 5), np.arange(50.0).reshape(10, 5)
    mg.shuffle(nx, axis=1)
    ng.shuffle(ox, axis=1)
    assert nx.tobytes() == ox.tobytes()
    ml, nl = list(range(9)), list(range(9))
    mg.shuffle(ml)
    ng.shuffle(nl)
    assert ml == nl
    # permuted: flat and per axis, C- and F-ordered, non-contiguous, out=
    z = np.arange(3 * 4 * 5).reshape(3, 4, 5)
    for src in (z, np.asfortranarray(z), z[:, ::2, :], z.transpose(1, 0, 2)):
        for ax in (None, 0, 1, 2):
            mz = ma.asarray(src)
            same(mg.permuted(mz, axis=ax), ng.permuted(src, axis=ax))
    mo, no = ma.zeros((3, 4, 5), dtype="int64"), np.zeros((3, 4, 5), dtype="int64")
    assert mg.permuted(to_ma(z), axis=1, out=mo) is mo
    ng.permuted(z, axis=1, out=no)
    same(mo, no)
    assert mg.bit_generator.state == ng.bit_generator.state
    with pytest.raises(ValueError, match="read-only"):
        mg.shuffle(_readonly())


def _readonly() -> Any:
    a = np.arange(4.0)
    a.flags.writeable = False
    return ma.from_numpy(a)


def test_bytes() -> None:
    mg, ng = pair(3)
    for n in (0, 1, 3, 4, 5, 13, 1000):
        both(mg, ng, "bytes", n)
    # NumPy returns b"" for a negative length and spawn(-1) raises
    # OverflowError in NumPy 2.4; minarray says what is wrong instead.
    with pytest.raises(ValueError, match="negative"):
        mg.bytes(-1)
    with pytest.raises(ValueError, match="non-negative"):
        mg.spawn(-1)


def _numpy_on_openblas() -> bool:
    try:
        blas = np.__config__.CONFIG["Build Dependencies"]["blas"]["name"]
    except (AttributeError, KeyError, TypeError):
        return False
    return "openblas" in str(blas).lower()


def test_cholesky_factor_matches_numpys_for_small_matrices() -> None:
    # minarray factors in OpenBLAS's order of operations: bit for bit up to
    # 4 x 4 (the sizes OpenBLAS runs unblocked), within rounding above.
    for d in (1, 2, 3, 4, 6, 9):
        for seed in range(20):
            a = np.random.default_rng(100 * d + seed).standard_normal((d, d))
            cov = a @ a.T + 0.1 * np.eye(d)
            got = np.from_dlpack(ma.random.default_rng(0).multivariate_normal(
                np.zeros(d), to_ma(cov), 2, method="cholesky"))
            want = np.random.default_rng(0).multivariate_normal(np.zeros(d), cov, 2, method="cholesky")
            if d <= 4 and _numpy_on_openblas():
                assert got.tobytes() == want.tobytes(), (d, seed)
            else:
                np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_multivariate_normal() -> None:
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 0.5]])
    for method in ("cholesky", "svd", "eigh"):
        mg, ng = pair(13)
        for size in (None, 4, (2, 3)):
            got = mg.multivariate_normal(to_ma(mean), to_ma(cov), size, method=method)
            want = ng.multivariate_normal(mean, cov, size, method=method)
            g = np.from_dlpack(got)
            assert g.shape == want.shape
            if method == "cholesky" and not _numpy_on_openblas():
                # the same normals; another LAPACK/BLAS rounds the factor
                # and the product in its own order
                np.testing.assert_allclose(g, want, rtol=1e-13, atol=1e-13)
            else:
                assert g.tobytes() == want.tobytes()
            assert mg.bit_generator.state == ng.bit_generator.state
    mg, ng = pair(1)
    with pytest.raises(ValueError, match="positive definite"):
        mg.multivariate_normal([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]], method="cholesky")
    with pytest.raises(np.linalg.LinAlgError):
        ng.multivariate_normal([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]], method="cholesky")
    for bad in (([0.0], [[1.0, 0.0], [0.0, 1.0]]), ([[0.0]], [[1.0]]), ([0.0, 1.0], [1.0, 2.0])):
        with pytest.raises(ValueError):
            mg.multivariate_normal(*bad)
        with pytest.raises(ValueError):
            ng.multivariate_normal(*bad)
    with pytest.raises(ValueError):
        mg.multivariate_normal([0.0], [[1.0]], method="qr")


# ---- errors -------------------------------------------------------------------------


BAD_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("integers", (5, 5), {}), ("integers", (5, 4), {"endpoint": True}), ("integers", (0,), {}),
    ("integers", (-1, 5), {"dtype": "uint8"}), ("integers", (0, 300), {"dtype": "uint8"}),
    ("integers", (0, 2**64 + 1), {"dtype": "uint64"}), ("integers", (0, 5), {"dtype": "float64"}),
    ("integers", (0, 5), {"size": -1}),
    ("random", (), {"dtype": "int64"}), ("standard_normal", (), {"dtype": "float16"}),
    ("normal", (0.0, -1.0), {}), ("normal", (0.0, -0.0), {}), ("exponential", (-1.0,), {}),
    ("gamma", (-1.0,), {}), ("gamma", (1.0, -2.0), {}), ("standard_gamma", (-0.5,), {}),
    ("beta", (0.0, 1.0), {}), ("beta", (1.0, -1.0), {}),
    ("binomial", (10, 1.5), {}), ("binomial", (10, float("nan")), {}), ("binomial", (-1, 0.5), {}),
    ("poisson", (-1.0,), {}), ("poisson", (float("nan"),), {}), ("poisson", (1e20,), {}),
    ("uniform", (0.0, float("inf")), {}), ("uniform", (-1e308, 1e308), {}),
    ("choice", (0,), {}), ("choice", (5,), {"p": [0.5, 0.6, 0.0, 0.0, 0.0]}),
    ("choice", (3,), {"p": [0.5, -0.5, 1.0]}), ("choice", (3,), {"p": [0.5, float("nan"), 0.5]}),
    ("choice", (3,), {"p": [0.5, 0.5]}), ("choice", (3,), {"size": 4, "replace": False}),
    ("choice", (3,), {"size": 2, "replace": False, "p": [1.0, 0.0, 0.0]}), ("choice", (1.5,), {}),
    ("choice", ([],), {}), ("choice", (3,), {"p": [[0.5, 0.5, 0.0]]}), ("choice", ([1, 2],), {"axis": 1}),
    ("permutation", (np.arange(3),), {"axis": 1}), ("standard_exponential", (), {"dtype": "int32"}),
    ("choice", (3,), {"size": -2}),
]


@pytest.mark.parametrize(("method", "args", "kwargs"), BAD_CALLS, ids=lambda v: str(v)[:30])
def test_bad_arguments_raise_numpys_errors(method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    mg, ng = pair(4)
    with pytest.raises(Exception) as want:
        getattr(ng, method)(*args, **kwargs)
    margs = tuple(to_ma(a) for a in args)
    with pytest.raises(Exception) as got:
        getattr(mg, method)(*margs, **kwargs)
    # NumPy's AxisError is both a ValueError and an IndexError; minarray
    # raises IndexError for an axis out of range, as the Array API does.
    expected = tuple(c for c in (ValueError, TypeError, OverflowError, IndexError, NotImplementedError)
                     if isinstance(want.value, c))
    assert isinstance(got.value, expected), (got.value, want.value)
    assert str(got.value), "an error message says what is wrong"
    assert mg.bit_generator.state == ng.bit_generator.state


def test_error_messages_match_numpy() -> None:
    mg, ng = pair(4)
    for method, args in (("integers", (5, 5)), ("integers", (0,)), ("normal", (0.0, -1.0)),
                         ("binomial", (10, 1.5)), ("poisson", (-1.0,)), ("beta", (0.0, 1.0))):
        with pytest.raises(ValueError) as want:
            getattr(ng, method)(*args)
        with pytest.raises(ValueError, match=re.escape(str(want.value))):
            getattr(mg, method)(*args)


# ---- the other distributions --------------------------------------------------------------

# (method, args): scalars at the edges of each algorithm's branches, and
# arrays that broadcast against each other
MORE_CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("standard_cauchy", ()), ("standard_t", (3.5,)), ("standard_t", (0.3,)), ("standard_t", ([0.5, 1.0, 30.0],)),
    ("chisquare", (2.5,)), ("chisquare", (0.5,)), ("chisquare", ([0.1, 2.0, 2.5, 400.0],)),
    ("f", (3.0, 5.0)), ("f", (0.5, 0.7)), ("f", ([1.0, 2.0, 30.0], [[1.0], [40.0]])),
    ("laplace", ()), ("laplace", (1.0, 2.0)), ("laplace", ([0.0, 3.0], [[1.0], [0.0]])),
    ("logistic", ()), ("logistic", (0.5, 2.0)), ("logistic", ([0.0, 3.0], [[1.0], [0.0]])),
    ("gumbel", ()), ("gumbel", (0.5, 2.0)), ("gumbel", ([0.0, 3.0], [[1.0], [0.0]])),
    ("rayleigh", ()), ("rayleigh", (2.0,)), ("rayleigh", ([0.0, 1.0, 5.0],)),
    ("pareto", (3.0,)), ("pareto", (0.1,)), ("pareto", ([0.5, 2.0, 50.0],)),
    ("power", (0.5,)), ("power", (5.0,)), ("power", ([0.1, 1.0, 20.0],)),
    ("weibull", (1.5,)), ("weibull", (0.0,)), ("weibull", ([0.0, 0.5, 3.0],)),
    ("noncentral_chisquare", (3.0, 2.0)), ("noncentral_chisquare", (0.5, 2.0)),
    ("noncentral_chisquare", (3.0, 0.0)), ("noncentral_chisquare", (3.0, float("nan"))),
    ("noncentral_chisquare", ([0.5, 1.0, 2.0, 9.0], [[0.0], [1.5]])),
    ("noncentral_f", (3.0, 5.0, 1.5)), ("noncentral_f", (0.5, 5.0, 0.0)),
    ("noncentral_f", ([0.5, 3.0], [2.0, 7.0], [[0.0], [2.0]])),
    ("triangular", (0.0, 1.0, 3.0)), ("triangular", (0.0, 0.0, 1.0)), ("triangular", (-1.0, 2.0, 2.0)),
    ("triangular", ([0.0, 1.0], [[1.0], [2.0]], 5.0)),
    ("vonmises", (0.5, 2.0)), ("vonmises", (0.5, 1e-9)), ("vonmises", (-3.0, 1e-6)), ("vonmises", (3.0, 1e7)),
    ("vonmises", (-3.1, 1e7)), ("vonmises", (0.0, float("nan"))),
    ("vonmises", ([0.0, 3.1, -3.1], [[0.0], [1.0], [50.0], [2e6]])),
    ("wald", (1.0, 2.0)), ("wald", (3.0, 0.1)), ("wald", ([0.5, 2.0], [[1.0], [10.0]])),
    ("geometric", (0.5,)), ("geometric", (0.1,)), ("geometric", (1.0,)), ("geometric", (1e-300,)),
    ("geometric", ([0.05, 0.4, 1.0],)),
    ("negative_binomial", (3.0, 0.4)), ("negative_binomial", (0.5, 0.9)), ("negative_binomial", (10.0, 1.0)),
    ("negative_binomial", ([1.0, 5.0, 50.0], [[0.1], [0.7]])),
    ("zipf", (2.0,)), ("zipf", (1.1,)), ("zipf", (5.0,)), ("zipf", (2000.0,)), ("zipf", ([1.5, 3.0],)),
    ("logseries", (0.7,)), ("logseries", (0.99,)), ("logseries", (0.0,)), ("logseries", (0.2,)),
    ("logseries", ([0.1, 0.5, 0.999],)),
    ("hypergeometric", (5, 5, 3)), ("hypergeometric", (20, 3, 10)), ("hypergeometric", (3, 20, 10)),
    ("hypergeometric", (100, 200, 50)), ("hypergeometric", (200, 100, 250)), ("hypergeometric", (0, 5, 5)),
    ("hypergeometric", (5, 0, 5)), ("hypergeometric", (5, 5, 0)), ("hypergeometric", (10**8, 10**8, 10**5)),
    ("hypergeometric", (15, 15, 20)), ("hypergeometric", (300, 700, 995)),
    ("hypergeometric", ([5, 50, 500], [[7], [70]], [3, 30, 300])), ("hypergeometric", (5.5, 5.0, 3.0)),
]


@pytest.mark.parametrize("kind", BITGENS)
@pytest.mark.parametrize("size", [None, 7, (2, 3)], ids=repr)
@pytest.mark.parametrize(("name", "args"), MORE_CASES, ids=[f"{n}{a}" for n, a in MORE_CASES])
def test_more_distributions(name: str, args: tuple[Any, ...], size: Any, kind: str) -> None:
    if size is not None and any(isinstance(a, list) for a in args):
        size = (*((2,) if isinstance(size, tuple) else ()), *np.broadcast_shapes(*(np.shape(a) for a in args)))
    for seed in (0, 5, 2**70):
        mg, ng = pair(seed, kind)
        both(mg, ng, name, *args, size=size)
        both(mg, ng, name, *args, size=size)
        both(mg, ng, "standard_normal", 3)


MORE_ERRORS: list[tuple[str, tuple[Any, ...]]] = [
    ("standard_t", (0.0,)), ("standard_t", ([1.0, -1.0],)), ("chisquare", (-1.0,)), ("chisquare", ([0.0],)),
    ("f", (0.0, 1.0)), ("f", (1.0, [1.0, 0.0])), ("laplace", (0.0, -1.0)), ("laplace", ([0.0], [-1.0])),
    ("logistic", (0.0, -1.0)), ("gumbel", (0.0, -0.5)), ("gumbel", (0.0, [1.0, -0.5])), ("rayleigh", (-1.0,)),
    ("rayleigh", ([-1.0],)), ("pareto", (0.0,)), ("pareto", ([1.0, -1.0],)), ("power", (0.0,)),
    ("power", ([-2.0],)), ("weibull", (-1.0,)), ("weibull", ([1.0, -1.0],)),
    ("noncentral_chisquare", (0.0, 1.0)), ("noncentral_chisquare", (1.0, -1.0)),
    ("noncentral_chisquare", ([1.0], [1.0, -1.0])), ("noncentral_f", (0.0, 1.0, 1.0)),
    ("noncentral_f", (1.0, 0.0, 1.0)), ("noncentral_f", (1.0, 1.0, -1.0)),
    ("noncentral_f", ([1.0], 1.0, [-1.0])), ("triangular", (1.0, 0.0, 2.0)), ("triangular", (0.0, 3.0, 2.0)),
    ("triangular", (1.0, 1.0, 1.0)), ("triangular", ([0.0, 2.0], 1.0, 3.0)),
    ("triangular", ([0.0], [1.0], [0.5])), ("triangular", ([1.0], 1.0, [1.0, 2.0])),
    ("vonmises", (0.0, -1.0)), ("vonmises", (0.0, [1.0, -1.0])), ("wald", (0.0, 1.0)), ("wald", (1.0, 0.0)),
    ("wald", ([1.0], [-1.0])), ("geometric", (0.0,)), ("geometric", (1.5,)), ("geometric", (float("nan"),)),
    ("geometric", ([0.5, 0.0],)), ("negative_binomial", (0.0, 0.5)), ("negative_binomial", (1.0, 1.5)),
    ("negative_binomial", (1.0, 0.0)), ("negative_binomial", (float("nan"), 0.5)),
    ("negative_binomial", ([1.0, float("nan")], 0.5)), ("negative_binomial", ([1.0], [0.5, -0.1])),
    ("negative_binomial", (1e300, 0.5)), ("negative_binomial", (5.0, 1e-300)),
    ("negative_binomial", ([5.0, 1e300], [0.5])), ("zipf", (1.0,)), ("zipf", (float("nan"),)),
    ("zipf", ([2.0, 0.5],)), ("logseries", (1.0,)), ("logseries", (-0.1,)), ("logseries", (float("nan"),)),
    ("logseries", ([0.5, 1.0],)),
    ("hypergeometric", (-1, 5, 3)), ("hypergeometric", (5, -1, 3)), ("hypergeometric", (5, 5, -1)),
    ("hypergeometric", (5, 5, 11)), ("hypergeometric", ([5, -1], 5, 3)), ("hypergeometric", ([5], [5], [-1])),
    ("hypergeometric", ([5], [5], [11])), ("hypergeometric", (10**9, 1, 1)), ("hypergeometric", ([1, 10**9], 1, 1)),
    ("hypergeometric", (1, [10**9], 1)),
]


@pytest.mark.parametrize(("args", "exc", "msg"), [
    (("5", 5, 3), TypeError, "integer"), ((2**63, 1, 1), OverflowError, "too large"),
], ids=repr)
def test_hypergeometric_refuses_what_numpy_refuses(args: tuple[Any, ...], exc: type[Exception], msg: str) -> None:
    mg, ng = pair(3)
    with pytest.raises(exc, match=msg):
        ng.hypergeometric(*args)
    with pytest.raises(exc, match=msg):
        mg.hypergeometric(*args)
    assert mg.bit_generator.state == ng.bit_generator.state


@pytest.mark.parametrize(("name", "args"), MORE_ERRORS, ids=[f"{n}{a}" for n, a in MORE_ERRORS])
def test_more_distributions_refuse_as_numpy(name: str, args: tuple[Any, ...]) -> None:
    mg, ng = pair(4)
    with pytest.raises(ValueError) as want:
        getattr(ng, name)(*args)
    with pytest.raises(ValueError, match=f"^{re.escape(str(want.value))}$"):
        getattr(mg, name)(*args)
    assert mg.bit_generator.state == ng.bit_generator.state


MVHG_CASES: list[tuple[list[int], int]] = [
    ([3, 2, 5], 4), ([3, 2, 5], 9), ([3, 2, 5], 10), ([3, 2, 5], 0), ([], 0), ([7], 3), ([0, 0, 4], 2),
    ([100, 200, 300, 400], 450), ([10**6, 5, 10**5], 60000), ([1] * 50, 20),
]


@pytest.mark.parametrize("method", ["marginals", "count"])
@pytest.mark.parametrize("size", [None, 1, 6, (2, 3), 0], ids=repr)
@pytest.mark.parametrize(("colors", "nsample"), MVHG_CASES, ids=[f"{c[:4]}-{k}" for c, k in MVHG_CASES])
def test_multivariate_hypergeometric(colors: list[int], nsample: int, size: Any, method: str) -> None:
    if method == "count" and sum(colors) > 10**5:
        colors = [c // 100 for c in colors]  # 'count' holds one entry per item
        nsample //= 100
    for seed in (0, 9):
        mg, ng = pair(seed)
        both(mg, ng, "multivariate_hypergeometric", colors, nsample, size=size, method=method)
        both(mg, ng, "multivariate_hypergeometric", colors, nsample, size=size, method=method)


@pytest.mark.parametrize(("args", "kwargs"), [
    (([3, 2], 2.0), {}), (([3, 2], -1), {}), (([3, 2], 6), {}), (([[3, 2]], 1), {}), (([3.0, 2.0], 1), {}),
    (([3, -2], 1), {}), (([10**9], 1), {}), (([3, 2], 1), {"method": "x"}), (([2**62, 2**62], 1), {}),
    ((["a"], 1), {}),
], ids=repr)
def test_multivariate_hypergeometric_errors(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    mg, ng = pair(2)
    with pytest.raises(ValueError) as want:
        ng.multivariate_hypergeometric(*args, **kwargs)
    with pytest.raises(ValueError, match=f"^{re.escape(str(want.value))}$"):
        mg.multivariate_hypergeometric(*args, **kwargs)
    assert mg.bit_generator.state == ng.bit_generator.state


# ---- threads ---------------------------------------------------------------------------


def test_shared_generator_between_threads() -> None:
    # Every random() draw consumes exactly one 64-bit output: if the lock
    # held, the final state is the start advanced by the total count.
    g = ma.random.default_rng(77)
    start = g.bit_generator.state
    per_call, calls, nthreads = 20000, 25, 4

    def work() -> None:
        for _ in range(calls):
            g.random(per_call)

    threads = [threading.Thread(target=work) for _ in range(nthreads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ref = np.random.PCG64()
    ref.state = start
    ref.advance(per_call * calls * nthreads)
    assert g.bit_generator.state == ref.state


# ---- the ziggurat tables ------------------------------------------------------------------


def _tables() -> dict[str, list[float]]:
    text = (Path(__file__).resolve().parent.parent / "csrc" / "core" / "ziggurat.h").read_text()
    out = {}
    for name, body in re.findall(r"static const \w+ (zig_\w+)\[256\] = \{(.*?)\};", text, re.S):
        vals = [v.strip().rstrip("fUL") for v in body.split(",") if v.strip()]
        out[name] = [float(int(v, 16)) if v.startswith("0x") and "p" not in v else float.fromhex(v) for v in vals]
    return out


@pytest.mark.parametrize(("prefix", "bits", "density", "inverse"), [
    ("zig_nor", 52, lambda x: math.exp(-0.5 * x * x), lambda y: math.sqrt(-2.0 * math.log(y))),
    ("zig_nor_f", 23, lambda x: math.exp(-0.5 * x * x), lambda y: math.sqrt(-2.0 * math.log(y))),
    ("zig_exp", 53, lambda x: math.exp(-x), lambda y: -math.log(y)),
    ("zig_exp_f", 23, lambda x: math.exp(-x), lambda y: -math.log(y)),
])
def test_ziggurat_tables_follow_their_definition(prefix: str, bits: int, density: Callable[[float], float],
                                                 inverse: Callable[[float], float]) -> None:
    """The tables are NumPy's values (kept as data for bit-identical
    streams); they must still be the Marsaglia-Tsang construction:
    x[i] = f^-1(v / x[i+1] + f(x[i+1])), f = f(x), k = 2^b x[i-1] / x[i]."""
    t = _tables()
    suffix = "_f" if prefix.endswith("_f") else ""
    base = prefix[:-2] if suffix else prefix
    k, w, f = t[base + "_k" + suffix], t[base + "_w" + suffix], t[base + "_f" + suffix]
    scale = 2.0**bits
    x = [wi * scale for wi in w]
    r = x[255]
    v = x[0] * density(r)  # w[0] is (v / f(r)) / 2^b
    rel = 1e-12 if not suffix else 1e-6
    for i in range(1, 255):
        assert math.isclose(x[i], inverse(v / x[i + 1] + density(x[i + 1])), rel_tol=rel * 10), i
        assert math.isclose(f[i], density(x[i]), rel_tol=rel), i
        assert abs(k[i + 1] - scale * x[i] / x[i + 1]) <= 2 + scale * rel, i
    assert k[1] == 0 and f[0] == 1.0
    assert abs(k[0] - scale * r * density(r) / v) <= 2 + scale * rel


# ---- many seeds, sizes and arguments at once ----------------------------------------

_CALLS: list[tuple[str, Callable[[Any], tuple[tuple[Any, ...], dict[str, Any]]]]] = [
    ("random", lambda d: ((), {"dtype": d.draw(st.sampled_from(["float64", "float32"]))})),
    ("standard_normal", lambda d: ((), {"dtype": d.draw(st.sampled_from(["float64", "float32"]))})),
    ("standard_exponential", lambda d: ((), {"dtype": d.draw(st.sampled_from(["float64", "float32"])),
                                             "method": d.draw(st.sampled_from(["zig", "inv"]))})),
    ("integers", lambda d: _int_args(d)),
    ("uniform", lambda d: ((d.draw(st.floats(-1e6, 1e6)), d.draw(st.floats(1e6, 2e6))), {})),
    ("normal", lambda d: ((d.draw(st.floats(-10, 10)), d.draw(st.floats(0, 10))), {})),
    ("gamma", lambda d: ((d.draw(st.floats(0, 20)), d.draw(st.floats(0, 5))), {})),
    ("beta", lambda d: ((d.draw(st.floats(0.01, 5)), d.draw(st.floats(0.01, 5))), {})),
    ("binomial", lambda d: ((d.draw(st.integers(0, 10**9)), d.draw(st.floats(0, 1))), {})),
    ("poisson", lambda d: ((d.draw(st.floats(0, 1e7)),), {})),
    ("exponential", lambda d: ((d.draw(st.floats(0, 1e3)),), {})),
    ("lognormal", lambda d: ((d.draw(st.floats(-5, 5)), d.draw(st.floats(0, 3))), {})),
    ("multinomial", lambda d: ((d.draw(st.integers(0, 10**6)), _pvals(d)), {})),
    ("dirichlet", lambda d: ((d.draw(st.lists(st.one_of(st.floats(0, 0.12), st.floats(0, 50)), max_size=5)),), {})),
]


def _pvals(d: Any) -> list[float]:
    """Probabilities summing to 1 (up to rounding), zeros among them."""
    w = d.draw(st.lists(st.one_of(st.just(0.0), st.floats(0, 1)), min_size=1, max_size=5))
    total = sum(w)
    return [x / total for x in w] if total > 0 else [1.0, *w[1:]]


def _int_args(d: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    dtype = d.draw(st.sampled_from(["int64", "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8"]))
    info = np.iinfo(dtype)
    lo = d.draw(st.integers(int(info.min), int(info.max)))
    hi = d.draw(st.integers(lo, int(info.max)))
    return (lo, hi), {"dtype": dtype, "endpoint": True}


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_calls_match_numpy(data: Any) -> None:
    seed = data.draw(st.integers(0, 2**128))
    kind = data.draw(st.sampled_from(BITGENS))
    mg, ng = pair(seed, kind)
    for _ in range(3):
        name, make = data.draw(st.sampled_from(_CALLS))
        args, kwargs = make(data)
        size = data.draw(st.one_of(st.none(), st.integers(0, 300), st.tuples(st.integers(0, 9), st.integers(0, 9))))
        both(mg, ng, name, *args, size=size, **kwargs)
