"""The machinery of NumPy's polynomial classes (its ``ABCPolyBase``):
construction, the checks between two series, arithmetic, calculus,
fitting, conversion between domains, and printing.  A basis subclass
supplies its series functions as static methods (``_add``, ``_val``...),
its default ``domain`` and ``window``, and how a term prints."""

from __future__ import annotations

import numbers
from typing import Any, ClassVar

from minarray._array_object import NDArray
from minarray._creation import linspace as _linspace
from minarray._printoptions import get_printoptions
from minarray._scalar import Scalar
from minarray.polynomial import polyutils as pu

__all__ = ["PolyBase"]


def _nonnegative(c: Any) -> bool:
    """``c >= 0`` as NumPy orders numbers: complex ones by real part, then
    imaginary part."""
    if isinstance(c, complex) or getattr(getattr(c, "dtype", None), "kind", "") == "c":
        z = complex(c)
        return z.real > 0 or (z.real == 0 and z.imag >= 0)
    return bool(c >= 0)


def _is_number(x: Any) -> bool:
    """A number for true division: Python's (not bool) or a minarray scalar."""
    return (isinstance(x, numbers.Number) and not isinstance(x, bool)) or (
        isinstance(x, Scalar) and x.dtype.kind != "b")


class PolyBase:
    """A series in some basis with a domain mapped onto a window."""

    __hash__ = None  # type: ignore[assignment]  # mutable, as NumPy's
    # minarray's and NumPy's arrays leave the operators to the series
    __array_ufunc__ = None
    # limit runaway sizes: a power of degree n has n times the terms
    maxpower: ClassVar[int] = 100
    _superscript_mapping: ClassVar[dict[int, int]] = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
    _subscript_mapping: ClassVar[dict[int, int]] = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
    # set_default_printstyle's choice; NumPy's default on Unix
    _use_unicode: ClassVar[bool] = True

    domain: NDArray
    window: NDArray
    basis_name: ClassVar[str | None] = None

    # the basis's series functions, set by the subclass
    _add: ClassVar[Any]
    _sub: ClassVar[Any]
    _mul: ClassVar[Any]
    _div: ClassVar[Any]
    _pow: ClassVar[Any]
    _val: ClassVar[Any]
    _int: ClassVar[Any]
    _der: ClassVar[Any]
    _fit: ClassVar[Any]
    _line: ClassVar[Any]
    _roots: ClassVar[Any]
    _fromroots: ClassVar[Any]

    def __init__(self, coef: Any, domain: Any = None, window: Any = None, symbol: str = "x") -> None:
        [self.coef] = pu.as_series([coef], trim=False)
        if domain is not None:
            [dom] = pu.as_series([domain], trim=False)
            if len(dom) != 2:
                raise ValueError("Domain has wrong number of elements.")
            self.domain = dom
        if window is not None:
            [win] = pu.as_series([window], trim=False)
            if len(win) != 2:
                raise ValueError("Window has wrong number of elements.")
            self.window = win
        if not isinstance(symbol, str):
            raise TypeError("Symbol must be a non-empty string")
        if not symbol.isidentifier():
            raise ValueError("Symbol string must be a valid Python identifier")
        self._symbol = symbol

    @property
    def symbol(self) -> str:
        """The variable's name in the printed series."""
        return self._symbol

    # comparisons of two series

    def has_samecoef(self, other: PolyBase) -> Any:
        """Whether the coefficients are the same."""
        return len(self.coef) == len(other.coef) and pu.all_equal(self.coef, other.coef)

    def has_samedomain(self, other: PolyBase) -> Any:
        """Whether the domains are the same."""
        return pu.all_equal(self.domain, other.domain)

    def has_samewindow(self, other: PolyBase) -> Any:
        """Whether the windows are the same."""
        return pu.all_equal(self.window, other.window)

    def has_sametype(self, other: Any) -> bool:
        """Whether ``other`` is a series of this class."""
        return isinstance(other, self.__class__)

    def _get_coefficients(self, other: Any) -> Any:
        """The coefficients of the other operand: a series must be of this
        class, domain, window and symbol; anything else passes as is."""
        if isinstance(other, PolyBase):
            if not isinstance(other, self.__class__):
                raise TypeError("Polynomial types differ")
            if not pu.all_equal(self.domain, other.domain):
                raise TypeError("Domains differ")
            if not pu.all_equal(self.window, other.window):
                raise TypeError("Windows differ")
            if self.symbol != other.symbol:
                raise ValueError("Polynomial symbols differ")
            return other.coef
        return other

    def _new(self, coef: Any) -> Any:
        """A series of this class, domain, window and symbol."""
        return self.__class__(coef, self.domain, self.window, self.symbol)

    # printing

    def __repr__(self) -> str:
        coef = repr(self.coef)[6:-1]
        domain = repr(self.domain)[6:-1]
        window = repr(self.window)[6:-1]
        return f"{self.__class__.__name__}({coef}, domain={domain}, window={window}, symbol='{self.symbol}')"

    def __format__(self, fmt_str: str) -> str:
        if fmt_str == "":
            return self.__str__()
        if fmt_str not in ("ascii", "unicode"):
            raise ValueError(f"Unsupported format string '{fmt_str}' passed to {self.__class__}.__format__. "
                             "Valid options are 'ascii' and 'unicode'")
        if fmt_str == "ascii":
            return self._generate_string(self._str_term_ascii)
        return self._generate_string(self._str_term_unicode)

    def __str__(self) -> str:
        if self._use_unicode:
            return self._generate_string(self._str_term_unicode)
        return self._generate_string(self._str_term_ascii)

    def _generate_string(self, term_method: Any) -> str:
        """The series as text, terms wrapped at the print options' line
        width as NumPy wraps them."""
        linewidth = max(int(get_printoptions().get("linewidth", 75)), 1)
        out = pu.format_float(self.coef[0])
        off, scale = self.mapparms()
        scaled_symbol, needs_parens = self._format_term(pu.format_float, off, scale)
        if needs_parens:
            scaled_symbol = "(" + scaled_symbol + ")"
        rest = self.coef[1:]
        for i, coef in enumerate(rest):
            out += " "
            if _nonnegative(coef):
                next_term = "+ " + pu.format_float(coef, parens=True)
            else:
                next_term = "- " + pu.format_float(-coef, parens=True)
            next_term += term_method(str(i + 1), scaled_symbol)
            line_len = len(out.split("\n")[-1]) + len(next_term)
            # a term before the last is followed by " +" or " -"
            if i < len(rest) - 1:
                line_len += 2
            if line_len >= linewidth:
                next_term = next_term.replace(" ", "\n", 1)
            out += next_term
        return out

    @classmethod
    def _str_term_unicode(cls, i: str, arg_str: str) -> str:
        return f"·{cls.basis_name}{i.translate(cls._subscript_mapping)}({arg_str})"

    @classmethod
    def _str_term_ascii(cls, i: str, arg_str: str) -> str:
        return f" {cls.basis_name}_{i}({arg_str})"

    @classmethod
    def _repr_latex_term(cls, i: int, arg_str: str, needs_parens: bool) -> str:
        return f"{{{cls.basis_name}}}_{{{i}}}({arg_str})"

    @staticmethod
    def _repr_latex_scalar(x: Any, parens: bool = False) -> str:
        return rf"\text{{{pu.format_float(x, parens=parens)}}}"

    def _format_term(self, scalar_format: Any, off: Any, scale: Any) -> tuple[str, bool]:
        """The basis functions' argument as text (``x``, or the mapped
        ``off + scale·x``) and whether it needs parentheses."""
        if off == 0 and scale == 1:
            return self.symbol, False
        if scale == 1:
            return f"{scalar_format(off)} + {self.symbol}", True
        if off == 0:
            return f"{scalar_format(scale)}{self.symbol}", True
        return f"{scalar_format(off)} + {scalar_format(scale)}{self.symbol}", True

    def _repr_latex_(self) -> str:
        off, scale = self.mapparms()
        term, needs_parens = self._format_term(self._repr_latex_scalar, off, scale)
        parts = []
        for i, c in enumerate(self.coef):
            if i == 0:
                coef_str = f"{self._repr_latex_scalar(c)}"
            elif c.dtype.kind == "c":
                coef_str = f" + ({self._repr_latex_scalar(c)})"
            elif c >= 0:
                coef_str = f" + {self._repr_latex_scalar(c, parens=True)}"
            else:
                coef_str = f" - {self._repr_latex_scalar(-c, parens=True)}"
            term_str = self._repr_latex_term(i, term, needs_parens)
            part = coef_str if term_str == "1" else rf"{coef_str}\,{term_str}"
            if c == 0:
                part = rf"\color{{LightGray}}{{{part}}}"
            parts.append(part)
        body = "".join(parts) if parts else "0"
        return rf"${self.symbol} \mapsto {body}$"

    # evaluation and the sequence protocol

    def __call__(self, arg: Any) -> Any:
        if isinstance(arg, PolyBase):
            # composition: the series of the mapped argument (convert)
            off, scl = self.mapparms()
            return self._val(off + scl * arg, self.coef)
        return self._val(pu.mapdomain(arg, self.domain, self.window), self.coef)

    def __iter__(self) -> Any:
        return iter(self.coef)

    def __len__(self) -> int:
        return len(self.coef)

    # arithmetic: an operand the series functions refuse gives NotImplemented

    def __neg__(self) -> Any:
        return self._new(-self.coef)

    def __pos__(self) -> Any:
        return self

    def _binary(self, fn: Any, a: Any, b: Any) -> Any:
        try:
            coef = fn(a, b)
        except Exception:
            return NotImplemented
        return self._new(coef)

    def __add__(self, other: Any) -> Any:
        return self._binary(self._add, self.coef, self._get_coefficients(other))

    def __sub__(self, other: Any) -> Any:
        return self._binary(self._sub, self.coef, self._get_coefficients(other))

    def __mul__(self, other: Any) -> Any:
        return self._binary(self._mul, self.coef, self._get_coefficients(other))

    def __radd__(self, other: Any) -> Any:
        return self._binary(self._add, other, self.coef)

    def __rsub__(self, other: Any) -> Any:
        return self._binary(self._sub, other, self.coef)

    def __rmul__(self, other: Any) -> Any:
        return self._binary(self._mul, other, self.coef)

    def __truediv__(self, other: Any) -> Any:
        # no true division by a series: it would be an infinite series
        if not _is_number(other):
            raise TypeError(f"unsupported types for true division: '{type(self)}', '{type(other)}'")
        return self.__floordiv__(other)

    def __rtruediv__(self, other: Any) -> Any:
        return NotImplemented

    def _divmod(self, a: Any, b: Any) -> Any:
        try:
            quo, rem = self._div(a, b)
        except ZeroDivisionError:
            raise
        except Exception:
            return NotImplemented
        return self._new(quo), self._new(rem)

    def __divmod__(self, other: Any) -> Any:
        return self._divmod(self.coef, self._get_coefficients(other))

    def __rdivmod__(self, other: Any) -> Any:
        return self._divmod(other, self.coef)

    def __floordiv__(self, other: Any) -> Any:
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[0]

    def __mod__(self, other: Any) -> Any:
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[1]

    def __rfloordiv__(self, other: Any) -> Any:
        res = self.__rdivmod__(other)
        return res if res is NotImplemented else res[0]

    def __rmod__(self, other: Any) -> Any:
        res = self.__rdivmod__(other)
        return res if res is NotImplemented else res[1]

    def __pow__(self, other: Any) -> Any:
        return self._new(self._pow(self.coef, other, maxpower=self.maxpower))

    def __eq__(self, other: object) -> Any:
        return (isinstance(other, self.__class__)
                and pu.all_equal(self.domain, other.domain)
                and pu.all_equal(self.window, other.window)
                and self.coef.shape == other.coef.shape
                and pu.all_equal(self.coef, other.coef)
                and self.symbol == other.symbol)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    # the rest of NumPy's methods

    def copy(self) -> Any:
        """A copy of the series."""
        return self._new(self.coef)

    def degree(self) -> int:
        """The degree: the number of coefficients less one."""
        return len(self) - 1

    def cutdeg(self, deg: Any) -> Any:
        """The series without its terms above degree ``deg``."""
        return self.truncate(deg + 1)

    def trim(self, tol: float = 0) -> Any:
        """The series without its trailing coefficients of magnitude
        ``tol`` or less."""
        return self._new(pu.trimcoef(self.coef, tol))

    def truncate(self, size: Any) -> Any:
        """The series with its first ``size`` coefficients only."""
        isize = int(size)
        if isize != size or isize < 1:
            raise ValueError("size must be a positive integer")
        return self._new(self.coef if isize >= len(self.coef) else self.coef[:isize])

    def convert(self, domain: Any = None, kind: Any = None, window: Any = None) -> Any:
        """The same function as a series of class ``kind`` with the given
        domain and window (the class's defaults if not given)."""
        if kind is None:
            kind = self.__class__
        if domain is None:
            domain = kind.domain
        if window is None:
            window = kind.window
        return self(kind.identity(domain, window=window, symbol=self.symbol))

    def mapparms(self) -> tuple[Any, Any]:
        """``off, scl`` of the map ``off + scl*x`` from domain to window."""
        return pu.mapparms(self.domain, self.window)

    def integ(self, m: int = 1, k: Any = (), lbnd: Any = None) -> Any:
        """The ``m``-th integral; the constants ``k`` are its values at
        ``lbnd`` (the domain's, 0 by default)."""
        off, scl = self.mapparms()
        lb = 0 if lbnd is None else off + scl * lbnd
        return self._new(self._int(self.coef, m, k, lb, 1. / scl))

    def deriv(self, m: int = 1) -> Any:
        """The ``m``-th derivative."""
        _, scl = self.mapparms()
        return self._new(self._der(self.coef, m, scl))

    def roots(self) -> NDArray:
        """The roots, in the domain."""
        return pu.mapdomain(self._roots(self.coef), self.window, self.domain)  # type: ignore[no-any-return]

    def linspace(self, n: int = 100, domain: Any = None) -> tuple[NDArray, Any]:
        """``x, self(x)`` at ``n`` equally spaced points of the domain."""
        if domain is None:
            domain = self.domain
        x = _linspace(domain[0], domain[1], n)
        return x, self(x)

    @classmethod
    def fit(cls, x: Any, y: Any, deg: Any, domain: Any = None, rcond: float | None = None, full: bool = False,
            w: Any = None, window: Any = None, symbol: str = "x") -> Any:
        """Least-squares fit to the points ``(x, y)``: the domain is the
        points' range (unless given; ``[]`` for the class's default), mapped
        onto the window, which keeps the fit well conditioned."""
        if domain is None:
            domain = pu.getdomain(x)
            if domain[0] == domain[1]:
                domain[0] -= 1
                domain[1] += 1
        elif isinstance(domain, list) and len(domain) == 0:
            domain = cls.domain
        if window is None:
            window = cls.window
        xnew = pu.mapdomain(x, domain, window)
        res = cls._fit(xnew, y, deg, w=w, rcond=rcond, full=full)
        if full:
            coef, status = res
            return cls(coef, domain=domain, window=window, symbol=symbol), status
        return cls(res, domain=domain, window=window, symbol=symbol)

    @classmethod
    def fromroots(cls, roots: Any, domain: Any = (), window: Any = None, symbol: str = "x") -> Any:
        """The monic series with the given roots (``domain=None``: the
        roots' range; the class's default domain if not given)."""
        [r] = pu.as_series([roots], trim=False)
        if domain is None:
            domain = pu.getdomain(r)
        elif isinstance(domain, (list, tuple)) and len(domain) == 0:
            domain = cls.domain
        if window is None:
            window = cls.window
        deg = len(r)
        off, scl = pu.mapparms(domain, window)
        rnew = off + scl * r
        coef = cls._fromroots(rnew) / scl**deg
        return cls(coef, domain=domain, window=window, symbol=symbol)

    @classmethod
    def identity(cls, domain: Any = None, window: Any = None, symbol: str = "x") -> Any:
        """The series ``x`` for the given domain and window."""
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        off, scl = pu.mapparms(window, domain)
        return cls(cls._line(off, scl), domain, window, symbol)

    @classmethod
    def basis(cls, deg: Any, domain: Any = None, window: Any = None, symbol: str = "x") -> Any:
        """The basis function of degree ``deg``."""
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        ideg = int(deg)
        if ideg != deg or ideg < 0:
            raise ValueError("deg must be non-negative integer")
        return cls([0] * ideg + [1], domain, window, symbol)

    @classmethod
    def cast(cls, series: Any, domain: Any = None, window: Any = None) -> Any:
        """``series`` converted to this class."""
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        return series.convert(domain, cls, window)
