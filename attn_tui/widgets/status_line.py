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
# when the line is too narrow for the above (80 columns, scaling off, torch bfloat16): the
# backend and precision must stay in view
MASK_TIGHT = {
    "none": "mask none",
    "causal": "mask causal: mask, then softmax",
    "causal-after": "mask causal-after: softmax first (weight lost)",
}


class StatusLine(Static):
    DEFAULT_CSS = """
    StatusLine { height: 1; width: 1fr; padding: 0 1; background: $panel; }
    """

    _ws: Workspace | None = None

    def show(self, ws: Workspace) -> None:
        self._ws = ws
        room = self.size.width - 2  # the padding
        text = self._line(ws, MASK_SHORT)
        if room > 0 and text.cell_len > room:
            text = self._line(ws, MASK_TIGHT)
        if text != getattr(self, "_shown", None):  # an edit rarely changes this line
            self._shown = text
            self.update(text, layout=False)  # one fixed line: no need to lay the screen out again

    @staticmethod
    def _line(ws: Workspace, masks: dict[str, str]) -> Text:
        text = Text()
        text.append(masks[ws.mask], style="bold")
        text.append("  │  ")
        text.append(f"÷√d_k {'on' if ws.scale else 'OFF'}")
        text.append("  │  ")
        text.append(f"{ws.backend} {ws.dtype}")
        return text

    def on_resize(self) -> None:
        if self._ws is not None:
            self.show(self._ws)
