"""Lines over a numeric x (training steps), readable without colour: each series a braille line
with its letter at a few points, and an optional ◆ where a frame is being looked at."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attn_tui.tui.widgets.series_plot import STYLES, SeriesPlot, _resolve

MOST_POINTS = 200  # a long run is thinned to this many points per line


class LinePlot(SeriesPlot):
    DEFAULT_CSS = """
    LinePlot { height: 8; width: 1fr; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lines: tuple = ()
        self.xmax = 1.0
        self.at: float | None = None

    def _replot(self) -> None:
        if self.lines:
            self.show_lines(self.lines, xmax=self.xmax, top=self.top, at=self.at)

    def show_lines(self, lines: Sequence[tuple[str, Sequence[float], Sequence[float]]], *,
                   xmax: float, top: float = 1.0, at: float | None = None) -> None:
        """Each (marker, xs, ys); x from 0 to ``xmax``, y from 0 to ``top``; ◆ at x = ``at``."""
        self.lines, self.xmax, self.top, self.at = tuple(lines), xmax, top, at
        self.clear()
        self.set_xlimits(0.0, max(1.0, float(xmax)))
        # x counts steps: a run of a step or a few is numbered in whole steps, not 0.2, 0.4
        self.set_xticks(list(range(int(xmax) + 1)) if xmax < 6 else None)
        self.set_ylimits(-0.08 * top, top * 1.08)  # room below 0: a line at 0 is not the axis
        # three labels: the plot is 5 rows high, and Textual-plot's six (0, 0.2 … 1) lost 0.4
        self.set_yticks([0.0, top / 2, top])
        theme = self.app.theme_variables
        for i, (marker, xs, ys) in enumerate(self.lines):
            x, y = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
            keep = np.isfinite(y)
            x, y = x[keep], np.clip(y[keep], 0.0, top)
            if len(x) == 0:
                continue
            if len(x) > MOST_POINTS:
                pick = np.linspace(0, len(x) - 1, MOST_POINTS).astype(int)
                x, y = x[pick], y[pick]
            style = _resolve(STYLES[i % len(STYLES)][1], theme)
            if len(x) > 1:
                from textual_plot import HiResMode

                self.plot(x, y, line_style=style, hires_mode=HiResMode.BRAILLE)
            marks = np.unique(np.linspace(0, len(x) - 1, min(len(x), 6)).astype(int))
            self.scatter(x[marks], y[marks], marker=marker, marker_style=style)
            if at is not None:
                j = int(np.argmin(np.abs(x - at)))
                self.scatter(x[j:j + 1], y[j:j + 1], marker="◆",
                             marker_style=_resolve("bold $foreground", theme))
