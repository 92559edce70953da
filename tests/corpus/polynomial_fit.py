import numpy as np

x = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
y = np.array([1.0, 3.1, 8.9, 19.2, 33.0])
coeffs = np.polyfit(x, y, 2)
print(np.round(coeffs, 4))
print(np.round(np.polyval(coeffs, 5.0), 3))
p = np.poly1d([1, -3, 2])
print(p(0), p.roots)
