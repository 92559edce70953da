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
    "beta", "binomial", "bytes", "chisquare", "choice", "dirichlet", "exponential", "f", "gamma", "geometric",
    "get_state", "gumbel", "hypergeometric", "laplace", "logistic", "lognormal", "logseries", "multinomial",
    "multivariate_normal", "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal", "pareto",
    "permutation", "poisson", "power", "rand", "randint", "randn", "random", "random_integers", "random_sample",
    "ranf", "rayleigh", "sample", "seed", "set_state", "shuffle", "standard_cauchy", "standard_exponential",
    "standard_gamma", "standard_normal", "standard_t", "triangular", "uniform", "vonmises", "wald",
    "weibull", "zipf",
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
standard_cauchy = _rand.standard_cauchy
standard_t = _rand.standard_t
chisquare = _rand.chisquare
f = _rand.f
laplace = _rand.laplace
logistic = _rand.logistic
gumbel = _rand.gumbel
rayleigh = _rand.rayleigh
pareto = _rand.pareto
power = _rand.power
weibull = _rand.weibull
geometric = _rand.geometric
negative_binomial = _rand.negative_binomial
noncentral_chisquare = _rand.noncentral_chisquare
noncentral_f = _rand.noncentral_f
triangular = _rand.triangular
vonmises = _rand.vonmises
wald = _rand.wald
zipf = _rand.zipf
logseries = _rand.logseries
bytes = _rand.bytes
random_integers = _rand.random_integers
hypergeometric = _rand.hypergeometric
