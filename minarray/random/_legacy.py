"""RandomState: NumPy's legacy random API over MT19937, bit for bit.

``RandomState(seed)`` draws exactly what ``numpy.random.RandomState(seed)``
draws, call for call: each method follows ``numpy/random/mtrand.pyx`` (its
argument checks, the kind and order of raw draws) and hands the sampling
to the same legacy algorithms in C (csrc/core/random_legacy.c).  The polar
normal's spare value is part of the state: ``get_state`` returns it and
``set_state`` restores it, in NumPy's tuple or dict, so states move
between the two libraries either way.

Results are minarray arrays; ``size=None`` gives a Python scalar.
"""

from __future__ import annotations

import math
import operator
import warnings
from collections.abc import Callable, MutableSequence
from typing import Any

from minarray import (
    _array_object,
    _coerce,
    _creation,
    _data_type_functions,
    _dtypes,
    _elementwise,
    _indexing,
    _linear_algebra,
    _searching,
    _utility,
    linalg,
)
from minarray._native import core, ffi, host_pointer, lib
from minarray.random._mt19937 import MT19937
from minarray.random._sampling import (
    _EPS64,
    _POISSON_LAM_MAX,
    Sampler,
    _c_long,
    _check,
    _dirichlet_alpha,
    _hypergeometric_counts,
    _multinomial_pvals,
    _normalised_rows,
    _Param,
    _shape_of,
    _triangular_params,
)

__all__ = ["RandomState"]


# Draws whose parameters are Python numbers that pass every check, one
# (size=None) or an array of them, are one C call (csrc/py/random_draw.c)
# that holds the GIL for short runs: the general route's parameter
# objects, one-value buffers and cffi call (which gives up and retakes the
# GIL) cost several times a draw, and NumPy answers np.random.rand() in
# about 250 ns.  Anything else (arrays of parameters, NumPy scalars, a
# value a check refuses or treats specially) takes the general route,
# which checks and raises as NumPy does.
_REAL = (float, int)
_draw = core.legacy_draw
_RANDOM_SAMPLE, _GAUSS, _STANDARD_EXPONENTIAL = (lib.MA_LEGACY_RANDOM_SAMPLE, lib.MA_LEGACY_GAUSS,
                                                 lib.MA_LEGACY_STANDARD_EXPONENTIAL)
_UNIFORM, _NORMAL, _EXPONENTIAL, _GAMMA, _BETA = (lib.MA_LEGACY_UNIFORM, lib.MA_LEGACY_NORMAL,
                                                  lib.MA_LEGACY_EXPONENTIAL, lib.MA_LEGACY_GAMMA, lib.MA_LEGACY_BETA)
_LOGNORMAL = lib.MA_LEGACY_LOGNORMAL
_BINOMIAL, _POISSON, _BOUNDED = lib.MA_LEGACY_BINOMIAL, lib.MA_LEGACY_POISSON, lib.MA_LEGACY_BOUNDED
_U64 = (1 << 64) - 1


def _size_prod(size: Any) -> float:
    """np.prod(size) as choice compares it with 0 (None counts as nonzero)."""
    return 1 if size is None else math.prod(_shape_of(size))


class RandomState(Sampler):
    """NumPy's legacy random number generator: the Mersenne Twister with
    NumPy's original samplers, for code that seeds ``np.random`` and
    expects its numbers.

    ``seed`` is None (fresh entropy), an int in [0, 2**32), a 1-d array of
    such ints, or an :class:`MT19937` to draw from.  New code should use
    :func:`default_rng`.
    """

    def __init__(self, seed: Any = None) -> None:
        if isinstance(seed, MT19937):
            bit_generator = seed
        elif hasattr(seed, "random_raw") or hasattr(seed, "capsule"):
            raise TypeError(f"RandomState draws from minarray.random.MT19937 only, not "
                            f"{type(seed).__module__}.{type(seed).__name__}")
        else:
            bit_generator = MT19937()
            if seed is not None:
                bit_generator._legacy_seeding(seed)
        self._bit_generator = bit_generator
        self.lock = bit_generator.lock
        # The C side: the bit generator's state (kept alive by
        # self._bit_generator) and the polar normal's spare.
        self._state = core.legacy_state()
        self._st = ffi.cast("ma_legacy *", core.legacy_state_address(self._state))
        self._st.mt = bit_generator._st
        self._init_scratch()

    def __repr__(self) -> str:
        return f"{self} at 0x{id(self):X}"

    def __str__(self) -> str:
        return f"{type(self).__name__}({type(self._bit_generator).__name__})"

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.set_state(state)

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt as a fresh RandomState, then given this one's state
        return (RandomState, (), self.get_state(legacy=False))

    def _draws(self, which: int, a: Any, b: Any, size: Any, dtype: _dtypes.DType = _dtypes.float64) -> Any:
        """Draws of ``which`` (a ``legacy_draw`` kind) with scalar
        parameters, under the lock: one for ``size`` None, else an array."""
        out = None
        if size is not None:
            out = _array_object.NDArray._empty((size,) if type(size) is int and size >= 0 else _shape_of(size), dtype)
        lock = self.lock
        lock.acquire()  # not `with`, which costs CPython 3.11 ~250 ns more per call here
        try:
            return _draw(self._state, which, a, b) if out is None else _draw(self._state, which, a, b, out)
        finally:
            lock.release()

    def _bounded_fills(self) -> dict[int, Callable[..., Any]]:
        return {64: lib.ma_legacy_bounded_u64, 32: lib.ma_legacy_bounded_u32, 16: lib.ma_legacy_bounded_u16,
                8: lib.ma_legacy_bounded_u8, 1: lib.ma_legacy_bounded_bool}

    def _bounded_array_fill(self) -> Callable[..., Any]:
        return lib.ma_legacy_bounded_array

    # ---- state -----------------------------------------------------------------

    def seed(self, seed: Any = None) -> None:
        """Reseed as at construction (None, an int in [0, 2**32) or a 1-d
        array of such ints); the spare normal is dropped."""
        self._bit_generator._legacy_seeding(seed)
        with self.lock:
            self._st.has_gauss = 0
            self._st.gauss = 0.0

    def get_state(self, legacy: bool = True) -> Any:
        """NumPy's legacy tuple ``('MT19937', key, pos, has_gauss,
        cached_gaussian)``, or with ``legacy=False`` the bit generator's
        dict with ``'has_gauss'`` and ``'gauss'`` added."""
        with self.lock:
            st = self._bit_generator.state
            st["has_gauss"] = int(self._st.has_gauss)
            st["gauss"] = float(self._st.gauss)
        if legacy:
            return (st["bit_generator"], st["state"]["key"], st["state"]["pos"], st["has_gauss"], st["gauss"])
        return st

    def set_state(self, state: Any) -> None:
        """Restore a state from :meth:`get_state` (here or NumPy's): the
        tuple (3 or 5 entries) or the dict."""
        if isinstance(state, dict):
            if "bit_generator" not in state or "state" not in state:
                raise ValueError("state dictionary is not valid.")
            st = state
        else:
            if not isinstance(state, (tuple, list)):
                raise TypeError("state must be a dict or a tuple.")
            if len(state) < 3 or state[0] != "MT19937":
                raise ValueError("set_state can only be used with legacy MT19937 state instances.")
            st = {"bit_generator": state[0], "state": {"key": state[1], "pos": state[2]}}
            if len(state) > 3:
                st["has_gauss"] = state[3]
                st["gauss"] = state[4]
        has_gauss = operator.index(st.get("has_gauss", 0))
        gauss = float(st.get("gauss", 0.0))
        with self.lock:
            self._bit_generator.state = st  # checks everything before writing
            self._st.has_gauss = 1 if has_gauss else 0
            self._st.gauss = gauss

    # ---- uniform -----------------------------------------------------------------

    def random_sample(self, size: Any = None) -> Any:
        """Uniform floats in [0, 1) (53 random bits from two 32-bit draws)."""
        return self._draws(_RANDOM_SAMPLE, 0.0, 0.0, size)

    random = random_sample

    def rand(self, *args: int) -> Any:
        """Uniform floats in [0, 1) of shape ``args`` (a float for none)."""
        if not args:
            return self._draws(_RANDOM_SAMPLE, 0.0, 0.0, None)
        # one int is the common call, and _draws' fast case
        return self._draws(_RANDOM_SAMPLE, 0.0, 0.0, args[0] if len(args) == 1 and type(args[0]) is int else args)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Any:
        """Uniform floats ``low + (high - low) * U`` (low > high allowed, as in NumPy)."""
        if type(low) in _REAL and type(high) in _REAL:
            lo_f = float(low)
            span = float(high) - lo_f
            if math.isfinite(span):
                return self._draws(_UNIFORM, lo_f, span, size)
        lo, hi = _Param(low, "low"), _Param(high, "high")
        if lo.array is None and hi.array is None:
            span = hi.value - lo.value
            if not math.isfinite(span):
                raise OverflowError("Range exceeds valid bounds")
            rng = _Param(span, "high - low")
        else:
            a = lo.array if lo.array is not None else lo.value
            b = hi.array if hi.array is not None else hi.value
            diff = _coerce.asarray(_elementwise.subtract(b, a), dtype=_dtypes.float64)
            if diff.size and not bool(_utility.all(_elementwise.isfinite(diff))):
                raise OverflowError("Range exceeds valid bounds")
            rng = _Param.of_array(diff, "high - low", "double")
        return self._cont(lib.ma_legacy_uniform, size, [lo, rng], [None, None])

    def randint(self, low: Any, high: Any = None, size: Any = None, dtype: Any = int) -> Any:
        """Integers in [low, high) (``[0, low)`` with one bound) of an
        integer dtype, by masked rejection."""
        if high is None:
            high, low = low, 0
        if size is None and dtype is int and type(low) is int and type(high) is int \
                and -(1 << 63) <= low < high <= (1 << 63):
            v = self._draws(_BOUNDED, low & _U64, high - 1 - low, None)
            return v - (1 << 64) if v >> 63 else v
        drawn = self._bounded(low, high, size, dtype, False, "randint")
        if size is None and dtype is not int and dtype is not bool and not isinstance(drawn, _array_object.NDArray):
            # one draw is a Python number only for dtype int or bool, NumPy's
            # rule; another dtype gives its scalar (randint(5, dtype="l"))
            return _dtypes.as_dtype(dtype)(drawn)
        return drawn

    # ---- normal, exponential, gamma family ------------------------------------------

    def standard_normal(self, size: Any = None) -> Any:
        """Standard normal draws by the polar method (two per pair of
        uniforms, the second kept for the next draw)."""
        return self._draws(_GAUSS, 0.0, 0.0, size)

    def randn(self, *args: int) -> Any:
        """Standard normal draws of shape ``args`` (a float for none)."""
        if not args:
            return self._draws(_GAUSS, 0.0, 0.0, None)
        # one int is the common call, and _draws' fast case
        return self._draws(_GAUSS, 0.0, 0.0, args[0] if len(args) == 1 and type(args[0]) is int else args)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        """Normal draws ``loc + scale * Z``."""
        if type(loc) in _REAL and type(scale) in _REAL and scale > 0:
            return self._draws(_NORMAL, loc, scale, size)
        return self._cont(lib.ma_legacy_normal, size, [_Param(loc, "loc"), _Param(scale, "scale")],
                          [None, "non_negative"])

    def lognormal(self, mean: Any = 0.0, sigma: Any = 1.0, size: Any = None) -> Any:
        """Log-normal draws ``exp(mean + sigma * Z)``."""
        if type(mean) in _REAL and type(sigma) in _REAL and sigma > 0:
            return self._draws(_LOGNORMAL, mean, sigma, size)
        return self._cont(lib.ma_legacy_lognormal, size, [_Param(mean, "mean"), _Param(sigma, "sigma")],
                          [None, "non_negative"])

    def standard_exponential(self, size: Any = None) -> Any:
        """Exponential(1) draws, ``-log(1 - U)``."""
        return self._draws(_STANDARD_EXPONENTIAL, 0.0, 0.0, size)

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Any:
        """Exponential draws of mean ``scale``."""
        if type(scale) in _REAL and scale > 0:
            return self._draws(_EXPONENTIAL, scale, 0.0, size)
        return self._cont(lib.ma_legacy_exponential, size, [_Param(scale, "scale")], ["non_negative"])

    def standard_gamma(self, shape: Any, size: Any = None) -> Any:
        """Gamma(shape, 1) draws."""
        if type(shape) in _REAL and shape > 0:
            return self._draws(_GAMMA, shape, 1.0, size)
        return self._cont(lib.ma_legacy_gamma, size, [_Param(shape, "shape"), _Param(1.0, "scale")],
                          ["non_negative", None])

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None) -> Any:
        """Gamma draws ``scale * standard_gamma(shape)``."""
        if type(shape) in _REAL and type(scale) in _REAL and shape > 0 and scale > 0:
            return self._draws(_GAMMA, shape, scale, size)
        return self._cont(lib.ma_legacy_gamma, size, [_Param(shape, "shape"), _Param(scale, "scale")],
                          ["non_negative", "non_negative"])

    def beta(self, a: Any, b: Any, size: Any = None) -> Any:
        """Beta(a, b) draws: Johnk's algorithm when both are at most 1, else a ratio of gammas."""
        if type(a) in _REAL and type(b) in _REAL and a > 0 and b > 0:
            return self._draws(_BETA, a, b, size)
        return self._cont(lib.ma_legacy_beta, size, [_Param(a, "a"), _Param(b, "b")], ["positive", "positive"])

    def binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        """Binomial(n, p) draws: inversion for small means, else BTPE."""
        if type(n) is int and type(p) in _REAL and 0 <= n < (1 << 63) and 0 <= p <= 1:
            return self._draws(_BINOMIAL, n, p, size, _dtypes.int64)
        pp, nn = _Param(p, "p"), _Param(n, "n", _dtypes.int64)
        _check(pp, "bounded_0_1")  # NumPy checks p first, then n
        _check(nn, "non_negative")
        return self._cont(lib.ma_legacy_binomial, size, [nn, pp], [None, None], dtype=_dtypes.int64)

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Any:
        """Poisson(lam) draws: multiplication of uniforms below 10, else PTRS."""
        if type(lam) in _REAL and 0 <= lam <= _POISSON_LAM_MAX:
            return self._draws(_POISSON, lam, 0.0, size, _dtypes.int64)
        return self._cont(lib.ma_legacy_poisson, size, [_Param(lam, "lam")], ["poisson"], dtype=_dtypes.int64)

    def standard_cauchy(self, size: Any = None) -> Any:
        """Standard Cauchy draws: the ratio of two polar normals."""
        return self._cont(lib.ma_legacy_standard_cauchy, size, [], [])

    def standard_t(self, df: Any, size: Any = None) -> Any:
        """Student's t draws with ``df`` degrees of freedom (df > 0): a
        normal over the root of a legacy gamma."""
        return self._cont(lib.ma_legacy_standard_t, size, [_Param(df, "df")], ["positive"])

    def chisquare(self, df: Any, size: Any = None) -> Any:
        """Chi-square draws, ``2 * standard_gamma(df / 2)`` (df > 0)."""
        return self._cont(lib.ma_legacy_chisquare, size, [_Param(df, "df")], ["positive"])

    def f(self, dfnum: Any, dfden: Any, size: Any = None) -> Any:
        """F draws: a ratio of chi-squares over their degrees of freedom."""
        return self._cont(lib.ma_legacy_f, size, [_Param(dfnum, "dfnum"), _Param(dfden, "dfden")],
                          ["positive", "positive"])

    def noncentral_chisquare(self, df: Any, nonc: Any, size: Any = None) -> Any:
        """Noncentral chi-square draws (df > 0, nonc >= 0)."""
        return self._cont(lib.ma_legacy_noncentral_chisquare, size, [_Param(df, "df"), _Param(nonc, "nonc")],
                          ["positive", "non_negative"])

    def noncentral_f(self, dfnum: Any, dfden: Any, nonc: Any, size: Any = None) -> Any:
        """Noncentral F draws: a noncentral chi-square over a chi-square."""
        return self._cont(lib.ma_legacy_noncentral_f, size,
                          [_Param(dfnum, "dfnum"), _Param(dfden, "dfden"), _Param(nonc, "nonc")],
                          ["positive", "positive", "non_negative"])

    def laplace(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        """Laplace (double exponential) draws by inversion of one uniform."""
        return self._cont(lib.ma_legacy_laplace, size, [_Param(loc, "loc"), _Param(scale, "scale")],
                          [None, "non_negative"])

    def logistic(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        """Logistic draws ``loc + scale * log(U / (1 - U))``."""
        return self._cont(lib.ma_legacy_logistic, size, [_Param(loc, "loc"), _Param(scale, "scale")],
                          [None, "non_negative"])

    def gumbel(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        """Gumbel draws ``loc - scale * log(-log(1 - U))``."""
        return self._cont(lib.ma_legacy_gumbel, size, [_Param(loc, "loc"), _Param(scale, "scale")],
                          [None, "non_negative"])

    def rayleigh(self, scale: Any = 1.0, size: Any = None) -> Any:
        """Rayleigh draws ``scale * sqrt(-2 * log1p(-U))``."""
        return self._cont(lib.ma_legacy_rayleigh, size, [_Param(scale, "scale")], ["non_negative"])

    def pareto(self, a: Any, size: Any = None) -> Any:
        """Pareto II (Lomax) draws ``exp(E / a) - 1`` (a > 0)."""
        return self._cont(lib.ma_legacy_pareto, size, [_Param(a, "a")], ["positive"])

    def power(self, a: Any, size: Any = None) -> Any:
        """Power-function draws on [0, 1] with exponent ``a - 1`` (a > 0)."""
        return self._cont(lib.ma_legacy_power, size, [_Param(a, "a")], ["positive"])

    def weibull(self, a: Any, size: Any = None) -> Any:
        """Weibull draws ``E ** (1 / a)`` (a >= 0; 0 gives zeros)."""
        return self._cont(lib.ma_legacy_weibull, size, [_Param(a, "a")], ["non_negative"])

    def vonmises(self, mu: Any, kappa: Any, size: Any = None) -> Any:
        """von Mises draws on [-pi, pi] (kappa >= 0)."""
        return self._cont(lib.ma_legacy_vonmises, size, [_Param(mu, "mu"), _Param(kappa, "kappa")],
                          [None, "non_negative"])

    def wald(self, mean: Any, scale: Any, size: Any = None) -> Any:
        """Wald (inverse Gaussian) draws (mean > 0, scale > 0)."""
        return self._cont(lib.ma_legacy_wald, size, [_Param(mean, "mean"), _Param(scale, "scale")],
                          ["positive", "positive"])

    def triangular(self, left: Any, mode: Any, right: Any, size: Any = None) -> Any:
        """Triangular draws on [left, right] peaking at ``mode``, by inversion."""
        params = _triangular_params(left, mode, right)
        return self._cont(lib.ma_legacy_triangular, size, params, [None, None, None])

    def geometric(self, p: Any, size: Any = None) -> Any:
        """Geometric draws: trials up to the first success, from 1 (0 < p <= 1)."""
        return self._cont(lib.ma_legacy_geometric, size, [_Param(p, "p")], ["bounded_gt_0_1"],
                          dtype=_dtypes.int64)

    def negative_binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        """Negative binomial draws: a Poisson of a gamma (n > 0, 0 <= p <= 1)."""
        return self._cont(lib.ma_legacy_negative_binomial, size, [_Param(n, "n"), _Param(p, "p")],
                          ["positive", "bounded_0_1"], dtype=_dtypes.int64)

    def zipf(self, a: Any, size: Any = None) -> Any:
        """Zipf draws by rejection (a > 1)."""
        return self._cont(lib.ma_legacy_zipf, size, [_Param(a, "a")], ["gt_1"], dtype=_dtypes.int64)

    def logseries(self, p: Any, size: Any = None) -> Any:
        """Logarithmic series draws (0 <= p < 1)."""
        return self._cont(lib.ma_legacy_logseries, size, [_Param(p, "p")], ["bounded_lt_0_1"],
                          dtype=_dtypes.int64)

    def hypergeometric(self, ngood: Any, nbad: Any, nsample: Any, size: Any = None) -> Any:
        """Hypergeometric draws: good items among ``nsample`` taken without
        replacement from ``ngood`` good and ``nbad`` bad ones (NumPy's
        original algorithms: sequential draws up to 10 samples, else HRUA)."""
        params = _hypergeometric_counts(ngood, nbad, nsample, None)
        return self._cont(lib.ma_legacy_hypergeometric, size, params, ["non_negative", "non_negative", "gte_1"],
                          dtype=_dtypes.int64)

    def tomaxint(self, size: Any = None) -> Any:
        """Integers in [0, 2**63): the top 63 bits of 64-bit draws (each the
        high word of one 32-bit draw and the low word of the next)."""
        n = 1 if size is None else math.prod(_shape_of(size))
        words = self._bounded(0, 1 << 32, 2 * n, _dtypes.uint32, False, "tomaxint").astype(_dtypes.int64)
        pairs = words.reshape((n, 2))
        out = _elementwise.bitwise_or(_elementwise.bitwise_left_shift(pairs[:, 0], 31),
                                      _elementwise.bitwise_right_shift(pairs[:, 1], 1))
        if size is None:
            return int(out[0])
        return out.reshape(_shape_of(size))

    def bytes(self, length: Any) -> bytes:
        """``length`` random bytes: 32-bit draws, little-endian, cut to length."""
        n = _c_long(length, "length")
        words = n - 1
        words = (abs(words) // 4) * (1 if words >= 0 else -1) + 1  # C's truncating division, as NumPy's
        raw = self._bounded(0, 1 << 32, words, _dtypes.uint32, False, "bytes")
        data = b"".join(int(v).to_bytes(4, "little") for v in raw.tolist())
        return data[:n]

    def random_integers(self, low: Any, high: Any = None, size: Any = None) -> Any:
        """Integers in [low, high] (``[1, low]`` with one bound); deprecated
        for ``randint(low, high + 1)``, with NumPy's DeprecationWarning."""
        if high is None:
            warnings.warn(f"This function is deprecated. Please call randint(1, {low} + 1) instead",
                          DeprecationWarning, stacklevel=2)
            high, low = low, 1
        else:
            warnings.warn(f"This function is deprecated. Please call randint({low}, {high} + 1) instead",
                          DeprecationWarning, stacklevel=2)
        return self.randint(low, int(high) + 1, size=size, dtype=_dtypes.int64)

    def multinomial(self, n: Any, pvals: Any, size: Any = None) -> Any:
        """Counts of ``n`` trials over ``len(pvals)`` categories, int64 of
        shape ``size + (len(pvals),)``: per draw, each category but the
        last takes a legacy binomial of the trials left, with its
        probability over the probability left, until none are left; the
        last takes the rest.  The binomial is RandomState's own, as NumPy
        2.5 draws (NumPy 2.4 drew the Generator's, which makes no draw for
        no trials or a zero probability: only there do the two differ)."""
        trials = _c_long(n, "n")
        parr = _coerce.asarray(pvals, dtype=_dtypes.float64)
        if parr.ndim == 0:
            raise TypeError("pvals must be a 1-d sequence")
        if parr.ndim > 1:
            raise ValueError("object too deep for desired array: pvals must be a 1-d sequence")
        parr = parr if parr.flags.c_contiguous else parr.copy()
        _multinomial_pvals(pvals, parr)
        d = parr.shape[0]
        shape = (d,) if size is None else (*_shape_of(size), d)
        if trials < 0:
            raise ValueError("n < 0")
        out = _array_object.NDArray._empty(shape, _dtypes.int64)
        if out.size:
            self._call(lib.ma_legacy_multinomial, out.size // d, trials, host_pointer(parr, "double *"), d,
                       host_pointer(out, "int64_t *"))
        return out

    def dirichlet(self, alpha: Any, size: Any = None) -> Any:
        """Dirichlet(alpha) draws of shape ``size + (len(alpha),)``: each row
        standard gamma draws, one per alpha, over their sum (NumPy's legacy
        algorithm; every alpha must be positive)."""
        alpha_arr = _dirichlet_alpha(alpha)
        k = alpha_arr.shape[0]
        if k and bool(_utility.any(alpha_arr <= 0)):
            raise ValueError("alpha <= 0")
        shape = (k,) if size is None else (*_shape_of(size), k)
        if math.prod(shape) == 0:
            return _creation.zeros(shape, dtype=_dtypes.float64)
        gammas = self._cont(lib.ma_legacy_gamma, shape, [_Param.of_array(alpha_arr, "alpha", "double"),
                                                        _Param(1.0, "scale")], [None, None])
        return _normalised_rows(gammas)

    def multivariate_normal(self, mean: Any, cov: Any, size: Any = None, check_valid: str = "warn",
                            tol: float = 1e-8) -> Any:
        """Draws of N(mean, cov): standard normals times ``sqrt(s) * v`` of
        cov's SVD ``u, s, v``, as NumPy's legacy method (its normals bit for
        bit; the product rounds as minarray's SVD and matmul do)."""
        mean_a, cov_a = _coerce.asarray(mean), _coerce.asarray(cov)
        shape = [] if size is None else list(_shape_of(size))
        if mean_a.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if cov_a.ndim != 2 or cov_a.shape[0] != cov_a.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mean_a.shape[0] != cov_a.shape[0]:
            raise ValueError("mean and cov must have same length")
        d = mean_a.shape[0]
        final = (*shape, d)
        x = self.standard_normal(final).reshape((-1, d))
        cov_d = cov_a.astype(_dtypes.float64)
        _u, s, v = linalg.svd(cov_d)
        if check_valid != "ignore":
            if check_valid not in ("warn", "raise"):
                raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
            psd = _utility.allclose(_linear_algebra.matmul(v.T * s, v), cov_d, rtol=tol, atol=tol)
            if not psd:
                if check_valid == "warn":
                    warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning,
                                  stacklevel=2)
                else:
                    raise ValueError("covariance is not symmetric positive-semidefinite.")
        res = _linear_algebra.matmul(x, _elementwise.sqrt(s)[:, None] * v) + mean_a
        return res.reshape(final)

    # ---- choice and permutations ----------------------------------------------------

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
        """Samples from ``range(a)`` (an int) or from the 1-d array ``a``:
        with replacement (uniform, or by probabilities ``p``) or without (a
        permutation's head, or rounds of weighted draws with ``p``)."""
        try:
            arr = _coerce.asarray(a)
        except TypeError:
            if size is not None or not isinstance(a, (list, tuple)) or not a:
                raise
            # A sequence minarray cannot hold (strings, objects): one item
            # of it, drawn as from range(len(a)), as NumPy's a[idx].
            return a[self.choice(len(a), None, replace, p)]
        if arr.ndim == 0:
            try:
                pop_size = operator.index(arr.item())
            except TypeError:
                raise ValueError("a must be 1-dimensional or an integer") from None
            if pop_size <= 0 and _size_prod(size) != 0:
                raise ValueError("a must be greater than 0 unless no samples are taken")
        elif arr.ndim != 1:
            raise ValueError("a must be 1-dimensional")
        else:
            pop_size = arr.shape[0]
            if pop_size == 0 and _size_prod(size) != 0:
                raise ValueError("'a' cannot be empty unless no samples are taken")
        pvals = None
        if p is not None:
            len(p)  # NumPy's d = len(p): TypeError for a scalar p
            atol = math.sqrt(_EPS64)
            pdt = str(getattr(p, "dtype", ""))
            if pdt in ("float32", "float16"):
                atol = max(atol, math.sqrt(float(_data_type_functions.finfo(pdt).eps)))
            pvals = _coerce.asarray(p, dtype=_dtypes.float64).copy()
            if pvals.ndim != 1:
                raise ValueError("'p' must be 1-dimensional")
            if pvals.size != pop_size:
                raise ValueError("'a' and 'p' must have same size")
            p_sum = lib.ma_random_kahan_sum(host_pointer(pvals, "double *"), pvals.size)
            if math.isnan(p_sum):
                raise ValueError("probabilities contain NaN")
            if pvals.size and bool(_utility.any(pvals < 0)):
                raise ValueError("probabilities are not non-negative")
            if abs(p_sum - 1.0) > atol:
                raise ValueError("probabilities do not sum to 1")
        is_scalar = size is None
        shape = () if is_scalar else _shape_of(size)
        n = math.prod(shape)
        if replace:
            if pvals is not None:
                idx = self._choice_p(pop_size, pvals, shape, True)
            else:
                idx = self.randint(0, pop_size, size=shape)
        else:
            if n > pop_size:
                raise ValueError("Cannot take a larger sample than population when 'replace=False'")
            if pvals is not None:
                if int(_searching.count_nonzero(pvals > 0)) < n:
                    raise ValueError("Fewer non-zero entries in p than size")
                idx = self._choice_p(pop_size, pvals, shape, False)
            else:
                idx = self.permutation(pop_size)[:n].reshape(shape)
        if is_scalar:
            i = int(idx.item())
            if arr.ndim == 0:
                return i
            return arr[i].item() if arr.ndim == 1 else arr[i]
        if arr.ndim == 0:
            return idx
        return _indexing.take(arr, idx, axis=0)

    def _choice_p(self, pop_size: int, pvals: Any, shape: tuple[int, ...], replace: bool) -> Any:
        idx = _creation.empty(shape, dtype=_dtypes.int64)
        with self.lock:
            rc = lib.ma_legacy_choice_p(self._st, pop_size, host_pointer(pvals, "double *"), idx.size,
                                        1 if replace else 0, host_pointer(idx, "int64_t *"))
        if rc != 0:
            raise MemoryError("choice: out of memory")
        return idx

    def shuffle(self, x: Any) -> None:
        """Shuffle ``x`` in place along its first axis (Fisher-Yates, masked draws)."""
        if isinstance(x, _array_object.NDArray):
            if x.ndim == 0:
                raise TypeError("len() of unsized object")
            if not x.flags.writeable:
                raise ValueError("array is read-only")
            if x.size == 0 or x.shape[0] < 2:
                return
            if x.ndim == 1:
                with self.lock:
                    lib.ma_legacy_shuffle(self._st, x.shape[0], x.itemsize, x.strides[0], host_pointer(x, "char *"))
                return
            x[...] = _indexing.take(x, self._permuted_range(x.shape[0]), axis=0)
            return
        if hasattr(x, "__array_interface__") or hasattr(x, "__dlpack__"):
            # Another library's array (NumPy's): shuffled in place through a
            # zero-copy view, or refused; never a copy shuffled silently.
            try:
                view = _coerce.asarray(x, copy=False)
            except (ValueError, TypeError, BufferError) as exc:
                raise TypeError(f"shuffle needs to view this {type(x).__name__} without a copy: {exc}") from None
            self.shuffle(view)
            return
        if not isinstance(x, MutableSequence):
            warnings.warn(f"you are shuffling a '{type(x).__name__}' object which is not a subclass of "
                          "'Sequence'; `shuffle` is not guaranteed to behave correctly. E.g., non-numpy array/"
                          "tensor objects with view semantics may contain duplicates after shuffling.",
                          UserWarning, stacklevel=2)
        n = len(x)
        if n > 1:
            perm = self._permuted_range(n).tolist()
            old = list(x)
            for i, j in enumerate(perm):
                x[i] = old[j]

    def _permuted_range(self, n: int) -> Any:
        """arange(n) shuffled with shuffle's draws: taking it reorders
        exactly as shuffle's swaps would."""
        perm = _creation.arange(n, dtype=_dtypes.int64)
        if n > 1:
            with self.lock:
                lib.ma_legacy_shuffle(self._st, n, 8, 8, host_pointer(perm, "char *"))
        return perm

    def permutation(self, x: Any) -> Any:
        """A shuffled ``arange(x)`` for an int, else a shuffled copy of ``x``
        along its first axis."""
        if isinstance(x, int) or (hasattr(x, "__index__") and getattr(x, "ndim", 0) == 0
                                  and not isinstance(x, float) and _is_integer_scalar(x)):
            return self._permuted_range(operator.index(x))
        arr = _coerce.asarray(x)
        if arr.ndim < 1:
            raise IndexError("x must be an integer or at least 1-dimensional")
        if arr.ndim == 1:
            arr = arr.copy()
            self.shuffle(arr)
            return arr
        return _indexing.take(arr, self._permuted_range(arr.shape[0]), axis=0)


def _is_integer_scalar(x: Any) -> bool:
    """An integer scalar (Python's, NumPy's or a 0-d integer array)."""
    kind = getattr(getattr(x, "dtype", None), "kind", "i")
    return kind in ("i", "u")
