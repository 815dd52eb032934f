"""Whole numbers on the command line, read as the labs' fields read them (1000, 1,000, 1e3,
64.0): one reading for every count attn-tui takes, with the same words for what it refuses."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

# argparse is imported where a flag is read: a launch without flags never imports it


def whole_number(text: str) -> int:
    import argparse

    from attn_tui.core.parse import parse_whole

    parsed = parse_whole(text)
    if not parsed.ok:
        raise argparse.ArgumentTypeError(parsed.error)
    return int(parsed.value)


def whole_in(lo: int, hi: int, below: str = "") -> Callable[[str], int]:
    """``below``: what a value under ``lo`` is, said instead of the range ("not a step: steps
    count from 1": --step 0 read "out of range (1-999)", and no lesson has 999 steps)."""
    def parse(text: str) -> int:
        import argparse

        value = whole_number(text)
        if value < lo and below:
            raise argparse.ArgumentTypeError(f"{value} is {below}")
        if not lo <= value <= hi:  # as typed: 1e20, not its twenty-one digits
            raise argparse.ArgumentTypeError(f"{text.strip()} is out of range ({lo}-{hi})")
        return value

    return parse
