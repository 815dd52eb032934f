"""A line of text given in forms, longest first: it shows the longest that fits its width, so a
narrow window shortens the words rather than wrapping them onto a second line (which pushed
what is below it down a row). When none fits, the longest of those that wrap onto the fewest
lines: shortened words are worth it only for a line saved."""

from __future__ import annotations

from functools import cache
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual.widgets import Static


class FittedLine(Static):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.forms: tuple[str, ...] = ()
        self._picked: str | None = None

    def show(self, *forms: str) -> None:
        self.forms = forms
        self._pick()

    @property
    def shown(self) -> str:
        return self._choice(self.content_size.width)

    def on_resize(self) -> None:
        self._pick()

    def _choice(self, width: int) -> str:
        if not self.forms:
            return ""
        fits = next((f for f in self.forms if cell_len(f) <= width), None)
        if fits is not None or width <= 0:  # not laid out yet (width 0): the whole
            return fits or self.forms[0]
        lines = [wrapped_lines(f, width) for f in self.forms]
        return self.forms[lines.index(min(lines))]

    def _pick(self) -> None:
        shown, before = self.shown, self._picked
        if shown == before:
            return
        self._picked = shown
        # a layout only for a new height: a status line changing each step of a run is
        # repainted in place
        width = self.content_size.width
        same_height = (width > 0 and before is not None
                       and wrapped_lines(shown, width) == wrapped_lines(before, width))
        self.update(Text(shown), layout=not same_height)


def wrapped_lines(text: str, width: int) -> int:
    """The lines ``text`` takes at ``width``, wrapped between words as a Static wraps it."""
    return len(Text(text).wrap(_measure(), width))


@cache
def _measure() -> Console:
    return Console(width=1000, color_system=None)
