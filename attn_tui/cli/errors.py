"""How a command says it cannot go on: one line on standard error, exit status 2."""

from __future__ import annotations

import sys


def fail(message: str) -> int:
    """``attn-tui: message`` on standard error; returns the exit status, 2."""
    print(f"attn-tui: {message}", file=sys.stderr)
    return 2
