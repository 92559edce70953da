"""minarray.random: NumPy's random Generator and its legacy RandomState, bit
for bit, over minarray arrays.

    import minarray as ma
    rng = ma.random.default_rng(42)
    x = rng.standard_normal((3, 4))     # the same numbers as NumPy's default_rng(42)

    ma.random.seed(42)
    y = ma.random.rand(3, 4)            # the same numbers as np.random.seed(42); np.random.rand(3, 4)

``default_rng(seed)`` builds a :class:`Generator` over :class:`PCG64`;
seeding goes through :class:`SeedSequence`, as in NumPy, so the same seed
and the same calls give the same streams in both libraries, and a
bit generator's ``state`` dict moves between them.

The legacy functions (``seed``, ``rand``, ``randn``, ``randint``, ``choice``,
...) are methods of one global :class:`RandomState` over :class:`MT19937`,
as in NumPy; ``get_state``/``set_state`` exchange states with NumPy's.
"""

from __future__ import annotations

from minarray.random._bit_generators import PCG64, PCG64DXSM, BitGenerator
from minarray.random._generator import Generator, default_rng
from minarray.random._legacy import RandomState
from minarray.random._mt19937 import MT19937
from minarray.random._mtrand import (
    beta,
    binomial,
    choice,
    dirichlet,
    exponential,
    gamma,
    get_state,
    lognormal,
    multinomial,
    multivariate_normal,
    normal,
    permutation,
    poisson,
    rand,
    randint,
    randn,
    random,
    random_sample,
    ranf,
    sample,
    seed,
    set_state,
    shuffle,
    standard_exponential,
    standard_gamma,
    standard_normal,
    uniform,
)
from minarray.random._seed_sequence import SeedSequence

__all__ = [
    "MT19937", "PCG64", "PCG64DXSM", "BitGenerator", "Generator", "RandomState", "SeedSequence", "beta",
    "binomial", "choice", "default_rng", "dirichlet", "exponential", "gamma", "get_state", "lognormal",
    "multinomial", "multivariate_normal", "normal", "permutation", "poisson", "rand", "randint", "randn", "random",
    "random_sample", "ranf", "sample", "seed", "set_state", "shuffle", "standard_exponential", "standard_gamma",
    "standard_normal", "uniform",
]
