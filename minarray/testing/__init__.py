"""``minarray.testing``: NumPy's testing assertions (``assert_allclose``,
``assert_array_equal``...) over minarray, and the DLPack conformance
checker (``python -m minarray.testing.dlpack``)."""

from minarray.testing._asserts import (
    assert_,
    assert_allclose,
    assert_almost_equal,
    assert_array_almost_equal,
    assert_array_equal,
    assert_array_less,
    assert_equal,
    assert_raises,
    assert_raises_regex,
    assert_warns,
)

__all__ = [
    "assert_", "assert_allclose", "assert_almost_equal", "assert_array_almost_equal",
    "assert_array_equal", "assert_array_less", "assert_equal", "assert_raises",
    "assert_raises_regex", "assert_warns",
]
