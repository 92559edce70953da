import numpy as np

# Exam scores of eight students in three subjects.
scores = np.array([
    [72, 85, 90],
    [64, 70, 58],
    [88, 92, 95],
    [55, 61, 49],
    [91, 79, 84],
    [77, 83, 80],
    [69, 74, 71],
    [82, 88, 93],
])
names = ["ana", "ben", "cai", "dee", "eli", "fay", "gus", "hal"]

means = scores.mean(axis=0)
stds = scores.std(axis=0)
print("subject means:", means)
print("subject stds:", np.round(stds, 3))

totals = scores.sum(axis=1)
order = np.argsort(totals)[::-1]
print("ranking:", [names[i] for i in order])
print("best total:", totals.max(), "by", names[int(np.argmax(totals))])

passed = scores.min(axis=1) >= 60
print("passed all:", passed)
print("number passing:", np.count_nonzero(passed))
print("scores of those passing:\n", scores[passed])

z = (scores - means) / stds
print("z-scores of first student:", np.round(z[0], 2))
print("above average in every subject:", np.all(z > 0, axis=1).nonzero()[0])
print("median per subject:", np.median(scores, axis=0))
print("25th and 75th percentiles:", np.percentile(scores[:, 0], [25, 75]))
