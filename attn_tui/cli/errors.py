"""How a command says it cannot go on: one line on standard error, exit status 2."""

from __future__ import annotations

import sys


def fail(message: str) -> int:
    """``attn-tui: message`` on standard error; returns the exit status, 2 (also when standard
    error cannot take it: closed, or a full disk)."""
    if sys.stderr is None:  # started with it closed (2>&-): print would write to stdout
        return 2
    try:
        print(f"attn-tui: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        from attn_tui.core.files import discard_unwritten  # rare: off the start-up path

        discard_unwritten(sys.stderr)
    return 2
