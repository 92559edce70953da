"""SeedSequence: turns a seed of any size into well-mixed state words.

The algorithm is NumPy's (numpy/random/bit_generator.pyx), after M. E.
O'Neill's ``seed_seq_fe``: the seed becomes a list of 32-bit words (an int
little-endian word first, a sequence word by word), which is hashed into a
pool of 32-bit words; ``generate_state`` then hashes the pool cyclically
into as many words as a bit generator needs.  The hashing runs in C
(csrc/core/random.c); this module holds the conversions and the object.
"""

from __future__ import annotations

import operator
import re
import secrets
from collections.abc import Sequence
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import asarray
from minarray._native import ffi, lib

__all__ = ["SeedSequence"]

DEFAULT_POOL_SIZE = 4
_MASK32 = 0xFFFFFFFF
_DECIMAL = re.compile(r"[0-9]+")
_NESTED = "SeedSequence does not accept nested sequences: expected an int or a flat sequence of ints"


def _int_words(n: int) -> list[int]:
    """A non-negative integer as 32-bit words, least significant first (0 is
    one word)."""
    if n < 0:
        raise ValueError("expected non-negative integer")
    if n == 0:
        return [0]
    words = []
    while n > 0:
        words.append(n & _MASK32)
        n >>= 32
    return words


def _is_integer(x: Any) -> bool:
    if isinstance(x, bool):
        return True
    if isinstance(x, int):
        return True
    return hasattr(x, "__index__") and not hasattr(x, "__len__") and not isinstance(x, float)


def _as_words(x: Any) -> list[int]:
    """NumPy's _coerce_to_uint32_array: an int, a decimal or 0x-hex string, a
    uint32 array (taken word for word) or a flat sequence of those."""
    if isinstance(x, str):
        if x.startswith("0x"):
            return _int_words(int(x, 16))
        if _DECIMAL.match(x):
            return _int_words(int(x))
        raise ValueError("unrecognized seed string")
    if isinstance(x, float) or type(x).__name__ in ("float16", "float32", "float64", "longdouble"):
        raise TypeError("seed must be integer")
    if _is_integer(x):
        return _int_words(operator.index(x))
    dtype = getattr(x, "dtype", None)
    if dtype is not None and str(dtype) == "uint32":
        return [int(v) for v in _flat(x)]
    if isinstance(x, NDArray):
        if _dt.isdtype(x.dtype, ("real floating", "complex floating")):
            raise TypeError("seed must be integer")
        if x.ndim > 1:  # its rows are sequences
            raise TypeError(_NESTED)
        return [w for v in _flat(x) for w in _as_words(int(v))]
    if not isinstance(x, (Sequence, range)) and not hasattr(x, "__len__"):
        raise TypeError(f"SeedSequence expects int or sequence of ints for entropy not {x!r}")
    words: list[int] = []
    for v in x:
        # NumPy 2.5 refuses an element with a length (a list, an array,
        # bytes; a str is a number) where earlier NumPy concatenated it, and
        # recursed without end into a list that holds itself (numpy#31775).
        if hasattr(v, "__len__") and not isinstance(v, str):
            raise TypeError(_NESTED)
        words.extend(_as_words(v))
    return words


def _flat(x: Any) -> list[Any]:
    """The elements of an array-like, flattened in C order."""
    values = x.tolist() if hasattr(x, "tolist") else list(x)
    return _flatten_list(values) if isinstance(values, list) else [values]


def _flatten_list(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if isinstance(v, list):
            out.extend(_flatten_list(v))
        else:
            out.append(v)
    return out


def _u32_buffer(words: list[int]) -> Any:
    return ffi.new("uint32_t[]", words if words else [0])


class SeedSequence:
    """Mixes a seed (an int of any size, or a sequence of ints) into a pool
    of entropy and generates bit-generator state from it, exactly as
    ``numpy.random.SeedSequence``: the same seed gives the same state, so
    minarray and NumPy generators seeded alike produce the same streams.

    ``spawn`` derives independent children (their ``spawn_key`` extends the
    parent's), for parallel streams that do not overlap.
    """

    entropy: Any
    spawn_key: tuple[int, ...]
    pool_size: int
    n_children_spawned: int

    def __init__(self, entropy: Any = None, *, spawn_key: Sequence[int] = (),
                 pool_size: int = DEFAULT_POOL_SIZE, n_children_spawned: int = 0) -> None:
        pool_size = operator.index(pool_size)
        if pool_size < DEFAULT_POOL_SIZE:
            raise ValueError(f"The size of the entropy pool should be at least {DEFAULT_POOL_SIZE}")
        if entropy is None:
            entropy = secrets.randbits(pool_size * 32)
        elif not (_is_integer(entropy) or isinstance(entropy, (list, tuple, range, NDArray))
                  or (hasattr(entropy, "dtype") and hasattr(entropy, "shape"))):
            raise TypeError(f"SeedSequence expects int or sequence of ints for entropy not {entropy}")
        key = tuple(spawn_key)
        run = _as_words(entropy)  # validates before anything is kept
        spawn_words = _as_words(key)
        if spawn_words and len(run) < pool_size:
            # NumPy pads the entropy to the pool's size when a spawn key
            # follows, so (entropy, key) cannot collide with longer entropy.
            run = run + [0] * (pool_size - len(run))
        assembled = run + spawn_words
        self.entropy = entropy
        self.spawn_key = key
        self.pool_size = pool_size
        self.n_children_spawned = operator.index(n_children_spawned)
        pool = ffi.new("uint32_t[]", pool_size)
        lib.ma_seedseq_mix(_u32_buffer(assembled), len(assembled), pool, pool_size)
        self._pool = pool

    @property
    def pool(self) -> NDArray:
        """The mixed entropy pool, as uint32 words."""
        return asarray(list(self._pool), dtype=_dt.uint32)

    @property
    def state(self) -> dict[str, Any]:
        """What recreates this sequence: entropy, spawn_key, pool_size, n_children_spawned."""
        return {"entropy": self.entropy, "spawn_key": self.spawn_key, "pool_size": self.pool_size,
                "n_children_spawned": self.n_children_spawned}

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__}(", f"    entropy={self.entropy!r},"]
        if self.spawn_key:
            lines.append(f"    spawn_key={self.spawn_key!r},")
        if self.pool_size != DEFAULT_POOL_SIZE:
            lines.append(f"    pool_size={self.pool_size!r},")
        if self.n_children_spawned != 0:
            lines.append(f"    n_children_spawned={self.n_children_spawned!r},")
        lines.append(")")
        return "\n".join(lines)

    def __reduce__(self) -> tuple[Any, ...]:
        # the pool is recomputed from the entropy, not pickled (it lives in C memory)
        return (_rebuild, (self.entropy, self.spawn_key, self.pool_size, self.n_children_spawned))

    def generate_words(self, n_words: int, bits: int = 32) -> list[int]:
        """``n_words`` state words of 32 or 64 bits, as Python ints (a 64-bit
        word is two 32-bit ones, the first the low half)."""
        n = operator.index(n_words)
        if n < 0:
            raise ValueError("n_words must be non-negative")
        if bits not in (32, 64):
            raise ValueError("only support uint32 or uint64")
        count = n * (bits // 32)
        out = ffi.new("uint32_t[]", max(count, 1))
        lib.ma_seedseq_generate(self._pool, self.pool_size, out, count)
        words = list(out)[:count]
        if bits == 32:
            return words
        return [words[2 * i] | (words[2 * i + 1] << 32) for i in range(n)]

    def generate_state(self, n_words: int, dtype: Any = "uint32") -> NDArray:
        """``n_words`` words of state as a uint32 or uint64 array (NumPy's
        ``generate_state``)."""
        dt = _dt.as_dtype(getattr(dtype, "__name__", dtype) if isinstance(dtype, type) else dtype)
        if dt not in (_dt.uint32, _dt.uint64):
            raise ValueError("only support uint32 or uint64")
        words = self.generate_words(n_words, 32 if dt == _dt.uint32 else 64)
        return asarray(words, dtype=dt) if words else asarray([], dtype=dt)

    def spawn(self, n_children: int) -> list[SeedSequence]:
        """``n_children`` child sequences, numbered on from the ones spawned before."""
        n = operator.index(n_children)
        if n < 0:
            raise ValueError("n_children must be non-negative")
        start = self.n_children_spawned
        kids = [type(self)(self.entropy, spawn_key=(*self.spawn_key, i), pool_size=self.pool_size)
                for i in range(start, start + n)]
        self.n_children_spawned += n
        return kids


def _rebuild(entropy: Any, spawn_key: tuple[int, ...], pool_size: int, n_children_spawned: int) -> SeedSequence:
    return SeedSequence(entropy, spawn_key=spawn_key, pool_size=pool_size, n_children_spawned=n_children_spawned)
