import numpy as np

grades = np.array([55.5, 67.0, 72.5, 88.0, 91.5, 43.0, 78.0, 84.5, 69.0, 95.0])
print("mean %.2f, median %.2f" % (grades.mean(), np.median(grades)))  # noqa: UP031 (as users write it)
print("variance:", round(float(grades.var()), 4))
letters = np.where(grades >= 90, 4, np.where(grades >= 80, 3, np.where(grades >= 70, 2, np.where(grades >= 60, 1, 0))))
print(letters)
print("best three:", np.sort(grades)[-3:])
print("curve:", np.minimum(grades + 5, 100))
print("running total:", np.cumsum(grades)[-1])
print("quantiles:", np.quantile(grades, [0.1, 0.5, 0.9]))
print("failing indices:", np.flatnonzero(grades < 60))
print("rounded:", np.round(grades).astype(int))
print("normalised:", np.round((grades - grades.min()) / np.ptp(grades), 3))
