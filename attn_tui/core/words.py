"""Words for counts, shared by every layer that writes for a reader (core and up)."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """1 trial, 200 trials, 1,024 keys (with thousands commas): for text a learner reads."""
    return f"{n:,} {word if n == 1 else many or word + 's'}"


def listed(items: list[str]) -> str:
    """a; a and b; a, b and c: items in a sentence."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
