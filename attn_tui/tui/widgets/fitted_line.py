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

from attn_tui.tui.widgets.words_in_place import put_words


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
        lines = [_wrapped_lines(f, width) for f in self.forms]
        return self.forms[lines.index(min(lines))]

    def _pick(self) -> None:
        shown = self.shown
        if shown != self._picked:  # a status line changing each step of a run: repainted
            self._picked = shown
            put_words(self, Text(shown))


def _wrapped_lines(text: str, width: int) -> int:
    """The lines ``text`` takes at ``width``, wrapped between words as a Static wraps it."""
    return len(Text(text).wrap(_measure(), width))


@cache
def _measure() -> Console:
    return Console(width=1000, color_system=None)
