import numpy as np

# loadtxt reads any iterable of lines: a file, or here a list of strings.
text = """# station, temperature, rain
1, 12.5, 0.0
2, 14.0, 3.2
3, 9.8, 12.1
"""
data = np.loadtxt(text.splitlines(), delimiter=",")
print(data)
print(data.shape)
temps = np.loadtxt(text.splitlines(), delimiter=",", usecols=1)
print(temps.mean())
