"""Words for counts and values, shared by every layer that writes for a reader (core and up)."""

from __future__ import annotations

from typing import Any


def plural(n: int, word: str, many: str | None = None) -> str:
    """1 trial, 200 trials, 1,024 keys (with thousands commas): for text a learner reads."""
    return f"{n:,} {word if n == 1 else many or word + 's'}"


def whole(n: int) -> str:
    """A whole number as a limit or a count is written everywhere: 2000, 10000, 1,000,000
    (commas from 100,000, where digits stop being counted at a glance)."""
    return f"{n:,}" if abs(n) >= 100_000 else str(n)


def listed(items: list[str], last: str = "and") -> str:
    """a; a and b; a, b and c: items in a sentence (``last``: "or" for a, b or c)."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


def full_stop(text: str) -> str:
    """The full stop that ends a sentence closing with ``text``: none where a quoted sentence
    already ends it (on “The cat sat.”), not “The cat sat.”.)."""
    return "" if text.rstrip("'\"’”").endswith((".", "!", "?")) else "."


def as_typed(x: float) -> str:
    """A value as a learner types one: the shortest decimal that reads back as ``x`` (1e-320,
    not %g's 9.99989e-321 of a subnormal; 1000000, not 1e+06; 0.1; -2), or six digits when
    that is long (a fraction typed: 1/3 is 0.333333)."""
    text = repr(float(x))
    if text.endswith(".0"):
        text = text[:-2]
    return short_exponent(text if len(text) <= 10 else f"{x:g}")


def short_exponent(text: str) -> str:
    """A number's e-notation as it is typed: 1e-8 and 1e9, not Python's 1e-08 and 1e+09."""
    mantissa, e, power = text.partition("e")
    return f"{mantissa}e{int(power)}" if e else text


def json_short(x: Any, width: int = 40) -> str:
    """A value read from a JSON file, written as the file has it (true, not Python's True)
    and cut to ``width`` with a string's closing quote kept: "xxxx…", not "xxxx…."""
    import json  # only on a refusal: the first screen loads this module, and no json

    # \u escapes: a refused name may hold what a terminal would act on (\u202e, \x9b)
    text = json.dumps(x) if not isinstance(x, float) else repr(x)
    if len(text) <= width:
        return text
    return text[:width - 2] + '…"' if isinstance(x, str) else text[:width - 1] + "…"
