import numpy as np

m = np.arange(1, 10).reshape(3, 3)
print(m)
print(m.T)
print(m @ np.eye(3, dtype=int))
print(np.dot(m, [1, 0, -1]))
print(np.trace(m), np.diag(m))
print(np.triu(m))
print(m.reshape(-1))
print(np.kron(np.eye(2, dtype=int), [[1, 2], [3, 4]]))
print(np.hstack([m, m[:, :1]]))
print(m[m % 2 == 0])
m[1] = 0
print(m)
print(np.tile([1, 2], 3), np.repeat([1, 2], 2))
