"""Every query against every key: the weights shaded, each cell also showing its number."""

from __future__ import annotations

import numpy as np
from rich.style import Style
from textual.color import Color
from textual.message import Message

from attn_tui.compute import Steps
from attn_tui.report.fmt import fit
from attn_tui.tui.widgets.grid_view import GridView

VIEWS = ("weights", "scores", "masked", "output", "picture")
# the views of the softmax's weights and what follows from them: a question about α keeps its
# cells back there, and leaves the scores it is asked on in sight
FROM_SOFTMAX = frozenset({"weights", "output", "picture"})  # picture: α shaded, every row
VIEW_WORDS = {"weights": "every query's weights α", "scores": "the scores q·k, ÷√d_k when on",
              "masked": "what the softmax receives", "output": "the outputs ζ",
              "picture": "α shaded as a picture"}


def view_title(view: str, mask: str, scale: bool) -> str:
    """The map's title for ``view``, true to the mode: the softmax's input is masked only when
    the mask comes first."""
    if view == "weights":
        return "weights α"
    if view == "scores":
        return "scores (q·k ÷ √d_k)" if scale else "scores (q·k, unscaled)"
    if view == "masked":
        return {"causal": "softmax input (masked)",
                "causal-after": "softmax input (unmasked)"}.get(mask, "softmax input")
    if view == "picture":
        return "α as a picture"
    return "outputs ζ = α·V"


class Heatmap(GridView):
    DEFAULT_CSS = """
    Heatmap { height: auto; }
    """
    mark_cut_columns = True

    class Concealed(Message):
        """A lesson changed the cells kept back: the picture view, if shown, follows."""

    def __init__(self, **kwargs) -> None:
        super().__init__(cell_width=7, label_width=7, fit_labels=10, corner="q\\k", **kwargs)
        self.steps: Steps | None = None
        self.view = "weights"
        self._matrix = np.zeros((0, 0))
        self._extra = 0
        self._hot = Color.parse("#1f6feb")
        self._cold = Color.parse("#000000")
        self._shades: dict[Color, Style] = {}  # a shade's style, made once per colour
        # a lesson's "?" cells: in every view, and only in the views from the softmax on
        self._kept: frozenset[tuple[int, int]] = frozenset()
        self._kept_from_softmax: frozenset[tuple[int, int]] = frozenset()
        # a step's marked cells and the view it marked them in: the same (row, col) is another
        # number in another view, so v shows them only there
        self._marked: tuple[str, frozenset[tuple[int, int]]] = ("", frozenset())

    def set_highlights(self, cells: frozenset[tuple[int, int]]) -> None:
        self._marked = (self.view, cells)
        super().set_highlights(cells)

    def on_mount(self) -> None:
        self._theme_changed()
        self.watch(self.app, "theme", lambda _: self._theme_changed(), init=False)

    def _theme_changed(self) -> None:
        theme = self.app.current_theme
        self._hot = Color.parse(theme.primary)
        self._cold = Color.parse(theme.background or ("#ffffff" if not theme.dark else "#000000"))
        self._shades.clear()
        self.invalidate()

    def show(self, steps: Steps, query_labels, key_labels, view: str | None = None) -> None:
        before = self._drawn()
        self.steps = steps
        if view is not None:
            self.view = view
            if self._kept_from_softmax:  # kept back in some views only: this one's cells
                self._conceal_for_view(quiet=True)
            marked_in, cells = self._marked
            if cells:
                super().set_highlights(cells if view == marked_in else frozenset())
        # weights are never negative and fit 7 columns; scores and outputs need 8 ("-0.0700")
        self.cell_width = 7 if self.view == "weights" else 8
        if self.view == "weights":
            self._matrix = steps.weights
        elif self.view == "scores":
            self._matrix = steps.scaled
        elif self.view == "masked":
            self._matrix = steps.masked  # what the softmax received
        else:
            self._matrix = steps.output
            key_labels = [f"d{j + 1}" for j in range(steps.output.shape[1])]
        self.corner = "q\\d" if self.view == "output" else "q\\k"  # rows \ columns
        extra = ["sum"] if self.view == "weights" else []
        if self.view == "weights" and steps.mask == "causal-after":
            extra.append("lost")
        self._extra = len(extra)
        finite = self._matrix[np.isfinite(self._matrix)]
        self._lo = float(finite.min()) if finite.size else 0.0
        self._hi = float(finite.max()) if finite.size else 1.0
        if self.set_shape(query_labels, (*key_labels, *extra)):
            return
        rows = self._changed_rows(before, self._drawn())
        if rows is None or len(rows) > 8:
            self.invalidate()
        else:  # an edit to one query's row of Q changes one row of the map: repaint just that
            for row in rows:
                self.refresh_row(int(row))

    def _drawn(self) -> tuple | None:
        """What decides every cell's text and shade, to tell which rows an update changes."""
        s = self.steps
        if s is None:
            return None
        # weights are shaded against the largest alone: a new smallest weight (an edit to one
        # query often makes one) leaves the other rows as they were
        low = None if self.view == "weights" else self._lo
        return (self.view, self.cell_width, low, self._hi, self._matrix, s.row_sums,
                s.lost, s.blocked)

    @staticmethod
    def _changed_rows(old: tuple | None, new: tuple | None):
        if (old is None or new is None or old[:4] != new[:4] or old[4].shape != new[4].shape
                or old[7].shape != new[7].shape):
            # the shading's scale or a shape moved (the outputs view keeps T × d_v when a key
            # is added, but the mask gains a column): every row changes
            return None
        m_old, m_new = old[4], new[4]
        changed = np.any((m_old != m_new) & ~(np.isnan(m_old) & np.isnan(m_new)), axis=1)
        changed |= (old[5] != new[5]) | (old[6] != new[6]) | np.any(old[7] != new[7], axis=1)
        return np.flatnonzero(changed)

    def cell_text(self, row: int, col: int) -> str:
        s = self.steps
        if s is None:
            return ""
        n_keys = self._matrix.shape[1]
        if col == n_keys:
            return self.number(float(s.row_sums[row]))
        if col == n_keys + 1:
            lost = float(s.lost[row])
            # the arrow stands where the space between cells would be
            return "▼" + fit(lost, self.cell_width - 1) if lost > 5e-5 else "0"
        if self._hidden(row, col):
            return "-inf" if self.view == "masked" else "·"
        return self.number(float(self._matrix[row, col]))

    def _hidden(self, row: int, col: int) -> bool:
        """A key the mask hides from this cell's view (after the softmax, the softmax's input
        and the scores it came from still hold it: that is the point of the wrong order, and
        the step table shows those scores too)."""
        s = self.steps
        if self.view == "output" or not s.blocked[row, col]:
            return False
        return not (self.view in ("masked", "scores") and s.mask == "causal-after")

    def set_concealed(self, cells: frozenset[tuple[int, int]]) -> None:
        self._keep(cells, frozenset())

    def conceal_more(self, cells: frozenset[tuple[int, int]], from_softmax: bool = False) -> None:
        if from_softmax:
            self._keep(self._kept, self._kept_from_softmax | cells)
        else:
            self._keep(self._kept | cells, self._kept_from_softmax)

    def _keep(self, kept: frozenset, from_softmax: frozenset) -> None:
        if (kept, from_softmax) != (self._kept, self._kept_from_softmax):
            self._kept, self._kept_from_softmax = kept, from_softmax
            self._conceal_for_view()

    def concealed_in(self, view: str) -> frozenset[tuple[int, int]]:
        """The cells a lesson keeps back in ``view``."""
        return self._kept | (self._kept_from_softmax if view in FROM_SOFTMAX else frozenset())

    def _conceal_for_view(self, quiet: bool = False) -> None:
        cells = self.concealed_in(self.view)
        if cells != self.concealed:
            super().set_concealed(cells)
        if not quiet:  # the picture view and the step table follow a lesson's change
            self.post_message(self.Concealed())

    def cell_style(self, row: int, col: int) -> Style | None:
        s = self.steps
        n_keys = self._matrix.shape[1]
        if s is None or col >= n_keys:
            if col == n_keys and s is not None and abs(float(s.row_sums[row]) - 1) > 5e-5:
                return Style(bold=True, underline=True)
            return self.style_of("total")
        if self._hidden(row, col):
            return self.style_of("muted")
        x = float(self._matrix[row, col])
        if self.view == "weights":  # shade against the largest weight so T = 64 still shows
            t = x / self._hi if self._hi > 0 else 0.0
        else:
            span = self._hi - self._lo
            t = (x - self._lo) / span if span > 0 else 0.5
        bg = self._cold.blend(self._hot, max(0.0, min(1.0, t)))
        style = self._shades.get(bg)
        if style is None:  # a few hundred shades at most between two colours: each made once
            style = Style(bgcolor=bg.rich_color, color=bg.get_contrast_text(0.9).rich_color)
            self._shades[bg] = style
        return style
