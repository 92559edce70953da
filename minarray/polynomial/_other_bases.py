"""NumPy's polynomial bases other than the power basis (Chebyshev,
Legendre, Laguerre, Hermite, HermiteE): minarray does not have them, and
reaching for one (an attribute of ``ma.polynomial``, ``from ... import``,
or importing its module) says so rather than fail on a missing name."""

from __future__ import annotations

from typing import NoReturn

# each of NumPy's names (modules and classes) with the basis it belongs to
BASES = {
    "chebyshev": "Chebyshev", "Chebyshev": "Chebyshev",
    "legendre": "Legendre", "Legendre": "Legendre",
    "laguerre": "Laguerre", "Laguerre": "Laguerre",
    "hermite": "Hermite", "Hermite": "Hermite",
    "hermite_e": "HermiteE", "HermiteE": "HermiteE",
}


def refuse(name: str) -> NoReturn:
    """Raise for NumPy's ``numpy.polynomial.<name>``.  NotImplementedError,
    not AttributeError or ImportError: an import statement turns those
    into its own message, which would not name the basis."""
    raise NotImplementedError(
        f"numpy.polynomial.{name}: minarray provides the power basis only (Polynomial and "
        f"ma.polynomial.polynomial); the {BASES[name]} basis is NumPy's, use numpy.polynomial")
