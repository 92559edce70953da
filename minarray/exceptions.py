"""The exceptions minarray raises beyond Python's own (NumPy's
``numpy.exceptions`` spells the same ones)."""

from __future__ import annotations

__all__ = ["AxisError", "ComplexWarning", "RankWarning", "TooHardError"]


class AxisError(ValueError, IndexError):
    """An axis outside ``[-ndim, ndim)``.  A ``ValueError`` and an
    ``IndexError`` both, as NumPy's ``AxisError`` is, so code written for
    either (or for the Array API, which names IndexError) catches it."""

    def __init__(self, axis: int, ndim: int, what: str = "axis") -> None:
        self.axis, self.ndim = axis, ndim
        super().__init__(f"{what} {axis} is out of bounds for an array of dimension {ndim}")


class ComplexWarning(RuntimeWarning):
    """A complex scalar converted to a real Python number (``float(s)``,
    ``int(s)``), which keeps the real part: NumPy's
    ``numpy.exceptions.ComplexWarning``."""


class RankWarning(RuntimeWarning):
    """A least-squares polynomial fit whose Vandermonde matrix is rank
    deficient (``polyfit``): NumPy's ``numpy.exceptions.RankWarning``."""


class TooHardError(RuntimeError):
    """``shares_memory`` given a ``max_work`` too small to decide:
    NumPy's ``numpy.exceptions.TooHardError``."""
