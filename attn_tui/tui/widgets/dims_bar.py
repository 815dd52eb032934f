"""The model's dimensions on one line: T, d_k, d_v and the seed, stepped or typed.

A ControlBar with the workbench's four fields: the same picking, stepping, typing and refusing
as a lab's controls, drawn on one line (the workbench has no row to spare at 80×24), with its
step keys named in the key bar.
"""

from __future__ import annotations

from rich.text import Text

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
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(FIELDS, {"T": 1, "d_k": 1, "d_v": 1, "seed": 0}, **kwargs)

    def show(self, **values: int) -> None:
        # called on every edit of the workbench: repaint only when a number changed, and
        # never lay out again (the bar is one line whatever it shows)
        if any(self.values.get(k) != v for k, v in values.items()):
            self.values.update(values)
            self.refresh()

    def render(self) -> Text:
        out = Text()
        for i, f in enumerate(self.fields):
            picked = self.has_focus and i == self.field
            shown = f.text(self.values[f.key])
            if picked and self.editing is not None:
                # the end being typed, marked … where cut: the line has no room to spare
                shown = self.editing if len(self.editing) <= 10 else "…" + self.editing[-9:]
                shown += "▏"
            out.append(f"{SHOWN.get(f.key, f.label)} ", style="bold" if picked else "")
            out.append(f"‹{shown}›", style="reverse bold" if picked else "bold")
            out.append("   ")
        if self.editing is not None:
            hints = ("Enter sets it, Escape cancels", "Enter sets, Esc cancels")
        elif self.has_focus:
            hints = ("←→ field  ↑↓ ±1  PgUp/PgDn ×2 ÷2", "←→ ↑↓ PgUp/PgDn")
        else:
            hints = ("(Tab here or press D to change)", "(D to change)")
        # the longest hint that fits whole: a cut one ("(Tab here or press") reads as broken
        room = self.size.width - out.cell_len
        hint = next((h for h in hints if len(h) <= room), "")
        out.append(hint, style="italic")
        return out
