"""The bit generators: PCG64 and PCG64DXSM, as NumPy defines them.

A bit generator owns its state in a C struct (``ma_pcg64``, allocated by
cffi and freed with the object) and a lock.  Everything that advances the
state holds the lock around its C call; the call itself runs without the
GIL, so other threads keep working while a large array fills.

``state`` reads and writes NumPy's dictionaries, so a state can move
between ``numpy.random.PCG64`` and ``minarray.random.PCG64`` (and the DXSM
pair) in either direction.
"""

from __future__ import annotations

import operator
import threading
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._native import ffi, host_pointer, lib
from minarray.random._seed_sequence import SeedSequence

__all__ = ["PCG64", "PCG64DXSM", "BitGenerator"]

_U64 = (1 << 64) - 1
_U128 = (1 << 128) - 1
# PCG64's jump: (golden ratio - 1) * 2^128, an odd number of steps
# (NumPy's _pcg64.pyx, jump_inplace).
_JUMP_STEP = 0x9E3779B97F4A7C15F39CC0605CEDC835


class BitGenerator:
    """The base of minarray's bit generators: a seed sequence, a lock and
    a C state.  Not instantiable itself."""

    _dxsm = 0
    lock: threading.RLock

    def __init__(self, seed: Any = None) -> None:
        if type(self) is BitGenerator:
            raise NotImplementedError("BitGenerator is a base class and cannot be instantiated")
        if seed is None or not callable(getattr(seed, "generate_state", None)):
            seed = SeedSequence(seed)
        self._seed_seq = seed
        self.lock = threading.RLock()
        self._st: Any = ffi.new("ma_pcg64 *")
        self._st.dxsm = self._dxsm
        lib.ma_pcg64_seed(self._st, ffi.new("uint64_t[4]", _seed_words(seed)))

    @property
    def seed_seq(self) -> Any:
        """The seed sequence this generator was seeded from."""
        return self._seed_seq

    @property
    def state(self) -> dict[str, Any]:
        """The state as NumPy's dict: the class name under ``'bit_generator'``,
        the 128-bit LCG state and increment under ``'state'`` (keys
        ``'state'`` and ``'inc'``), and the buffered 32-bit half under
        ``'has_uint32'`` and ``'uinteger'``."""
        with self.lock:
            st = self._st
            return {
                "bit_generator": type(self).__name__,
                "state": {"state": (st.state_hi << 64) | st.state_lo, "inc": (st.inc_hi << 64) | st.inc_lo},
                "has_uint32": int(st.has_uint32),
                "uinteger": int(st.uinteger),
            }

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        if not isinstance(value, dict):
            raise TypeError("state must be a dict")
        if value.get("bit_generator", "") != type(self).__name__:
            raise ValueError(f"state must be for a {type(self).__name__} RNG")
        try:
            inner = value["state"]
            s, inc = operator.index(inner["state"]), operator.index(inner["inc"])
            has32, u32 = operator.index(value["has_uint32"]), operator.index(value["uinteger"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"state is missing or has a non-integer entry: {exc}") from None
        # Check everything before writing anything: a bad state leaves the
        # generator as it was.
        if not (0 <= s <= _U128 and 0 <= inc <= _U128):
            raise ValueError("state['state'] and state['inc'] must be in [0, 2**128)")
        if not 0 <= u32 <= 0xFFFFFFFF:
            raise ValueError("uinteger must be in [0, 2**32)")
        with self.lock:
            st = self._st
            st.state_hi, st.state_lo = s >> 64, s & _U64
            st.inc_hi, st.inc_lo = inc >> 64, inc & _U64
            st.has_uint32 = 1 if has32 else 0
            st.uinteger = u32

    def advance(self, delta: int) -> BitGenerator:
        """Advance as if ``delta`` 64-bit draws had been made (delta taken
        modulo 2^128, so a negative delta steps back).  Drops the buffered
        32-bit half, as NumPy does.  Returns self."""
        d = operator.index(delta) & _U128
        with self.lock:
            lib.ma_pcg64_advance(self._st, d >> 64, d & _U64)
        return self

    def jumped(self, jumps: int = 1) -> BitGenerator:
        """A new generator whose state is this one's advanced by
        ``jumps * (golden ratio - 1) * 2^128`` steps: far enough apart for
        parallel streams."""
        n = operator.index(jumps)
        new = type(self)()
        new.state = self.state
        new.advance(_JUMP_STEP * n)
        return new

    def spawn(self, n_children: int) -> list[BitGenerator]:
        """``n_children`` new generators seeded from children of this one's
        seed sequence."""
        n = operator.index(n_children)
        if n < 0:
            raise ValueError("n_children must be non-negative")
        spawner = getattr(self._seed_seq, "spawn", None)
        if spawner is None:
            raise TypeError("The underlying SeedSequence does not implement spawning.")
        return [type(self)(s) for s in spawner(n)]

    def random_raw(self, size: Any = None, output: bool = True) -> Any:
        """Raw 64-bit draws: an int (size None), a uint64 array, or None
        with ``output=False`` (the draws are then only consumed)."""
        from minarray.random._sampling import _shape_of  # cycle: random._sampling imports minarray's modules

        if size is None:
            buf = ffi.new("uint64_t[1]")
            with self.lock:
                lib.ma_random_raw(self._st, 1, buf)
            return int(buf[0]) if output else None
        shape = _shape_of(size)
        out = NDArray._empty(shape, _dt.uint64)
        with self.lock:
            lib.ma_random_raw(self._st, out.size, host_pointer(out, "uint64_t *"))
        return out if output else None

    def __getstate__(self) -> tuple[dict[str, Any], Any]:
        return self.state, self._seed_seq

    def __setstate__(self, saved: tuple[dict[str, Any], Any]) -> None:
        state, seed_seq = saved
        self._seed_seq = seed_seq
        self.lock = threading.RLock()
        self._st = ffi.new("ma_pcg64 *")
        self._st.dxsm = self._dxsm
        self.state = state

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self),), self.__getstate__())


def _rebuild(cls: type[BitGenerator]) -> BitGenerator:
    obj = cls.__new__(cls)
    return obj


def _seed_words(seed: Any) -> list[int]:
    """Four 64-bit words from a seed sequence (ours, or any object with
    NumPy's ``generate_state(n_words, dtype)``)."""
    if isinstance(seed, SeedSequence):
        words = seed.generate_words(4, 64)
    else:
        raw = seed.generate_state(4, "uint64")
        words = [int(v) for v in (raw.tolist() if hasattr(raw, "tolist") else raw)]
    if len(words) != 4 or not all(0 <= w <= _U64 for w in words):
        raise ValueError("the seed sequence must generate four 64-bit words")
    return words


class PCG64(BitGenerator):
    """PCG-64 (XSL-RR output over a 128-bit LCG), NumPy's default bit
    generator: period 2^128, 2^127 streams, ``advance`` in O(log n)."""

    _dxsm = 0


class PCG64DXSM(BitGenerator):
    """PCG-64 DXSM: the "double xorshift multiply" output over the LCG
    with a cheap 64-bit multiplier (NumPy's recommended upgrade of PCG64).
    Seeded, advanced and jumped as NumPy does."""

    _dxsm = 1
