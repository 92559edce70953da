import numpy as np

x = np.array([1, 2, 3, 4])
print(np.add.reduce(x))
print(np.add.accumulate(x))
print(np.multiply.outer(x, x))
print(np.maximum.reduce([3, 7, 2]))
print(np.add.reduce(np.ones((2, 3)), axis=1))
counts = np.zeros(5, dtype=int)
np.add.at(counts, [0, 1, 1, 4, 4, 4], 1)
print(counts)
print(np.add.nin, np.add.nout, np.add.__name__)
print(np.logical_and.reduce([True, True, False]))
