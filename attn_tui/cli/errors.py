"""How a command says it cannot go on: one line on standard error, exit status 2."""

from __future__ import annotations

import contextlib
import os
import sys


def fail(message: str) -> int:
    """``attn-tui: message`` on standard error; returns the exit status, 2 (also when standard
    error cannot take it: closed, or a full disk)."""
    if sys.stderr is None:  # started with it closed (2>&-): print would write to stdout
        return 2
    try:
        print(f"attn-tui: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        # what stays in its buffer goes nowhere: the interpreter's flush at exit would fail
        # again and end with status 120
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stderr.fileno())
    return 2
