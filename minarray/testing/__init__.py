"""``minarray.testing``: NumPy's testing assertions (``assert_allclose``,
``assert_array_equal``...) over minarray, and the DLPack conformance
checker (``python -m minarray.testing.dlpack``)."""

from minarray.testing._asserts import (
    assert_,
    assert_allclose,
    assert_almost_equal,
    assert_approx_equal,
    assert_array_almost_equal,
    assert_array_equal,
    assert_array_less,
    assert_equal,
    assert_no_warnings,
    assert_raises,
    assert_raises_regex,
    assert_string_equal,
    assert_warns,
)
from minarray.testing._ulp import assert_array_almost_equal_nulp, assert_array_max_ulp

__all__ = [
    "assert_", "assert_allclose", "assert_almost_equal", "assert_approx_equal", "assert_array_almost_equal",
    "assert_array_almost_equal_nulp", "assert_array_equal", "assert_array_less", "assert_array_max_ulp",
    "assert_equal", "assert_no_warnings", "assert_raises", "assert_raises_regex", "assert_string_equal",
    "assert_warns",
]
