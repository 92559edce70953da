"""The module-level legacy functions: methods of one global RandomState.

As in NumPy, ``minarray.random.seed``, ``rand``, ``randn``, ``randint`` and
the rest are bound methods of a single :class:`RandomState` seeded from
fresh entropy at import, so ``seed(1); rand()`` gives NumPy's
``np.random.seed(1); np.random.rand()``, and every function advances the
same stream.
"""

from __future__ import annotations

from minarray.random._legacy import RandomState

__all__ = [
    "beta", "binomial", "choice", "dirichlet", "exponential", "gamma", "get_state", "lognormal", "multinomial",
    "multivariate_normal", "normal", "permutation", "poisson", "rand", "randint", "randn", "random",
    "random_sample", "ranf", "sample", "seed", "set_state", "shuffle", "standard_exponential", "standard_gamma",
    "standard_normal", "uniform",
]

_rand = RandomState()

seed = _rand.seed
get_state = _rand.get_state
set_state = _rand.set_state
random_sample = _rand.random_sample
random = _rand.random_sample
ranf = _rand.random_sample
sample = _rand.random_sample
rand = _rand.rand
randn = _rand.randn
randint = _rand.randint
uniform = _rand.uniform
standard_normal = _rand.standard_normal
normal = _rand.normal
lognormal = _rand.lognormal
standard_exponential = _rand.standard_exponential
exponential = _rand.exponential
standard_gamma = _rand.standard_gamma
gamma = _rand.gamma
beta = _rand.beta
binomial = _rand.binomial
poisson = _rand.poisson
multinomial = _rand.multinomial
dirichlet = _rand.dirichlet
multivariate_normal = _rand.multivariate_normal
choice = _rand.choice
shuffle = _rand.shuffle
permutation = _rand.permutation
