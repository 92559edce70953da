"""Generator: NumPy's ``numpy.random.Generator`` over minarray arrays.

Every method draws the same numbers as NumPy's for the same bit-generator
state and the same arguments, because each one follows NumPy's
``_generator.pyx`` step for step (argument checks, the order and kind of
raw draws) and hands the sampling to the same algorithms in C
(csrc/core/random.c).  Results are minarray arrays; ``size=None`` gives a
Python scalar.

Each C call that advances the state runs under the bit generator's lock,
and without the GIL (cffi releases it), writing into memory that the call
owns: a freshly allocated result, or an ``out=`` array the caller handed
over.
"""

from __future__ import annotations

import math
import operator
import sys
import warnings
from collections.abc import Callable, MutableSequence
from typing import Any

from minarray import _dtypes as _dt
from minarray import _elementwise as _ew
from minarray._array_object import NDArray
from minarray._coerce import asarray, broadcast_shapes, normalize_axis
from minarray._creation import arange, zeros
from minarray._elementwise import greater, less
from minarray._indexing import take
from minarray._manipulation import broadcast_to
from minarray._native import ffi, host_pointer, lib
from minarray._searching import count_nonzero
from minarray._statistical import cumulative_prod
from minarray._utility import all as all_
from minarray._utility import any as any_
from minarray.random._bit_generators import PCG64, BitGenerator
from minarray.random._sampling import (
    _EPS32,
    _EPS64,
    _POISSON_LAM_MAX,
    Sampler,
    Shape,
    _c_long,
    _check,
    _dirichlet_alpha,
    _hypergeometric_counts,
    _is_scalar,
    _multinomial_pvals,
    _normalised_rows,
    _Param,
    _shape_of,
    _triangular_params,
)

__all__ = ["Generator", "default_rng"]


class Generator(Sampler):
    """Draws from a bit generator with NumPy's algorithms: the same
    arguments and state give the same numbers as ``numpy.random.Generator``.

    Make one with ``minarray.random.default_rng(seed)``.  A Generator may be
    shared between threads: every draw holds the bit generator's lock.
    """

    def __init__(self, bit_generator: BitGenerator) -> None:
        if not isinstance(bit_generator, BitGenerator):
            raise TypeError("Generator needs a minarray.random bit generator (PCG64 or PCG64DXSM), got "
                            f"{type(bit_generator).__name__}")
        self._bit_generator = bit_generator
        self._st = bit_generator._st
        self.lock = bit_generator.lock
        self._init_scratch()

    def __repr__(self) -> str:
        return f"{self} at 0x{id(self):X}"

    def __str__(self) -> str:
        return f"{type(self).__name__}({type(self._bit_generator).__name__})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Generator, (self._bit_generator,))

    @property
    def bit_generator(self) -> BitGenerator:
        """The bit generator this Generator draws from."""
        return self._bit_generator

    def spawn(self, n_children: int) -> list[Generator]:
        """``n_children`` independent Generators from children of the bit
        generator's seed sequence."""
        n = operator.index(n_children)
        if n < 0:
            raise ValueError("n_children must be non-negative")
        return [type(self)(g) for g in self._bit_generator.spawn(n)]

    def _bounded_fills(self) -> dict[int, Callable[..., Any]]:
        return {64: lib.ma_random_bounded_u64, 32: lib.ma_random_bounded_u32, 16: lib.ma_random_bounded_u16,
                8: lib.ma_random_bounded_u8, 1: lib.ma_random_bounded_bool}

    def _bounded_array_fill(self) -> Callable[..., Any]:
        return lib.ma_random_bounded_array

    # ---- uniform ---------------------------------------------------------------

    def random(self, size: Any = None, dtype: Any = _dt.float64, out: NDArray | None = None) -> Any:
        """Uniform floats in [0, 1): float64 (53 random bits) or float32 (24)."""
        dt = dtype if dtype is _dt.float64 else _float_dtype(dtype, "random")
        return self._fill(lib.ma_random_double if dt is _dt.float64 else lib.ma_random_float, dt, size, out)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Any:
        """Uniform floats in [low, high): ``low + (high - low) * U``."""

        lo, hi = _Param(low, "low"), _Param(high, "high")
        if lo.array is None and hi.array is None:
            rng = hi.value - lo.value
            if not math.isfinite(rng):
                raise OverflowError("high - low range exceeds valid bounds")
            span = _Param(rng, "high - low")
        else:
            a = lo.array if lo.array is not None else lo.value
            b = hi.array if hi.array is not None else hi.value
            diff = _ew.subtract(b, a)
            if not isinstance(diff, NDArray):

                diff = asarray(diff, dtype=_dt.float64)
            if diff.size and not bool(all_(_ew.isfinite(diff))):
                raise OverflowError("Range exceeds valid bounds")
            span = _Param.of_array(diff, "high - low", "double")
        return self._cont(lib.ma_random_uniform, size, [lo, span], [None, "non_negative"])

    def integers(self, low: Any, high: Any = None, size: Any = None, dtype: Any = _dt.int64,
                 endpoint: bool = False) -> Any:
        """Integers in [low, high) (or [low, high] with ``endpoint``) of any
        integer dtype, by Lemire's method with NumPy's buffering of 32-bit
        draws for the narrow types."""
        if high is None:
            high, low = low, 0
        return self._bounded(low, high, size, dtype, bool(endpoint), "integers")

    def bytes(self, length: int) -> bytes:
        """``length`` random bytes: uint32 draws, little-endian, truncated."""
        n = operator.index(length)
        if n < 0:
            raise ValueError("negative dimensions are not allowed")
        # NumPy's C division truncates: length 0 still draws one word.
        n_words = (n - 1) // 4 + 1 if n > 0 else 1
        words = self.integers(0, 4294967296, size=n_words, dtype=_dt.uint32)
        raw = bytes(ffi.buffer(host_pointer(words, "char *"), 4 * n_words))
        if sys.byteorder != "little":
            raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
        return raw[:n]

    # ---- normal, exponential and the gamma family --------------------------------

    def standard_normal(self, size: Any = None, dtype: Any = _dt.float64, out: NDArray | None = None) -> Any:
        """Standard normal draws by NumPy's 256-layer ziggurat (float64 or float32)."""
        dt = dtype if dtype is _dt.float64 else _float_dtype(dtype, "standard_normal")
        fill = lib.ma_random_standard_normal if dt is _dt.float64 else lib.ma_random_standard_normal_f
        return self._fill(fill, dt, size, out)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        """Normal draws: ``loc + scale * Z``."""
        return self._cont(lib.ma_random_normal, size, [_Param(loc, "loc"), _Param(scale, "scale")],
                          [None, "non_negative"])

    def lognormal(self, mean: Any = 0.0, sigma: Any = 1.0, size: Any = None) -> Any:
        """Log-normal draws: ``exp(mean + sigma * Z)``."""
        return self._cont(lib.ma_random_lognormal, size, [_Param(mean, "mean"), _Param(sigma, "sigma")],
                          [None, "non_negative"])

    def standard_exponential(self, size: Any = None, dtype: Any = _dt.float64, method: str = "zig",
                             out: NDArray | None = None) -> Any:
        """Exponential(1) draws: the ziggurat (``method="zig"``) or ``-log(1 - U)`` (``"inv"``)."""
        dt = dtype if dtype is _dt.float64 else _float_dtype(dtype, "standard_exponential")
        inverse = 0 if method == "zig" else 1
        fill = lib.ma_random_standard_exponential if dt is _dt.float64 else lib.ma_random_standard_exponential_f
        return self._fill(fill, dt, size, out, inverse)

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Any:
        """Exponential draws of mean ``scale``."""
        return self._cont(lib.ma_random_exponential, size, [_Param(scale, "scale")], ["non_negative"])

    def standard_gamma(self, shape: Any, size: Any = None, dtype: Any = _dt.float64,
                       out: NDArray | None = None) -> Any:
        """Gamma(shape, 1) draws (Marsaglia & Tsang above shape 1)."""
        dt = _float_dtype(dtype, "standard_gamma")
        if dt == _dt.float64:
            return self._cont(lib.ma_random_gamma, size, [_Param(shape, "shape"), _Param(1.0, "scale")],
                              ["non_negative", None], out=out)
        return self._cont(lib.ma_random_standard_gamma_f, size, [_Param(shape, "shape", _dt.float32)],
                          ["non_negative"], dtype=_dt.float32, out=out)

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None) -> Any:
        """Gamma draws: ``scale * standard_gamma(shape)``."""
        return self._cont(lib.ma_random_gamma, size, [_Param(shape, "shape"), _Param(scale, "scale")],
                          ["non_negative", "non_negative"])

    def beta(self, a: Any, b: Any, size: Any = None) -> Any:
        """Beta(a, b) draws: Johnk's algorithm when both are at most 1, else a ratio of gammas."""
        return self._cont(lib.ma_random_beta, size, [_Param(a, "a"), _Param(b, "b")], ["positive", "positive"])

    def binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        """Binomial(n, p) draws: inversion for small means, else BTPE."""
        pp, nn = _Param(p, "p"), _Param(n, "n", _dt.int64)
        _check(pp, "bounded_0_1")  # NumPy checks p first, then n
        _check(nn, "non_negative")
        return self._cont(lib.ma_random_binomial, size, [nn, pp], [None, None], dtype=_dt.int64)

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Any:
        """Poisson(lam) draws: multiplication of uniforms below 10, else PTRS."""
        return self._cont(lib.ma_random_poisson, size, [_Param(lam, "lam")], ["poisson"], dtype=_dt.int64)

    def standard_cauchy(self, size: Any = None) -> Any:
        """Standard Cauchy draws: the ratio of two ziggurat normals."""
        return self._cont(lib.ma_random_standard_cauchy, size, [], [])

    def standard_t(self, df: Any, size: Any = None) -> Any:
        """Student's t draws with ``df`` degrees of freedom (df > 0)."""
        return self._cont(lib.ma_random_standard_t, size, [_Param(df, "df")], ["positive"])

    def chisquare(self, df: Any, size: Any = None) -> Any:
        """Chi-square draws, ``2 * standard_gamma(df / 2)`` (df > 0)."""
        return self._cont(lib.ma_random_chisquare, size, [_Param(df, "df")], ["positive"])

    def f(self, dfnum: Any, dfden: Any, size: Any = None) -> Any:
        """F draws: a ratio of chi-squares over their degrees of freedom."""
        return self._cont(lib.ma_random_f, size, [_Param(dfnum, "dfnum"), _Param(dfden, "dfden")],
                          ["positive", "positive"])

    def noncentral_chisquare(self, df: Any, nonc: Any, size: Any = None) -> Any:
        """Noncentral chi-square draws (df > 0, nonc >= 0)."""
        return self._cont(lib.ma_random_noncentral_chisquare, size, [_Param(df, "df"), _Param(nonc, "nonc")],
                          ["positive", "non_negative"])

    def noncentral_f(self, dfnum: Any, dfden: Any, nonc: Any, size: Any = None) -> Any:
        """Noncentral F draws: a noncentral chi-square over a chi-square."""
        return self._cont(lib.ma_random_noncentral_f, size,
                          [_Param(dfnum, "dfnum"), _Param(dfden, "dfden"), _Param(nonc, "nonc")],
                          ["positive", "positive", "non_negative"])

    def laplace(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        """Laplace (double exponential) draws by inversion of one uniform."""
        return self._cont(lib.ma_random_laplace, size, [_Param(loc, "loc"), _Param(scale, "scale")],
                          [None, "non_negative"])

    def logistic(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        """Logistic draws ``loc + scale * log(U / (1 - U))``."""
        return self._cont(lib.ma_random_logistic, size, [_Param(loc, "loc"), _Param(scale, "scale")],
                          [None, "non_negative"])

    def gumbel(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        """Gumbel draws ``loc - scale * log(-log(1 - U))``."""
        return self._cont(lib.ma_random_gumbel, size, [_Param(loc, "loc"), _Param(scale, "scale")],
                          [None, "non_negative"])

    def rayleigh(self, scale: Any = 1.0, size: Any = None) -> Any:
        """Rayleigh draws ``scale * sqrt(2 * E)``."""
        return self._cont(lib.ma_random_rayleigh, size, [_Param(scale, "scale")], ["non_negative"])

    def pareto(self, a: Any, size: Any = None) -> Any:
        """Pareto II (Lomax) draws ``expm1(E / a)`` (a > 0)."""
        return self._cont(lib.ma_random_pareto, size, [_Param(a, "a")], ["positive"])

    def power(self, a: Any, size: Any = None) -> Any:
        """Power-function draws on [0, 1] with exponent ``a - 1`` (a > 0)."""
        return self._cont(lib.ma_random_power, size, [_Param(a, "a")], ["positive"])

    def weibull(self, a: Any, size: Any = None) -> Any:
        """Weibull draws ``E ** (1 / a)`` (a >= 0; 0 gives zeros)."""
        return self._cont(lib.ma_random_weibull, size, [_Param(a, "a")], ["non_negative"])

    def vonmises(self, mu: Any, kappa: Any, size: Any = None) -> Any:
        """von Mises draws on [-pi, pi] (kappa >= 0; a wrapped normal above 1e6)."""
        return self._cont(lib.ma_random_vonmises, size, [_Param(mu, "mu"), _Param(kappa, "kappa")],
                          [None, "non_negative"])

    def wald(self, mean: Any, scale: Any, size: Any = None) -> Any:
        """Wald (inverse Gaussian) draws (mean > 0, scale > 0)."""
        return self._cont(lib.ma_random_wald, size, [_Param(mean, "mean"), _Param(scale, "scale")],
                          ["positive", "positive"])

    def triangular(self, left: Any, mode: Any, right: Any, size: Any = None) -> Any:
        """Triangular draws on [left, right] peaking at ``mode``, by inversion."""
        return self._cont(lib.ma_random_triangular, size, _triangular_params(left, mode, right),
                          [None, None, None])

    def geometric(self, p: Any, size: Any = None) -> Any:
        """Geometric draws: trials up to the first success, from 1 (0 < p <= 1)."""
        return self._cont(lib.ma_random_geometric, size, [_Param(p, "p")], ["bounded_gt_0_1"], dtype=_dt.int64)

    def negative_binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        """Negative binomial draws, a Poisson of a gamma (n > 0, 0 < p <= 1),
        refused where the Poisson's mean could pass its limit."""
        nn, pp = _Param(n, "n"), _Param(p, "p")
        _check(nn, "positive_not_nan")
        _check(pp, "bounded_gt_0_1")
        if nn.array is None and pp.array is None:
            too_large = (1 - pp.value) / pp.value * (nn.value + 10 * math.sqrt(nn.value)) > _POISSON_LAM_MAX
        else:
            # (n > 0 and p > 0 were checked: no division by zero here)
            na = nn.array if nn.array is not None else asarray(nn.value)
            pa = pp.array if pp.array is not None else asarray(pp.value)
            lam = (1 - pa) / pa * (na + 10 * _ew.sqrt(na))
            too_large = bool(any_(greater(lam, _POISSON_LAM_MAX)))
        if too_large:
            raise ValueError("n too large or p too small, see Generator.negative_binomial Notes")
        return self._cont(lib.ma_random_negative_binomial, size, [nn, pp], [None, None], dtype=_dt.int64)

    def zipf(self, a: Any, size: Any = None) -> Any:
        """Zipf draws by rejection (a > 1)."""
        return self._cont(lib.ma_random_zipf, size, [_Param(a, "a")], ["gt_1"], dtype=_dt.int64)

    def hypergeometric(self, ngood: Any, nbad: Any, nsample: Any, size: Any = None) -> Any:
        """Hypergeometric draws: good items among ``nsample`` taken without
        replacement from ``ngood`` good and ``nbad`` bad ones (each below
        1e9): item by item for small samples, else Stadlober's HRUA."""
        params = _hypergeometric_counts(ngood, nbad, nsample, 10**9)
        return self._cont(lib.ma_random_hypergeometric, size, params, ["non_negative"] * 3, dtype=_dt.int64)

    def multivariate_hypergeometric(self, colors: Any, nsample: Any, size: Any = None,
                                    method: str = "marginals") -> NDArray:
        """Counts per color of ``nsample`` items drawn without replacement
        from ``colors[i]`` items of each color, int64 of shape ``size +
        (len(colors),)``: by a hypergeometric per color (``"marginals"``,
        fewer than 1e9 items) or a partial shuffle of every item
        (``"count"``), as NumPy draws them."""
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        try:
            operator.index(nsample)
        except TypeError:
            raise ValueError("nsample must be an integer") from None
        int64_max = 2**63 - 1
        if nsample < 0:
            raise ValueError("nsample must be nonnegative.")
        if nsample > int64_max:
            raise ValueError(f"nsample must not exceed {int64_max}")
        nsamp = operator.index(nsample)
        bad_colors = f"colors must be a one-dimensional sequence of nonnegative integers not exceeding {int64_max}."
        try:
            carr = asarray(colors)
        except (ValueError, TypeError, OverflowError):
            raise ValueError(bad_colors) from None
        if carr.ndim != 1 or (carr.size > 0 and carr.dtype.kind not in ("i", "u")):
            raise ValueError(bad_colors)
        if carr.size and (bool(any_(less(carr, 0))) or bool(any_(greater(carr, int64_max)))):
            raise ValueError(bad_colors)
        carr = asarray(carr.astype(_dt.int64), copy=True)
        d = carr.shape[0]
        total = sum(int(v) for v in carr.tolist())
        if total > int64_max:
            raise ValueError(f"sum(colors) must not exceed the maximum value of a 64 bit signed integer ({int64_max})")
        if method == "marginals" and total >= 1000000000:
            raise ValueError('When method is "marginals", sum(colors) must be less than 1000000000.')
        max_index = int64_max // 8
        if method == "count" and total > max_index:
            raise ValueError(f"When method is 'count', sum(colors) must not exceed {max_index}")
        if nsamp > total:
            raise ValueError("nsample > sum(colors)")
        shape = (d,) if size is None else (*_shape_of(size), d)
        out = zeros(shape, dtype=_dt.int64)
        if d == 0 or out.size == 0:
            return out
        with self.lock:
            rc = lib.ma_random_mv_hypergeometric(self._st, 1 if method == "count" else 0, total, d,
                                                 host_pointer(carr, "int64_t *"), nsamp, out.size // d,
                                                 host_pointer(out, "int64_t *"))
        if rc != 0:
            raise MemoryError(f"Insufficient memory for multivariate_hypergeometric with method='count' and "
                              f"sum(colors)={total}")
        return out

    def logseries(self, p: Any, size: Any = None) -> Any:
        """Logarithmic series draws (0 <= p < 1)."""
        return self._cont(lib.ma_random_logseries, size, [_Param(p, "p")], ["bounded_lt_0_1"], dtype=_dt.int64)

    def multinomial(self, n: Any, pvals: Any, size: Any = None) -> NDArray:
        """Counts of ``n`` trials over the categories of ``pvals``' last
        axis, int64: per draw, each category but the last takes a binomial
        of the trials left, with its probability over the probability
        left, until none are left; the last takes the rest.  ``n`` and the
        rows of ``pvals`` broadcast together (and with ``size``), the
        counts along a new last axis."""
        parr = asarray(pvals, dtype=_dt.float64)
        d = parr.shape[-1] if parr.ndim >= 1 else 0
        if d == 0:
            raise ValueError("pvals must have at least 1 dimension and the last dimension of pvals must be greater "
                             "than 0.")
        parr = parr if parr.flags.c_contiguous else parr.copy()
        _multinomial_pvals(pvals, parr)
        p_ptr = host_pointer(parr, "double *")
        if not _is_scalar(n) or parr.ndim > 1:
            # n and the rows of pvals broadcast: row i of the result draws
            # n's element i over the pvals row `rows` names there
            n_arr = asarray(n)
            if n_arr.dtype != _dt.int64:
                n_arr = n_arr.astype(_dt.int64)
            _check(_Param.of_array(n_arr, "n", "int64_t"), "non_negative")
            rows = arange(parr.size // d, dtype=_dt.int64).reshape(parr.shape[:-1])
            if size is None:
                shape = broadcast_shapes(n_arr.shape, rows.shape)
            else:
                shape = _shape_of(size)
                full = broadcast_shapes(n_arr.shape, rows.shape, shape)
                if full != shape:
                    raise ValueError(f"Output size {shape} is not compatible with broadcast dimensions of inputs "
                                     f"{full}.")
            n_b = asarray(broadcast_to(n_arr, shape), copy=True)
            rows_b = asarray(broadcast_to(rows, shape), copy=True)
            out = NDArray._empty((*shape, d), _dt.int64)
            if out.size:
                self._call(lib.ma_random_multinomial, math.prod(shape), host_pointer(n_b, "int64_t *"), 1,
                           host_pointer(rows_b, "int64_t *"), 1, p_ptr, d, host_pointer(out, "int64_t *"))
            return out
        out = NDArray._empty((d,) if size is None else (*_shape_of(size), d), _dt.int64)
        trials = _c_long(n, "n")
        if trials < 0:
            raise ValueError("n < 0")
        if out.size:
            one = ffi.new("int64_t[2]", [trials, 0])  # n, and the one row of pvals
            self._call(lib.ma_random_multinomial, out.size // d, one, 0, one + 1, 0, p_ptr, d,
                       host_pointer(out, "int64_t *"))
        return out

    def dirichlet(self, alpha: Any, size: Any = None) -> NDArray:
        """Dirichlet(alpha) draws of shape ``size + (len(alpha),)``, as NumPy
        draws them: when every alpha is below 0.1, by stick breaking
        (beta draws, no division, so no 0/0 when every gamma would
        underflow); else standard gamma draws over their row's sum.  An
        alpha may be 0 (its entries are 0)."""
        alpha_arr = _dirichlet_alpha(alpha)
        k = alpha_arr.shape[0]
        if k and bool(any_(less(alpha_arr, 0.0))):
            raise ValueError("alpha < 0")
        shape = (k,) if size is None else (*_shape_of(size), k)
        if k and bool(all_(less(alpha_arr, 0.1))):  # NumPy's alpha.max() < 0.1 (False with a NaN)
            return self._dirichlet_stick_breaking(alpha_arr.tolist(), shape)
        if math.prod(shape) == 0:
            return zeros(shape, dtype=_dt.float64)
        gammas = self._cont(lib.ma_random_gamma, shape, [_Param.of_array(alpha_arr, "alpha", "double"),
                                                        _Param(1.0, "scale")], [None, None])
        return _normalised_rows(gammas)

    def _dirichlet_stick_breaking(self, alpha: list[float], shape: Shape) -> NDArray:
        """dirichlet for small alpha: in each row, entry j is a beta(alpha[j],
        sum(alpha[j+1:])) draw of the stick left, the last entry what is
        left at the end.  The draws run in NumPy's order (row by row, j
        up), so drawing them all at once is the same stream; the products
        are cumulative ones, left to right as NumPy's loop multiplies."""
        k = len(alpha)
        csum = [0.0] * k  # sum(alpha[j:]), added right to left as NumPy adds
        total = 0.0
        for j in range(k - 1, -1, -1):
            total += alpha[j]
            csum[j] = total
        out = zeros(shape, dtype=_dt.float64)
        if not total > 0 or out.size == 0:
            return out  # every alpha 0: every entry 0
        # NumPy stops a row after the first j whose remaining alphas are all
        # 0 (its draw is 1 and leaves nothing), whatever the draws: so each
        # row draws the same m betas
        m = next((j + 1 for j in range(k - 1) if csum[j + 1] == 0), k - 1)
        if m == 0:
            out[..., k - 1] = 1.0
            return out
        a = asarray(alpha[:m], dtype=_dt.float64)
        b = asarray(csum[1:m + 1], dtype=_dt.float64)
        v = self._cont(lib.ma_random_beta, (*shape[:-1], m), [_Param.of_array(a, "a", "double"),
                                                              _Param.of_array(b, "b", "double")], [None, None])
        left = cumulative_prod(1.0 - v, axis=-1, include_initial=True)  # the stick before each draw, then after all
        out[..., :m] = left[..., :m] * v
        out[..., k - 1] = left[..., m]
        return out

    def multivariate_normal(self, mean: Any, cov: Any, size: Any = None, check_valid: str = "warn",
                            tol: float = 1e-8, *, method: str = "svd") -> NDArray:
        """Draws of N(mean, cov): standard normals times a factor of cov.

        ``method="cholesky"`` factors cov here, in C, in OpenBLAS's order of
        operations (NumPy's results bit for bit up to 4 x 4, within
        rounding above).  ``"svd"`` (NumPy's default) and ``"eigh"`` need LAPACK's
        decompositions: minarray has none yet, so they run on NumPy's
        ``numpy.linalg`` (copies of the arrays) when NumPy is installed, and
        raise ModuleNotFoundError otherwise.
        """

        if method not in ("eigh", "svd", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        mean_a, cov_a = asarray(mean), asarray(cov)
        if mean_a.dtype.kind == "c" or cov_a.dtype.kind == "c":
            raise TypeError("mean and cov must not be complex")
        shape = [] if size is None else list(_shape_of(size))
        if mean_a.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if cov_a.ndim != 2 or cov_a.shape[0] != cov_a.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mean_a.shape[0] != cov_a.shape[0]:
            raise ValueError("mean and cov must have same length")
        d = mean_a.shape[0]
        final = (*shape, d)
        if method != "cholesky":
            try:
                import numpy as np  # optional: NumPy is not a dependency of minarray
            except ImportError:
                raise ModuleNotFoundError(
                    f"multivariate_normal(method={method!r}) needs an SVD or eigendecomposition, which minarray "
                    "does not have yet; install NumPy (its numpy.linalg is used then), or pass "
                    "method='cholesky'") from None
        x = self.standard_normal(final).reshape((-1, d)) if d else NDArray._empty((0, 0), _dt.float64)
        if method == "cholesky":
            lower = cov_a.astype(_dt.float64).copy()
            bad = lib.ma_cholesky(d, host_pointer(lower, "double *"))
            if bad >= 0:
                raise ValueError("Matrix is not positive definite")
            m = mean_a.astype(_dt.float64).copy()
            rows = x.shape[0] if d else math.prod(shape)
            res = NDArray._empty((rows, d), _dt.float64)
            lib.ma_mvn_transform(rows, d, host_pointer(x, "double *"), host_pointer(lower, "double *"),
                                 host_pointer(m, "double *"), host_pointer(res, "double *"))
            return res.reshape(final)
        return _mvn_numpy(np, x, mean_a, cov_a, final, check_valid, tol, method)

    # ---- choice and permutations --------------------------------------------------

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None, axis: int = 0,
               shuffle: bool = True) -> Any:
        """Samples from ``range(a)`` (an int) or from ``a``'s entries along
        ``axis``: with replacement (uniform, or by probabilities ``p``) or
        without (a tail shuffle, Floyd's algorithm, or rounds of weighted
        draws with ``p``), exactly as NumPy chooses between them."""

        a_orig = a
        arr = a if isinstance(a, NDArray) else asarray(a)
        if arr.ndim == 0:
            try:
                pop_size = operator.index(arr.item())
            except TypeError:
                raise ValueError(f"a must be a sequence or an integer, not {type(a_orig)}") from None
            if pop_size <= 0 and (size is None or math.prod(_shape_of(size)) != 0):
                raise ValueError("a must be a positive integer unless no samples are taken")
        else:

            axis = normalize_axis(axis, arr.ndim)
            pop_size = arr.shape[axis]
            if pop_size == 0 and (size is None or math.prod(_shape_of(size)) != 0):
                raise ValueError("a cannot be empty unless no samples are taken")
        pvals: NDArray | None = None
        if p is not None:
            atol = math.sqrt(_EPS64)
            pdt = getattr(p, "dtype", None)
            if pdt is not None and str(pdt) in ("float32", "float16"):
                atol = max(atol, math.sqrt(_EPS32 if str(pdt) == "float32" else 0.0009765625))
            len(p)  # NumPy's d = len(p): TypeError for a scalar p
            pvals = asarray(p, dtype=_dt.float64).copy()
            if pvals.ndim != 1:
                raise ValueError("p must be 1-dimensional")
            if pvals.size != pop_size:
                raise ValueError("a and p must have same size")
            p_sum = lib.ma_random_kahan_sum(host_pointer(pvals, "double *"), pvals.size)
            if math.isnan(p_sum):
                raise ValueError("Probabilities contain NaN")
            if pvals.size and bool(any_(less(pvals, 0.0))):
                raise ValueError("Probabilities are not non-negative")
            if abs(p_sum - 1.0) > atol:
                raise ValueError("Probabilities do not sum to 1. See Notes section of docstring for more "
                                 "information.")
        is_scalar = size is None
        shape = () if is_scalar else _shape_of(size)
        n = math.prod(shape)
        if replace:
            if pvals is not None:
                idx = NDArray._empty(shape, _dt.int64)
                with self.lock:
                    rc = lib.ma_random_choice_p(self._st, pop_size, host_pointer(pvals, "double *"), n, 1,
                                                host_pointer(idx, "int64_t *"))
                if rc != 0:
                    raise MemoryError("choice: out of memory")
            else:
                idx = self.integers(0, pop_size, size=shape, dtype=_dt.int64)
        else:
            if n > pop_size:
                raise ValueError("Cannot take a larger sample than population when replace is False")
            idx = NDArray._empty(shape, _dt.int64)
            out_p = host_pointer(idx, "int64_t *")
            if pvals is not None:
                if int(count_nonzero(greater(pvals, 0.0))) < n:
                    raise ValueError("Fewer non-zero entries in p than size")
                with self.lock:
                    rc = lib.ma_random_choice_p(self._st, pop_size, host_pointer(pvals, "double *"), n, 0, out_p)
            else:
                cutoff = 50 if shuffle else 20
                with self.lock:
                    if pop_size > 10000 and n > pop_size // cutoff:
                        rc = lib.ma_random_choice_tail_shuffle(self._st, pop_size, n, out_p)
                    else:
                        rc = lib.ma_random_choice_floyd(self._st, pop_size, n, 1 if shuffle else 0, out_p)
            if rc != 0:
                raise MemoryError("choice: out of memory")
        if is_scalar:
            i = int(idx.item()) if isinstance(idx, NDArray) else int(idx)
            if arr.ndim == 0:
                return i
            picked = take(arr, asarray([i], dtype=_dt.int64), axis=axis)
            res = picked.reshape(arr.shape[:axis] + arr.shape[axis + 1:])
            return res.item() if res.ndim == 0 else res
        if arr.ndim == 0:
            return idx
        return take(arr, idx, axis=axis)

    def shuffle(self, x: Any, axis: int = 0) -> None:
        """Shuffle ``x`` in place along ``axis`` (an NDArray, or a mutable
        sequence along its only axis) by Fisher-Yates."""

        if isinstance(x, NDArray):
            if not x.flags.writeable:
                raise ValueError("array is read-only")
            ax = normalize_axis(axis, x.ndim)
            if x.size == 0:
                return
            if x.ndim == 1:
                with self.lock:
                    lib.ma_random_shuffle(self._st, x.shape[0], 1, x.itemsize, x.strides[0],
                                          host_pointer(x, "char *"))
                return

            perm = self._permuted_range(x.shape[ax])
            x[...] = take(x, perm, axis=ax)
            return
        if hasattr(x, "__array_interface__") or hasattr(x, "__dlpack__"):
            # Another library's array (NumPy's): shuffle it in place through a
            # zero-copy view, or refuse, never shuffle a copy silently.

            try:
                view = asarray(x, copy=False)
            except (ValueError, TypeError, BufferError) as exc:
                raise TypeError(f"shuffle needs to view this {type(x).__name__} without a copy: {exc}") from None
            self.shuffle(view, axis)
            return
        if not isinstance(x, MutableSequence):
            warnings.warn(f"you are shuffling a '{type(x).__name__}' object which is not a subclass of "
                          "'Sequence'; `shuffle` is not guaranteed to behave correctly.", UserWarning, stacklevel=2)
        if axis != 0:
            raise NotImplementedError("Axis argument is only supported on ndarray objects")
        n = len(x)
        if n > 1:
            perm = self._permuted_range(n).tolist()
            old = list(x)
            for i, j in enumerate(perm):
                x[i] = old[j]

    def _permuted_range(self, n: int) -> NDArray:
        """arange(n) shuffled with shuffle's draws: applying it as a take
        reorders exactly as the swaps would."""

        perm = arange(n, dtype=_dt.int64)
        with self.lock:
            lib.ma_random_shuffle(self._st, n, 1, 8, 8, host_pointer(perm, "char *"))
        return perm

    def permutation(self, x: Any, axis: int = 0) -> NDArray:
        """A shuffled copy: of ``arange(x)`` for an int, else of ``x`` along ``axis``."""

        if isinstance(x, int) or (hasattr(x, "__index__") and not hasattr(x, "shape")):

            perm = arange(operator.index(x), dtype=_dt.int64)
            self.shuffle(perm)
            return perm
        arr = asarray(x)
        ax = normalize_axis(axis, arr.ndim)
        if arr.ndim == 1:
            arr = arr.copy()
            self.shuffle(arr)
            return arr
        return take(arr, self._permuted_range(arr.shape[ax]), axis=ax)

    def permuted(self, x: Any, *, axis: int | None = None, out: NDArray | None = None) -> NDArray:
        """A copy of ``x`` (or ``out``, filled from x) with each slice along
        ``axis`` shuffled independently; with ``axis=None`` the whole array
        shuffled as one flat sequence in its memory order."""

        xa = asarray(x)
        if out is None:
            res = xa.copy(order="K")
        else:
            if not isinstance(out, NDArray):
                raise TypeError("out must be a minarray array")
            if not out.flags.writeable:
                raise ValueError("out is read-only")
            if out.shape != xa.shape:
                raise ValueError("out must have the same shape as x")
            if not _dt.can_cast(xa.dtype, out.dtype):
                raise TypeError(f"Cannot cast x from {xa.dtype} to {out.dtype} according to the rule 'safe'")
            out[...] = xa
            res = out
        if axis is None:
            # Shuffle the elements in memory order (NumPy: ravel(order='A')
            # of a contiguous result, C order of a copy otherwise).
            c, f = res.flags.c_contiguous, res.flags.f_contiguous
            work = res if c else (res.T if f else res.copy())
            if res.size:
                with self.lock:
                    lib.ma_random_shuffle(self._st, res.size, 1, res.itemsize, res.itemsize,
                                          host_pointer(work, "char *"))
            if not (c or f):
                res[...] = work
            return res
        ax = normalize_axis(axis, res.ndim)
        work = res if res.flags.c_contiguous else res.copy()
        outer = math.prod(res.shape[:ax])
        inner = math.prod(res.shape[ax + 1:])
        if res.size:
            with self.lock:
                lib.ma_random_shuffle_lanes(self._st, outer, res.shape[ax], inner, res.itemsize,
                                            host_pointer(work, "char *"))
        if work is not res:
            res[...] = work
        return res


def default_rng(seed: Any = None) -> Generator:
    """A Generator over PCG64 seeded from ``seed`` (None: fresh OS entropy;
    an int, a sequence of ints or a SeedSequence), wrapping a bit generator
    given directly, or a Generator itself, as ``numpy.random.default_rng``."""
    if isinstance(seed, BitGenerator):
        return Generator(seed)
    if isinstance(seed, Generator):
        return seed
    if hasattr(seed, "bit_generator") or (hasattr(seed, "state") and hasattr(seed, "random_raw")):
        # NumPy's Generator or bit generator: its C state cannot be shared.
        raise TypeError(f"default_rng cannot wrap a {type(seed).__module__}.{type(seed).__name__}; to continue its "
                        "stream, copy its state: b = minarray.random.PCG64(); b.state = <its bit generator>.state")
    return Generator(PCG64(seed))


# ---- helpers --------------------------------------------------------------------


def _float_dtype(dtype: Any, what: str) -> _dt.DType:
    if dtype is _dt.float64 or dtype is _dt.float32:
        return dtype
    try:
        dt = _dt.as_dtype(dtype)
    except (TypeError, ValueError):
        raise TypeError(f"Unsupported dtype {dtype!r} for {what}") from None
    if dt not in (_dt.float64, _dt.float32):
        raise TypeError(f"Unsupported dtype {dt} for {what}")
    return dt


def _mvn_numpy(np: Any, x: NDArray, mean: NDArray, cov: NDArray, final: Shape, check_valid: str, tol: float,
               method: str) -> NDArray:
    """The SVD and eigh branches of NumPy's multivariate_normal, run by
    NumPy on copies, for bit-identical results (minarray has no LAPACK yet)."""

    # np.array reads through __array_interface__, whose pointer passes the
    # device guard (a device array raises naming its device; NumPy's
    # from_dlpack would refuse it without saying where it lives)
    xn = np.array(x, copy=True)
    mn = np.array(mean, copy=True)
    cv = np.array(cov, copy=True).astype(np.double)
    if method == "svd":
        u, s, vh = np.linalg.svd(cv)
    else:
        s, u = np.linalg.eigh(cv)
    if check_valid != "ignore":
        if check_valid not in ("warn", "raise"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        psd = np.allclose(np.dot(vh.T * s, vh), cv, rtol=tol, atol=tol) if method == "svd" else not np.any(s < -tol)
        if not psd:
            if check_valid == "warn":
                warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning, stacklevel=3)
            else:
                raise ValueError("covariance is not symmetric positive-semidefinite.")
    factor = u * np.sqrt(abs(s)) if method == "eigh" else u * np.sqrt(s)
    res = mn + xn @ factor.T
    return asarray(np.ascontiguousarray(res.reshape(final)), copy=True)
