import numpy as np

ages = np.array([23, 35, 31, 45, 52, 29, 38, 41, 60, 19, 33, 27])
counts, edges = np.histogram(ages, bins=4)
print(counts)
print(edges)
counts, edges = np.histogram(ages, bins=[0, 30, 40, 100])
print(counts, edges)
print(np.bincount([0, 1, 1, 3]))
print(np.digitize([5, 25, 35], [10, 20, 30]))
