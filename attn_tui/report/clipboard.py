"""What "copy" puts on the clipboard, and the words that say so.

The copy itself is the app's ``App.copy_to_clipboard``, an OSC 52 escape: the terminal, not the
host, owns the clipboard, so it works over SSH. Some terminals and tmux cap the escape's size,
so a large table gets a warning instead of a silent truncation.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from attn_tui.compute import Steps
from attn_tui.core.state import Workspace
from attn_tui.report.export import export_text

FORMAT_NAMES = {"md": "Markdown", "csv": "CSV", "tex": "LaTeX"}
OSC52_SAFE_BYTES = 100_000  # xterm's default limit; tmux and others cut larger payloads


@dataclass(frozen=True)
class Copy:
    text: str
    message: str  # for the notification
    too_large: bool = False


def table_copy(ws: Workspace, fmt: str = "md", steps: Steps | None = None) -> Copy:
    text = export_text(ws, fmt, steps)
    query = ws.query_tokens[ws.selected]
    size = len(base64.b64encode(text.encode("utf-8")))
    message = (f"Copied the step table for query '{query}' and the {ws.t_q}×{ws.t_k} weights "
               f"as {FORMAT_NAMES[fmt]} ({text.count(chr(10))} lines).")
    if size > OSC52_SAFE_BYTES:
        return Copy(text, message + " It is large: some terminals may cut it short; "
                    "export to a file instead (e).", too_large=True)
    return Copy(text, message)
