"""One line that says, in words, what the panes are showing: mask order, scaling, backend."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from attn_tui.core.state import Workspace

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
MASK_NAME = {mode: f"mask {mode}" for mode in MASK_SHORT}
MASK_BARE = {mode: mode for mode in MASK_SHORT}  # a 40-column window
# the first of these that fits is shown: the mask's words give way before the numbers' source
FORMS = ((MASK_SHORT, "  │  "), (MASK_TIGHT, "  │  "), (MASK_NAME, " │ "), (MASK_BARE, " │ "),
         (MASK_BARE, "│"))


class StatusLine(Static):
    DEFAULT_CSS = """
    StatusLine { height: 1; width: 1fr; padding: 0 1; background: $panel;
                 text-wrap: nowrap; text-overflow: ellipsis; }
    """

    _ws: Workspace | None = None
    _shown: Text | None = None  # the line as last shown

    def show(self, ws: Workspace) -> None:
        self._ws = ws
        room = self.size.width  # the content area: the padding is outside it
        for masks, bar in FORMS:
            text = self._line(ws, masks, bar)
            if room <= 0 or text.cell_len <= room:
                break
        if text != self._shown:  # an edit rarely changes this line
            self._shown = text
            self.update(text, layout=False)  # one fixed line: no need to lay the screen out again

    @staticmethod
    def _line(ws: Workspace, masks: dict[str, str], bar: str) -> Text:
        text = Text()
        text.append(masks[ws.mask], style="bold")
        text.append(bar)
        text.append(f"÷√d_k {'on' if ws.scale else 'OFF'}")
        text.append(bar)
        text.append(f"{ws.backend} {ws.dtype}")
        return text

    def on_resize(self) -> None:
        if self._ws is not None:
            self.show(self._ws)
