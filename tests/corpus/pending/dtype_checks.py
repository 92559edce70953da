import numpy as np

# pending: np.dtype and NumPy's dtype equality

x = np.array([1.0, 2.0])
m = x > 1
print(x.dtype == np.float64, x.dtype == float, x.dtype == "float64")
print(m.dtype == bool)
d = np.dtype("float32")
print(d, d.itemsize, d.kind, d.name)
print(np.dtype("<i8") == np.int64)
print(np.issubdtype(x.dtype, np.floating), np.issubdtype(np.int32, np.integer))
print(np.array([1, 2], dtype="f4").dtype)
