"""NumPy's ``numpy.polynomial.hermite_e``, which minarray does not have:
importing it raises, naming the basis (minarray has the power basis only)."""

from minarray.polynomial._other_bases import refuse

refuse("hermite_e")
