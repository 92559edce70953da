"""minarray.random: NumPy's random Generator, bit for bit, over minarray arrays.

    import minarray as ma
    rng = ma.random.default_rng(42)
    x = rng.standard_normal((3, 4))     # the same numbers as NumPy's default_rng(42)

``default_rng(seed)`` builds a :class:`Generator` over :class:`PCG64`;
seeding goes through :class:`SeedSequence`, as in NumPy, so the same seed
and the same calls give the same streams in both libraries, and a
bit generator's ``state`` dict moves between them.
"""

from __future__ import annotations

from minarray.random._bit_generators import PCG64, PCG64DXSM, BitGenerator
from minarray.random._generator import Generator, default_rng
from minarray.random._seed_sequence import SeedSequence

__all__ = ["PCG64", "PCG64DXSM", "BitGenerator", "Generator", "SeedSequence", "default_rng"]
