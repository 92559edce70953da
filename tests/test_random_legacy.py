"""minarray.random's legacy API (RandomState over MT19937, and the module
functions on its global instance) against numpy.random's: the same seeds and
calls give the same numbers, bit for bit, and the same errors."""

from __future__ import annotations

import math
import pickle
import re
from typing import Any

import pytest

import minarray as ma

np = pytest.importorskip("numpy", reason="NumPy is the oracle of the legacy streams")

from numpy_oracle import randomstate_method  # noqa: E402  (it needs NumPy)

SEEDS: list[Any] = [0, 1, 42, 2**32 - 1, [1, 2, 3], list(range(700))]
SIZES: list[Any] = [None, 0, 1, 7, 1000, (3, 5), ()]


def pair(seed: Any = 42) -> tuple[Any, Any]:
    """A minarray and a NumPy RandomState seeded alike."""
    return ma.random.RandomState(seed), np.random.RandomState(seed)


def same(got: Any, want: Any) -> None:
    """Bit-identical results: arrays of the same dtype, shape and bytes, or
    Python scalars equal to NumPy's (same bits for floats)."""
    if isinstance(want, np.ndarray):
        assert isinstance(got, ma.NDArray), type(got)
        g = np.asarray(got.tolist(), dtype=want.dtype).reshape(got.shape) if got.size == 0 else np.from_dlpack(got)
        assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype, want.shape)
        assert g.tobytes() == np.ascontiguousarray(want).tobytes(), (g.ravel()[:8], want.ravel()[:8])
        return
    assert not isinstance(got, ma.NDArray), f"expected a scalar, got {got!r}"
    if isinstance(want, (float, np.floating)):
        assert isinstance(got, float), type(got)
        assert np.float64(got).tobytes() == np.float64(want).tobytes(), (got, want)
    elif isinstance(want, (bool, np.bool_)):
        assert isinstance(got, bool) and got == bool(want)
    elif isinstance(want, (int, np.integer)):
        assert isinstance(got, int) and not isinstance(got, bool) and got == int(want), (got, want)
    else:
        raise AssertionError(f"unexpected result type {type(want)}")


def same_state(mr: Any, nr: Any) -> None:
    mk, nk = mr.get_state(), nr.get_state()
    assert mk[0] == nk[0] == "MT19937"
    assert np.array_equal(np.from_dlpack(mk[1]), nk[1]) and mk[2] == nk[2]
    assert mk[3] == nk[3] and np.float64(mk[4]).tobytes() == np.float64(nk[4]).tobytes()


def both(mr: Any, nr: Any, name: str, *args: Any, **kwargs: Any) -> None:
    """Call method `name` on both and compare the draws, then the states."""
    same(getattr(mr, name)(*args, **kwargs), randomstate_method(nr, name)(*args, **kwargs))
    same_state(mr, nr)


# ---- seeding and the bit generator -------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
def test_seeding_gives_numpys_key(seed: Any) -> None:
    mr, nr = pair(seed)
    same_state(mr, nr)
    mr.seed(seed if not isinstance(seed, list) else seed[::-1])
    nr.seed(seed if not isinstance(seed, list) else seed[::-1])
    same_state(mr, nr)


@pytest.mark.parametrize("seed", [0, 7, 12345, [5, 6], 2**70], ids=repr)
def test_mt19937_seed_sequence_seeding(seed: Any) -> None:
    mb, nb = ma.random.MT19937(seed), np.random.MT19937(seed)
    assert np.array_equal(np.from_dlpack(mb.state["state"]["key"]), nb.state["state"]["key"])
    assert mb.state["state"]["pos"] == nb.state["state"]["pos"]
    assert mb.random_raw(2000).tolist() == nb.random_raw(2000).tolist()
    assert mb.random_raw() == nb.random_raw()
    same(ma.random.RandomState(mb).random_sample(5), np.random.RandomState(nb).random_sample(5))


def test_mt19937_from_numpys_seed_sequence() -> None:
    ss = np.random.SeedSequence(99)
    assert ma.random.MT19937(ss).random_raw(10).tolist() == np.random.MT19937(ss).random_raw(10).tolist()


@pytest.mark.parametrize(("seed", "exc", "msg"), [
    (-1, ValueError, "Seed must be between 0 and 2\\*\\*32 - 1"),
    (2**32, ValueError, "Seed must be between 0 and 2\\*\\*32 - 1"),
    ([1, -1], ValueError, "Seed must be between 0 and 2\\*\\*32 - 1"),
    ([], ValueError, "Seed must be non-empty"),
    ([[1, 2]], ValueError, "Seed array must be 1-d"),
    ([1.5], TypeError, "Cannot cast"),
    (1.5, TypeError, "Cannot cast"),
], ids=["negative", "too-large", "array-negative", "empty", "2d", "float-array", "float"])
def test_bad_seeds(seed: Any, exc: type[Exception], msg: str) -> None:
    with pytest.raises(exc, match=msg):
        np.random.RandomState(seed)
    mr = ma.random.RandomState(3)
    before = mr.get_state(legacy=False)
    with pytest.raises(exc, match=msg):
        mr.seed(seed)
    with pytest.raises(exc, match=msg):
        ma.random.RandomState(seed)
    after = mr.get_state(legacy=False)
    assert after["state"]["key"].tolist() == before["state"]["key"].tolist()


def test_randomstate_refuses_other_bit_generators() -> None:
    with pytest.raises(TypeError, match="MT19937"):
        ma.random.RandomState(ma.random.PCG64(1))


# ---- the streams -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
@pytest.mark.parametrize("size", SIZES, ids=repr)
@pytest.mark.parametrize("name", ["random_sample", "random", "standard_normal", "standard_exponential"])
def test_fills(name: str, size: Any, seed: Any) -> None:
    mr, nr = pair(seed)
    both(mr, nr, name, size)
    both(mr, nr, name, size)


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (0,), (4, 1, 2)], ids=repr)
def test_rand_randn(shape: tuple[int, ...]) -> None:
    mr, nr = pair(5)
    both(mr, nr, "rand", *shape)
    both(mr, nr, "randn", *shape)
    both(mr, nr, "randn", *shape)


def test_long_stream_crosses_many_twists() -> None:
    mr, nr = pair(2024)
    for n in (1, 623, 624, 625, 1247, 100_001):
        both(mr, nr, "random_sample", n)
        both(mr, nr, "randn", n)


# (method, args) with a spread of parameters: scalars, arrays, broadcasting
CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("uniform", ()), ("uniform", (-3.0, 5.5)), ("uniform", (2.0, 1.0)), ("uniform", ([0.0, 1.0, 2.0], 4.0)),
    ("uniform", ([[0.0], [1.0]], [2.0, 3.0, 4.0])),
    ("normal", ()), ("normal", (3.0, 2.0)), ("normal", ([0.0, 10.0], [[1.0], [0.0], [2.0]])),
    ("normal", (1.0, 0.0)),
    ("lognormal", ()), ("lognormal", (0.5, 2.0)), ("lognormal", (-3.0, 0.0)),
    ("lognormal", ([0.0, 1.0], [[1.0], [0.0], [2.0]])),
    ("exponential", ()), ("exponential", (3.5,)), ("exponential", ([0.5, 1.0, 0.0],)),
    ("standard_gamma", (0.5,)), ("standard_gamma", (1.0,)), ("standard_gamma", (3.0,)), ("standard_gamma", (0.0,)),
    ("standard_gamma", ([0.1, 1.0, 2.5, 100.0],)),
    ("gamma", (0.3, 2.0)), ("gamma", (5.0, 0.5)), ("gamma", ([0.5, 1.0, 4.0], [[1.0], [3.0]])),
    ("beta", (0.5, 0.5)), ("beta", (0.1, 0.9)), ("beta", (2.0, 3.0)), ("beta", (0.5, 5.0)),
    ("beta", (1e-3, 1e-3)), ("beta", ([0.2, 2.0], [0.7, 9.0])),
    ("binomial", (10, 0.3)), ("binomial", (1000, 0.4)), ("binomial", (1000, 0.9)), ("binomial", (0, 0.5)),
    ("binomial", (10, 0.0)), ("binomial", (10, 1.0)), ("binomial", (20, 0.95)),
    ("binomial", ([5, 50, 500, 5000], [0.1, 0.5, 0.7, 0.99])), ("binomial", (100, [[0.2], [0.8]])),
    ("poisson", ()), ("poisson", (0.0,)), ("poisson", (3.5,)), ("poisson", (9.99,)), ("poisson", (10.0,)),
    ("poisson", (1234.5,)), ("poisson", ([0.5, 5.0, 50.0, 5e5],)),
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
    ("noncentral_chisquare", (3.0, 0.0)), ("noncentral_chisquare", ([0.5, 1.0, 2.0, 9.0], [[0.0], [1.5]])),
    ("noncentral_f", (3.0, 5.0, 1.5)), ("noncentral_f", (0.5, 5.0, 0.0)),
    ("noncentral_f", ([0.5, 3.0], [2.0, 7.0], [[0.0], [2.0]])),
    ("triangular", (0.0, 1.0, 3.0)), ("triangular", (0.0, 0.0, 1.0)), ("triangular", (-1.0, 2.0, 2.0)),
    ("triangular", ([0.0, 1.0], [[1.0], [2.0]], 5.0)),
    ("vonmises", (0.5, 2.0)), ("vonmises", (0.5, 1e-9)), ("vonmises", (-3.0, 1e-6)), ("vonmises", (3.0, 1e7)),
    ("vonmises", ([0.0, 3.1, -3.1], [[0.0], [1.0], [50.0]])),
    ("wald", (1.0, 2.0)), ("wald", (3.0, 0.1)), ("wald", ([0.5, 2.0], [[1.0], [10.0]])),
    ("geometric", (0.5,)), ("geometric", (0.1,)), ("geometric", (1.0,)), ("geometric", (1e-9,)),
    ("geometric", ([0.05, 0.4, 1.0],)),
    ("negative_binomial", (3.0, 0.4)), ("negative_binomial", (0.5, 0.9)), ("negative_binomial", (10.0, 1.0)),
    ("negative_binomial", ([1.0, 5.0, 50.0], [[0.1], [0.7]])),
    ("zipf", (2.0,)), ("zipf", (1.1,)), ("zipf", (5.0,)), ("zipf", ([1.5, 3.0],)),
    ("logseries", (0.7,)), ("logseries", (0.99,)), ("logseries", (0.0,)), ("logseries", (0.2,)),
    ("logseries", ([0.1, 0.5, 0.999],)),
    ("hypergeometric", (5, 5, 3)), ("hypergeometric", (20, 3, 10)), ("hypergeometric", (3, 20, 10)),
    ("hypergeometric", (100, 200, 50)), ("hypergeometric", (200, 100, 250)), ("hypergeometric", (0, 5, 5)),
    ("hypergeometric", (5, 0, 5)), ("hypergeometric", (10**6, 10**6, 10**5)),
    ("hypergeometric", ([5, 50, 500], [[7], [70]], [3, 30, 300])),
]


@pytest.mark.parametrize("size", [None, 5, (2, 3)], ids=repr)
@pytest.mark.parametrize(("name", "args"), CASES, ids=[f"{n}{a}" for n, a in CASES])
def test_distributions(name: str, args: tuple[Any, ...], size: Any) -> None:
    arrays = any(isinstance(a, list) for a in args)
    if arrays and size is not None:
        size = np.broadcast_shapes(*(np.shape(a) for a in args))
    mr, nr = pair(11)
    mr.randn()  # leave a spare normal in the cache: the samplers must use it
    nr.randn()
    both(mr, nr, name, *args, size=size)
    both(mr, nr, name, *args, size=size)
    both(mr, nr, "randn", 3)


# size=None with Python numbers is one C call that returns the draw; these
# are that route's edges: ints where floats are expected, int64's limits,
# and values a check refuses or treats specially (zero scales, -0.0, NaN,
# infinite spans), which must take the general route and raise as NumPy.
SCALAR_CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("normal", (0, 1)), ("normal", (-2.5, 1e-300)), ("normal", (1.0, 0.0)), ("normal", (0.0, -0.0)),
    ("normal", (0.0, float("nan"))), ("lognormal", (0, 1)), ("lognormal", (0.0, -0.0)),
    ("lognormal", (1000.0, 1.0)), ("lognormal", (0.0, float("nan"))), ("lognormal", (0.0, -1.0)),
    ("uniform", (0, 10)), ("uniform", (5, -5)), ("uniform", (0.0, math.inf)),
    ("exponential", (2,)), ("exponential", (0.0,)), ("exponential", (-0.0,)), ("gamma", (2, 3)),
    ("standard_gamma", (7,)), ("standard_gamma", (0,)), ("beta", (1, 1)), ("beta", (0, 1)),
    ("binomial", (7, 1)), ("binomial", (2**40, 0.5)), ("binomial", (-1, 0.5)), ("binomial", (5, 1.5)),
    ("binomial", (True, 0.5)), ("poisson", (0,)), ("poisson", (10,)), ("poisson", (-1.0,)),
    ("poisson", (float("nan"),)), ("poisson", (1e300,)), ("randint", (-(2**63), 2**63)), ("randint", (-5, -1)),
    ("randint", (2**63 - 1,)), ("randint", (0, 1)), ("randint", (3, 3)), ("randint", (0, 2**63 + 1)),
    ("randint", (-(2**63) - 1, 0)), ("randint", (0,)), ("random_sample", ()), ("standard_exponential", ()),
]


@pytest.mark.parametrize(("name", "args"), SCALAR_CASES, ids=[f"{n}{a}" for n, a in SCALAR_CASES])
def test_scalar_draws(name: str, args: tuple[Any, ...]) -> None:
    mr, nr = pair(7)
    mr.randn()  # a spare normal in the cache, as in test_distributions
    nr.randn()
    for _ in range(3):
        try:
            want = getattr(nr, name)(*args)
        except Exception as exc:  # NumPy refuses: so must minarray, with the same type
            with pytest.raises(type(exc)):
                getattr(mr, name)(*args)
            same_state(mr, nr)
            return
        got = getattr(mr, name)(*args)
        assert type(got) is type(want.item() if isinstance(want, np.generic) else want), (type(got), type(want))
        same(got, want)
        same_state(mr, nr)


INT_DTYPES = ["int64", "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8", "bool"]


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("size", [None, 1, 1000, (4, 5)], ids=repr)
def test_randint_dtypes(dtype: str, size: Any) -> None:
    info = np.iinfo(dtype) if dtype != "bool" else None
    lo, hi = (0, 2) if info is None else (int(info.min), int(info.max) + 1)
    bounds = [(lo, hi), (0, 1), (lo, lo + 1), (0, 2)]
    if info is not None:
        bounds += [(0, 100), (max(lo, -50), 50), (0, min(hi, 2**32)), (0, min(hi, 2**32 + 1)),
                   (0, min(hi, 2**16)), (0, min(hi, 256)), (lo, hi - 1)]
    mr, nr = pair(7)
    for low, high in bounds:
        got = mr.randint(low, high, size=size, dtype=getattr(ma, dtype))
        want = nr.randint(low, high, size=size, dtype=dtype)
        if size is None:  # the dtype's scalar: a Python number only for dtype int or bool
            assert repr(got) == repr(want)
        else:
            same(got, want)
        same_state(mr, nr)


def test_randint_default_dtype_and_one_bound() -> None:
    mr, nr = pair(1)
    both(mr, nr, "randint", 10)
    both(mr, nr, "randint", 10, size=100)
    both(mr, nr, "randint", -5, 5, size=(3, 4))
    both(mr, nr, "randint", 2**62, size=10)
    both(mr, nr, "randint", -(2**63), 2**63 - 1, size=10)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_randint_array_bounds(dtype: str) -> None:
    mr, nr = pair(3)
    if dtype == "bool":
        low, high = [0, 0, 1], [1, 2, 2]
    else:
        info = np.iinfo(dtype)
        # (64-bit bounds stay within the dtype: a list mixing -2**63 and
        # 2**63 is an object array in NumPy, float64 in minarray)
        top = int(info.max) + (0 if info.bits == 64 else 1)
        low = [0, 0, 5, int(info.min)]
        high = [1, top, 100, top]
    low_n = np.array(low, dtype="int64" if dtype != "uint64" else "uint64")
    high_n = np.array(high, dtype="int64" if dtype != "uint64" else "uint64")
    low_m, high_m = ma.asarray(low_n), ma.asarray(high_n)
    same(mr.randint(low_m, high_m, dtype=getattr(ma, dtype)), nr.randint(low_n, high_n, dtype=dtype))
    same(mr.randint(low_m, high_m, size=(5, len(low)), dtype=getattr(ma, dtype)),
         nr.randint(low_n, high_n, size=(5, len(low)), dtype=dtype))
    same_state(mr, nr)


@pytest.mark.parametrize(("args", "kwargs"), [
    ((5, 2), {}), ((0,), {}), ((-1, 2), {"dtype": "uint8"}), ((0, 300), {"dtype": "uint8"}),
    ((0, 3), {"dtype": "float64"}), (([5, 1], [2, 3]), {}), ((2**63 + 1,), {}),
], ids=["low>=high", "high<=0", "low-oob", "high-oob", "float-dtype", "array-low>=high", "int64-oob"])
def test_randint_errors(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    mr, nr = pair(1)
    with pytest.raises((ValueError, TypeError)) as want:
        nr.randint(*args, **kwargs)
    mkw = {k: getattr(ma, v) if k == "dtype" and v != "float64" else v for k, v in kwargs.items()}
    with pytest.raises(want.type) as got:
        mr.randint(*args, **mkw)
    assert str(want.value).split()[:2] == str(got.value).split()[:2], (want.value, got.value)
    same_state(mr, nr)


# ---- the gauss cache across functions, and set_state -------------------------------------


def test_interleaving_shares_the_gauss_cache() -> None:
    mr, nr = pair(2)
    for name, args in [("randn", ()), ("rand", (3,)), ("normal", (1.0, 2.0)), ("gamma", (2.0,)),
                       ("randn", (5,)), ("randint", (10,)), ("standard_normal", ()), ("beta", (3.0, 2.0)),
                       ("binomial", (50, 0.5)), ("standard_normal", (1,)), ("poisson", (20.0,)),
                       ("choice", (10, 3)), ("randn", ())]:
        both(mr, nr, name, *args)


def test_state_round_trips_with_numpy_both_ways() -> None:
    mr, nr = pair(8)
    nr.randn()  # a spare normal in the state
    mr.set_state(nr.get_state())
    same_state(mr, nr)
    both(mr, nr, "randn", 7)
    mr.randn()
    nr.set_state(mr.get_state())
    both(mr, nr, "randn", 3)
    mr.set_state(nr.get_state(legacy=False))
    both(mr, nr, "rand", 5)
    nr.set_state(mr.get_state(legacy=False))
    both(mr, nr, "randint", 100, size=9)
    st = mr.get_state(legacy=False)
    assert set(st) == {"bit_generator", "state", "has_gauss", "gauss"}


def test_state_tuple_of_three_keeps_no_gauss() -> None:
    mr, nr = pair(4)
    nr.randn()
    st = nr.get_state()
    mr.set_state(st[:3])
    nr.set_state(st[:3])
    both(mr, nr, "randn", 4)


@pytest.mark.parametrize(("state", "exc"), [
    (("PCG64", [0] * 624, 0), ValueError), (5, TypeError), ({"a": 1}, ValueError),
    (("MT19937", [0] * 10, 0), (ValueError, IndexError)),
], ids=["not-mt", "not-a-state", "bad-dict", "short-key"])
def test_bad_states(state: Any, exc: Any) -> None:
    mr, nr = pair(9)
    before = mr.get_state()
    with pytest.raises(exc):
        nr.set_state(state)
    with pytest.raises(exc):
        mr.set_state(state)
    # nothing written (NumPy writes a short key's words before it fails)
    after = mr.get_state()
    assert after[1].tolist() == before[1].tolist() and after[2:] == before[2:]


def test_position_outside_the_key_is_refused() -> None:
    mr = ma.random.RandomState(1)
    st = mr.get_state()
    for pos in (-1, 625, 10**6):
        with pytest.raises(ValueError, match="pos"):
            mr.set_state((st[0], st[1], pos, 0, 0.0))
    assert mr.get_state()[2] == st[2]


def test_pickle_round_trip() -> None:
    mr = ma.random.RandomState(123)
    mr.randn()
    copy = pickle.loads(pickle.dumps(mr))
    same(copy.randn(5), np.from_dlpack(mr.randn(5)).copy())


# ---- choice, shuffle, permutation --------------------------------------------------------


@pytest.mark.parametrize("size", [None, 1, 5, (2, 3), ()], ids=repr)
@pytest.mark.parametrize("replace", [True, False])
@pytest.mark.parametrize("with_p", [False, True])
def test_choice(size: Any, replace: bool, with_p: bool) -> None:
    p = [0.1, 0.0, 0.3, 0.2, 0.15, 0.2, 0.05] if with_p else None
    mr, nr = pair(21)
    both(mr, nr, "choice", 7, size, replace, p)
    both(mr, nr, "choice", [10, 20, 30, 40, 50, 60, 70], size, replace, p)
    both(mr, nr, "choice", np.arange(7.0) / 2, size, replace, p)


def test_choice_large_population() -> None:
    mr, nr = pair(13)
    both(mr, nr, "choice", 100_000, 500, False)
    both(mr, nr, "choice", 100_000, 500)
    p = np.random.default_rng(0).random(1000)
    p /= p.sum()
    both(mr, nr, "choice", 1000, 200, False, p)
    both(mr, nr, "choice", 1000, 2000, True, p)


@pytest.mark.parametrize(("args", "kwargs"), [
    ((3,), {"p": [0.5, 0.5, 0.5]}), ((3,), {"p": [-0.5, 0.5, 1.0]}), ((3,), {"p": [0.5, 0.5]}),
    ((3,), {"p": [float("nan"), 0.5, 0.5]}), (([[1, 2]],), {}), ((0,), {}), (([],), {}),
    ((3, 4), {"replace": False}), ((3, 2), {"replace": False, "p": [1.0, 0.0, 0.0]}),
    ((3,), {"p": [[0.5, 0.5, 0.0]]}), ((2.5,), {}),
], ids=["p-sum", "p-negative", "p-size", "p-nan", "a-2d", "a-zero", "a-empty", "too-many", "few-nonzero",
        "p-2d", "a-float"])
def test_choice_errors(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    mr, nr = pair(1)
    with pytest.raises(ValueError) as want:
        nr.choice(*args, **kwargs)
    with pytest.raises(ValueError) as got:
        mr.choice(*args, **kwargs)
    assert str(got.value) == str(want.value)
    same_state(mr, nr)


@pytest.mark.parametrize("dtype", ["float64", "int32", "int8", "uint16", "bool", "complex128"])
@pytest.mark.parametrize("shape", [(0,), (1,), (7,), (1000,), (5, 3), (4, 2, 3)], ids=repr)
def test_shuffle_arrays(dtype: str, shape: tuple[int, ...]) -> None:
    mr, nr = pair(17)
    base = np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)
    n = base.copy()
    m = ma.asarray(base.copy())
    mr.shuffle(m)
    nr.shuffle(n)
    same(m, n)
    same_state(mr, nr)


def test_shuffle_strided_view_list_and_numpy_array() -> None:
    mr, nr = pair(5)
    n = np.arange(20.0)
    m = ma.asarray(n.copy())
    mr.shuffle(m[::-3])
    nr.shuffle(n[::-3])
    same(m, n)
    lm, ln = list(range(30)), list(range(30))
    mr.shuffle(lm)
    nr.shuffle(ln)
    assert lm == ln
    a, b = np.arange(10), np.arange(10)
    mr.shuffle(a)
    nr.shuffle(b)
    assert a.tolist() == b.tolist()
    same_state(mr, nr)


def test_shuffle_read_only_is_refused() -> None:
    src = np.arange(5.0)
    src.flags.writeable = False
    ro = ma.from_dlpack(src)
    assert not ro.flags.writeable
    mr = ma.random.RandomState(1)
    before = mr.get_state()
    with pytest.raises(ValueError, match="read-only"):
        mr.shuffle(ro)
    assert src.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert mr.get_state()[2] == before[2]


@pytest.mark.parametrize("x", [10, np.int64(6), [3, 1, 2, 5], np.arange(12).reshape(4, 3), np.arange(5.0)],
                         ids=["int", "np-int", "list", "2d", "float-array"])
def test_permutation(x: Any) -> None:
    mr, nr = pair(31)
    arg = ma.asarray(x) if isinstance(x, np.ndarray) else x
    same(mr.permutation(arg), nr.permutation(x))
    same_state(mr, nr)


def test_permutation_of_a_scalar_array_is_an_index_error() -> None:
    mr, nr = pair(1)
    with pytest.raises(IndexError, match="at least 1-dimensional"):
        nr.permutation(np.float64(3.0))
    with pytest.raises(IndexError, match="at least 1-dimensional"):
        mr.permutation(3.0)


# ---- multivariate normal -----------------------------------------------------------------


@pytest.mark.parametrize("size", [None, 4, (2, 3)], ids=repr)
def test_multivariate_normal(size: Any) -> None:
    mean = [1.0, -2.0, 0.5]
    cov = [[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 0.5]]
    mr, nr = pair(6)
    got, want = mr.multivariate_normal(mean, cov, size), nr.multivariate_normal(mean, cov, size)
    # The normals are NumPy's bit for bit; the SVD and the product round
    # as minarray's LAPACK and matmul do.
    assert got.shape == want.shape
    np.testing.assert_allclose(np.from_dlpack(got), want, rtol=1e-12, atol=1e-12)
    same_state(mr, nr)
    both(mr, nr, "randn", 2)


def test_multivariate_normal_checks() -> None:
    mr, nr = pair(6)
    bad = [[1.0, 2.0], [3.0, 4.0]]
    with pytest.raises(ValueError, match="positive-semidefinite"):
        nr.multivariate_normal([0, 0], bad, check_valid="raise")
    with pytest.raises(ValueError, match="positive-semidefinite"):
        mr.multivariate_normal([0, 0], bad, check_valid="raise")
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        mr.multivariate_normal([0, 0], bad)
    for mean, cov, msg in [([[0]], [[1]], "mean must be 1 dimensional"),
                           ([0, 0], [[1, 2, 3]], "cov must be 2 dimensional and square"),
                           ([0], [[1, 0], [0, 1]], "mean and cov must have same length")]:
        with pytest.raises(ValueError, match=msg):
            mr.multivariate_normal(mean, cov)
    with pytest.raises(ValueError, match="check_valid"):
        mr.multivariate_normal([0], [[1.0]], check_valid="nope")


# ---- parameter errors --------------------------------------------------------------------


@pytest.mark.parametrize(("name", "args"), [
    ("normal", (0.0, -1.0)), ("normal", (0.0, [1.0, -1.0])), ("lognormal", (0.0, -1.0)),
    ("lognormal", ([0.0], [1.0, -1.0])), ("exponential", (-1.0,)), ("gamma", (-1.0,)),
    ("gamma", (1.0, -2.0)), ("beta", (0.0, 1.0)), ("beta", (1.0, [1.0, -1.0])), ("binomial", (-1, 0.5)),
    ("binomial", (10, 1.5)), ("binomial", (10, float("nan"))), ("binomial", ([10, -1], 0.5)),
    ("poisson", (-1.0,)), ("poisson", (1e19,)), ("poisson", ([1.0, -1.0],)), ("standard_gamma", (-0.5,)),
    ("uniform", (0.0, float("inf"))), ("uniform", ([0.0], [float("inf")])),
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
    ("negative_binomial", ([1.0], [0.5, -0.1])), ("zipf", (1.0,)), ("zipf", (float("nan"),)),
    ("zipf", ([2.0, 0.5],)), ("logseries", (1.0,)), ("logseries", (-0.1,)), ("logseries", (float("nan"),)),
    ("logseries", ([0.5, 1.0],)),
    ("hypergeometric", (-1, 5, 3)), ("hypergeometric", (5, -1, 3)), ("hypergeometric", (5, 5, 0)),
    ("hypergeometric", (5, 5, 11)), ("hypergeometric", ([5, -1], 5, 3)), ("hypergeometric", ([5], [5], [0])),
    ("hypergeometric", ([5], [5], [11])), ("hypergeometric", (0, 0, 0)),
], ids=lambda v: repr(v) if not isinstance(v, str) else v)
def test_parameter_errors_name_the_parameter(name: str, args: tuple[Any, ...]) -> None:
    mr, nr = pair(1)
    with pytest.raises((ValueError, OverflowError)) as want:
        getattr(nr, name)(*args)
    with pytest.raises(want.type) as got:
        getattr(mr, name)(*args)
    assert str(got.value) == str(want.value)
    same_state(mr, nr)


@pytest.mark.parametrize("args", [(5.5, 5, 3), (5.0, 5.0, 3.0), (True, 2, 1), ([5.5, 9.0], 5, 3)], ids=repr)
def test_hypergeometric_truncates_float_counts(args: tuple[Any, ...]) -> None:
    mr, nr = pair(3)
    both(mr, nr, "hypergeometric", *args)
    both(mr, nr, "hypergeometric", *args, size=(4, len(args[0]) if isinstance(args[0], list) else 2))


@pytest.mark.parametrize(("args", "exc", "msg"), [
    (("5", 5, 3), TypeError, "integer"), ((2**63, 1, 1), OverflowError, "too large"),
], ids=repr)
def test_hypergeometric_refuses_what_numpy_refuses(args: tuple[Any, ...], exc: type[Exception], msg: str) -> None:
    mr, nr = pair(3)
    with pytest.raises(exc, match=msg):
        nr.hypergeometric(*args)
    with pytest.raises(exc, match=msg):
        mr.hypergeometric(*args)
    same_state(mr, nr)


@pytest.mark.parametrize("seed", [0, 1, 42, [1, 2, 3]], ids=repr)
@pytest.mark.parametrize("size", [None, 0, 1, 7, (3, 4)], ids=repr)
def test_tomaxint(seed: Any, size: Any) -> None:
    mr, nr = pair(seed)
    for _ in range(2):
        both(mr, nr, "tomaxint", size)


@pytest.mark.parametrize("length", [0, 1, 3, 4, 5, 17, 1000, -1, -5, 2.9], ids=repr)
def test_bytes(length: Any) -> None:
    mr, nr = pair(9)
    for _ in range(2):
        got, want = mr.bytes(length), nr.bytes(length)
        assert type(got) is bytes and got == want
        same_state(mr, nr)


def test_bytes_refuses_a_string() -> None:
    mr, nr = pair(9)
    with pytest.raises(TypeError):
        nr.bytes("3")
    with pytest.raises(TypeError):
        mr.bytes("3")


@pytest.mark.parametrize(("args", "size"), [((3,), None), ((3, 6), None), ((3, 6), 10), ((3.5,), (2, 3)),
                                            ((3, 6.7), 5), ((-5, 5), 4), ((0, 2**62), 3)], ids=repr)
def test_random_integers_is_deprecated_and_closed(args: tuple[Any, ...], size: Any) -> None:
    mr, nr = pair(4)
    with pytest.warns(DeprecationWarning, match="This function is deprecated. Please call randint") as wn:
        want = nr.random_integers(*args, size=size)
    with pytest.warns(DeprecationWarning, match="This function is deprecated. Please call randint") as wm:
        got = mr.random_integers(*args, size=size)
    assert [str(w.message) for w in wm] == [str(w.message) for w in wn]
    if isinstance(want, np.generic):  # an int64 scalar, as NumPy's
        assert repr(got) == repr(want)
    else:
        same(got, want)
    same_state(mr, nr)


@pytest.mark.parametrize("args", [(-2,), (5, 2)], ids=repr)
def test_random_integers_errors(args: tuple[Any, ...]) -> None:
    mr, nr = pair(4)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="low >= high"):
        nr.random_integers(*args)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="low >= high"):
        mr.random_integers(*args)


# ---- the module functions: one global RandomState -------------------------------------------


def test_module_functions_share_one_global_state() -> None:
    saved_ma, saved_np = ma.random.get_state(), np.random.get_state()
    try:
        ma.random.seed(1)
        np.random.seed(1)
        same(ma.random.rand(), np.random.rand())
        for name, args in [("rand", (3, 2)), ("randn", (4,)), ("randint", (0, 10, 5)), ("random", (3,)),
                           ("random_sample", ()), ("ranf", (2,)), ("sample", (2,)), ("uniform", (1.0, 2.0, 3)),
                           ("normal", (0.0, 1.0, 2)), ("standard_normal", (3,)), ("choice", (5, 3)),
                           ("permutation", (6,)), ("binomial", (10, 0.5, 3)), ("poisson", (4.0, 3)),
                           ("exponential", (2.0, 3)), ("beta", (0.5, 0.5, 3)), ("gamma", (2.0, 1.0, 3)),
                           ("standard_exponential", (2,)), ("standard_gamma", (3.0, 2)),
                           ("lognormal", (1.0, 0.5, 3)), ("multinomial", (10, [0.2, 0.3, 0.5], 4)),
                           ("dirichlet", ([1.0, 2.0, 3.0], 2)), ("standard_cauchy", (3,)),
                           ("standard_t", (2.5, 3)), ("chisquare", (2.0, 3)), ("f", (2.0, 3.0, 3)),
                           ("laplace", (0.0, 1.0, 3)), ("logistic", (0.0, 1.0, 3)), ("gumbel", (0.0, 1.0, 3)),
                           ("rayleigh", (1.0, 3)), ("pareto", (2.0, 3)), ("power", (2.0, 3)),
                           ("weibull", (2.0, 3)), ("geometric", (0.3, 3)), ("negative_binomial", (3.0, 0.5, 3)),
                           ("noncentral_chisquare", (2.0, 1.0, 3)), ("noncentral_f", (2.0, 3.0, 1.0, 3)),
                           ("triangular", (0.0, 1.0, 2.0, 3)), ("vonmises", (0.0, 1.0, 3)), ("wald", (1.0, 1.0, 3)),
                           ("zipf", (2.0, 3)), ("hypergeometric", (5, 5, 3, 3)), ("logseries", (0.5, 3)),
                           ]:
            # (multinomial: NumPy's global RandomState, drawn as NumPy 2.5 draws)
            want = randomstate_method(np.random.mtrand._rand, name) if name == "multinomial" else \
                getattr(np.random, name)
            same(getattr(ma.random, name)(*args), want(*args))
        assert ma.random.bytes(7) == np.random.bytes(7)
        with pytest.warns(DeprecationWarning):
            got = ma.random.random_integers(1, 6, 3)
        with pytest.warns(DeprecationWarning):
            same(got, np.random.random_integers(1, 6, 3))
        x, y = ma.arange(10), np.arange(10)
        ma.random.shuffle(x)
        np.random.shuffle(y)
        same(x, y)
        np.random.set_state(ma.random.get_state())
        same(ma.random.randn(3), np.random.randn(3))
        ma.random.set_state(np.random.get_state())
        same(ma.random.randn(3), np.random.randn(3))
        mv = ma.random.multivariate_normal([0.0, 1.0], [[1.0, 0.5], [0.5, 1.0]], 3)
        nv = np.random.multivariate_normal([0.0, 1.0], [[1.0, 0.5], [0.5, 1.0]], 3)
        np.testing.assert_allclose(np.from_dlpack(mv), nv, rtol=1e-12, atol=1e-12)
    finally:
        ma.random.set_state(saved_ma)
        np.random.set_state(saved_np)


def test_generator_api_is_untouched_and_refuses_mt19937() -> None:
    with pytest.raises(TypeError, match="PCG64"):
        ma.random.Generator(ma.random.MT19937(1))  # type: ignore[arg-type]
    same(ma.random.default_rng(5).random(3), np.random.default_rng(5).random(3))


@pytest.mark.parametrize(("n", "p"), [(1000, 0.4), (100_000, 0.01), (60, 0.5), (20, 0.3), (25, 0.9)],
                         ids=repr)
def test_binomial_long_streams_keep_the_frozen_samplers(n: int, p: float) -> None:
    """Enough draws that BTPE's rare Stirling test decides some of them:
    RandomState keeps NumPy's first acceptance test (13680, all four terms
    added) and exp(n log q) in the inversion, where the Generator moved on."""
    mr, nr = pair(1)
    both(mr, nr, "binomial", n, p, 300_000)


def test_choice_of_one_item_from_a_list_of_strings() -> None:
    """A list minarray cannot hold still gives one item, NumPy's (as str);
    a sample of several raises, naming the element, and draws nothing."""
    mr, nr = pair(3)
    words = ["heads", "tails", "edge"]
    for _ in range(5):
        assert mr.choice(words) == str(nr.choice(words))
    assert mr.choice(words, p=[0.2, 0.3, 0.5]) == str(nr.choice(words, p=[0.2, 0.3, 0.5]))
    same_state(mr, nr)
    with pytest.raises(TypeError, match="str"):
        mr.choice(words, 2)
    same_state(mr, nr)


def test_scalar_draw_entry_point_checks_its_arguments() -> None:
    """The C entry point of the scalar route refuses what is not a legacy
    state with its bit generator, and an unknown sampler."""
    from minarray._native import core

    with pytest.raises(RuntimeError, match="without a bit generator"):
        core.legacy_draw(core.legacy_state(), 0, 0.0, 0.0)
    with pytest.raises(ValueError):
        core.legacy_draw(object(), 0, 0.0, 0.0)
    rs = ma.random.RandomState(1)
    with pytest.raises(ValueError, match="no sampler"):
        core.legacy_draw(rs._state, 99, 0.0, 0.0)
    with pytest.raises(TypeError):
        core.legacy_draw(rs._state, 0, "x", 0.0)
    with pytest.raises(OverflowError):
        core.legacy_draw(rs._state, int(ma.random._legacy._BOUNDED), -1, 0)
    # an array to fill must be a writeable, C-contiguous one of the draws' dtype
    read_only = ma.zeros(4)._view(0, (4,), (1,), readonly=True)
    assert read_only.flags.c_contiguous and not read_only.flags.writeable
    for out, exc in ((ma.zeros(4, dtype=ma.float32), ValueError), (ma.zeros((4, 2))[:, 0], ValueError),
                     (read_only, ValueError), ([0.0], TypeError)):
        with pytest.raises(exc):
            core.legacy_draw(rs._state, 0, 0.0, 0.0, out)
    assert read_only.tolist() == [0.0] * 4
    with pytest.raises(ValueError):
        core.legacy_draw(rs._state, int(ma.random._legacy._BINOMIAL), 3, 0.5, ma.zeros(3))  # float64, not int64


# ---- multinomial and dirichlet -------------------------------------------------------------

# (n, pvals): the early stop, zero and one probabilities (each still a
# legacy binomial draw), pvals summing below 1 (the last takes the rest),
# one category, none, BTPE's large counts
MULTINOMIAL_CASES: list[tuple[int, list[float]]] = [
    (10, [0.2, 0.3, 0.5]), (0, [0.5, 0.5]), (20, [0.0, 0.5, 0.5]), (20, [0.0, 1.0]), (20, [1.0, 0.0, 0.0]),
    (20, [0.5, 0.0, 0.5]), (7, [0.1, 0.2]), (5, [1.0]), (3, [0.4]), (5, []), (1000, [0.1] * 10),
    (2**40, [0.3, 0.25, 0.45]), (1, [1 / 6] * 6),
]


@pytest.mark.parametrize("seed", [0, 1, 42, [1, 2, 3]], ids=repr)
@pytest.mark.parametrize("size", [None, 0, 1, 7, (3, 5), (), (2, 0, 3)], ids=repr)
@pytest.mark.parametrize(("n", "pvals"), MULTINOMIAL_CASES, ids=[f"{n}-{p[:3]}" for n, p in MULTINOMIAL_CASES])
def test_multinomial(n: int, pvals: list[float], size: Any, seed: Any) -> None:
    mr, nr = pair(seed)
    mr.randn()  # a spare normal in the cache: multinomial draws uniforms only, and keeps it
    nr.randn()
    both(mr, nr, "multinomial", n, pvals, size)
    both(mr, nr, "multinomial", n, pvals, size=size)
    both(mr, nr, "randn", 3)


def test_multinomial_argument_forms() -> None:
    """pvals as arrays of either library and of float32 (cast to float64
    before the draws); n as a float (truncated), a bool, a NumPy integer."""
    mr, nr = pair(9)
    p32 = np.array([0.25, 0.25, 0.5], dtype=np.float32)
    both(mr, nr, "multinomial", 12, ma.asarray(p32), 4)
    both(mr, nr, "multinomial", 12, p32, 4)
    both(mr, nr, "multinomial", 12, ma.asarray([0.1, 0.9])[::-1], 3)  # a strided view
    for n in (5.7, True, np.int64(9), ma.asarray(4)):
        same(mr.multinomial(n, [0.5, 0.5], 3), nr.multinomial(int(n), [0.5, 0.5], 3))
        same_state(mr, nr)


# (n, pvals, size, exception, message)
MULTINOMIAL_ERRORS: list[tuple[Any, Any, Any, type[Exception], str]] = [
    (5, 0.5, None, TypeError, "pvals must be a 1-d sequence"),
    (5, [[0.5, 0.5]], None, ValueError, "too deep|dimension"),
    (5, [0.5, -0.1, 0.6], None, ValueError, "pvals < 0, pvals > 1 or pvals contains NaNs"),
    (5, [0.5, float("nan"), 0.5], None, ValueError, "pvals < 0, pvals > 1 or pvals contains NaNs"),
    (5, [0.5, 1.5], None, ValueError, "pvals < 0, pvals > 1 or pvals contains NaNs"),
    (5, [0.7, 0.7, 0.1], None, ValueError, re.escape("sum(pvals[:-1]) > 1.0")),
    (5, [0.5, 0.5 + 1e-11, 0.0], None, ValueError, re.escape("sum(pvals[:-1]) > 1.0")),
    (5, np.array([0.5, 0.5000001, 0.0], dtype=np.float32), None, ValueError,
     re.escape("sum(pvals[:-1].astype(np.float64)) > 1.0. The pvals array is cast to 64-bit floating point")),
    (-1, [0.5, 0.5], None, ValueError, "n < 0"),
    (-1, [0.5, 0.5], -1, ValueError, "negative dimensions are not allowed"),  # the size first, as NumPy
    ("5", [0.5, 0.5], None, TypeError, "an integer is required"),
    ([5, 6], [0.5, 0.5], None, TypeError, "an integer is required"),
    (2**63, [0.5, 0.5], None, OverflowError, "Python int too large to convert to C long"),
]


@pytest.mark.parametrize(("n", "pvals", "size", "exc", "msg"), MULTINOMIAL_ERRORS,
                         ids=[f"{e[4][:30]}-{i}" for i, e in enumerate(MULTINOMIAL_ERRORS)])
def test_multinomial_errors(n: Any, pvals: Any, size: Any, exc: type[Exception], msg: str) -> None:
    mr, nr = pair(2)
    with pytest.raises(exc, match=msg):
        nr.multinomial(n, pvals, size)
    with pytest.raises(exc, match=msg):
        mr.multinomial(n, ma.asarray(pvals) if isinstance(pvals, np.ndarray) else pvals, size)
    same_state(mr, nr)


# the alphas of the legacy dirichlet: gammas over their row's sum, for
# small alphas too (those can underflow to 0/0, NaN, as in NumPy), a NaN
# alpha (NaN rows: NumPy refuses only alpha <= 0), one alpha, none
DIRICHLET_CASES: list[list[float]] = [
    [1.0, 2.0, 3.0], [0.5], [3.0], [0.05, 0.02, 0.01], [1e-3, 1e-3], [100.0, 0.5, 1.0, 7.5], [1.0, float("nan")],
    [], [float("inf"), 1.0],
]


@pytest.mark.parametrize("seed", [0, 1, 42], ids=repr)
@pytest.mark.parametrize("size", [None, 0, 1, 7, (3, 5), ()], ids=repr)
@pytest.mark.parametrize("alpha", DIRICHLET_CASES, ids=repr)
def test_dirichlet(alpha: list[float], size: Any, seed: Any) -> None:
    mr, nr = pair(seed)
    mr.randn()  # a spare normal in the cache: the gammas above 1 use it
    nr.randn()
    with np.errstate(invalid="ignore"):
        both(mr, nr, "dirichlet", alpha, size)
        both(mr, nr, "dirichlet", ma.asarray(alpha), size=size)
    both(mr, nr, "randn", 3)


@pytest.mark.parametrize(("alpha", "exc", "msg"), [
    ([1.0, 0.0], ValueError, "alpha <= 0"), ([1.0, -1.0], ValueError, "alpha <= 0"),
    ([-0.0], ValueError, "alpha <= 0"), (1.0, TypeError, "has no len"),
    ([[1.0, 2.0]], ValueError, "too deep|dimension"), (np.ones((2, 2)), ValueError, "too deep"),
], ids=repr)
def test_dirichlet_errors(alpha: Any, exc: type[Exception], msg: str) -> None:
    mr, nr = pair(2)
    with pytest.raises(exc, match=msg):
        nr.dirichlet(alpha)
    with pytest.raises(exc, match=msg):
        mr.dirichlet(ma.asarray(alpha) if isinstance(alpha, np.ndarray) else alpha)
    with pytest.raises(ValueError, match="negative dimensions"):
        mr.dirichlet([1.0], size=-1)
    same_state(mr, nr)


@pytest.mark.parametrize("dtype", [int, bool, "l", "int64", "uint8", "int32", np.int16])
def test_one_randint_draw_is_a_python_number_only_for_int_and_bool(dtype: Any) -> None:
    """NumPy's rule for size=None: a Python int or bool for dtype int or
    bool, the dtype's scalar for any other (random_integers draws int64)."""
    high = 2 if dtype is bool else 5
    np.random.seed(3)
    ma.random.seed(3)
    want = np.random.randint(high, dtype=dtype)
    got = ma.random.randint(high, dtype=dtype if not isinstance(dtype, type) or dtype in (int, bool)
                            else str(np.dtype(dtype)))
    assert repr(got) == repr(want)
    with pytest.warns(DeprecationWarning):
        want = np.random.random_integers(5)
    with pytest.warns(DeprecationWarning):
        got = ma.random.random_integers(5)
    assert repr(got) == repr(want)
