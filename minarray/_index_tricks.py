"""NumPy's index tricks: the objects indexed with slices to build arrays
(``r_``, ``c_``) or index tuples (``s_``, ``index_exp``), and the
iterators over every index of a shape (``ndindex``) or an array
(``ndenumerate``).  (``mgrid``/``ogrid`` are creation routines, in
minarray/_creation.py; ``ix_`` an indexing routine, in minarray/_indexing.py.)

``r_`` and ``c_`` follow NumPy's ``AxisConcatenator``: each entry of the key
is a slice (``arange``, or ``linspace`` for an imaginary step ``Nj``), an
array-like or a scalar; the entries are raised to ``ndmin`` dimensions,
given one result dtype (Python scalars weak, as in NumPy 2), and
concatenated along ``axis``.  A leading string changes the three:
``'axis'``, ``'axis,ndmin'``, ``'axis,ndmin,trans1d'``, or ``'r'``/``'c'``
(a :class:`minarray.matrix`, a row or a column, as NumPy's).
"""

from __future__ import annotations

import itertools
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import as_int, as_operand, asarray
from minarray._creation import arange, linspace
from minarray._joining import concat
from minarray._manipulation import permute_dims, swapaxes

__all__ = ["r_", "c_", "s_", "index_exp", "ndindex", "ndenumerate"]

_PY_SCALARS = (bool, int, float, complex)


def _ndmin(x: NDArray, ndmin: int) -> NDArray:
    """``x`` with leading axes of length 1 up to ``ndmin`` dimensions (NumPy's ``array(ndmin=)``)."""
    return x.reshape((1,) * (ndmin - x.ndim) + x.shape) if x.ndim < ndmin else x


class _AxisConcatenator:
    """The object behind ``r_`` (axis 0, 1-d entries) and ``c_`` (the last
    axis, 2-d entries whose 1-d ones become columns)."""

    def __init__(self, axis: int, ndmin: int, trans1d: int) -> None:
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key: Any) -> NDArray:
        if isinstance(key, str):
            raise ValueError(f"unknown special directive {key!r}: a directive needs entries after it")
        items = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        shape_as: str | None = None  # 'r' or 'c': a matrix, a row or a column
        objs: list[NDArray] = []
        dtypes: list[_dt.DType] = []
        scalars: list[Any] = []
        for k, item in enumerate(items):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    shape_as = item
                    continue
                try:
                    fields = [int(v) for v in item.split(",")]
                except ValueError:
                    raise ValueError(f"unknown special directive {item!r}") from None
                if len(fields) == 1:
                    axis = fields[0]
                elif len(fields) in (2, 3):
                    axis, ndmin = fields[0], fields[1]
                    trans1d = fields[2] if len(fields) == 3 else trans1d
                else:
                    raise ValueError(f"unknown special directive {item!r}")
                continue
            if isinstance(item, slice):
                obj = self._range(item)
                if ndmin > 1:
                    obj = _ndmin(obj, ndmin)
                    if trans1d != -1:
                        obj = swapaxes(obj, -1, trans1d)
                dtypes.append(obj.dtype)
            elif type(item) in _PY_SCALARS:
                scalars.append(item)
                obj = asarray(item)
            else:
                obj = as_operand(item, "r_")
                ndim = obj.ndim
                obj = _ndmin(obj, ndmin)
                if trans1d != -1 and ndim < ndmin:
                    # NumPy's rule: the item's own axes go to position trans1d
                    k2 = ndmin - ndim
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    order = list(range(ndmin))
                    obj = permute_dims(obj, tuple(order[:k1] + order[k2:] + order[k1:k2]))
                dtypes.append(obj.dtype)
            objs.append(obj)
        if not objs:
            raise ValueError("need at least one array to concatenate")
        # one result dtype, Python scalars weak (NumPy's result_type of the entries)
        dt = _dt.result_type(*dtypes, *scalars) if dtypes else asarray(scalars).dtype
        out = concat([_ndmin(o.astype(dt, copy=False), ndmin) for o in objs], axis=axis)
        if shape_as is not None:
            if out.ndim > 2:
                raise ValueError("matrix must be 2-dimensional")
            if out.ndim < 2:
                out = out.reshape((-1, 1) if shape_as == "c" else (1, -1))
            from minarray._matrix import matrix  # cycle: _matrix is imported after this module

            return matrix(out, copy=False)
        return out

    @staticmethod
    def _range(s: slice) -> NDArray:
        start = 0 if s.start is None else s.start
        step = 1 if s.step is None else s.step
        if isinstance(step, complex):
            return linspace(start, s.stop, as_int(int(abs(step)), "r_: the number of points"))
        return arange(start, s.stop, step)

    def __len__(self) -> int:
        return 0  # NumPy's: the object is not a sequence


r_ = _AxisConcatenator(axis=0, ndmin=1, trans1d=-1)

c_ = _AxisConcatenator(axis=-1, ndmin=2, trans1d=0)


class _IndexExpression:
    """``s_[...]`` and ``index_exp[...]``: the key itself, to keep and use
    later (``x[s_[::2, 1]]``); ``index_exp`` always makes it a tuple."""

    def __init__(self, maketuple: bool) -> None:
        self.maketuple = maketuple

    def __getitem__(self, item: Any) -> Any:
        return (item,) if self.maketuple and not isinstance(item, tuple) else item


s_ = _IndexExpression(maketuple=False)

index_exp = _IndexExpression(maketuple=True)


class ndindex:
    """Every index of an array of ``shape``, C order: ``for i, j in
    ndindex(2, 3)`` (the shape as integers or as one tuple)."""

    def __init__(self, *shape: Any) -> None:
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        dims = tuple(as_int(n, "ndindex: shape") for n in shape)
        if any(n < 0 for n in dims):
            raise ValueError("negative dimensions are not allowed")
        self._it = itertools.product(*(range(n) for n in dims))

    def __iter__(self) -> ndindex:
        return self

    def __next__(self) -> tuple[int, ...]:
        return next(self._it)


class ndenumerate:
    """Pairs of each index of ``arr`` (C order) and the element there:
    ``for (i, j), v in ndenumerate(x)``.  The element is what ``x[i, j]``
    is: a 0-d array."""

    def __init__(self, arr: Any) -> None:
        self._x = as_operand(arr, "ndenumerate")
        self._it = itertools.product(*(range(n) for n in self._x.shape))

    def __iter__(self) -> ndenumerate:
        return self

    def __next__(self) -> tuple[tuple[int, ...], NDArray]:
        idx = next(self._it)
        return idx, self._x[idx]
