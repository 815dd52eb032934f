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


def vec(xs: Iterable[float], places: int = 4) -> str:
    return "(" + ", ".join(num(float(x), places) for x in xs) + ")"


def bracket(xs: Iterable[float]) -> str:
    """[0.1 0.2 0.3]: a short vector of inputs, as typed."""
    return "[" + " ".join(f"{float(x):g}" for x in xs) + "]"


def count(n: int) -> str:
    return f"{n:,}"
