import numpy as np

# pending: np.random.choice of strings with size=: a string array, which minarray does not hold

# Legacy global random state: the stream every tutorial uses.
np.random.seed(42)
print(np.random.rand(3))
print(np.random.randn(2, 2))
print(np.random.randint(0, 10, size=5))
print(np.random.choice(["heads", "tails"], size=4))

# A random walk of 100 steps.
steps = np.random.choice([-1, 1], size=100)
walk = np.cumsum(steps)
print("final position:", walk[-1], "furthest:", np.abs(walk).max())

# Monte Carlo estimate of pi.
np.random.seed(0)
pts = np.random.random_sample((10000, 2))
inside = (pts ** 2).sum(axis=1) <= 1.0
print("pi is about", 4 * inside.mean())

deck = np.arange(10)
np.random.shuffle(deck)
print(deck)
print(np.random.normal(loc=5.0, scale=2.0, size=3))
