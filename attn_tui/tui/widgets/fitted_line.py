"""A line of text given in forms, longest first: it shows the longest that fits its width, so a
narrow window shortens the words rather than wrapping them onto a second line (which pushed
what is below it down a row). When none fits, the first, whole, wraps: shortened words are
worth it only for a line saved."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static


class FittedLine(Static):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.forms: tuple[str, ...] = ()

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
        # not laid out yet (width 0), nothing fits: the whole
        return next((f for f in self.forms if cell_len(f) <= width), self.forms[0])

    def _pick(self) -> None:
        self.update(Text(self.shown))
