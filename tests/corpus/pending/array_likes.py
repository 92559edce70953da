import numpy as np

# pending: array-likes everywhere (np.nonzero of a list)

# Plain lists go everywhere an array does.
print(np.nonzero([1, 0, 2, 0, 3]))
print(np.where([True, False, True], [1, 2, 3], [10, 20, 30]))
print(np.concatenate([[1, 2], [3]]))
print(np.mean([1, 2, 3, 4]))
print(np.sum([[1, 2], [3, 4]], axis=0))
print(np.sqrt([1, 4, 9]))
print(np.maximum([1, 5, 3], [4, 2, 6]))
print(np.sort([3, 1, 2]))
print(np.unique([3, 1, 3, 2, 1]))
print(np.cumsum((1, 2, 3)))
print(np.dot([1, 2, 3], [4, 5, 6]))
print(np.argmax([1, 9, 3]))
print(np.isin([1, 2, 3], [2, 3]))
print(np.diff([1, 4, 9, 16]))
print(np.clip([-5, 5, 15], 0, 10))
print(np.round([1.234, 5.678], 1))
print(np.vstack(([1, 2], [3, 4])))
