"""The two lines under the step table: the query's output ζ and what its row says in words.

Each line comes in forms, longest first; the widget draws the longest that fits its width, so a
narrow pane shortens the words and drops whole numbers (marked …), and never cuts one.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.widget import Widget


def vector_forms(name: str, short: str, values: list[str]) -> tuple[str, ...]:
    """"output ζ = (a, b, c)", then "ζ = (a, b, c)", then fewer values: "ζ = (a, b, …)"."""
    whole = ", ".join(values)
    forms = [f"{name} = ({whole})", f"{short} = ({whole})"]
    forms += [f"{short} = ({', '.join(values[:k])}, …)" for k in range(len(values) - 1, 0, -1)]
    return tuple(forms)


class Summary(Widget):
    DEFAULT_CSS = """
    Summary { height: 2; padding: 0 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lines: tuple[tuple[str, ...], ...] = ()

    def show(self, *lines: tuple[str, ...]) -> None:
        if lines != self.lines:
            self.lines = lines
            self.refresh()  # two lines whatever they say: no new layout

    def render(self) -> str:
        room = self.content_region.width
        return "\n".join(next((f for f in forms if cell_len(f) <= room), forms[-1])
                         for forms in self.lines)
