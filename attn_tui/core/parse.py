"""Turn what a learner types into a cell value, or a message saying why not. Never eval.

Accepted: a decimal (``0.25``, ``-3``, ``.5``), scientific notation (``1e-3``), a leading Unicode
minus (``−2``), a simple fraction (``1/3``, ``-2/7``), a vulgar fraction (``½``) and digits of any
script (full-width ``１２``, Arabic-Indic ``١٢``), all read as the same number an ASCII form would
give. Refused, each with its own message: anything else, nan and inf, ``|x| > 1e6``, a non-zero
number so small it rounds to 0, an empty cell, anything over 64 characters, and a character that
is a number of its own beside digits (``2²``, ``1½``: NFKC would make 22 and 11/2 of them).
"""

from __future__ import annotations

import math
import re
import unicodedata
from fractions import Fraction
from typing import NamedTuple

MAX_ABS = 1e6
MAX_LEN = 64
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
# patterns, compiled (and cached by re) at the first cell read, not at every launch
_NUMBER_RE = rf"^{_NUMBER}$"
_FRACTION_RE = rf"^({_NUMBER})/({_NUMBER})$"
_MINUS = {"\u2212": "-", "\u2012": "-", "\u2013": "-", "\ufe63": "-", "\uff0d": "-"}


# commas that group thousands (1,000 and 1,000,000), and only those: 1,5 groups nothing, and
# 0,500 is a decimal comma (no thousands start with 0)
_GROUPED = re.compile(r"^[+-]?[1-9]\d{0,2}(,\d{3})+$")


class Parsed(NamedTuple):  # not a frozen dataclass: ~0.7 ms of start-up to build
    value: float | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def short_typed(text: str, limit: int = 24) -> str:
    """The input as it can be shown safely in one line: control characters escaped, cut short."""
    safe = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    return safe if len(safe) <= limit else safe[: limit - 1] + "…"


def _normalise(text: str) -> str:
    if text.isascii():  # nothing to change, and a pasted page need not be walked
        return text.strip()
    text = unicodedata.normalize("NFKC", text).strip()
    out = []
    for ch in text:
        if ch in _MINUS:
            out.append("-")
        elif ch == "\u2044":  # the fraction slash NFKC makes of ½
            out.append("/")
        elif not ch.isascii() and unicodedata.category(ch) == "Nd":
            out.append(str(unicodedata.decimal(ch)))
        else:
            out.append(ch)
    return "".join(out)


def _number_sign_beside_digits(text: str) -> str | None:
    """Why ``text`` is refused, when a character that is a number of its own (², ½, ①: NFKC
    makes digits of them) stands beside others: "2²" was read as 22 and "1½" as 11/2. Alone
    (with a sign) one is read as its value. The value meant is named where it is exact."""
    plain = text.strip()
    body = plain.lstrip("+-" + "".join(_MINUS))
    signs = [ch for ch in body if not ch.isascii() and unicodedata.category(ch) == "No"]
    if not signs or body in signs:
        return None
    sign, value = signs[0], None
    name = unicodedata.name(sign, "")
    short = len(plain) <= MAX_LEN  # a long paste is refused for its length: no value worked out
    if "SUPERSCRIPT" in name:
        head = plain.rstrip(_SUPERSCRIPTS)
        power = unicodedata.normalize("NFKC", plain[len(head):]).replace("\u2212", "-")
        if short and re.match(_NUMBER_RE, base := _normalise(head)) and re.match(r"^-?\d+$",
                                                                                  power):
            value = _power(base, int(power))
        then = f"type its value ({value})" if value else "type its value"
        shown = plain[len(head):] or sign
        return f"'{short_typed(text)}' is not a number: {shown} as a power is not read; {then}"
    if "FRACTION" in name and plain.endswith(sign):
        whole = _normalise(plain[:-1])
        parts = unicodedata.normalize("NFKC", sign).split("\u2044")
        if (short and re.match(r"^[+-]?\d+$", whole) and len(parts) == 2
                and all(re.match(r"^\d+$", p) for p in parts)):
            n, d = (int(p) for p in parts)
            value = _exact(int(whole) + Fraction(-n if whole[0] == "-" else n, d)) if d else None
        then = f"write {value}" if value else "write it as a decimal or as one fraction"
        return f"'{short_typed(text)}' is not a number: {sign} beside other digits is not read; {then}"
    return f"'{short_typed(text)}' is not a number: {sign} is read only on its own"


_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"


def _power(base: str, exponent: int) -> str | None:
    """base to the power, as written: -2² is -(2²), as on paper."""
    size = abs(float(base))  # inf for 1e9999999: Fraction would build all its digits
    if abs(exponent) > 64 or not math.isfinite(size):
        return None
    if size == 0:  # 0, or a number too small to store (1e-999)
        return "0" if exponent > 0 and not _underflowed(base, size) else None
    if not -12 <= exponent * math.log10(size) <= 6:  # beyond what a cell holds: nothing to name
        return None
    negative = base.startswith("-")
    magnitude = Fraction(base.lstrip("+-"))
    value = magnitude ** exponent
    return _exact(-value if negative else value)


def _exact(value: Fraction) -> str | None:
    """``value`` as a cell takes it exactly: a whole number, a short decimal or a fraction
    (1.5, 37/3, 0.0009765625); None beyond what a cell holds, or too long to type."""
    if abs(value) > MAX_ABS or (value and abs(value) < Fraction(1, 10**12)):
        return None
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1:  # a decimal that ends
        text = f"{value.numerator / value.denominator:.15f}".rstrip("0")
        if Fraction(text) == value and len(text) <= 24:
            return text
    text = f"{value.numerator}/{value.denominator}"
    return text if len(text) <= 24 else None


def _underflowed(token: str, value: float) -> bool:
    mantissa = re.split(r"[eE]", token)[0]
    return value == 0.0 and re.search(r"[1-9]", mantissa) is not None


def one_number(text: str) -> bool:
    """Does ``text`` read as one number (or fraction), whatever its length?"""
    if not text.isascii() and _number_sign_beside_digits(text):
        return False
    norm = _normalise(text)
    return bool(re.match(_NUMBER_RE, norm) or re.match(_FRACTION_RE, norm))


def too_long(text: str) -> str:
    """Why ``text``, over MAX_LEN characters, is not taken: one number with too many digits,
    or more than a number."""
    body = text.strip()
    if one_number(body):
        return (f"'{short_typed(body)}' is a number, but too long ({len(body):,} characters; a cell "
                f"takes {MAX_LEN}): round it")
    return f"too long ({len(text):,} characters): type one number"


def without_grouping(text: str) -> str:
    """``text`` with the commas that group its digits in thousands taken out (1,000,000 is
    1000000), for a field or flag that takes whole numbers; anything else as it was, for the
    parser to refuse (1,5 and 0,1 are no thousands: a slip, or a decimal comma)."""
    text = text.strip()
    return text.replace(",", "") if _GROUPED.match(text) else text


def parse_whole(text: str) -> Parsed:
    """A whole number as people type one, for a count on the command line, read as a lab's
    field reads it: 1000, 1,000, 1_000 (as Python writes it), 1e3, 64.0, −5. 1.5, 1,5 and
    1e-3 are refused."""
    try:
        return Parsed(int(without_grouping(text)))
    except ValueError:
        pass
    parsed = parse_cell(text, cell_limit=False)
    if parsed.ok and float(parsed.value).is_integer() and exactly_whole(text):
        return Parsed(int(parsed.value))
    if not parsed.ok and "too large" in parsed.error:  # 1e400: past any count, not "not whole"
        return parsed
    return Parsed(None, f"'{short_typed(text)}' is not a whole number")


def exactly_whole(text: str) -> bool:
    """False for a decimal that only rounds to a whole float (1.9999999999999999 is not 2)."""
    try:
        return Fraction(_normalise(text).replace("_", "")).denominator == 1
    except (ValueError, ZeroDivisionError):
        return True  # a form Fraction does not read; parse_cell's value stands


def parse_cell(text: str, *, cell_limit: bool = True) -> Parsed:
    """``cell_limit``: refuse |x| > MAX_ABS, as a matrix cell does; a lab's field turns it off
    and checks its own range."""
    if len(text) > MAX_LEN:
        return Parsed(None, too_long(text))
    if not text.strip():
        return Parsed(None, "empty: type a number (Escape keeps the old value)")
    if not text.isascii() and (why := _number_sign_beside_digits(text)):
        return Parsed(None, why)
    norm = _normalise(text)
    if norm.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        takes = "cells take" if cell_limit else "this takes"
        return Parsed(None, f"'{short_typed(text)}' is not allowed: {takes} finite numbers only")
    if re.match(_NUMBER_RE, norm):
        value = float(norm)
        parts = (norm,)
    elif m := re.match(_FRACTION_RE, norm):
        num, den = float(m.group(1)), float(m.group(2))
        if den == 0:
            return Parsed(None, f"'{short_typed(text)}' divides by zero")
        value = num / den
        parts = (m.group(1), m.group(2))
    elif _GROUPED.match(norm):  # a thousand, or a decimal comma: either is as likely
        if cell_limit and abs(float(norm.replace(",", ""))) > MAX_ABS:
            # (grouped twice or more: no decimal reading) not "write" a number refused too
            return Parsed(None, f"'{short_typed(text)}' is too large: keep |x| at most 1e6")
        decimal = (f" (or {norm.replace(',', '.')}, with a point)" if norm.count(",") == 1
                   else "")
        return Parsed(None, f"'{short_typed(text)}' is not a number here: write "
                            f"{norm.replace(',', '')}{decimal}")
    elif norm.count(",") == 1 and re.match(_NUMBER_RE, point := norm.replace(",", ".")):
        return Parsed(None, f"'{short_typed(text)}' is not a number: write {point}, with a point")
    elif len(parts := norm.replace(",", " ").split()) > 1 and all(map(one_number, parts)):
        # a row or a block pasted into a cell being typed: a block goes on the grid
        where = ": Escape, then paste them on the grid" if cell_limit else ""
        takes = "a cell takes" if cell_limit else "this takes"
        return Parsed(None, f"'{short_typed(text)}' is {len(parts)} numbers, and {takes} "
                            f"one{where}")
    else:
        # a lab's field may refuse negatives: its examples are positive
        examples = "0.5, -2, 1e-3 or 1/3" if cell_limit else "0.5, 1e-3 or 1/3"
        return Parsed(None, f"'{short_typed(text)}' is not a number (try {examples})")
    if not math.isfinite(value) or (cell_limit and abs(value) > MAX_ABS):
        limit = ": keep |x| at most 1e6" if cell_limit else " to store"
        return Parsed(None, f"'{short_typed(text)}' is too large{limit}")
    if any(_underflowed(p, float(p)) for p in parts):
        return Parsed(None, f"'{short_typed(text)}' is too small to store; type 0 for zero")
    return Parsed(0.0 if value == 0 else value)
