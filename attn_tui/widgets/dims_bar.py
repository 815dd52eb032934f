"""The model's dimensions on one line, changed from the keyboard: T, d_k, d_v and the seed."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

from attn_tui.state import MAX_DK, MAX_DV, MAX_TOKENS

FIELDS = ("T", "d_k", "d_v", "seed")
LIMITS = {"T": (1, MAX_TOKENS), "d_k": (1, MAX_DK), "d_v": (1, MAX_DV), "seed": (0, 2**31 - 1)}


class DimsBar(Widget, can_focus=True):
    BINDINGS = [
        Binding("left,h", "pick(-1)", "Field", show=False),
        Binding("right,l", "pick(1)", "Field", show=False),
        Binding("up,k,plus,equals_sign", "step(1)", "+1"),
        Binding("down,j,minus", "step(-1)", "−1"),
        Binding("pageup,asterisk", "scale(2)", "×2"),
        Binding("pagedown,slash", "scale(0.5)", "÷2"),
    ]
    DEFAULT_CSS = """
    DimsBar { height: 1; width: 1fr; padding: 0 1; color: $text-muted; }
    DimsBar:focus { color: $text; background: $boost; }
    """

    class Changed(Message):
        def __init__(self, bar: DimsBar, field: str, value: int) -> None:
            super().__init__()
            self.bar, self.field, self.value = bar, field, value

        @property
        def control(self) -> DimsBar:
            return self.bar

        def can_replace(self, message: Message) -> bool:
            # a held key sends many of these; only the newest for a field matters
            return isinstance(message, DimsBar.Changed) and message.field == self.field

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.values = {"T": 1, "d_k": 1, "d_v": 1, "seed": 0}
        self.field = 0

    def show(self, **values: int) -> None:
        if any(self.values.get(k) != v for k, v in values.items()):
            self.values.update(values)
            self.refresh()

    def render(self) -> Text:
        out = Text()
        for i, name in enumerate(FIELDS):
            picked = self.has_focus and i == self.field
            out.append(f"{name} ", style="bold" if picked else "")
            out.append(f"‹{self.values[name]}›", style="reverse bold" if picked else "bold")
            out.append("   ")
        if self.has_focus:
            out.append("←→ field  ↑↓ ±1  PgUp/PgDn ×2 ÷2", style="italic")
        else:
            out.append("(Tab here or press D to change)", style="italic")
        return out

    def action_pick(self, step: int) -> None:
        self.field = (self.field + step) % len(FIELDS)
        self.refresh()

    def _set(self, value: int) -> None:
        name = FIELDS[self.field]
        lo, hi = LIMITS[name]
        value = max(lo, min(hi, int(value)))
        if value != self.values[name]:
            self.values[name] = value
            self.refresh()
            self.post_message(self.Changed(self, name, value))

    def action_step(self, step: int) -> None:
        self._set(self.values[FIELDS[self.field]] + step)

    def action_scale(self, factor: float) -> None:
        current = self.values[FIELDS[self.field]]
        self._set(max(1, round(current * factor)) if factor < 1 else current * 2)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
