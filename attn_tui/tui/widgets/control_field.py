"""One control of a lab's bar: what it accepts, how it steps, and why it refuses a value.

Kinds: ``int``; ``pow2`` (whole powers of two); ``float``; ``ladder`` (any number in range, with
↑↓ walking a list such as 1, 2, 5, 10 …); ``choice`` (one of some names); ``bool`` (on/off).
No textual here: screens use ``check`` to vet values that come from actions and lessons.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from attn_tui.core.parse import exactly_whole, parse_cell, short_typed, without_grouping
from attn_tui.core.words import as_typed, json_short, short_exponent, whole

KINDS = ("int", "pow2", "float", "ladder", "choice", "bool")


def _g(value: float) -> str:
    """%g as a learner types it: 1e-8 and 1e9, not 1e-08 and 1e+09."""
    return short_exponent(f"{value:g}")


class Field(NamedTuple):  # not a frozen dataclass: ~0.7 ms of start-up to build
    """One control: its key (used by actions), its label, and the values it accepts."""

    key: str
    label: str
    kind: str = "int"
    lo: float = 0
    hi: float = 0
    step: float = 1
    choices: tuple[Any, ...] = ()  # for "choice" (names) and "ladder" (numbers to step through)
    places: int = 2  # decimals shown for a float
    unit: str = ""
    geometric: bool = False  # ↑↓ double and halve (any whole number may still be typed)
    meaning: str = ""  # what a short label stands for, said while the field is picked

    def text(self, value: Any) -> str:
        if self.kind == "bool":
            return "on" if value else "off"
        if self.kind == "float":
            short = f"{value:.{self.places}f}"
            # a value typed finer than the field's places is shown as typed: 0.055, not 0.06
            return short if math.isclose(float(short), value, rel_tol=1e-9) else _g(value)
        if self.kind == "ladder":
            return _g(value)
        if isinstance(value, int):
            return whole(value)
        return str(value)

    def check(self, value: Any) -> tuple[Any, str | None]:
        """The value as this field stores it, or None and why it is refused."""
        if self.kind == "bool":
            if isinstance(value, bool) or value in (0, 1):
                return bool(value), None
            return None, f"{self.label}: {self._quoted(value)} is not on or off (true or false)"
        if self.kind == "choice":
            if value in self.choices:
                return value, None
            return None, f"{self.label}: {self._quoted(value)} is not one of {', '.join(self.choices)}"
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if not number or (isinstance(value, float) and not math.isfinite(value)):
            return None, f"{self.label}: {self._quoted(value)} is not a number"
        if self.kind in ("int", "pow2"):
            if value != int(value):
                return None, f"{self.label} must be a whole number, not {_g(value)}"
            value = int(value)
        if not self.lo <= value <= self.hi:
            return None, self._outside(self._quoted(value))
        if self.kind == "pow2" and value & (value - 1):
            return None, (f"{self.label} must be a power of two (1, 2, 4, … "
                          f"{self.text(self.hi_value)}); {value} is not")
        return value, None

    def _quoted(self, value: Any) -> str:
        """A refused number: whole numbers in full (2,147,483,648), others short (1e+09)."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            return json_short(value)  # from a session file: true, a name, a list
        if isinstance(value, int) and abs(value) >= 10**15:  # not all 300 digits of 10**300
            return f"a {len(str(abs(value)))}-digit number"
        return self.text(value) if isinstance(value, int) else as_typed(value)

    @property
    def lo_value(self) -> Any:
        return int(self.lo) if self.kind in ("int", "pow2") else self.lo

    @property
    def hi_value(self) -> Any:
        return int(self.hi) if self.kind in ("int", "pow2") else self.hi

    def parse(self, text: str) -> tuple[Any, str | None]:
        if self.kind in ("int", "pow2"):
            try:  # 1,000 and 1_000; not 1,5, which the parser below refuses
                return self.check(int(without_grouping(text)))
            except ValueError:
                pass
            # −5 (a typographic minus), 1e9, 64.0, full-width digits: numbers all the same,
            # refused (or taken) for what they are, not for how they are written
            parsed = parse_cell(text, cell_limit=False)
            if parsed.ok and not exactly_whole(text):
                # as typed: a float rounds 1.9999999999999999 to 2 and 1000.0000000000001
                # shows as 1000
                return None, f"{self.label} must be a whole number, not {short_typed(text.strip())}"
            if parsed.ok:
                return self.check(parsed.value)
            if not text.strip():  # as a cell says it ("'' is not a whole number" read oddly)
                return None, f"{self.label}: {parsed.error}"
            return None, self._past_any_range(text) or (
                f"{self.label}: '{short_typed(text)}' is not a whole number")
        parsed = parse_cell(text, cell_limit=False)  # the field's own range, not a cell's
        if not parsed.ok:
            return None, self._past_any_range(text) or f"{self.label}: {parsed.error}"
        return self.check(parsed.value)

    def _past_any_range(self, text: str) -> str | None:
        """1e999, too large for a float: outside the range, as 1e9 is, not "not a whole
        number" here and "too large to store" in the next field."""
        cleaned = without_grouping(text).replace("_", "")
        if "inf" in cleaned.lower():  # inf typed as such: not a number this takes at all
            return None
        try:
            past = math.isinf(float(cleaned))
        except ValueError:
            return None
        return self._outside(short_typed(text.strip())) if past else None

    def _outside(self, shown: str) -> str:
        return (f"{self.label} must be between {self.text(self.lo_value)} and "
                f"{self.text(self.hi_value)}; {shown} is outside")

    def stepped(self, value: Any, direction: int) -> Any:
        """The next value up (+1) or down (-1), or the same value at the end of the range."""
        if self.kind == "bool":
            return not value
        if self.kind == "choice":
            i = self.choices.index(value) if value in self.choices else -1
            return self.choices[(i + direction) % len(self.choices)]
        if self.kind == "pow2" or self.geometric:
            new = value * 2 if direction > 0 else max(1, value // 2)
        elif self.kind == "ladder":  # past the ladder's end (a typed 0.5): stay, never jump back
            if direction > 0:
                new = next((c for c in self.choices if c > value), value)
            else:
                new = next((c for c in reversed(self.choices) if c < value), value)
        elif self.kind == "float":
            new = round(value + direction * self.step, self.places)
        else:
            new = int(value + direction * self.step)
        new = min(self.hi_value, max(self.lo_value, new))
        # a value past the range (a loaded run's L 6 where ↑↓ reach 4) is never stepped the
        # wrong way: ↑ from 6 went to 4
        return value if (new - value) * direction < 0 else new

    def at_end(self, value: Any, direction: int) -> str:
        """Why a step from ``value`` up (+1) or down (-1) goes nowhere, in words."""
        if self.kind == "ladder":
            first, last = self.choices[0], self.choices[-1]
            if (direction > 0 and value < self.hi_value) or (direction < 0
                                                             and value > self.lo_value):
                return (f"{self.label}: the steps go from {self.text(first)} to {self.text(last)}; "
                        f"type a value for more ({self.text(self.lo_value)} to "
                        f"{self.text(self.hi_value)})")
        end = "largest" if direction > 0 else "smallest"
        return f"{self.label} is already the {end}, {self.text(value)}"

    def scaled(self, value: Any, up: bool) -> Any:
        if self.kind in ("bool", "choice", "pow2", "ladder"):
            return self.stepped(value, 1 if up else -1)
        if up and value == 0:  # twice 0 is 0: a seed at 0 steps to 1 instead
            return self.stepped(value, 1)
        if self.kind == "float":
            new = round(value * 2 if up else value / 2, self.places)
        else:
            new = value * 2 if up else value // 2
        return min(self.hi_value, max(self.lo_value, new))
