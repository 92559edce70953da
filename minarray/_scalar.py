"""Scalar: what minarray returns where NumPy returns a scalar.

NumPy gives a scalar (``np.float64(6.0)``), not a 0-d array, for an
element read by integer indices (``x[0]``, ``x[1, 2]``, iterating a 1-d
array), a reduction over every axis (``x.sum()``), an elementwise function
or operator whose result is 0-d (``x[0] + 1``) and a call of a scalar type
(``np.float32(3)``).  The Array API asks for a 0-d array in those places.
A Scalar is both: a 0-d NDArray (every function, ``__dlpack__`` and
``.shape == ()`` work as for any array) that behaves as NumPy's scalar
where NumPy users notice the difference:

- it is a copy: ``t = x[0]; x[0] = x[1]; x[1] = t`` swaps, as in NumPy
  (a view would have followed the write);
- it is read-only and hashable, equal to and hashed as its Python value
  (``{x[0]: ...}``, ``collections.Counter(x)``, ``set(x)``); ``s += 1``
  makes a new scalar instead of writing;
- it prints as NumPy 2 prints scalars: ``np.float64(6.0)``, ``np.True_``
  (``str`` is the value alone, as for a 0-d array);
- ``isinstance(s, ma.floating)`` and the other abstract types answer by
  its dtype, as NumPy's scalar types sit in that tree;
- its operators with another scalar or a Python number are NumPy's scalar
  math (csrc/py/scalar_math.c): as fast, and with its reports, integer
  overflow included (``ma.int8(100) + 100`` warns "overflow encountered in
  scalar add"); ``float(s)`` of a complex one keeps the real part with a
  ``ComplexWarning``.

Every other 0-d array (``asarray(5)``, ``zeros(())``, ``x.reshape(())``,
``x[...]``) stays an NDArray, as NumPy's stays an ndarray.  The C core
makes Scalars itself (csrc/py/ndarray.c); Python routines that compute a
0-d result return ``core.scalar_result(r)``, NumPy's ``PyArray_Return``.
"""

from __future__ import annotations

import numbers
from typing import Any, NoReturn

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._native import core

__all__ = ["Scalar"]


class Scalar(NDArray):
    """A 0-d, read-only NDArray that stands for NumPy's scalar (see the module)."""

    __slots__ = ()

    def __hash__(self) -> int:
        # equal values hash equal across types, as NumPy's scalars and
        # Python's numbers do: hash(x[0]) == hash(1.0) == hash(1)
        return hash(self.item())

    def __setitem__(self, key: Any, value: Any) -> NoReturn:
        raise TypeError(f"a minarray {self.dtype} scalar does not support item assignment")

    def __repr__(self) -> str:
        from minarray import _printing  # cycle: _printing imports the array object

        return _printing.scalar_repr(self)

    def __array_wrap__(self, arr: NDArray, context: Any = None, return_scalar: bool = False) -> NDArray:
        """A result computed from this scalar: a scalar when 0-d, else a
        plain array (NumPy's scalars have no subclass to keep)."""
        made: NDArray = core.scalar_result(arr)
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return _from_item, (self.dtype.name, self.item())

    def __round__(self, ndigits: int | None = None) -> Any:
        """``round(s)``: a Python int, rounded half to even; ``round(s, n)``
        a scalar of the same dtype (``ma.round``), as NumPy's.  NumPy's
        bool and complex scalars define no rounding."""
        if self.dtype.kind in "bc":
            raise TypeError(f"type minarray {self.dtype} scalar doesn't define __round__ method")
        if ndigits is None:
            return round(self.item())
        from minarray._elementwise import round as round_  # cycle: the elementwise chapter imports this module

        return round_(self, decimals=ndigits)

    # Python's number methods, which NumPy's scalar types inherit (float64
    # from float) or add (is_integer on every real type): each answers for
    # the kinds whose NumPy type has it, and is missing for the others.
    def _python_method(self, name: str, kinds: str) -> Any:
        if self.dtype.kind not in kinds:
            raise AttributeError(f"a minarray {self.dtype} scalar has no attribute {name!r}")
        return self.item()

    def is_integer(self) -> bool:
        """Whether the value is a whole number (always True for integers)."""
        value = self._python_method("is_integer", "fiu")
        return True if isinstance(value, int) else bool(value.is_integer())

    def as_integer_ratio(self) -> tuple[int, int]:
        """The exact value as a fraction in lowest terms, as ``float``'s."""
        ratio: tuple[int, int] = self._python_method("as_integer_ratio", "f").as_integer_ratio()
        return ratio

    def hex(self) -> str:
        """``float.hex`` of a float64 (NumPy's float64 is a Python float)."""
        if self.dtype is not _dt.float64:
            raise AttributeError(f"a minarray {self.dtype} scalar has no attribute 'hex'")
        text: str = self.item().hex()
        return text

    def bit_count(self) -> int:
        """The number of ones in the absolute value's binary form."""
        count: int = abs(self._python_method("bit_count", "iu")).bit_count()
        return count

    # In-place operators make a new scalar, as NumPy's immutable scalars do:
    # the class has no in-place slots (csrc/py/scalar_math.c), and these
    # answer an explicit s.__iadd__(1) with NotImplemented.
    def __iadd__(self, other: Any) -> Any:
        return NotImplemented

    __isub__ = __imul__ = __itruediv__ = __ifloordiv__ = __imod__ = __ipow__ = __iadd__
    __iand__ = __ior__ = __ixor__ = __ilshift__ = __irshift__ = __imatmul__ = __iadd__


def _from_item(dtype: str, value: Any) -> Scalar:
    """A pickled scalar, made again."""
    made: Scalar = _dt.as_dtype(dtype)(value)
    return made


core.scalar_setup(Scalar)
# NumPy registers its scalar types with the numbers ABCs (Dask asks
# isinstance(total, numbers.Number) to tell a scalar from an array); one
# class for every dtype can only be a Number.
numbers.Number.register(Scalar)
_dt.scalar_class = Scalar
