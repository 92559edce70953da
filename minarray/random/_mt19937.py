"""MT19937: the Mersenne Twister bit generator, as NumPy's ``MT19937``.

The state (624 32-bit words and a position) lives in a C struct
(``ma_mt19937``, csrc/core/mt19937.h) that cffi allocates and frees with the
object.  Two seedings, both NumPy's:

- ``MT19937(seed)`` seeds through :class:`SeedSequence` (624 words, the
  first replaced by 0x80000000, the position left at 623, as NumPy does);
- ``_legacy_seeding(seed)``, what ``RandomState(seed)`` and
  ``np.random.seed(seed)`` use: an int in [0, 2**32) through Knuth's
  recurrence, an array of such ints through the reference
  ``init_by_array``.

``state`` reads and writes NumPy's dict (and accepts the legacy tuple), so a
state moves between ``numpy.random.MT19937`` and this class either way.
"""

from __future__ import annotations

import operator
import threading
from typing import Any

import minarray as _ma
from minarray._native import ffi, host_pointer, lib
from minarray.random._sampling import _shape_of
from minarray.random._seed_sequence import SeedSequence

__all__ = ["MT19937"]

_N = 624
_U32 = 0xFFFFFFFF
_RANGE = "Seed must be between 0 and 2**32 - 1"


def _words(seed: Any, n: int) -> list[int]:
    """``n`` 32-bit words from a seed sequence (ours, or any object with
    NumPy's ``generate_state(n_words, dtype)``)."""
    if isinstance(seed, SeedSequence):
        return seed.generate_words(n, 32)
    raw = seed.generate_state(n, "uint32")
    return [int(v) for v in (raw.tolist() if hasattr(raw, "tolist") else raw)]


def _int_list(x: Any) -> list[Any]:
    values = x.tolist() if hasattr(x, "tolist") else list(x)
    return values if isinstance(values, list) else [values]


class MT19937:
    """The Mersenne Twister (period 2**19937 - 1) with NumPy's seeding and
    state layout: ``MT19937(seed)`` gives the same stream as
    ``numpy.random.MT19937(seed)``.  It feeds :class:`RandomState`; the
    Generator draws from PCG64 and PCG64DXSM only."""

    lock: threading.RLock

    def __init__(self, seed: Any = None) -> None:
        if seed is None or not callable(getattr(seed, "generate_state", None)):
            seed = SeedSequence(seed)
        self._seed_seq: Any = seed
        self.lock = threading.RLock()
        self._st: Any = ffi.new("ma_mt19937 *")
        self._set_key_from(_words(seed, _N))
        # NumPy leaves the position at its loop's last index: the first
        # draw tempers word 623 before the first twist.
        self._st.pos = _N - 1

    def _set_key_from(self, words: list[int]) -> None:
        """SeedSequence words as the key, the first word's top bit set (a
        key that is not all zero), as NumPy seeds."""
        if len(words) != _N or not all(0 <= w <= _U32 for w in words):
            raise ValueError(f"the seed sequence must generate {_N} 32-bit words")
        self._st.key = [0x80000000, *words[1:]]

    @property
    def seed_seq(self) -> Any:
        """The seed sequence this generator was seeded from (None after legacy seeding)."""
        return self._seed_seq

    def _legacy_seeding(self, seed: Any) -> None:
        """Seed as ``RandomState.seed`` does: None (fresh entropy), an int in
        [0, 2**32), or a non-empty 1-d array of such ints."""
        with self.lock:
            try:
                if seed is None:
                    # NumPy keeps the position here: only the key changes.
                    self._set_key_from(SeedSequence().generate_words(_N, 32))
                else:
                    if hasattr(seed, "squeeze"):
                        seed = seed.squeeze()
                    idx = operator.index(seed)
                    if idx > _U32 or idx < 0:
                        raise ValueError(_RANGE)
                    lib.ma_mt19937_seed(self._st, idx)
            except TypeError:
                words = _seed_array(seed)
                lib.ma_mt19937_init_by_array(self._st, ffi.new("uint32_t[]", words), len(words))
        self._seed_seq = None

    @property
    def state(self) -> dict[str, Any]:
        """NumPy's dict: ``{'bit_generator': 'MT19937', 'state': {'key':
        uint32 array of 624 words, 'pos': int}}``."""
        with self.lock:
            key = list(self._st.key)
            pos = int(self._st.pos)
        return {"bit_generator": "MT19937", "state": {"key": _ma.asarray(key, dtype=_ma.uint32), "pos": pos}}

    @state.setter
    def state(self, value: Any) -> None:
        if isinstance(value, tuple):
            if value[0] != "MT19937" or len(value) not in (3, 5):
                raise ValueError("state is not a legacy MT19937 state")
            value = {"bit_generator": "MT19937", "state": {"key": value[1], "pos": value[2]}}
        if not isinstance(value, dict):
            raise TypeError("state must be a dict")
        if value.get("bit_generator", "") != type(self).__name__:
            raise ValueError(f"state must be for a {type(self).__name__} PRNG")
        key, pos = _checked_state(value)
        with self.lock:
            self._st.key = key
            self._st.pos = pos

    def random_raw(self, size: Any = None, output: bool = True) -> Any:
        """Raw draws as NumPy's MT19937 gives them (32-bit outputs): an int
        (size None), a uint64 array, or None with ``output=False``."""
        if size is None:
            buf = ffi.new("uint64_t[1]")
            with self.lock:
                lib.ma_mt19937_raw(self._st, 1, buf)
            return int(buf[0]) if output else None
        out = _ma.empty(_shape_of(size), dtype=_ma.uint64)
        with self.lock:
            lib.ma_mt19937_raw(self._st, out.size, host_pointer(out, "uint64_t *"))
        return out if output else None

    def __getstate__(self) -> dict[str, Any]:
        return self.state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._seed_seq = None
        self.lock = threading.RLock()
        self._st = ffi.new("ma_mt19937 *")
        self.state = state

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (), self.__getstate__())


def _rebuild() -> MT19937:
    return MT19937.__new__(MT19937)


def _seed_array(seed: Any) -> list[int]:
    """A legacy seed array's words: non-empty, 1-d, integers in [0, 2**32)."""
    arr = _ma.asarray(seed)
    if arr.size == 0:
        raise ValueError("Seed must be non-empty")
    if arr.dtype.kind not in ("i", "u", "b") or arr.dtype == _ma.uint64:
        raise TypeError(f"Cannot cast array data from dtype('{arr.dtype}') to dtype('int64') according to the "
                        "rule 'safe'")
    if arr.ndim != 1:
        raise ValueError("Seed array must be 1-d")
    words = [int(v) for v in _int_list(arr)]
    if any(w < 0 or w > _U32 for w in words):
        raise ValueError(_RANGE)
    return words


def _checked_state(value: dict[str, Any]) -> tuple[list[int], int]:
    """The key words and position of a state dict, checked before anything
    is written: 624 words in [0, 2**32) and a position in [0, 624] (NumPy
    reads beyond the key for a position outside it)."""
    try:
        inner = value["state"]
        key = [operator.index(v) for v in _int_list(inner["key"])]
        pos = operator.index(inner["pos"])
    except (KeyError, TypeError) as exc:
        raise ValueError(f"state is missing or has a non-integer entry: {exc}") from None
    if len(key) < _N:
        raise ValueError(f"state['state']['key'] must hold {_N} words, not {len(key)}")
    key = key[:_N]
    if not all(0 <= w <= _U32 for w in key):
        raise ValueError("state['state']['key'] words must be in [0, 2**32)")
    if not 0 <= pos <= _N:
        raise ValueError(f"state['state']['pos'] must be in [0, {_N}], not {pos}")
    return key, pos
