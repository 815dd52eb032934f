"""One line that says, in words, what the panes are showing: mask order, scaling, backend."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from attn_tui.state import Workspace

MASK_SHORT = {
    "none": "mask none: every query sees every key",
    "causal": "mask causal: mask, then softmax",
    "causal-after": "mask causal-after: softmax, then zero the future (weight lost)",
}


class StatusLine(Static):
    DEFAULT_CSS = """
    StatusLine { height: 1; width: 1fr; padding: 0 1; background: $panel; }
    """

    def show(self, ws: Workspace) -> None:
        text = Text()
        text.append(MASK_SHORT[ws.mask], style="bold")
        text.append("  │  ")
        text.append(f"÷√d_k {'on' if ws.scale else 'OFF'}")
        text.append("  │  ")
        text.append(f"{ws.backend} {ws.dtype}")
        if text != getattr(self, "_shown", None):  # an edit rarely changes this line
            self._shown = text
            self.update(text, layout=False)  # one fixed line: no need to lay the screen out again
