"""NumPy's ``numpy.polynomial.laguerre``, which minarray does not have:
importing it raises, naming the basis (minarray has the power basis only)."""

from minarray.polynomial._other_bases import refuse

refuse("laguerre")
