"""The model's dimensions on one line: T, d_k, d_v and the seed, stepped or typed.

A ControlBar with the workbench's four fields: the same picking, stepping, typing and refusing
as a lab's controls, drawn on one line (the workbench has no row to spare at 80×24), with its
step keys named in the key bar.
"""

from __future__ import annotations

from textual import events

from attn_tui.core.state import MAX_DK, MAX_DV, MAX_TOKENS
from attn_tui.tui import bindings
from attn_tui.tui.widgets.control_bar import ControlBar
from attn_tui.tui.widgets.control_field import Field

FIELDS = (
    Field("T", "T", lo=1, hi=MAX_TOKENS),
    Field("d_k", "d_k", lo=1, hi=MAX_DK),
    Field("d_v", "d_v", lo=1, hi=MAX_DV),
    Field("seed", "seed", lo=0, hi=2**31 - 1),
)
# as drawn on the bar: T counts the keys (Q of the three-key example is 1 × 3 beside T 3)
SHOWN = {"T": "T keys"}


class DimsBar(ControlBar):
    BINDINGS = bindings.DIMS_BAR
    DEFAULT_CSS = """
    DimsBar { height: 1; padding: 0 1; color: $text-muted; background: transparent; }
    DimsBar:focus { color: $text; background: $boost; }
    /* its fields are clicks, drawn in the bar's own colour (see ControlBar) */
    DimsBar { link-color: $text-muted; }
    DimsBar:focus { link-color: $text; }
    """
    ONE_LINE = True
    GAP = "   "
    TYPED_SHOWN = 10  # the line has no room to spare

    def __init__(self, **kwargs) -> None:
        super().__init__(FIELDS, {"T": 1, "d_k": 1, "d_v": 1, "seed": 0}, **kwargs)

    def label_of(self, field: Field) -> str:
        return SHOWN.get(field.key, field.label)

    def hints(self) -> tuple[str, ...]:
        if self.editing is not None:
            return ("Enter sets it, Escape cancels", "Enter sets, Esc cancels")
        if self.has_focus:
            return ("←→ field  ↑↓ ±1  PgUp/PgDn ×2 ÷2  Esc back", "←→ ↑↓ PgUp/PgDn  Esc back",
                    "←→ ↑↓  Esc back")
        return ("(Tab here or press D to change)", "(D to change)")

    async def read_own_key(self, event: events.Key) -> bool:
        if event.key == "escape" and self.editing is None:
            # back to the pane the keys came from: Esc did nothing here, and ↓ pressed to get
            # back to the grid took tokens away
            event.stop()
            event.prevent_default()
            await self.run_action("screen.leave_dims")
            return True
        return await super().read_own_key(event)
