"""The stages of attention for one query, one row per key: q·k, ÷√d_k, exp, α and α·v.

With the causal mask applied first, a hidden key's scaled score is shown as -inf and its exp
as 0: what the softmax receives (the chapter's S). Its raw q·k stays in the first column.
"""

from __future__ import annotations

import math

from rich.style import Style

from attn_tui.compute import Steps
from attn_tui.tui.widgets.grid_view import GridView

STAGES = ("q·k", "÷√d_k", "exp", "α")


class StepTable(GridView):
    DEFAULT_CSS = """
    StepTable { height: auto; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(cell_width=9, label_width=7, fit_labels=10, corner="key", **kwargs)
        self.keep_in_view = 4  # q·k to α; the α·v columns may scroll
        self.steps: Steps | None = None
        self.query_index = 0  # the row of Q explained (query is Textual's DOM query)
        self.show_cursor = True

    def side_hints(self, first_hidden: int) -> tuple[str, str]:
        return "← q·k", "→ α·v" if first_hidden >= len(STAGES) else "→ more"

    def _fit_label_width(self) -> bool:
        # 8-column cells where 9 would push α off the edge (a 40-column window leaves 37) or
        # cut token names to "b…d": 8 still hold every number fit() writes ("-0.0700")
        before = self.cell_width
        room = self.scrollable_content_region.width
        wanted = self.wanted_label_width() + self.keep_in_view * 9
        self.cell_width = 8 if 0 < room < wanted else 9
        if self.cell_width != before and len(self.col_labels) > 1:  # "unscaled" needs 9
            self.col_labels = (self.col_labels[0], self._scale_label(), *self.col_labels[2:])
        return super()._fit_label_width() or self.cell_width != before

    def _scale_label(self) -> str:
        s = self.steps
        if s is None:
            return "÷√d_k"
        base = f"÷{math.sqrt(s.d_k):.3g}" if s.scale else (
            "unscaled" if self.cell_width > 8 else "÷ off")
        if s.mask == "causal" and any(self._rows["blocked"]):  # (set in show, before this)
            # the column then holds the mask's −inf too, which is no score divided by √d_k
            both = f"{base}+mask" if s.scale else "masked"  # one header: two spaces before
            # too wide ("÷5.66+mask"): the division, which every number not −inf still is;
            # "masked" had hidden that the rest were scaled
            return both if len(both) < self.cell_width else base
        return base

    def show(self, steps: Steps, query: int, key_labels: tuple[str, ...]) -> None:
        if query != self.query_index and self.scroll_y:
            # another query's table starts at its first key: left scrolled down to the key a
            # lesson's step had marked, t1's only unmasked key was out of sight
            self.scroll_to(y=0, animate=False)
        self.steps, self.query_index = steps, query
        # computed once per result: cell_text runs for every visible cell on every repaint
        self._contrib = steps.contributions(query)
        self._contrib_sums = self._contrib.sum(axis=0)
        # the query's rows as Python lists: indexing numpy one cell at a time cost more
        self._rows = {name: self._row(name).tolist()
                      for name in ("scores", "scaled", "exp", "weights", "blocked")}
        d_v = steps.values.shape[1]
        cols = ["q·k", self._scale_label(), "exp", "α"] + [f"α·v{j + 1}" for j in range(d_v)]
        self.set_shape((*key_labels, "sum"), cols)
        self.invalidate()
        self.show_edge()

    def _row(self, name: str):
        a = getattr(self.steps, name)
        return a[self.query_index] if a.ndim == 2 else a

    def cell_text(self, row: int, col: int) -> str:
        s = self.steps
        if s is None:
            return ""
        rows = self._rows
        if row == len(self.row_labels) - 1:  # the totals
            if col == 2:
                return self.number(float(self._row("exp").sum()))
            if col == 3:
                return self.number(float(s.row_sums[self.query_index]))
            if col >= 4:
                return self.number(float(self._contrib_sums[col - 4]))
            return ""
        if col == 0:
            return self.number(rows["scores"][row])
        blocked = rows["blocked"][row]
        masked_first = blocked and s.mask == "causal"  # the softmax sees −∞ for this key
        if col == 1:
            return "-inf" if masked_first else self.number(rows["scaled"][row])
        if col == 2:
            return "0" if masked_first else self.number(rows["exp"][row])
        if blocked:
            return "·"  # as on the map: the mask hides this key (its α is 0)
        if col == 3:
            return self.number(rows["weights"][row])
        return self.number(float(self._contrib[row, col - 4]))

    def cell_style(self, row: int, col: int) -> Style | None:
        if row == len(self.row_labels) - 1:
            return self.style_of("total")
        # masked first, a key is -inf from the scaled column on; masked after the softmax,
        # its exp is real but its weight is dropped
        if self.steps is not None and self._rows["blocked"][row] and col >= (
                1 if self.steps.mask == "causal" else 2):
            return self.style_of("muted")
        return None
