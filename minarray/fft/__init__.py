"""``ma.fft``: the Array API's FFT extension.

The transforms run on NumPy's FFT (pocketfft, which NumPy maintains and
ships), over zero-copy views of minarray's arrays; the results come back
as minarray arrays without a copy.  Writing an FFT here would be a second,
less tested pocketfft: the well-kept one serves.  NumPy is therefore
needed for this namespace only (an ImportError says so when it is
missing).  Precision follows the standard: float32 and complex64 stay
single precision, float16 and bfloat16 compute in float32.

``fftfreq``, ``rfftfreq``, ``fftshift`` and ``ifftshift`` are arithmetic
and rolls, done by minarray itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import as_int, as_operand, asarray
from minarray._creation import arange
from minarray._manipulation import roll

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fft2", "ifft2", "rfft2", "irfft2", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_NORMS = ("backward", "ortho", "forward")


def _numpy_fft() -> Any:
    try:
        import numpy as np  # optional: NumPy is not a dependency of minarray
    except ImportError as exc:  # pragma: no cover - numpy is installed wherever the tests run
        raise ImportError("ma.fft computes with NumPy's FFT (pocketfft): install numpy") from exc
    return np.fft


def _operand(x: Any, name: str, real: bool) -> Any:
    """A NumPy view of ``x`` in a precision NumPy's FFT computes in."""
    a = as_operand(x, name)
    if a.dtype.kind == "c" and real:
        raise TypeError(f"{name} needs a real-valued array, got {a.dtype}")
    if a.dtype in (_dt.float16, _dt.bfloat16):
        a = a.astype(_dt.float32)
    elif a.dtype.kind in "biu":
        a = a.astype(_dt.float64)
    import numpy as np  # optional: NumPy is not a dependency of minarray

    return np.asarray(a)


def _check_norm(norm: str | None) -> str:
    if norm is None:  # NumPy's spelling of the default
        return "backward"
    if norm not in _NORMS:
        raise ValueError(f"norm must be one of {', '.join(_NORMS)}, got {norm!r}")
    return norm


def _one(name: str, real_input: bool) -> Any:
    # n, axis and norm also by position, as NumPy's (the standard's are keywords)
    def f(x: NDArray, /, n: int | None = None, axis: int = -1, norm: str | None = "backward") -> NDArray:
        out: NDArray = asarray(getattr(_numpy_fft(), name)(_operand(x, name, real_input), n=n, axis=axis,
                                                            norm=_check_norm(norm)))
        return out

    f.__name__ = f.__qualname__ = name
    return f


def _many(name: str, real_input: bool) -> Any:
    def f(x: NDArray, /, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = "backward") -> NDArray:
        norm = _check_norm(norm)
        if s is not None and axes is None:
            axes = tuple(range(-len(s), 0))  # the standard's rule: the last len(s) axes
        out: NDArray = asarray(getattr(_numpy_fft(), name)(_operand(x, name, real_input), s=s, axes=axes,
                                                            norm=norm))
        return out

    f.__name__ = f.__qualname__ = name
    return f


fft = _one("fft", False)
fft.__doc__ = "The one-dimensional discrete Fourier transform along ``axis``."
ifft = _one("ifft", False)
ifft.__doc__ = "The inverse of :func:`fft`."
rfft = _one("rfft", True)
rfft.__doc__ = "The transform of a real array: the ``n // 2 + 1`` non-negative frequency terms."
irfft = _one("irfft", False)
irfft.__doc__ = "The inverse of :func:`rfft`: a real array (``n`` defaults to ``2 * (m - 1)``)."
hfft = _one("hfft", False)
hfft.__doc__ = "The transform of a Hermitian-symmetric signal: a real spectrum."
ihfft = _one("ihfft", True)
ihfft.__doc__ = "The inverse of :func:`hfft`."
fftn = _many("fftn", False)
fftn.__doc__ = "The n-dimensional transform over ``axes`` (sizes ``s``)."
ifftn = _many("ifftn", False)
ifftn.__doc__ = "The inverse of :func:`fftn`."
rfftn = _many("rfftn", True)
rfftn.__doc__ = "The n-dimensional transform of a real array (the last axis halved)."
irfftn = _many("irfftn", False)
irfftn.__doc__ = "The inverse of :func:`rfftn`."


def _two(nd: Any) -> Any:
    """NumPy's two-dimensional spelling of an n-dimensional transform: the
    same function over the last two axes by default."""
    def f(x: NDArray, /, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1),
          norm: str | None = "backward") -> NDArray:
        out: NDArray = nd(x, s=s, axes=axes, norm=norm)
        return out

    f.__name__ = f.__qualname__ = nd.__name__[:-1] + "2"
    f.__doc__ = f"{nd.__doc__[:-1]}, over the last two axes unless ``axes`` says otherwise."
    return f


fft2 = _two(fftn)
ifft2 = _two(ifftn)
rfft2 = _two(rfftn)
irfft2 = _two(irfftn)


def _float_dtype(dtype: Any) -> _dt.DType:
    dt = _dt.default_float if dtype is None else _dt.as_dtype(dtype)
    if dt.kind != "f":
        raise TypeError(f"the sample frequencies are real: dtype must be a real floating type, got {dt}")
    return dt


def _count(n: Any, fname: str) -> int:
    """The ``n`` of fftfreq and rfftfreq: a positive integer; NumPy raises
    ValueError, not TypeError, for a float there."""
    try:
        k = as_int(n, f"{fname}: n")
    except TypeError as e:
        raise ValueError(str(e)) from None
    if k < 1:
        raise ValueError(f"{fname}: n must be a positive integer, got {k}")
    return k


def fftfreq(n: int, /, d: float = 1.0, *, dtype: Any = None, device: Any = None) -> NDArray:
    """The sample frequencies of an ``n``-point transform with spacing
    ``d``: ``[0, 1, ..., n/2-1, -n/2, ..., -1] / (d * n)`` (n even)."""
    if device not in (None, "cpu"):
        raise ValueError(f"unsupported device {device!r}: minarray arrays live on 'cpu'")
    n = _count(n, "fftfreq")
    k = arange(n, dtype=_dt.int64)
    k = k - n * (k >= (n + 1) // 2).astype(_dt.int64)
    out: NDArray = (k / (d * n)).astype(_float_dtype(dtype))
    return out


def rfftfreq(n: int, /, d: float = 1.0, *, dtype: Any = None, device: Any = None) -> NDArray:
    """The non-negative sample frequencies of an ``n``-point real transform:
    ``[0, 1, ..., n//2] / (d * n)``."""
    if device not in (None, "cpu"):
        raise ValueError(f"unsupported device {device!r}: minarray arrays live on 'cpu'")
    n = _count(n, "rfftfreq")
    out: NDArray = (arange(n // 2 + 1, dtype=_dt.int64) / (d * n)).astype(_float_dtype(dtype))
    return out


def _shift(x: Any, axes: int | Sequence[int] | None, sign: int, name: str) -> NDArray:
    a = as_operand(x, name)
    ax = tuple(range(a.ndim)) if axes is None else (axes,) if isinstance(axes, int) else tuple(axes)
    return roll(a, tuple(sign * (a.shape[i] // 2) for i in ax), axis=ax)


def fftshift(x: NDArray, /, axes: int | Sequence[int] | None = None) -> NDArray:
    """The zero-frequency term moved to the centre (each of ``axes`` rolled
    by half its length)."""
    return _shift(x, axes, 1, "fftshift")


def ifftshift(x: NDArray, /, axes: int | Sequence[int] | None = None) -> NDArray:
    """The inverse of :func:`fftshift` (differs for odd lengths)."""
    return _shift(x, axes, -1, "ifftshift")
