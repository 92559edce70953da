"""``matrix``: NumPy's always-2-d subclass of the array, for the code (and
NumPy's own docstrings) that still uses it.

Its instances keep two dimensions through every view, copy and result
but indexing with None, as NumPy's (a 1-d result becomes a row, a 0-d
one a 1x1 matrix; :func:`_subclass.retype`
asks the class for the shape through ``_finalized_shape``, where NumPy's
``__array_finalize__`` reshapes in place); ``*`` is the matrix product and
``**`` the matrix power; a reduction along an axis keeps it as a row or a
column, and over all axes gives a scalar.  As NumPy, constructing one
warns with a PendingDeprecationWarning: plain arrays and ``@`` are the
recommended way.
"""

from __future__ import annotations

import ast
import sys
import warnings
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import asarray
from minarray._data_type_functions import isscalar
from minarray._native import core

__all__ = ["asmatrix", "bmat", "matrix"]

_WARNING = ("the matrix subclass is not the recommended way to represent matrices or deal with linear "
            "algebra (see https://docs.scipy.org/doc/numpy/user/numpy-for-matlab-users.html). Please adjust "
            "your code to use regular ndarray.")


def _from_string(text: str) -> list[list[Any]]:
    """NumPy's matrix string: rows separated by ``;``, entries by commas
    or spaces, each a Python literal."""
    for char in "[]":
        text = text.replace(char, "")
    rows: list[list[Any]] = []
    for row in text.split(";"):
        entries: list[Any] = []
        for col in row.split(","):
            entries.extend(ast.literal_eval(v) for v in col.split())
        if rows and len(entries) != len(rows[0]):
            raise ValueError("Rows not the same size.")
        rows.append(entries)
    return rows


def _plain(m: NDArray) -> NDArray:
    """``m``'s elements as a plain array (a view)."""
    return core.ndarray_view_as(m, NDArray)


class matrix(NDArray):
    """A 2-d array whose ``*`` is the matrix product (NumPy's ``matrix``).

    ``matrix(data, dtype=None, copy=True)``: ``data`` an array, nested
    sequences or a string such as ``"1 2; 3 4"``.  ``.T``, ``.H``
    (conjugate transpose), ``.I`` (inverse, or pseudo-inverse when not
    square), ``.A`` (the plain 2-d array) and ``.A1`` (flattened)."""

    __slots__ = ()
    __array_priority__ = 10.0

    def __new__(cls, data: Any, dtype: Any = None, copy: bool = True) -> matrix:
        warnings.warn(_WARNING, PendingDeprecationWarning, stacklevel=2)
        made: Any
        if isinstance(data, matrix):
            if dtype is None or _dt.as_dtype(dtype) is data.dtype:
                made = data if not copy else data.copy()
            else:
                made = data.astype(dtype)
        elif isinstance(data, NDArray):
            made = data.view(cls)
            if dtype is not None and _dt.as_dtype(dtype) is not data.dtype:
                made = made.astype(dtype)
            elif copy:
                made = made.copy()
        else:
            arr = asarray(_from_string(data) if isinstance(data, str) else data, dtype=dtype,
                          copy=True if copy else None)
            if arr.ndim > 2:
                raise ValueError("matrix must be 2-dimensional")
            made = arr.view(cls)
        return made  # type: ignore[no-any-return]

    @staticmethod
    def _finalized_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
        """The 2-d shape a new instance made from an array of ``shape``
        takes (NumPy's ``matrix.__array_finalize__``): a row for 1-d, 1x1
        for 0-d, and for more dimensions the axes longer than 1, which must
        be two."""
        if len(shape) == 2:
            return shape
        if len(shape) > 2:
            kept = tuple(n for n in shape if n > 1)
            if len(kept) > 2:
                raise ValueError("shape too large to be a matrix.")
            shape = kept
            if len(shape) == 2:
                return shape
        return (1, 1) if not shape else (1, shape[0])

    @property
    def shape(self) -> tuple[int, ...]:
        """The length of each axis (two, for a matrix)."""
        return self._shape

    @shape.setter
    def shape(self, value: Any) -> None:
        # NumPy finalizes the view an assignment makes: a matrix stays 2-d
        core.ndarray_set_shape(self, value)
        if self.ndim != 2:
            core.ndarray_set_shape(self, self._finalized_shape(self._shape))

    def __getitem__(self, key: Any) -> Any:
        out = _plain(self)[key]
        if not isinstance(out, NDArray) or type(out) is _dt.scalar_class:
            return out
        if out.ndim == 0:
            return core.scalar_result(out)
        if out.ndim == 1:
            # NumPy's rule: m[:, k] (a scalar second index) is a column
            column = isinstance(key, tuple) and len(key) > 1 and isscalar(key[1])
            out = out.reshape((out.shape[0], 1) if column else (1, out.shape[0]))
        elif out.ndim > 2:
            # NumPy's indexing skips the 2-d rule: m[None] is a 3-d matrix
            made = core.ndarray_view_as(out, type(self))
            made.__array_finalize__(self)
            return made
        return self.__array_wrap__(out)

    # ---- the matrix product and power -------------------------------------
    def __mul__(self, other: Any) -> Any:
        from minarray._linear_algebra import dot  # cycle: _linear_algebra is imported after this module

        if isinstance(other, (NDArray, list, tuple)):
            return dot(self, asmatrix(other))
        if isscalar(other) or not hasattr(other, "__rmul__"):
            return dot(self, other)
        return NotImplemented

    def __rmul__(self, other: Any) -> Any:
        from minarray._linear_algebra import dot  # cycle: as above

        return dot(other, self)

    def __imul__(self, other: Any) -> Any:
        self[:] = self * other
        return self

    def __pow__(self, other: Any) -> Any:
        from minarray.linalg import matrix_power  # cycle: linalg imports the package

        return matrix_power(self, other)

    def __ipow__(self, other: Any) -> Any:
        self[:] = self ** other
        return self

    def __rpow__(self, other: Any) -> Any:
        return NotImplemented

    # ---- reductions: a row or a column along an axis, a scalar over all ----
    def _collapse(self, axis: Any) -> Any:
        return self[0, 0] if axis is None else self

    def _align(self, axis: Any) -> Any:
        if axis is None:
            return self[0, 0]
        if axis == 0:
            return self
        if axis == 1:
            return self.transpose()
        raise ValueError("unsupported axis")

    def sum(self, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:  # type: ignore[override]
        """The sum over all elements (a scalar), or along ``axis`` (a row for 0, a column for 1)."""
        return NDArray.sum(self, axis, dtype, out, keepdims=True)._collapse(axis)  # type: ignore[attr-defined]

    def prod(self, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:  # type: ignore[override]
        """The product, as :meth:`sum` shapes it."""
        return NDArray.prod(self, axis, dtype, out, keepdims=True)._collapse(axis)  # type: ignore[attr-defined]

    def mean(self, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:  # type: ignore[override]
        """The mean, as :meth:`sum` shapes it."""
        return NDArray.mean(self, axis, dtype, out, keepdims=True)._collapse(axis)  # type: ignore[attr-defined]

    def std(self, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0) -> Any:  # type: ignore[override]
        """The standard deviation, as :meth:`sum` shapes it."""
        return NDArray.std(self, axis, dtype, out, ddof, keepdims=True)._collapse(axis)  # type: ignore[attr-defined]

    def var(self, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0) -> Any:  # type: ignore[override]
        """The variance, as :meth:`sum` shapes it."""
        return NDArray.var(self, axis, dtype, out, ddof, keepdims=True)._collapse(axis)  # type: ignore[attr-defined]

    def any(self, axis: Any = None, out: Any = None) -> Any:  # type: ignore[override]
        """Whether any element is true, as :meth:`sum` shapes it."""
        return NDArray.any(self, axis, out, keepdims=True)._collapse(axis)  # type: ignore[attr-defined]

    def all(self, axis: Any = None, out: Any = None) -> Any:  # type: ignore[override]
        """Whether all elements are true, as :meth:`sum` shapes it."""
        return NDArray.all(self, axis, out, keepdims=True)._collapse(axis)  # type: ignore[attr-defined]

    def max(self, axis: Any = None, out: Any = None) -> Any:  # type: ignore[override]
        """The maximum, as :meth:`sum` shapes it."""
        return NDArray.max(self, axis, out, keepdims=True)._collapse(axis)  # type: ignore[attr-defined]

    def min(self, axis: Any = None, out: Any = None) -> Any:  # type: ignore[override]
        """The minimum, as :meth:`sum` shapes it."""
        return NDArray.min(self, axis, out, keepdims=True)._collapse(axis)  # type: ignore[attr-defined]

    def ptp(self, axis: Any = None, out: Any = None) -> Any:
        """Peak to peak (maximum minus minimum), as :meth:`sum` shapes it."""
        from minarray._statistical import ptp  # cycle: _statistical is imported after this module

        return ptp(self, axis, out, keepdims=True)._collapse(axis)  # type: ignore[attr-defined]

    def argmax(self, axis: Any = None, out: Any = None) -> Any:  # type: ignore[override]
        """The index of the maximum: over the flattened matrix a scalar, along ``axis`` a row (0) or column (1)."""
        return self._arg(NDArray.argmax, axis, out)

    def argmin(self, axis: Any = None, out: Any = None) -> Any:  # type: ignore[override]
        """The index of the minimum, as :meth:`argmax` shapes it."""
        return self._arg(NDArray.argmin, axis, out)

    def _arg(self, method: Any, axis: Any, out: Any) -> Any:
        found = method(_plain(self), axis, out)
        if axis is None:
            return found
        row: matrix = self.__array_wrap__(found)  # type: ignore[assignment]
        return row._align(axis)

    def tolist(self) -> Any:
        """The rows as nested Python lists."""
        return _plain(self).tolist()

    # ---- NumPy's attributes ------------------------------------------------
    @property
    def A(self) -> NDArray:
        """The elements as a plain 2-d array (a view)."""
        return _plain(self)

    @property
    def A1(self) -> NDArray:
        """The elements as a plain 1-d array."""
        return _plain(self).ravel()

    @property
    def H(self) -> matrix:
        """The conjugate transpose."""
        t: matrix = self.transpose()  # type: ignore[assignment]
        return t.conj() if self.dtype.kind == "c" else t  # type: ignore[return-value]

    @property
    def I(self) -> matrix:  # noqa: E743 (NumPy's name)
        """The inverse, or the pseudo-inverse of a matrix that is not square."""
        from minarray.linalg import inv, pinv  # cycle: linalg imports the package

        rows, cols = self.shape
        return asmatrix((inv if rows == cols else pinv)(self))

    def getA(self) -> NDArray:
        """:attr:`A`."""
        return self.A

    def getA1(self) -> NDArray:
        """:attr:`A1`."""
        return self.A1

    def getH(self) -> matrix:
        """:attr:`H`."""
        return self.H

    def getI(self) -> matrix:
        """:attr:`I`."""
        return self.I

    def getT(self) -> matrix:
        """:attr:`T`."""
        t: matrix = self.T  # type: ignore[assignment]
        return t


def asmatrix(data: Any, dtype: Any = None) -> matrix:
    """``data`` as a matrix, without a copy when it already is one or is an
    array of that dtype (NumPy's ``asmatrix``)."""
    return matrix(data, dtype=dtype, copy=False)


def bmat(obj: Any, ldict: dict[str, Any] | None = None, gdict: dict[str, Any] | None = None) -> matrix:
    """A matrix built from blocks: nested sequences of arrays (each inner
    sequence a block row), or a string naming arrays as ``"A, B; C, D"``
    looked up in ``ldict`` and ``gdict`` (by default the caller's
    variables)."""
    from minarray._joining import concat  # cycle: _joining is imported after this module

    if isinstance(obj, str):
        if gdict is None:
            frame = sys._getframe(1)
            gdict, ldict = frame.f_globals, frame.f_locals
        names = {**gdict, **(ldict or {})}
        rows = []
        for row in obj.split(";"):
            blocks = []
            for name in row.replace(",", " ").split():
                if name not in names:
                    raise KeyError(f"{name!r} is not defined")
                blocks.append(names[name])
            rows.append(concat([asarray(b) for b in blocks], axis=-1))
        return matrix(concat(rows, axis=0), copy=False)
    if isinstance(obj, (tuple, list)):
        if any(isinstance(row, NDArray) for row in obj):
            return matrix(concat([asarray(b) for b in obj], axis=-1), copy=False)
        return matrix(concat([concat([asarray(b) for b in row], axis=-1) for row in obj], axis=0), copy=False)
    return matrix(obj, copy=False)
