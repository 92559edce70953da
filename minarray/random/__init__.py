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
    bytes,
    chisquare,
    choice,
    dirichlet,
    exponential,
    f,
    gamma,
    geometric,
    get_state,
    gumbel,
    hypergeometric,
    laplace,
    logistic,
    lognormal,
    logseries,
    multinomial,
    multivariate_normal,
    negative_binomial,
    noncentral_chisquare,
    noncentral_f,
    normal,
    pareto,
    permutation,
    poisson,
    power,
    rand,
    randint,
    randn,
    random,
    random_integers,
    random_sample,
    ranf,
    rayleigh,
    sample,
    seed,
    set_state,
    shuffle,
    standard_cauchy,
    standard_exponential,
    standard_gamma,
    standard_normal,
    standard_t,
    triangular,
    uniform,
    vonmises,
    wald,
    weibull,
    zipf,
)
from minarray.random._seed_sequence import SeedSequence

__all__ = [
    "BitGenerator", "Generator", "MT19937", "PCG64", "PCG64DXSM", "RandomState", "SeedSequence", "beta", "binomial",
    "bytes", "chisquare", "choice", "default_rng", "dirichlet", "exponential", "f", "gamma", "geometric", "get_state",
    "gumbel", "hypergeometric", "laplace", "logistic", "lognormal", "logseries", "multinomial", "multivariate_normal",
    "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal", "pareto", "permutation", "poisson",
    "power", "rand", "randint", "randn", "random", "random_integers", "random_sample", "ranf", "rayleigh", "sample",
    "seed", "set_state", "shuffle", "standard_cauchy", "standard_exponential", "standard_gamma", "standard_normal",
    "standard_t", "triangular", "uniform", "vonmises", "wald", "weibull", "zipf",
]
