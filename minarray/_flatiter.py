"""``x.flat``: NumPy's flatiter, the array seen as one dimension in C order.

Reading indexes a flat view of the array (a copy when it is not
C-contiguous, as NumPy's ``flat[...]`` returns a copy too); writing maps the
flat positions back to the array's own elements, so a strided array is
written in place.  As in NumPy, a value shorter than the positions written
is repeated (``x.flat = [1, 2]`` fills 1, 2, 1, 2...).
"""

from __future__ import annotations

import operator
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import asarray
from minarray._creation import arange
from minarray._indexing import take, unravel_index
from minarray._native import core

__all__ = ["flatiter"]


class flatiter:
    """An iterator over an array's elements in C order that can also be
    indexed and assigned to as a 1-d array (NumPy's ``numpy.flatiter``)."""

    __slots__ = ("_base", "_index")

    def __init__(self, base: NDArray) -> None:
        self._base = base
        self._index = 0

    @property
    def base(self) -> NDArray:
        """The array being iterated."""
        return self._base

    @property
    def index(self) -> int:
        """The flat position of the next element."""
        return self._index

    @property
    def coords(self) -> tuple[int, ...]:
        """The N-d index of the next element."""
        out = []
        rest = self._index
        for n in reversed(self._base.shape):
            rest, i = divmod(rest, n) if n else (rest, 0)
            out.append(i)
        return tuple(reversed(out))

    def __len__(self) -> int:
        return self._base.size

    def __iter__(self) -> flatiter:
        return self

    def __next__(self) -> NDArray:
        if self._index >= self._base.size:
            raise StopIteration
        item = self._base[self.coords]
        self._index += 1
        return item

    def copy(self) -> NDArray:
        """The elements as a new 1-d array (C order)."""
        return self._base.flatten()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        return self.copy().__array__(dtype)

    def _flat(self) -> NDArray:
        return self._base.reshape(-1)

    def _check_int(self, key: Any) -> None:
        # NumPy's wording names the flat size, not an axis
        if isinstance(key, bool) or not hasattr(key, "__index__") or isinstance(key, NDArray):
            return
        i, n = operator.index(key), self._base.size
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for size {n}")

    def __getitem__(self, key: Any) -> NDArray:
        self._check_int(key)
        if key is Ellipsis or (isinstance(key, tuple) and not key):
            return self.copy()
        return self._flat()[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        a = self._base
        if core.is_readonly(a._h):
            raise ValueError("underlying array is read-only")
        self._check_int(key)
        if key is Ellipsis or (isinstance(key, tuple) and not key):
            key = slice(None)
        positions = arange(a.size, dtype=_dt.int64)[key].reshape(-1)
        n = positions.size
        values = asarray(value).reshape(-1)
        if n == 0 or values.size == 0:  # NumPy writes nothing for an empty value
            return
        if values.size != n:  # repeated to the length written, NumPy's rule
            values = take(values, arange(n, dtype=_dt.int64) % values.size)
        values = values.astype(a.dtype)
        if core.is_contiguous(a._h, False):
            a.reshape(-1)[positions] = values
        else:
            a[unravel_index(positions, a.shape)] = values


def assign_all(a: NDArray, value: Any) -> None:
    """``a.flat = value``: every element, in C order, from ``value`` repeated."""
    if core.is_readonly(a._h):
        raise ValueError("array is read-only")
    flatiter(a)[...] = value
