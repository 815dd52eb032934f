"""The heads lab: D split into h heads of d_k = D / h, and not one parameter more.

Seeded tokens X and weights W^Q, W^K, W^V, W^O; each head attends with its own d_k columns.
Pick a head to see its weights; the shapes show how the heads are put side by side again and
mixed by W^O, and the count shows that 4 D² does not depend on h.

Actions (for keys, the command palette and lessons, as ``screen.<action>``):
``set_heads(8)`` h, must divide D; ``set_width(512)`` D; ``set_tokens(6)`` T, 2 … 12;
``set_head(1)`` the head shown, 1 … h; ``next_head()``, ``previous_head()``;
``toggle_causal()``; ``set_seed(0)``; ``reset()``.
State to read: ``settings`` (HeadsSettings), ``result`` (the last valid HeadsResult), ``message``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from attn_tui.compute.heads import HeadsResult, heads_inputs, split_heads
from attn_tui.report.fmt import count, num
from attn_tui.tui import bindings
from attn_tui.tui.screens.labs.lab_screen import LabScreen, setter, toggler
from attn_tui.tui.widgets.control_bar import ControlBar
from attn_tui.tui.widgets.control_field import Field
from attn_tui.tui.widgets.grid_view import GridView
from attn_tui.tui.widgets.heatmap import Heatmap
from attn_tui.tui.widgets.text_table import TextTable
from attn_tui.tui.widgets.words_in_place import put_words

FIELDS = (
    Field("D", "D", "int", 1, 1024, step=8, meaning="numbers per token (d_model)"),
    Field("h", "h", "int", 1, 64, meaning="heads D is split into"),
    Field("head", "head", "int", 1, 64, meaning="which head of the split on screen is shown"),
    Field("T", "T", "int", 2, 12, meaning="tokens"),
    Field("causal", "causal", "bool"),
    Field("seed", "seed", "int", 0, 2**31 - 1),
)


@dataclass(frozen=True)
class HeadsSettings:
    D: int = 512
    h: int = 8
    head: int = 1
    T: int = 6
    causal: bool = False
    seed: int = 0


class HeadsLabScreen(LabScreen):
    FIELDS = FIELDS
    BINDINGS = bindings.LABS["heads"]
    DEFAULT_CSS = """
    HeadsLabScreen #heads-cols { height: auto; layout: vertical; }
    HeadsLabScreen.-wide #heads-cols { layout: horizontal; }
    HeadsLabScreen #heads-main, HeadsLabScreen #heads-side { height: auto; }
    HeadsLabScreen.-wide #heads-main { width: 1fr; }
    HeadsLabScreen.-wide #heads-side { width: 56; }
    HeadsLabScreen #heads-table { max-height: 12; }
    """

    def __init__(self, backend: str = "numpy", dtype: str = "float64", **kwargs) -> None:
        super().__init__(backend, dtype, **kwargs)
        self.result: HeadsResult | None = None  # the last valid split: it stays when D % h != 0
        self.computed_for: tuple = ()
        self._standing: str | None = None  # why the settings on the bar are not the ones shown

    def default_settings(self) -> HeadsSettings:
        return HeadsSettings()

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="heads-cols"):
            with Vertical(id="heads-main"):
                with Vertical(id="map-box", classes="pane"):
                    yield Heatmap(id="head-map")
                    yield Static(id="head-note", classes="lab-text")
                with Vertical(id="list-box", classes="pane"):
                    yield TextTable(id="heads-table", cell_width=12, label_width=6,
                                    corner="head", cursor=True)
            with Vertical(id="heads-side"):
                with Vertical(id="split-box", classes="pane"):
                    yield Static(id="shapes", classes="lab-text")
                yield Static(id="params-note", classes="lab-text")

    def _shown_h(self) -> int:
        """The heads on screen: an h that does not divide D leaves the last split showing."""
        return self.result.h if self.result is not None else self.settings.h

    def standing_problem(self) -> str | None:
        return self._standing

    def updated(self, key: str, value: Any) -> HeadsSettings:
        new = replace(self.settings, **{key: value})
        if key == "head":
            return new
        # the head stays one of the split to be shown: an h that does not divide D shows none
        shown = new.h if new.D % new.h == 0 else self._shown_h()
        return replace(new, head=min(new.head, shown))

    def recompute(self) -> None:
        s, r = self.settings, self.result
        inputs = (s.T, s.D, s.h, s.causal, s.seed)
        if r is None or inputs != self.computed_for:  # picking a head alone recomputes nothing
            try:
                x, *ws = heads_inputs(s.T, s.D, s.seed)
                r = split_heads(x, *ws, s.h, mask="causal" if s.causal else "none",
                                backend=self.backend, dtype=self.dtype)
            except ValueError as exc:
                r = self.result
                last = f" Still showing D = {r.D} split into h = {r.h}." if r else ""
                self._standing = f"{exc}.{last}"
                self.say(self._standing, error=True)
                if r is not None:  # a head picked meanwhile is one of the split still shown
                    self._show_head(r, min(s.head, r.h) - 1)
                return
            self.result, self.computed_for, self._standing = r, inputs, None
            self._show_split(r)
            if s.head > r.h:  # a session written by hand: {"h": 4, "head": 7}
                self.saved_refused.append(f"head {s.head}, past the split's {r.h} heads "
                                          f"(head {r.h} is shown)")
                self.settings = s = replace(s, head=r.h)
                self.query_one("#controls", ControlBar).show(head=r.h)
        else:  # back to the settings shown (R, u): the split refused before no longer stands
            self._standing = None
        self._show_head(r, min(s.head, r.h) - 1)

    def _show_split(self, r: HeadsResult) -> None:
        self.query_one("#controls", ControlBar).set_range("head", r.h)
        box = self.query_one("#split-box")
        heads = "head" if r.h == 1 else "heads"
        box.border_title = f"D = {r.D} split into h = {r.h} {heads} of d_k = {r.d_k}"
        put_words(self.query_one("#shapes", Static),
            "\n".join(f"{what:<24}{shape}" for what, shape in r.shapes()))
        labels = [str(i + 1) for i in range(r.h)]
        cells = [(str(r.d_k), num(r.mean_entropy(i)), num(r.mean_max_weight(i)))
                 for i in range(r.h)]
        self.query_one("#heads-table", TextTable).show(labels, ("d_k", "mean H", "mean max α"),
                                                       cells)
        lb = self.query_one("#list-box")
        lb.border_title = "every head: entropy of α in bits, averaged over queries"
        lb.border_subtitle = "↑↓ here, or [ ], picks a head"
        put_words(self.query_one("#params-note", Static),
            f"Parameters: W^Q, W^K, W^V, W^O hold 4 D² = {count(r.attention_params)} whatever h "
            f"is. Each head uses 4 D d_k = {count(r.params_per_head)} of them, and "
            f"{r.h} × {count(r.params_per_head)} = {count(r.attention_params)}: splitting into "
            f"heads is a reshape, not new weights. concat @ W^O then mixes what the heads found.")

    def _show_head(self, r: HeadsResult, i: int) -> None:
        steps = r.heads[i]
        tokens = [f"x{j + 1}" for j in range(r.T)]
        self.query_one(Heatmap).show(steps, tokens, tokens, "weights")
        table = self.query_one("#heads-table", TextTable)
        if table.cursor_row != i:
            table.move_cursor(i, table.cursor_col, quiet=True)
        table.set_highlights(frozenset({(i, 1)}))
        box = self.query_one("#map-box")
        box.border_title = f"head {i + 1} of {r.h}: weights α ({r.T} × {r.T})"
        box.border_subtitle = "causal mask" if r.mask != "none" else "no mask"
        put_words(self.query_one("#head-note", Static),
            f"mean entropy {num(r.mean_entropy(i))} bits of at most "
            f"{num(float(np.mean(steps.max_entropy)))}. Each head has its own d_k = {r.d_k} "
            f"{'column' if r.d_k == 1 else 'columns'} of Q, K, V, so its own weights; its output "
            f"({r.T} × {r.d_k}) fills {columns(i * r.d_k + 1, (i + 1) * r.d_k)} of the concat.")

    @on(GridView.CursorMoved, "#heads-table")
    def _head_picked(self, event: GridView.CursorMoved) -> None:
        # ↑↓ held down: act on where the cursor is now, not on each row it passed
        if event.row == event.grid.cursor_row and event.row + 1 != self.settings.head:
            self.offer("head", event.row + 1)

    # ---- actions: the names lessons and the command palette use
    action_set_heads = setter("h")
    action_set_width = setter("D")
    action_set_tokens = setter("T")
    action_set_head = setter("head")
    action_set_seed = setter("seed")
    action_toggle_causal = toggler("causal")

    def action_next_head(self) -> None:
        self.offer("head", self.settings.head % self._shown_h() + 1)

    def action_previous_head(self) -> None:
        self.offer("head", (self.settings.head - 2) % self._shown_h() + 1)


def columns(first: int, last: int) -> str:
    """"column 3", or "columns 1 … 8": a head of d_k 1 filled "columns 1 … 1"."""
    return f"column {first}" if first == last else f"columns {first} … {last}"
