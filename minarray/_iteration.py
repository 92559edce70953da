"""NumPy's ``nditer`` for its everyday uses: iterating the elements of one
or several broadcast arrays as 0-d views (read, or written back through
``x[...] = v`` with ``op_flags=['readwrite']``), in memory order ('K', the
default), 'C', 'F' or 'A'; ``multi_index``, ``c_index``/``f_index``;
``external_loop`` chunks (1-d views, as long as the operands' layouts
allow); an output operand allocated from ``None``; ``finished``,
``iternext()``, ``reset()`` and the context manager; ``op_axes`` (each
operand's axes placed among the iterator's, as in NumPy's outer product).

Every value is a view of the operand's memory.  ``buffered`` is what
lets NumPy's iterator cast an operand to ``op_dtypes`` on the way: here an
operand that needs the cast is iterated as a cast copy, and a written one
is cast back into the operand when the iteration ends or the iterator is
closed (NumPy flushes its buffers then too).  The op flag
``updateifcopy`` asks for the same copy without buffering: it is
``operands[i]`` then, and reaches the operand when the iterator closes.  The flags that ask for
NumPy's other machinery (``reduce_ok``, ``delay_bufalloc``,
``itershape``...) raise ValueError naming themselves rather than being
ignored.  Iterating is a Python step per element (or per chunk): the loop
is the caller's.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, NamedTuple

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import as_operand, broadcast_shapes
from minarray._creation import empty
from minarray._flatiter import flatiter
from minarray._manipulation import broadcast_arrays, broadcast_to

__all__ = ["nditer", "broadcast", "flatiter"]

_GLOBAL_FLAGS = {"multi_index", "external_loop", "c_index", "f_index", "refs_ok", "zerosize_ok", "buffered",
                 "grow_inner"}
# NumPy's flags whose machinery (reductions, delayed allocation) minarray's iterator does not have
_GLOBAL_UNSUPPORTED = {"delay_bufalloc", "reduce_ok", "ranged", "common_dtype", "copy_if_overlap"}
_OP_FLAGS = {"readonly", "readwrite", "writeonly", "allocate", "no_broadcast", "contig", "aligned", "nbo",
             "no_subtype", "copy", "updateifcopy", "overlap_assume_elementwise"}
_OP_UNSUPPORTED = {"arraymask", "writemasked", "virtual"}
_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
_KIND_ORDER = "buifc"


def _with_op_axes(arrays: list[NDArray | None], op_axes: Any) -> list[NDArray | None]:
    """NumPy's ``op_axes``: for each operand, which of its axes each
    iterator axis is (-1: none, the operand is broadcast along it), or
    None for its own axes.  Each operand becomes a view laid out that way
    (its axes permuted, new length-1 axes for the -1s), so the iteration
    that follows broadcasts as usual."""
    lists = list(op_axes)
    if len(lists) != len(arrays):
        raise ValueError("op_axes must be a tuple/list matching the number of ops")
    given = [list(ax) for ax in lists if ax is not None]
    if given and any(len(ax) != len(given[0]) for ax in given):
        raise ValueError("op_axes must have the same length for every operand")
    out: list[NDArray | None] = []
    for a, axes in zip(arrays, lists, strict=True):
        if axes is None:
            out.append(a)
            continue
        axes = [int(v) for v in axes]
        if a is None:
            raise ValueError("nditer: op_axes for an allocated operand is not supported by minarray")
        used = [v for v in axes if v != -1]
        if sorted(used) != list(range(a.ndim)):
            raise ValueError(f"op_axes {axes} must name each of the operand's {a.ndim} axes once (or -1)")
        view = a.transpose(*used) if used else a
        out.append(view[tuple(None if v == -1 else slice(None) for v in axes)])
    return out


class _Axis(NamedTuple):
    """An axis of the iteration: its length, the broadcast shape's axes it
    stands for (several once merged), and each operand's element stride."""

    length: int
    axes: tuple[int, ...]
    strides: tuple[int, ...]


def _can_cast(src: _dt.DType, dst: _dt.DType, casting: str) -> bool:
    if casting == "unsafe" or src is dst:
        return True
    if casting in ("no", "equiv"):
        return False
    if _dt.can_cast(src, dst):
        return True
    return casting == "same_kind" and _KIND_ORDER.index(src.kind) <= _KIND_ORDER.index(dst.kind)


def _op_flag_lists(op_flags: Any, nop: int) -> list[set[str]]:
    if op_flags is None:
        return [set() for _ in range(nop)]
    if isinstance(op_flags, str):
        op_flags = [op_flags]
    lists = list(op_flags)
    if lists and all(isinstance(f, str) for f in lists):
        lists = [lists] * nop
    if len(lists) != nop:
        raise ValueError("op_flags must be a tuple/list matching the number of ops")
    out = []
    for flags in lists:
        got = set(flags)
        for f in got:
            if f in _OP_UNSUPPORTED:
                raise ValueError(f"nditer: per-op flag {f!r} is not supported by minarray")
            if f not in _OP_FLAGS:
                raise ValueError(f'Unexpected per-op iterator flag "{f}"')
        if not got & {"readonly", "readwrite", "writeonly"}:
            raise ValueError("None of the iterator flags READWRITE, READONLY, or WRITEONLY were specified for an "
                             "operand")
        if len(got & {"readonly", "readwrite", "writeonly"}) > 1:
            raise ValueError("Only one of the flags readwrite, readonly, and writeonly may be specified for an operand")
        out.append(got)
    return out


class nditer:
    """An iterator over one array or several broadcast together (NumPy's
    ``nditer``): ``for x in nditer(a)``, ``for x, y in nditer([a, b])``,
    ``with nditer(a, op_flags=['readwrite']) as it: for x in it: x[...] = 2 * x``."""

    def __init__(self, op: Any, flags: Sequence[str] | None = None, op_flags: Any = None, op_dtypes: Any = None,
                 order: str = "K", casting: str = "safe", op_axes: Any = None, itershape: Any = None,
                 buffersize: int = 0) -> None:
        if itershape is not None:
            raise ValueError("nditer: itershape is not supported by minarray")
        gflags = set(flags or ())
        for f in gflags:
            if f in _GLOBAL_UNSUPPORTED:
                raise ValueError(f"nditer: flag {f!r} is not supported by minarray")
            if f not in _GLOBAL_FLAGS:
                raise ValueError(f'Unexpected iterator global flag "{f}"')
        if "external_loop" in gflags and gflags & {"multi_index", "c_index", "f_index"}:
            raise ValueError("Iterator flag EXTERNAL_LOOP cannot be used if an index or multi-index is being tracked")
        if "c_index" in gflags and "f_index" in gflags:
            raise ValueError("Iterator flags C_INDEX and F_INDEX cannot both be specified")
        if order not in ("C", "F", "A", "K"):
            raise ValueError("order must be one of 'C', 'F', 'A', or 'K'")
        if casting not in _CASTINGS:
            raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'")
        # a list or tuple is a sequence of operands (NumPy's rule: nditer([1, 2]) has two 0-d ones)
        raw = list(op) if isinstance(op, (list, tuple)) else [op]
        nop = len(raw)
        pflags = _op_flag_lists(op_flags, nop)
        dtypes: list[Any] = [None] * nop if op_dtypes is None else \
            (list(op_dtypes) if isinstance(op_dtypes, (list, tuple)) else [op_dtypes] * nop)
        if len(dtypes) != nop:
            raise ValueError("op_dtypes must be a tuple/list matching the number of ops")
        arrays: list[NDArray | None] = []
        buffered = "buffered" in (flags or ())
        # (operand, its cast copy, whether the copy is buffered's) for each
        # written operand iterated as a copy
        self._write_back: list[tuple[NDArray, NDArray, bool]] = []
        for i, (x, fl) in enumerate(zip(raw, pflags, strict=True)):
            if x is None:
                if op_flags is None:
                    fl |= {"allocate", "writeonly"}
                if "allocate" not in fl:
                    raise ValueError("Iterator operand was NULL, but the allocate flag was not specified")
                arrays.append(None)
                continue
            a = as_operand(x, "nditer")
            if fl & {"readwrite", "writeonly"} and not a.flags.writeable:
                raise ValueError("operand array with iterator write flag set is read-only")
            want = None if dtypes[i] is None else _dt.as_dtype(dtypes[i])
            if want is not None and want is not a.dtype:
                written = bool(fl & {"readwrite", "writeonly"})
                if not buffered and "updateifcopy" not in fl and ("copy" not in fl or written):
                    raise TypeError("Iterator operand required copying or buffering, but neither copying nor "
                                    "buffering was enabled")
                if not _can_cast(a.dtype, want, casting):
                    raise TypeError(f"Iterator operand {i} dtype could not be cast from dtype('{a.dtype}') to "
                                    f"dtype('{want}') according to the rule '{casting}'")
                if written and not _can_cast(want, a.dtype, casting):
                    raise TypeError(f"Iterator requested dtype could not be cast from dtype('{want}') to "
                                    f"dtype('{a.dtype}'), the operand {i} dtype, according to the rule '{casting}'")
                copy = a.astype(want)
                if written:
                    self._write_back.append((a, copy, buffered))
                a = copy
            arrays.append(a)
        if op_axes is not None:
            arrays = _with_op_axes(arrays, op_axes)
        known = [x for x in arrays if x is not None]
        if not known:
            raise ValueError("At least one iterator operand must be non-NULL")
        try:
            shape = broadcast_shapes(*(k.shape for k in known))
        except ValueError:
            shapes = " ".join(str(k.shape).replace(" ", "") for k in known)
            raise ValueError(f"operands could not be broadcast together with shapes {shapes} ") from None
        self._ops: list[NDArray] = []
        for i, given in enumerate(arrays):
            if given is None:
                dt = _dt.as_dtype(dtypes[i]) if dtypes[i] is not None else _dt.result_type(*known)
                given = empty(shape, dtype=dt)
            elif given.shape != shape and pflags[i] & {"readwrite", "writeonly", "no_broadcast"}:
                raise ValueError(f"non-broadcastable output operand with shape {given.shape} doesn't match the "
                                 f"broadcast shape {shape}")
            self._ops.append(given)
        self._readonly = [not (fl & {"readwrite", "writeonly", "allocate"}) for fl in pflags]
        size = 1
        for n in shape:
            size *= n
        if size == 0 and "zerosize_ok" not in gflags:
            raise ValueError("Iteration of zero-sized operands is not enabled")
        self._shape, self._flags = shape, gflags
        self._layout(order)
        self.itersize = size
        self._closed = False
        self.reset()

    # ---- the iteration's layout ------------------------------------------------------------
    def _layout(self, order: str) -> None:
        """The axes in iteration order (outer to inner), each with its
        length, its original axis, whether it runs backwards, and every
        operand's element stride along it; then merged where no index is
        tracked (NumPy's coalescing, which sets external_loop's chunks)."""
        shape, ndim = self._shape, len(self._shape)
        strides = [broadcast_to(a, shape)._strides if a.shape != shape else a._strides for a in self._ops]
        if order == "A":
            order = "F" if all(a.flags.f_contiguous for a in self._ops) and ndim > 1 else "C"
        flipped = [False] * ndim
        if order == "K":
            # an axis every operand walks backwards (or not at all) runs forwards in memory
            flipped = [any(s[ax] < 0 for s in strides) and all(s[ax] <= 0 for s in strides) for ax in range(ndim)]
            axes: list[int] = []
            for ax in range(ndim):  # insertion by stride, NumPy's: ambiguous pairs keep C order
                axes.append(ax)
                k = len(axes) - 1
                while k > 0 and self._inner(axes[k - 1], axes[k], strides):
                    axes[k - 1], axes[k] = axes[k], axes[k - 1]
                    k -= 1
        else:
            axes = list(range(ndim)) if order == "C" else list(range(ndim))[::-1]
        self._starts = [sum((shape[ax] - 1) * s[ax] for ax in range(ndim) if flipped[ax]) for s in strides]
        dims = [_Axis(shape[ax], (ax,), tuple(-s[ax] if flipped[ax] else s[ax] for s in strides)) for ax in axes]
        self._flipped = flipped
        if not self._flags & {"multi_index", "c_index", "f_index"}:
            merged: list[_Axis] = []
            for d in dims:
                if d.length == 1:
                    continue
                if merged and all(o == i * d.length for o, i in zip(merged[-1].strides, d.strides, strict=True)):
                    merged[-1] = _Axis(merged[-1].length * d.length, merged[-1].axes + d.axes, d.strides)
                else:
                    merged.append(d)
            dims = merged
        self._dims: list[_Axis] = dims

    @staticmethod
    def _inner(a: int, b: int, strides: list[tuple[int, ...]]) -> bool:
        """Whether axis ``a`` (now outside ``b``) should be inside it: every
        operand that moves along both moves less along ``a``."""
        pairs = [(abs(s[a]), abs(s[b])) for s in strides if s[a] and s[b]]
        return bool(pairs) and all(x <= y for x, y in pairs) and any(x < y for x, y in pairs)

    # ---- stepping ------------------------------------------------------------------------------
    def reset(self) -> None:
        """Back to the first element."""
        self._check_open()
        outer = self._dims[:-1] if "external_loop" in self._flags else self._dims
        self._steps = itertools.product(*(range(d.length) for d in outer))
        self._pos: tuple[int, ...] | None = next(self._steps, None) if self.itersize else None
        self._started = False
        self._flushed = False

    def iternext(self) -> bool:
        """Steps to the next element (or chunk); False when there is none."""
        self._check_open()
        if self._pos is not None:
            self._pos = next(self._steps, None)
            if self._pos is None:
                self._flush(closing=False)
        return self._pos is not None

    @property
    def finished(self) -> bool:
        """Whether the iteration has stepped past its last element."""
        return self._pos is None

    def __iter__(self) -> nditer:
        return self

    def __next__(self) -> Any:
        if self._closed:
            raise StopIteration
        if self._started:
            self.iternext()
        self._started = True
        if self._pos is None:
            raise StopIteration
        return self.value

    # ---- the current values ------------------------------------------------------------------
    def _views(self) -> list[NDArray]:
        self._check_open()
        if self._pos is None:
            raise StopIteration
        external = "external_loop" in self._flags
        outer = self._dims[:-1] if external else self._dims
        views = []
        for k, a in enumerate(self._ops):
            off = self._starts[k] + sum(i * d.strides[k] for i, d in zip(self._pos, outer, strict=True))
            if external:
                n, stride = (self._dims[-1].length, self._dims[-1].strides[k]) if self._dims else (1, 1)
                views.append(a._view(off, (n,), (stride,), readonly=self._readonly[k] or not a.flags.writeable))
            else:
                views.append(a._view(off, (), (), readonly=self._readonly[k] or not a.flags.writeable))
        return views

    @property
    def value(self) -> Any:
        """The current element of each operand as a 0-d view (a 1-d chunk
        with external_loop); the one view when there is one operand."""
        views = self._views()
        return views[0] if len(views) == 1 else tuple(views)

    def __getitem__(self, i: int) -> NDArray:
        return self._views()[i]

    def __setitem__(self, i: int, value: Any) -> None:
        """``it[i] = v``: writes ``v`` into operand i's current element (or chunk)."""
        view = self._views()[i]
        if not view.flags.writeable:
            raise RuntimeError(f"Iterator operand {i} is not writeable")  # NumPy's words
        view[...] = value

    def __len__(self) -> int:
        return len(self._ops)

    @property
    def multi_index(self) -> tuple[int, ...]:
        """The current element's index in the broadcast shape (with the multi_index flag)."""
        if "multi_index" not in self._flags:
            raise ValueError("Iterator is not tracking a multi-index")
        return self._original_index()

    @property
    def index(self) -> int:
        """The current element's flat index in C (c_index) or F (f_index) order."""
        if not self._flags & {"c_index", "f_index"}:
            raise ValueError("Iterator does not have an index")
        idx = self._original_index()
        axes = range(len(idx)) if "c_index" in self._flags else reversed(range(len(idx)))
        flat = 0
        for ax in axes:
            flat = flat * self._shape[ax] + idx[ax]
        return flat

    def _original_index(self) -> tuple[int, ...]:
        self._check_open()
        if self._pos is None:
            raise ValueError("Iterator is past the end")
        idx = [0] * len(self._shape)
        for i, d in zip(self._pos, self._dims, strict=True):
            ax = d.axes[0]
            idx[ax] = self._shape[ax] - 1 - i if self._flipped[ax] else i
        return tuple(idx)

    # ---- about the iteration -----------------------------------------------------------------
    @property
    def operands(self) -> tuple[NDArray, ...]:
        """The operands, an allocated output included; for a written
        operand iterated as a cast copy, the operand itself when buffered
        (the copy is the buffer's), the copy under ``updateifcopy``."""
        self._check_open()
        originals = {id(copy): a for a, copy, buffered in self._write_back if buffered}
        return tuple(originals.get(id(op), op) for op in self._ops)

    @property
    def nop(self) -> int:
        return len(self._ops)

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape iterated: the broadcast shape, its axes merged where no index is tracked."""
        return tuple(d.length for d in self._dims)

    @property
    def ndim(self) -> int:
        return len(self._dims)

    @property
    def has_multi_index(self) -> bool:
        return "multi_index" in self._flags

    @property
    def has_index(self) -> bool:
        return bool(self._flags & {"c_index", "f_index"})

    # ---- the context manager -----------------------------------------------------------------
    def _check_open(self) -> None:
        if self._closed:
            raise ValueError("Iterator is closed")

    def _flush(self, closing: bool) -> None:
        """Casts each written copy back into its operand: buffered ones
        once per pass, at its end or on closing; ``updateifcopy`` ones on
        closing only, as NumPy's."""
        for a, copy, buffered in self._write_back:
            if (buffered and not self._flushed) or (closing and not buffered):
                a[...] = copy.astype(a.dtype)
        self._flushed = True

    def close(self) -> None:
        """Ends the iteration; what was written to a cast copy reaches its
        operand (every other write already has)."""
        if not self._closed:
            self._flush(closing=True)
        self._closed = True

    def __enter__(self) -> nditer:
        self._check_open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# The most arrays NumPy's broadcast object takes (NPY_MAXARGS).
_MAX_BROADCAST_ARGS = 64


class broadcast:
    """NumPy's ``broadcast``: the arrays broadcast against each other,
    iterated together.  ``shape``, ``nd``/``ndim``, ``size`` and
    ``numiter`` describe the broadcast; iterating yields one tuple of
    elements (0-d arrays, minarray's scalars) per position in C order;
    ``index`` counts the tuples taken, ``iters`` holds one flat iterator
    per array and ``reset()`` starts over."""

    def __init__(self, *args: Any) -> None:
        if len(args) > _MAX_BROADCAST_ARGS:
            raise ValueError(f"Need at least 0 and at most {_MAX_BROADCAST_ARGS} array objects.")
        self._views = broadcast_arrays(*args) if args else []
        self._shape: tuple[int, ...] = self._views[0].shape if self._views else ()
        self._index = 0
        self._iters = tuple(v.flat for v in self._views)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def nd(self) -> int:
        return len(self._shape)

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def numiter(self) -> int:
        return len(self._views)

    @property
    def size(self) -> int:
        n = 1
        for d in self._shape:
            n *= d
        return n

    @property
    def index(self) -> int:
        return self._index

    @property
    def iters(self) -> tuple[flatiter, ...]:
        return self._iters

    def reset(self) -> None:
        """Start the iteration again from the first position."""
        self._index = 0
        self._iters = tuple(v.flat for v in self._views)

    def __iter__(self) -> broadcast:
        return self

    def __next__(self) -> tuple[Any, ...]:
        if self._index >= self.size:
            raise StopIteration
        self._index += 1
        return tuple(next(it) for it in self._iters)
