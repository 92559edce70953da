import numpy as np

x = np.linspace(0, 1, 5)
np.testing.assert_allclose(x, [0.0, 0.25, 0.5, 0.75, 1.0])
np.testing.assert_array_equal(np.arange(3), [0, 1, 2])
try:
    np.testing.assert_allclose([1.0, 2.0, 3.0], [1.0, 2.0, 3.1])
except AssertionError as e:
    print(str(e).splitlines()[1:6])
print("all checks passed")
