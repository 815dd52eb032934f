"""The two lines under the step table: the query's output ζ and what its row says in words.

Each line comes in forms, longest first; the widget draws the longest that fits its width, so a
narrow pane shortens the words and drops whole numbers (marked …), and never cuts one.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
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

    def _chosen(self, room: int) -> list[str]:
        return [next((f for f in forms if cell_len(f) <= room), forms[-1]) for forms in self.lines]

    def render(self) -> str:
        return "\n".join(self._chosen(self.content_region.width))

    def render_line(self, y: int) -> Strip:
        # each line as one segment: rendering the text through render() took 0.4 ms of an
        # edit's repaint. A line too long for the pane wraps there, as render() draws it.
        width = self.size.width
        chosen = self._chosen(width)
        if any(cell_len(line) > width for line in chosen):
            return super().render_line(y)
        style = self.visual_style.rich_style
        if y >= len(chosen):
            return Strip.blank(width, style)
        # the rest of the line in the background alone, as Textual pads rendered text
        pad = Style(bgcolor=style.bgcolor)
        return Strip([Segment(chosen[y], style)]).extend_cell_length(width, pad)
