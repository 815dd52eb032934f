"""Whether the full-screen app can run here, checked before any terminal set-up.

Without these checks `attn-tui > out.txt`, a job with no terminal, or Emacs's shell (TERM=dumb)
got a screenful of escape codes and an app waiting for keys that never come, and a terminal
set to a non-UTF-8 encoding got every box line as `\\u2502`. One line on stderr says what is
wrong and what to run instead.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TextIO

# what the first screen draws that an 8-bit or ASCII encoding has no code for
DRAWN = "╭─│α√÷ζ·⏎"
PLAIN = "for plain text, use `attn-tui print all` or `attn-tui export`"


def terminal_problem(environ: Mapping[str, str] | None = None, stdin: TextIO | None = None,
                     screen: TextIO | None = None) -> str | None:
    """Why the app cannot be drawn and driven here, or None. ``screen`` is the stream Textual
    draws on: standard error, so that standard output stays free for what an app prints."""
    environ = os.environ if environ is None else environ
    stdin = sys.__stdin__ if stdin is None else stdin
    screen = sys.__stderr__ if screen is None else screen
    if environ.get("TEXTUAL_DRIVER"):  # `attn-tui serve` runs the app on the web driver
        return None
    # a learner behind the hosting guide's ForceCommand can run nothing but the app
    ssh = "over ssh, `ssh -t` asks for a terminal; " if environ.get("SSH_CONNECTION") else ""
    if not _is_terminal(stdin):
        return f"standard input is not a terminal, so there are no keys to read; {ssh}{PLAIN}"
    if not _is_terminal(screen):
        return ("standard error is not a terminal, and the app draws there "
                f"(redirect standard output instead, if anything); {ssh}{PLAIN}")
    if environ.get("TERM", "").lower() == "dumb":
        return ("TERM=dumb: this terminal cannot move the cursor, which the app needs; use "
                f"a terminal emulator (e.g. TERM=xterm-256color), or {PLAIN}")
    encoding = getattr(screen, "encoding", None) or "ascii"
    try:
        DRAWN.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        # ASCII only: this message is written in that very encoding
        return (f"this terminal's encoding is {encoding}, and attn-tui draws box lines and "
                "Greek letters that need UTF-8: set a UTF-8 locale (e.g. LANG=C.UTF-8) or "
                f"PYTHONIOENCODING=utf-8; {PLAIN}")
    return None


def _is_terminal(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):  # closed, or not a real file
        return False


def end_with_the_server(environ: Mapping[str, str] | None = None) -> bool:
    """Under `attn-tui serve`, have the kernel end this app when the server process dies.

    A server killed with SIGKILL (the OOM killer, ``kill -9``) cannot tell its sessions to
    stop, and each app waited for keys from a browser that could no longer reach it. Linux
    only (prctl); True when the request was made. The app is exec'd by the server's shell, so
    its parent is the server itself."""
    environ = os.environ if environ is None else environ
    if not environ.get("TEXTUAL_DRIVER") or not sys.platform.startswith("linux"):
        return False
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        if libc.prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if os.getppid() == 1:  # the server died before the request was made
        os.kill(os.getpid(), signal.SIGTERM)
    return True
