import numpy as np

# pending: np.set_printoptions and np.printoptions

x = np.array([1.123456789, 1000.5, 1e-5])
print(x)
np.set_printoptions(precision=3, suppress=True)
print(x)
print(np.linspace(0, 1, 7))
np.set_printoptions(threshold=10, edgeitems=2)
print(np.arange(100))
with np.printoptions(precision=1):
    print(np.array([3.14159, 2.71828]))
print(np.array([3.14159, 2.71828]))
print(repr(np.array([[1.5, 2.25], [3.0, 4.125]])))
np.set_printoptions(precision=8, suppress=False, threshold=1000, edgeitems=3)
print(np.array2string(np.array([0.1, 0.2]), separator=", "))
