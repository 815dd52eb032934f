"""A small line plot over categories (such as d_k = 4, 16, 64 …), readable without colour.

Each series is drawn as a braille line with a letter at every point ('r' raw, 's' scaled), and
an optional ceiling is a row of '─'; the legend lives in the text around the plot, so nothing
depends on colour. Built on textual-plot's PlotWidget with panning and zooming turned off.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from rich.segment import Segment
from textual.app import ComposeResult
from textual.containers import Grid
from textual.strip import Strip
from textual_hires_canvas import Canvas
from textual_plot import HiResMode, PlotWidget
from textual_plot.axis_formatter import CategoricalAxisFormatter
from textual_plot.plot_widget import Legend

# (marker letter, line style) per series, in order
STYLES = (("r", "bold $error"), ("s", "bold $success"), ("x", "bold $warning"))


class StyledCanvas(Canvas):
    """A canvas that gives every segment a style. textual-hires-canvas draws a canvas that has
    no size yet as a segment with none, and Textual's NO_COLOR filter (Monochrome) fails on
    it: `NO_COLOR=1 attn-tui --lab scaling` crashed."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        if all(seg.style is not None for seg in strip):
            return strip
        style = self.rich_style
        return Strip([Segment(text, seg_style or style, control)
                      for text, seg_style, control in strip], strip.cell_length)


class SeriesPlot(PlotWidget, can_focus=False):
    DEFAULT_CSS = """
    SeriesPlot { height: 12; width: 1fr; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(allow_pan_and_zoom=False, **kwargs)
        self.categories: tuple[str, ...] = ()
        self.series: tuple[tuple[str, tuple[float, ...]], ...] = ()
        self.ceiling: float | None = None
        self.top = 1.0

    def compose(self) -> ComposeResult:
        # PlotWidget's own layout, with canvases that NO_COLOR can draw
        with Grid():
            for name in ("margin-top", "margin-left", "plot", "margin-bottom"):
                yield StyledCanvas(1, 1, id=name)
        yield Legend(id="legend")

    def on_mount(self) -> None:
        self.margin_left, self.margin_top, self.margin_bottom = 5, 0, 1
        self.watch(self.app, "theme", lambda _: self._replot(), init=False)

    def _replot(self) -> None:
        if self.categories:
            self.show(self.categories, self.series, ceiling=self.ceiling, top=self.top)

    def show(self, categories: Sequence[str], series: Sequence[tuple[str, Sequence[float]]],
             *, ceiling: float | None = None, top: float = 1.0) -> None:
        """Plot each (marker, values) series against the categories; y runs from 0 to ``top``."""
        self.categories = tuple(categories)
        self.series = tuple((m, tuple(float(v) for v in vals)) for m, vals in series)
        self.ceiling, self.top = ceiling, top
        self.clear()
        n = len(self.categories)
        if n == 0:
            return
        x = np.arange(1, n + 1, dtype=float)
        self.set_x_formatter(CategoricalAxisFormatter(list(self.categories)))
        self.set_xticks(list(x))
        self.set_xlimits(0.5, n + 0.5)
        self.set_ylimits(0.0, top * 1.08)
        theme = self.app.theme_variables
        for i, (marker, values) in enumerate(self.series):
            style = _resolve(STYLES[i % len(STYLES)][1], theme)
            if n > 1:
                self.plot(x, values, line_style=style, hires_mode=HiResMode.BRAILLE)
            self.scatter(x, values, marker=marker, marker_style=style)
        if ceiling is not None:
            xs = np.linspace(0.5, n + 0.5, 400)
            self.scatter(xs, np.full_like(xs, ceiling), marker="─",
                         marker_style=_resolve("dim $foreground", theme))


def _resolve(style: str, theme: dict[str, str]) -> str:
    """'bold $error' -> 'bold #e06c75': textual-plot takes Rich styles, not theme variables."""
    return " ".join(theme.get(w[1:], "default") if w.startswith("$") else w for w in style.split())
