import numpy as np

# pending: linalg.eig returns complex eigenvalues, as the Array API specifies; NumPy returns real ones when all are real

a = np.array([[3.0, 1.0], [1.0, 2.0]])
b = np.array([9.0, 8.0])
x = np.linalg.solve(a, b)
print("solution:", x)
print("check:", np.allclose(a @ x, b))

# Least squares line through points.
xs = np.array([0.0, 1.0, 2.0, 3.0])
ys = np.array([-1.0, 0.2, 0.9, 2.1])
A = np.vstack([xs, np.ones(len(xs))]).T
coef, residuals, rank, sv = np.linalg.lstsq(A, ys, rcond=None)
print("slope and intercept:", np.round(coef, 6))
print("rank:", rank)

# Eigenvalues of a symmetric matrix, sorted.
s = np.array([[2.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 2.0]])
w = np.linalg.eigvalsh(s)
print("eigenvalues:", np.round(w, 6))
vals, vecs = np.linalg.eig(np.diag([1.0, 2.0, 3.0]))
print("eig of a diagonal matrix:", vals)
print("determinant:", round(float(np.linalg.det(a)), 6))
print("inverse:\n", np.round(np.linalg.inv(a), 6))
print("norm:", round(float(np.linalg.norm(b)), 6))
print("identity?", np.allclose(np.linalg.inv(a) @ a, np.eye(2)))
