"""Side-by-side benchmarks: minarray against NumPy, PyTorch and pydlpack.

Run ``python -m benchmarks --help``.  Every case times minarray and its
reference in the same process, interleaved repeat by repeat, so drift of a
shared machine (frequency, neighbours, page cache) hits both sides alike.

Layout:
  cases.py   the cases, as data: a name, a size and two factories
  timing.py  interleaved repeats, auto-chosen loop counts, medians, spread
  report.py  the table, the JSON file and the comparison of two runs
  plot.py    time per element against size (matplotlib, optional)
"""
