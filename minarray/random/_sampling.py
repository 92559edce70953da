"""The sampling plumbing NumPy's Generator and its legacy RandomState share.

Both follow NumPy's Cython drivers (``_common.pyx``'s cont/disc and
check_constraint, ``_bounded_integers.pyx``): parameters become doubles or
int64 scalars, or arrays broadcast to the output; constraints are checked
before anything is drawn; each C fill runs under the sampler's lock.
:class:`Sampler` holds those steps; a subclass supplies the C state
(``_st``), the lock, scratch buffers and its bounded-integer fills.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

from minarray import _dtypes as _dt
from minarray import _elementwise as ew
from minarray._array_object import NDArray
from minarray._coerce import asarray, broadcast_shapes
from minarray._creation import _shape as _creation_shape
from minarray._errstate import errstate
from minarray._manipulation import broadcast_to
from minarray._native import ffi, host_pointer, lib
from minarray._statistical import cumulative_sum
from minarray._statistical import max as max_
from minarray._statistical import min as min_
from minarray._statistical import sum as sum_
from minarray._utility import all as all_
from minarray._utility import any as any_

Shape = tuple[int, ...]
# NumPy's POISSON_LAM_MAX: the largest lam whose draws stay clear of int64's limit.
_POISSON_LAM_MAX = float(2**63 - 1) - math.sqrt(2**63 - 1) * 10
_EPS64 = 2.220446049250313e-16
_EPS32 = 1.1920928955078125e-07

# integers(): per dtype, the C fill, its unsigned width and the bounds.
_INT_INFO: dict[str, tuple[int, int, int]] = {
    "int64": (64, -(2**63), 2**63 - 1), "int32": (32, -(2**31), 2**31 - 1),
    "int16": (16, -(2**15), 2**15 - 1), "int8": (8, -(2**7), 2**7 - 1),
    "uint64": (64, 0, 2**64 - 1), "uint32": (32, 0, 2**32 - 1),
    "uint16": (16, 0, 2**16 - 1), "uint8": (8, 0, 2**8 - 1), "bool": (1, 0, 1),
}
_CTYPE = {64: "uint64_t *", 32: "uint32_t *", 16: "uint16_t *", 8: "uint8_t *", 1: "uint8_t *"}
# the C element type of each parameter and result dtype
_C_ELEMENT = {"float64": "double", "float32": "float", "int64": "int64_t"}


def _shape_of(size: Any) -> Shape:
    """``size`` as a shape: an int or a sequence of non-negative ints."""
    if type(size) is int and size >= 0:
        return (size,)
    if type(size) is tuple:  # a tuple of sizes, the other common spelling, without the general checks
        for d in size:
            if type(d) is not int or d < 0:
                break
        else:
            return size
    if isinstance(size, NDArray):
        size = size.tolist()
    return _creation_shape(tuple(size) if isinstance(size, range) else size)


def _as_float(x: Any, what: str) -> float:
    """A scalar argument as a double (PyFloat_AsDouble: anything with
    __float__ or __index__, never a string)."""
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{what} must be a real number, not {type(x).__name__}")
    try:
        return float(x)
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be a real number, not {type(x).__name__}") from None


def _is_scalar(x: Any) -> bool:
    if isinstance(x, (int, float, bool)):
        return True
    ndim = getattr(x, "ndim", None)
    if ndim is not None:
        return bool(ndim == 0)
    return not isinstance(x, (list, tuple, range))


class _Param:
    """One distribution parameter: a double (or int64) scalar, or an array
    converted to the parameter's dtype."""

    __slots__ = ("array", "ctype", "name", "value")

    def __init__(self, x: Any, name: str, dtype: _dt.DType = _dt.float64) -> None:
        self.name = name
        self.ctype = _C_ELEMENT[dtype.name]
        self.array: NDArray | None = None
        self.value: Any = None
        if type(x) is float and dtype is _dt.float64:  # the common case first
            self.value = x
        elif _is_scalar(x):
            if dtype == _dt.int64:
                self.value = _as_int64(x, name)
            else:
                self.value = _as_float(x.item() if isinstance(x, NDArray) else x, name)
        else:
            arr = asarray(x)
            if dtype == _dt.int64 and arr.dtype.kind not in ("i", "u", "b", "f"):
                raise TypeError(f"{name} must hold integers, not {arr.dtype}")
            self.array = arr.astype(dtype) if arr.dtype != dtype else arr

    @classmethod
    def of_array(cls, arr: NDArray, name: str, ctype: str) -> _Param:
        """A parameter from an array already in the C function's type."""
        p = cls.__new__(cls)
        p.name, p.ctype, p.array, p.value = name, ctype, arr, None
        return p


def _as_int64(x: Any, name: str) -> int:
    """An integer parameter; a float truncates, as NumPy's conversion does."""
    x = x.item() if isinstance(x, NDArray) else x
    try:
        if isinstance(x, float) or type(x).__name__ in ("float32", "float64"):
            if not math.isfinite(float(x)):
                raise OverflowError(f"{name} must be finite")
            x = int(x)
        v = operator.index(x)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(x).__name__}") from None
    if not -(2**63) <= v < 2**63:
        raise OverflowError(f"{name} does not fit in int64")
    return v


def _c_long(x: Any, name: str) -> int:
    """An integer argument as NumPy's Cython code converts it to a C long:
    an int or anything with ``__index__``, else ``int(x)`` of anything with
    ``__int__`` (a float truncates); never a string."""
    try:
        v = operator.index(x)
    except TypeError:
        if isinstance(x, (str, bytes)) or not hasattr(x, "__int__"):
            raise TypeError(f"an integer is required for {name}, not {type(x).__name__}") from None
        v = int(x)
    if not -(2**63) <= v < 2**63:
        raise OverflowError(f"Python int too large to convert to C long ({name})")
    return v


# ---- multinomial and dirichlet: the parts RandomState and Generator share -----


def _multinomial_pvals(pvals: Any, parr: NDArray) -> None:
    """multinomial's checks of its probabilities ``parr`` (``pvals`` as C-contiguous
    float64, categories along the last axis), as NumPy's: each in [0, 1],
    and in every row the Kahan sum of all but the last at most 1 + 1e-12."""
    _check(_Param.of_array(parr, "pvals", "double"), "bounded_0_1")
    d = parr.shape[-1]
    if parr.size == 0:
        return
    ptr = host_pointer(parr, "double *")
    for offset in range(0, parr.size, d):
        if lib.ma_random_kahan_sum(ptr + offset, d - 1) > 1.0 + 1e-12:
            last = "[:-1]" if parr.ndim == 1 else "[...,:-1]"
            # float16/32 probabilities that sum to 1 in their own type may
            # not in float64: the message says so, as NumPy's does
            if str(getattr(pvals, "dtype", "")) in ("float16", "float32") and \
                    float(sum_(asarray(pvals))) < 1.0001:
                raise ValueError(f"sum(pvals{last}.astype(np.float64)) > 1.0. The pvals array is cast to 64-bit "
                                 "floating point prior to checking the sum. Precision changes when casting may "
                                 "cause problems even if the sum of the original pvals is valid.")
            raise ValueError(f"sum(pvals{last}) > 1.0")


def _dirichlet_alpha(alpha: Any) -> NDArray:
    """dirichlet's ``alpha`` as NumPy reads it: ``len(alpha)`` first (a
    TypeError for a scalar), then a C-contiguous 1-d float64 array."""
    len(alpha)
    arr = asarray(alpha, dtype=_dt.float64)
    if arr.ndim != 1:
        raise ValueError(f"object {'too deep' if arr.ndim > 1 else 'of too small depth'} for desired array: "
                         "alpha must be a 1-d sequence")
    return arr if arr.flags.c_contiguous else arr.copy()


def _normalised_rows(g: NDArray) -> NDArray:
    """Each row (last axis) of gamma draws times 1 / its sum: dirichlet's
    normalisation, the sum accumulated left to right (a cumulative sum's
    last value) as NumPy's loop adds, so the result is NumPy's bit for bit.
    A row of zeros gives NaNs, as in NumPy, without a warning."""
    total = cumulative_sum(g, axis=-1)[..., -1:]
    with errstate(all="ignore"):
        return g * (1.0 / total)


def _triangular_params(left: Any, mode: Any, right: Any) -> list[_Param]:
    """triangular's parameters, checked as NumPy checks them (both APIs):
    left <= mode <= right and left != right, anywhere in arrays."""
    params = [_Param(left, "left"), _Param(mode, "mode"), _Param(right, "right")]
    lo, md, hi = (p.array if p.array is not None else p.value for p in params)
    if all(p.array is None for p in params):
        bad_lm, bad_mr, same = lo > md, md > hi, lo == hi
    else:
        bad_lm, bad_mr, same = (bool(any_(f(x, y))) for f, x, y in
                                ((ew.greater, lo, md), (ew.greater, md, hi), (ew.equal, lo, hi)))
    if bad_lm:
        raise ValueError("left > mode")
    if bad_mr:
        raise ValueError("mode > right")
    if same:
        raise ValueError("left == right")
    return params


def _hypergeometric_counts(ngood: Any, nbad: Any, nsample: Any, limit: int | None) -> list[_Param]:
    """hypergeometric's three counts as int64 parameters, checked in NumPy's
    order (both APIs): scalars convert as C longs (a float truncates),
    arrays cast to int64; ngood and nbad below ``limit`` (the Generator's
    1e9), then ngood + nbad >= nsample.  The sign checks are the caller's."""
    args = (ngood, nbad, nsample)
    names = ("ngood", "nbad", "nsample")
    if all(_is_scalar(x) for x in args):
        good, bad, sample = (_c_long(x.item() if isinstance(x, NDArray) else x, name)
                             for x, name in zip(args, names, strict=True))
        too_big = limit is not None and (good >= limit or bad >= limit)
        short = good + bad < sample
        values: list[Any] = [good, bad, sample]
        params = [_Param(v, name, _dt.int64) for v, name in zip(values, names, strict=True)]
    else:
        g, b, k = (asarray(x).astype(_dt.int64) for x in args)
        too_big = limit is not None and (bool(any_(ew.greater_equal(g, limit))) or
                                         bool(any_(ew.greater_equal(b, limit))))
        short = bool(any_(ew.less(ew.add(g, b), k)))
        params = [_Param.of_array(a, name, "int64_t") for a, name in zip((g, b, k), names, strict=True)]
    if too_big:
        raise ValueError(f"both ngood and nbad must be less than {limit}")
    if short:
        raise ValueError("ngood + nbad < nsample")
    return params


# ---- constraints, as NumPy's check_constraint / check_array_constraint ------


def _check(p: _Param, kind: str) -> None:

    name = p.name
    if p.array is None:
        v = p.value
        if kind == "non_negative":
            if not math.isnan(v) and math.copysign(1.0, v) < 0:
                raise ValueError(f"{name} < 0")
        elif kind == "positive":
            if v <= 0:
                raise ValueError(f"{name} <= 0")
        elif kind == "bounded_0_1":
            if not (v >= 0) or not (v <= 1):
                raise ValueError(f"{name} < 0, {name} > 1 or {name} is NaN")
        elif kind == "poisson":
            if not (v >= 0):
                raise ValueError(f"{name} < 0 or {name} is NaN")
            if not (v <= _POISSON_LAM_MAX):
                raise ValueError(f"{name} value too large")
        elif kind == "positive_not_nan":
            if math.isnan(v):
                raise ValueError(f"{name} must not be NaN")
            if v <= 0:
                raise ValueError(f"{name} <= 0")
        elif kind == "bounded_gt_0_1":
            if not v > 0 or not v <= 1:  # NumPy says "contains NaNs" for a scalar too
                raise ValueError(f"{name} <= 0, {name} > 1 or {name} contains NaNs")
        elif kind == "bounded_lt_0_1":
            if not (v >= 0) or not (v < 1):
                raise ValueError(f"{name} < 0, {name} >= 1 or {name} is NaN")
        elif kind == "gt_1":
            if not (v > 1):
                raise ValueError(f"{name} <= 1 or {name} is NaN")
        elif kind == "gte_1":
            if not (v >= 1):
                raise ValueError(f"{name} < 1 or {name} is NaN")
        return
    a = p.array
    if a.size == 0:
        return
    if kind == "non_negative":
        if a.dtype.kind == "f":
            bad = any_(ew.logical_and(ew.logical_not(ew.isnan(a)), ew.signbit(a)))
        else:
            bad = any_(ew.less(a, 0))
        if bool(bad):
            raise ValueError(f"{name} < 0")
    elif kind == "positive":
        if bool(any_(ew.less_equal(a, 0))):
            raise ValueError(f"{name} <= 0")
    elif kind == "bounded_0_1":
        if not bool(all_(ew.greater_equal(a, 0))) or not bool(all_(ew.less_equal(a, 1))):
            raise ValueError(f"{name} < 0, {name} > 1 or {name} contains NaNs")
    elif kind == "positive_not_nan":
        if bool(any_(ew.isnan(a))):
            raise ValueError(f"{name} must not be NaN")
        if bool(any_(ew.less_equal(a, 0))):
            raise ValueError(f"{name} <= 0")
    elif kind == "bounded_gt_0_1":
        if not bool(all_(ew.greater(a, 0))) or not bool(all_(ew.less_equal(a, 1))):
            raise ValueError(f"{name} <= 0, {name} > 1 or {name} contains NaNs")
    elif kind == "bounded_lt_0_1":
        if not bool(all_(ew.greater_equal(a, 0))) or not bool(all_(ew.less(a, 1))):
            raise ValueError(f"{name} < 0, {name} >= 1 or {name} contains NaNs")
    elif kind == "gt_1":
        if not bool(all_(ew.greater(a, 1))):
            raise ValueError(f"{name} <= 1 or {name} contains NaNs")
    elif kind == "gte_1":
        if not bool(all_(ew.greater_equal(a, 1))):
            raise ValueError(f"{name} < 1 or {name} contains NaNs")
    elif kind == "poisson":
        if not bool(all_(ew.less_equal(a, _POISSON_LAM_MAX))):
            raise ValueError(f"{name} value too large")
        if not bool(all_(ew.greater_equal(a, 0.0))):
            raise ValueError(f"{name} < 0 or {name} contains NaNs")


def _broadcast(params: list[_Param], size: Any) -> tuple[Shape, list[tuple[Any, int, Any]]]:
    """The output shape and, per parameter, (C pointer, step, keep-alive):
    step 0 for a scalar, 1 for an array broadcast to the output and made
    C-contiguous."""

    arrays = [p.array for p in params if p.array is not None]
    if size is not None:
        shape = _shape_of(size)
        try:
            full = broadcast_shapes(shape, *(a.shape for a in arrays))
        except ValueError:
            full = None
        if full != shape:
            got = broadcast_shapes(*(a.shape for a in arrays)) if full is not None else None
            raise ValueError(f"Output size {shape} is not compatible with broadcast dimensions of inputs "
                             f"{got if got is not None else tuple(a.shape for a in arrays)}.")
    else:
        shape = broadcast_shapes(*(a.shape for a in arrays)) if arrays else ()
    out = []
    for p in params:
        if p.array is None:
            buf = ffi.new(f"{p.ctype}[1]", [p.value])
            out.append((buf, 0, buf))
        else:
            a = p.array
            if a.shape != shape or not a.flags.c_contiguous:
                a = asarray(broadcast_to(a, shape), copy=True)
            out.append((host_pointer(a, f"{p.ctype} *"), 1, a))
    return shape, out


def _check_out(out: Any, dtype: _dt.DType, size: Any, require_c: bool) -> None:
    if not isinstance(out, NDArray):
        raise TypeError(f"out must be a minarray array, not {type(out).__name__}")
    ok = out.flags.c_contiguous or (out.flags.f_contiguous and not require_c)
    if not ok or not out.flags.writeable:
        req = "C-" if require_c else ""
        raise ValueError(f"Supplied output array must be {req}contiguous, writable, aligned, and in machine "
                         "byte-order.")
    if out.dtype != dtype:
        raise TypeError(f"Supplied output array has the wrong type. Expected {dtype}, got {out.dtype}")
    if size is not None and _shape_of(size) != out.shape:
        raise ValueError("size must match out.shape when used together")


def _int_bound(x: Any, what: str) -> int:
    v = x.item() if isinstance(x, NDArray) else x
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{what} must be finite, got {v}")
        return int(v)  # NumPy's int(): truncation
    try:
        return operator.index(v)
    except TypeError:
        try:
            return int(v)
        except (TypeError, ValueError):
            raise TypeError(f"{what} must be an integer, not {type(x).__name__}") from None


def _bounds_error(closed: bool, low_is_zero: bool) -> str:
    # NumPy's format_bounds_error: low == 0 is the one-argument form.
    if low_is_zero:
        return "high < 0" if closed else "high <= 0"
    return "low > high" if closed else "low >= high"


class Sampler:
    """What a sampler over a C state shares: the locked C call, NumPy's
    double fill and cont/disc drivers, and bounded integers."""

    _st: Any
    lock: Any
    _scratch: dict[str, list[Any]]
    _one_d: Any
    _one_f: Any
    _int_scratch: dict[int, Any]
    _fills: dict[int, Callable[..., Any]]

    def _init_scratch(self) -> None:
        # one-value scratch for scalar parameters and size=None draws, used
        # under the lock: per C type, three parameters and a result
        self._scratch = {c: [ffi.new(f"{c}[1]") for _ in range(4)] for c in _C_ELEMENT.values()}
        self._one_d = self._scratch["double"][3]
        self._one_f = self._scratch["float"][3]
        # and one value per integer width, with the fills that write them
        self._int_scratch = {bits: ffi.new(ct.replace(" *", "[1]")) for bits, ct in _CTYPE.items()}
        self._fills = self._bounded_fills()

    def _bounded_fills(self) -> dict[int, Callable[..., Any]]:
        """The scalar-bounds C fill per width (64, 32, 16, 8, 1 for bool)."""
        raise NotImplementedError

    def _bounded_array_fill(self) -> Callable[..., Any]:
        """The per-element-bounds C fill."""
        raise NotImplementedError

    def _call(self, fn: Callable[..., Any], *args: Any) -> None:
        lock = self.lock
        lock.acquire()  # not `with`, which costs CPython 3.11 ~250 ns more per call here
        try:
            fn(self._st, *args)
        finally:
            lock.release()

    def _fill(self, fill: Callable[..., Any], dtype: _dt.DType, size: Any, out: Any, *extra: Any) -> Any:
        """NumPy's double_fill / float_fill: a Python float for size None,
        else a new array of ``size`` (or ``out``) filled in memory order."""
        double = dtype is _dt.float64
        if out is None:
            if size is None:
                buf = self._one_d if double else self._one_f
                with self.lock:  # the scratch value belongs to the lock's holder
                    fill(self._st, 1, *extra, buf)
                    return float(buf[0])
            shape: Shape
            if type(size) is int and size >= 0:  # the common case, without the general checks
                shape, n = (size,), size
            else:
                shape = _shape_of(size)
                n = math.prod(shape)
            arr = NDArray._empty(tuple(shape), dtype)
        else:
            _check_out(out, dtype, size, False)
            arr, n = out, out.size
        self._call(fill, n, *extra, host_pointer(arr, "double *" if double else "float *"))
        return arr

    def _cont(self, fill: Callable[..., Any], size: Any, params: list[_Param], kinds: list[str | None],
              dtype: _dt.DType = _dt.float64, out: Any = None) -> Any:
        """NumPy's cont / disc: scalar parameters are checked and passed with
        step 0; array parameters are checked, broadcast and passed with step 1."""
        for p, kind in zip(params, kinds, strict=True):
            if kind is not None:
                _check(p, kind)
        ctype = _C_ELEMENT[dtype.name]
        if out is None and all(p.array is None for p in params):
            # Scalar parameters: one-value buffers the Generator keeps,
            # written and read under the lock.
            if size is None:
                arr, n = None, 1
            else:
                shape = _shape_of(size)
                arr, n = NDArray._empty(tuple(shape), dtype), math.prod(shape)
            with self.lock:
                args: list[Any] = []
                for i, p in enumerate(params):
                    buf = self._scratch[p.ctype][i]
                    buf[0] = p.value
                    args += (buf, 0)
                if arr is None:
                    res = self._scratch[ctype][3]
                    fill(self._st, 1, *args, res)
                    return res[0] if dtype is _dt.int64 else float(res[0])
                fill(self._st, n, *args, host_pointer(arr, f"{ctype} *"))
            return arr
        if out is not None:
            _check_out(out, dtype, size, True)
            size = out.shape if size is None else size
        shape, ptrs = _broadcast(params, size)
        arr = out if out is not None else NDArray._empty(shape, dtype)
        self._call(fill, arr.size, *[x for ptr, step, _ in ptrs for x in (ptr, step)], host_pointer(arr, f"{ctype} *"))
        return arr

    def _bounded(self, low: Any, high: Any, size: Any, dtype: Any, closed: bool, what: str) -> Any:
        """Integers in [low, high) (or [low, high] when ``closed``) of an
        integer dtype, as NumPy's _bounded_integers draws them: scalar
        bounds fill with one C call, array bounds go one element at a
        time.  The C fills are the subclass's (Lemire's method for the
        Generator, masked rejection for RandomState)."""
        dt = _dt.as_dtype(dtype)
        if dt.name not in _INT_INFO:
            raise TypeError(f"Unsupported dtype {dt} for {what}")
        bits, lb, ub = _INT_INFO[dt.name]
        if size is not None:
            shape = _shape_of(size)
            if math.prod(shape) == 0:
                return NDArray._empty(shape, dt)
        if not (_is_scalar(low) and _is_scalar(high)):
            return self._bounded_array(low, high, size, dt, bits, lb, ub, closed)
        lo, hi = _int_bound(low, "low"), _int_bound(high, "high")
        if not closed:
            hi -= 1
        if lo < lb:
            raise ValueError(f"low is out of bounds for {dt.name}")
        if hi > ub:
            raise ValueError(f"high is out of bounds for {dt.name}")
        if lo > hi:
            raise ValueError(_bounds_error(closed, lo == 0))
        rng = hi - lo
        mask = (1 << 64) - 1 if bits == 64 else (1 << max(bits, 8)) - 1
        off = lo & mask
        fill = self._fills[bits]
        if size is None:
            with self.lock:  # the scratch value belongs to the lock's holder
                buf = self._int_scratch[bits]
                fill(self._st, off, rng & mask, 1, buf)
                v = int(buf[0])
            if bits == 1:
                return bool(v)
            return v - (1 << bits) if lb < 0 and v > ub else v
        arr = NDArray._empty(shape, dt)
        ptr = host_pointer(arr, _CTYPE[bits])
        with self.lock:
            fill(self._st, off, rng & mask, math.prod(shape), ptr)
        return arr

    def _bounded_array(self, low: Any, high: Any, size: Any, dt: _dt.DType, bits: int, lb: int, ub: int,
                        closed: bool) -> NDArray:
        """_bounded with array bounds (NumPy's _rand_<type>_broadcast): the
        bounds are checked, broadcast, and drawn one element at a time."""

        lo_a, hi_a = asarray(low), asarray(high)
        for a, what in ((lo_a, "low"), (hi_a, "high")):
            if a.dtype.kind not in ("i", "u", "b"):
                raise TypeError(f"{what} must hold integers for array bounds, not {a.dtype}")
        if lo_a.size and int(min_(lo_a)) < lb:
            raise ValueError(f"low is out of bounds for {dt.name}")
        if hi_a.size and int(max_(hi_a)) - (0 if closed else 1) > ub:
            raise ValueError(f"high is out of bounds for {dt.name}")
        # Compare in a dtype that holds both exactly (uint64 only when a
        # value needs it, and then low >= 0 was checked above).
        wide = _dt.uint64 if _dt.uint64 in (lo_a.dtype, hi_a.dtype) and lb == 0 else _dt.int64
        lo_c, hi_c = lo_a.astype(wide), hi_a.astype(wide)
        bad = ew.greater(lo_c, hi_c) if closed else ew.greater_equal(lo_c, hi_c)
        if isinstance(bad, NDArray) and bad.size and bool(any_(bad)):
            raise ValueError(_bounds_error(closed, not bool(any_(ew.not_equal(lo_a, 0)))))
        # The C side reads both bounds as 64-bit words (two's complement).
        shape, ptrs = _broadcast([_Param.of_array(lo_c, "low", "uint64_t"),
                                  _Param.of_array(hi_c, "high", "uint64_t")], size)
        arr = NDArray._empty(shape, dt)
        (lp, ls, _k1), (hp, hs, _k2) = ptrs
        self._call(self._bounded_array_fill(), bits, 1 if closed else 0, arr.size, lp, ls, hp, hs,
                   host_pointer(arr))
        return arr
