"""Number formatting shared by the text report, exports and the screens."""

from __future__ import annotations

import math
from collections.abc import Iterable


def num(x: float, places: int = 4) -> str:
    """A number as the chapter prints it: fixed decimals; -inf as '-inf'."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    text = f"{x:.{places}f}"
    return "0." + "0" * places if text == "-0." + "0" * places else text


def num_nonzero(x: float, places: int = 4) -> str:
    """num(x), but a non-zero x that would read as 0.0000 in two digits of e-notation:
    6.6e-24, -4.5e-5, as a table cell writes it."""
    text = num(x, places)
    if not math.isfinite(x) or x == 0 or text.strip("-0."):
        return text
    mantissa, _, power = f"{x:.1e}".partition("e")
    return f"{mantissa}e{int(power)}"


def exact(x: float, dtype: str = "float64") -> str:
    """The shortest text that reads back as ``x``, without a trailing ".0". In float32, a
    value float32 holds exactly (a torch tensor's) reads back in 8 digits: 0.18077159, not
    0.1807715892791748; one typed, as 0.1, stays as typed."""
    text = repr(float(x))
    if dtype == "float32" and math.isfinite(x) and abs(x) <= FLOAT32_MAX:
        import numpy as np

        f = np.float32(x)
        if float(f) == x:
            text = str(f)
    return text.removesuffix(".0")


FLOAT32_MAX = 3.4028234663852886e38


def table_num(x):
    """A number in an exported table: num(x), unless four decimals would hide it. Then
    e-notation with four decimals: exp(700) is 1.0142e+304, not 305 digits, and 1e-9 is
    1.0000e-09, not 0.0000. (Copied into exported scripts: plain Python only.)"""
    if math.isfinite(x) and x != 0 and not 5e-5 <= abs(x) < 1e9:
        return f"{x:.4e}"
    return num(x)


def fit(x: float, width: int, places: int = 4) -> str:
    """num(x) when it fits in ``width`` characters and shows a non-zero x as non-zero; else
    fewer decimals (1096.633), down to one; else e-notation with as many digits as fit
    (-4.000e5, 6.12e-76). A table cell never cuts off a number's sign or leading digits, and
    exp(-173) never reads as 0."""
    text = num(x, places)
    if not math.isfinite(x):
        return text
    if x == 0:
        return text if len(text) <= width else "0"
    if len(text) <= width and text.strip("-0."):  # the usual case: fits, and is not 0.0000
        return text
    return squeeze(x, width, places, min_decimals=1)


def squeeze(x: float, width: int, places: int, *, min_decimals: int = 0,
            trim: bool = False) -> str:
    """A non-zero x in ``width`` characters without losing its sign or leading digits: fixed
    decimals from ``places`` down to ``min_decimals`` (never rounding it to 0), then
    e-notation with as many digits as fit; ``trim`` drops trailing zeros (0.5, 1e6)."""
    for decimals in range(places, min_decimals - 1, -1):
        text = f"{x:.{decimals}f}"
        if trim and "." in text:
            text = text.rstrip("0").rstrip(".")
        if float(text) == 0:  # too small for fixed decimals
            break
        if len(text) <= width:
            return text
    for digits in range(places - 1, -1, -1):
        mantissa, _, exp = f"{x:.{digits}e}".partition("e")
        if trim and "." in mantissa:
            mantissa = mantissa.rstrip("0").rstrip(".")
        short = f"{mantissa}e{int(exp)}"
        if len(short) <= width:
            break
    return short


def vec(xs: Iterable[float], places: int = 4) -> str:
    return "(" + ", ".join(num(float(x), places) for x in xs) + ")"


def bracket(xs: Iterable[float]) -> str:
    """[0.1 0.2 0.3]: a short vector of inputs, as typed."""
    return "[" + " ".join(f"{float(x):g}" for x in xs) + "]"


def count(n: int) -> str:
    return f"{n:,}"


