"""Numbers in table cells: never cut, never a non-zero shown as zero."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attn_tui.report.fmt import fit, num


@pytest.mark.parametrize(("x", "width", "shown"), [
    (0.3369, 8, "0.3369"),  # the chapter's four decimals whenever they fit
    (-399999.72, 8, "-4.000e5"),  # was cut to "9999.720": sign and leading digits lost
    (1096.6332, 8, "1096.633"),  # fewer decimals before e-notation
    (6.117e-76, 8, "6.12e-76"),  # exp(-173): not 0
    (1e-5, 6, "1.0e-5"),
    (0.5449, 6, "0.5449"),
    (0.5449, 5, "0.545"),
    (0.0, 8, "0.0000"),
    (-0.0, 8, "0.0000"),
    (float("inf"), 8, "inf"),
    (float("-inf"), 8, "-inf"),
])
def test_fit_examples(x: float, width: int, shown: str):
    assert fit(x, width) == shown


def _last_digit(text: str) -> float:
    """The value of one unit in the last digit shown: 0.0001 for "0.3369", 1e3 for "-4.0e4"."""
    mantissa, _, exp = text.partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exp or 0) - decimals)


@given(st.floats(min_value=-1e300, max_value=1e300, width=64),  # rounding 1.5e308 up overflows
       st.integers(min_value=7, max_value=12))  # "-2e-129": 7 is the least for any x
def test_fit_is_narrow_enough_and_means_the_same_number(x: float, width: int):
    text = fit(x, width)
    assert len(text) <= width, text
    back = float(text)
    if x != 0:
        assert back != 0 and math.copysign(1, back) == math.copysign(1, x), text
        assert abs(back - x) <= _last_digit(text) / 2 * (1 + 1e-9), text  # rounded, not cut
    if len(num(x)) <= width and float(num(x)) != 0:
        assert text == num(x)  # the chapter's form is kept whenever it fits
