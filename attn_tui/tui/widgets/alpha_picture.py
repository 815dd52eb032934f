"""α matrices drawn with shade characters (·░▒▓█): every head of a model at once, or one head
large with its tokens. Shades carry the picture, so it reads without colour (NO_COLOR, a
16-colour terminal); colour only tints it."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.containers import ScrollableContainer
from textual.geometry import Offset, Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from attn_tui.models.names import token_label
from attn_tui.tui import bindings
from attn_tui.tui.keys import KeysInOrder
from attn_tui.tui.widgets.grid_view import cut_label, special_token

ROW_SCALE = "each row to its max"  # how a picture of one head shades, said beside it
SHADES = "·░▒▓█"  # the dot: next to nothing, so each picture keeps its outline


def key_numbers(keys: int, per: int) -> str:
    """The numbers over a picture's keys, counted from 1, ``per`` columns each. Three or more:
    every key's. Fewer: the first's and every fifth's, where it fits (1   5    10), over its
    key's first column: the last digits alone (1234567890123) read 10 as 0. Blank between (a
    · is a weight's shade)."""
    if per >= 3:
        return "".join(str(j + 1).rjust(per) for j in range(keys))
    line = [" "] * (keys * per)
    end = 0  # the first column a number may take (one blank after the last)
    for n in (1, *range(5, keys + 1, 5)):
        text, at = str(n), (n - 1) * per
        if at >= end and at + len(text) <= len(line):
            line[at:at + len(text)] = text
            end = at + len(text) + 1
    return "".join(line)


def resample(alpha: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``alpha`` averaged (or repeated) onto a rows x cols picture."""
    a = np.asarray(alpha, dtype=np.float64)
    t_q, t_k = a.shape

    def edges(n: int, parts: int) -> list[tuple[int, int]]:
        cuts = np.linspace(0, n, parts + 1)
        out = []
        for i in range(parts):
            lo = min(int(np.floor(cuts[i])), n - 1)
            out.append((lo, max(lo + 1, int(np.ceil(cuts[i + 1] - 1e-9)))))
        return out

    r_edges, c_edges = edges(t_q, rows), edges(t_k, cols)
    return np.array([[a[r0:r1, c0:c1].mean() for c0, c1 in c_edges] for r0, r1 in r_edges])


def shades(picture: np.ndarray, top: float | None = None) -> list[str]:
    """One string per row: each value as a shade against ``top`` (the largest by default)."""
    top = float(picture.max()) if top is None else top
    scaled = picture / top if top > 0 else np.zeros_like(picture)
    levels = np.clip(np.rint(scaled * (len(SHADES) - 1)), 0, len(SHADES) - 1).astype(int)
    return ["".join(SHADES[v] for v in row) for row in levels]


class HeadGrid(KeysInOrder, Widget, can_focus=True):
    """Every head of a model: one small α picture per head, layers down, heads across.
    Keys typed in one burst act in order (KeysInOrder): `/ t h e` types "the" into the
    sentence that / has just opened."""

    BINDINGS = bindings.HEAD_GRID
    DEFAULT_CSS = """
    HeadGrid { height: auto; width: 1fr; }
    HeadGrid:focus { background-tint: $foreground 5%; }
    """
    at_layer: reactive[int] = reactive(0)
    at_head: reactive[int] = reactive(0)

    class Picked(Message):
        """The learner moved to another head."""

        def __init__(self, grid: HeadGrid, layer: int, head: int) -> None:
            super().__init__()
            self.grid = grid
            self.layer = layer  #: the layer picked, from 0
            self.head = head  #: the head picked, from 0
            self.settled = False  # taken already by the screen's settle_edits (see take_once)

        @property
        def control(self) -> HeadGrid:
            return self.grid

    class Condensed(Message):
        """The pictures became one cell each, or stopped being: what a cell shows changed."""

        def __init__(self, grid: HeadGrid, one_cell: bool) -> None:
            super().__init__()
            self.grid, self.one_cell = grid, one_cell

    def __init__(self, heads_shape: tuple[int, int] = (6, 12), *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.one_cell = False  # each head drawn as one cell: shaded by how peaked it is
        self.heads_shape = heads_shape  # arrows move before the first maps arrive
        self.weights: np.ndarray | None = None  # (L, H, T, T)
        self._pictures: list[list[list[str]]] = []
        self._drawn_for: tuple[int, int] = (0, 0)
        self.in_flight: list[HeadGrid.Picked] = []  # picks sent and not yet taken
        self.kept_back: frozenset[tuple[int, int]] = frozenset()  # (layer, head) drawn ?

    @property
    def shape(self) -> tuple[int, int]:
        """(layers, heads): the model's, known before its first maps arrive."""
        return self.heads_shape if self.weights is None else self.weights.shape[:2]

    def cell_size(self, width: int) -> tuple[int, int]:
        """(columns, rows) of one picture: as large as the width allows, from 1 x 1 to 7 x 3
        (one column: a 40-column window wrapped every row of 2-column pictures)."""
        heads = self.shape[1]
        w = max(1, min(7, (width - 4) // heads - 1))
        return w, (1 if w <= 2 else 2 if w <= 5 else 3)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1 + self.shape[0] * self.cell_size(width)[1]

    def show(self, weights: np.ndarray) -> None:
        self.weights = weights
        self._pictures = []
        self.refresh(layout=True)

    def keep_back(self, heads: frozenset[tuple[int, int]]) -> None:
        """Draw these heads' pictures as ?, until a lesson's question about them is answered:
        a small picture can answer it as well as the large one."""
        if heads != self.kept_back:
            self.kept_back = heads
            self.refresh()

    def on_resize(self) -> None:
        one_cell = self.cell_size(self.size.width) == (1, 1)
        if one_cell != self.one_cell:
            self.one_cell = one_cell
            self.post_message(self.Condensed(self, one_cell))

    def _draw_pictures(self, w: int, h: int) -> None:
        if self._drawn_for == (w, h) and self._pictures:
            return
        layers, heads = self.shape
        if (w, h) == (1, 1):  # a whole α in one cell is its mean, 1/T for every head
            t = self.weights.shape[-1]
            peak = self.weights.max(axis=-1).mean(axis=-1)  # (L, H): mean of each row's max
            peak = (peak - 1 / t) / (1 - 1 / t) if t > 1 else np.ones_like(peak)
            self._pictures = [[shades(peak[i, j].reshape(1, 1), top=1.0) for j in range(heads)]
                              for i in range(layers)]
        else:
            self._pictures = [[shades(resample(self.weights[i, j], h, w)) for j in range(heads)]
                              for i in range(layers)]
        self._drawn_for = (w, h)

    def render(self) -> Text:
        if self.weights is None:
            return Text("")
        layers, heads = self.shape
        w, h = self.cell_size(self.size.width)
        self._draw_pictures(w, h)
        marked = Style(bold=True, reverse=True)
        out = Text(no_wrap=True, overflow="crop")
        out.append(_head_numbers(heads, w, self.at_head, marked))
        for i in range(layers):
            for r in range(h):
                out.append("\n")
                out.append(f"L{i + 1} " if r == 0 else "   ", marked if i == self.at_layer else None)
                for j in range(heads):
                    chosen = (i, j) == (self.at_layer, self.at_head)
                    left = "[" if chosen else ("]" if (i, j - 1) == (self.at_layer, self.at_head)
                                               else " ")
                    out.append(left, Style(bold=True) if left != " " else None)
                    out.append("?" * w if (i, j) in self.kept_back else self._pictures[i][j][r])
                if (i, heads - 1) == (self.at_layer, self.at_head):
                    out.append("]", Style(bold=True))
        return out

    def layer_rows(self, layer: int) -> Region:
        """Where ``layer``'s pictures are drawn in the grid (below its row of head numbers)."""
        h = self.cell_size(self.size.width)[1]
        return Region(0, 1 + layer * h, self.size.width, h)

    def chosen_into_view(self) -> None:
        """Scroll the column holding the grid so the chosen layer's row shows, with the box
        above it (its title, the head numbers) when that fits too: under a lesson's panel at
        80×24 the column holds two layers."""
        rows_into_view(self, self.layer_rows(self.at_layer))

    def watch_at_layer(self) -> None:
        self.refresh()

    def watch_at_head(self) -> None:
        self.refresh()

    def head_at(self, x: int, y: int) -> tuple[int, int] | None:
        """(layer, head) of the picture drawn at ``x``, ``y`` in the grid; on the row of head
        numbers, that head in the chosen layer; None between or beside the pictures."""
        layers, heads = self.shape
        w, h = self.cell_size(self.size.width)
        head = (x - 3) // (w + 1)
        if x < 3 or not 0 <= head < heads:
            return None
        layer = self.at_layer if y == 0 else (y - 1) // h
        return (layer, head) if 0 <= layer < layers else None

    def on_click(self, event: events.Click) -> None:
        if self.weights is None or (at := self.head_at(event.x, event.y)) is None:
            return
        self.action_step(at[0] - self.at_layer, at[1] - self.at_head)

    def action_step(self, d_layer: int, d_head: int) -> None:
        layers, heads = self.shape
        if not layers:
            return
        layer = max(0, min(layers - 1, self.at_layer + d_layer))
        head = max(0, min(heads - 1, self.at_head + d_head))
        if (layer, head) != (self.at_layer, self.at_head):
            # moved here at once: the next arrow in the same burst steps from the new head
            self.at_layer, self.at_head = layer, head
            picked = self.Picked(self, layer, head)
            self.in_flight.append(picked)  # `→ w` in one burst: the screen takes it before w
            self.post_message(picked)
        elif d_layer or d_head:  # at the edge: said, as a lab's field says it (it was silent)
            what, count, at = (("layer", layers, layer) if d_layer else ("head", heads, head))
            end = "last" if (d_layer or d_head) > 0 else "first"
            say_at_edge(self.app, f"Already at {what} {at + 1}, the {end} of {count}.")


def say_at_edge(app, words: str) -> None:
    """One notice for a key that goes nowhere (held down, it stacked one a repeat)."""
    from attn_tui.tui.textual_compat import dismiss_notices

    dismiss_notices(app, starts=("Already at ",))
    app.notify(words, timeout=2, markup=False)


def _head_numbers(heads: int, w: int, chosen: int, marked: Style) -> Text:
    """The grid's first line: each head's number (from 1) over its picture, with a space after
    it. Where they do not all fit (at one column a picture, 10 and 11 would read "1011"), the
    chosen head's number and a ruler of 1, 5, 10… as over a head's own picture; a ruler number
    that would touch the chosen one is left out."""
    row, spans = _place_numbers(heads, w, range(heads))
    if len(spans) < heads:
        row, spans = _place_numbers(heads, w, (chosen, 0, *range(4, heads, 5)))
    out = Text("".join(row))
    if chosen in spans:
        out.stylize(marked, *spans[chosen])
    return out


def _place_numbers(heads: int, w: int, order) -> tuple[list[str], dict[int, tuple[int, int]]]:
    """Write the numbers of the heads in ``order`` over their pictures, first come first placed;
    also where each placed one is drawn, to mark the chosen head's column."""
    row = [" "] * (3 + heads * (w + 1))
    taken = [False] * len(row)
    spans = {}
    for j in order:
        # over the picture, not its bracket
        name = str(j + 1)
        label = name.center(w + 1) if w > 1 else name.rjust(2)
        at = 3 + j * (w + 1) + len(label) - len(label.lstrip())  # where its digits start
        end = at + len(name)
        if j in spans or end > len(row) or any(taken[at:end + 1]):  # and a space after
            continue
        row[at:end] = name
        taken[at:end + 1] = [True] * (min(end + 1, len(row)) - at)
        spans[j] = (3 + j * (w + 1), max(end, 3 + (j + 1) * (w + 1)))  # marked: its column
    return row, spans


def _brackets_fit(names: list[tuple[int, str]], width: int) -> bool:
    """Whether every special token among ``names`` (index, token) keeps its brackets in
    ``width`` cells: one that cannot makes every row drop them ("1 [CLS]" beside "14 SEP")."""
    return all(cell_len(token_label(i, tok, " ")) <= width for i, tok in names if special_token(tok))


def row_name(index: int, token: str, width: int, bare: bool = False) -> str:
    """A picture row's token as its number and name in ``width`` cells. A special token that
    does not fit loses its brackets, not its middle: "1 CLS", where "1 […S]" read as [SEP].
    The model's own pieces are lower case, so a bare "CLS" is no word of the sentence.
    ``bare``: without its brackets even where they fit, as another row's must be."""
    text = token_label(index, token, " ")
    if special_token(token) and (bare or cell_len(text) > width):
        text = token_label(index, token[1:-1], " ")
        if cell_len(text) > width:  # the start names it ("13 UN…"), not the end
            return text[: max(width - 1, 0)] + "…" if width > 1 else text[:width]
    return cut_label(text, width)


def rows_into_view(widget: Widget, rows: Region) -> None:
    """Scroll the column ``widget`` sits in so ``rows`` (in the widget's own lines) show, and
    from the top of the widget's box (its title) when all of that fits."""
    column = next((w for w in widget.ancestors if isinstance(w, ScrollableContainer)), None)
    if column is None:
        return
    rows = rows.translate(_offset_in(widget, column))
    box = widget.parent if widget.parent is not column else widget
    top = _offset_in(box, column).y
    whole = Region(rows.x, top, rows.width, rows.bottom - top)
    fits = whole.height <= column.scrollable_content_region.height
    column.scroll_to_region(whole if fits else rows, animate=False, immediate=True)


def _offset_in(widget: Widget, column: Widget) -> Offset:
    """Where ``widget`` starts in the scrolling ``column``'s content, a descendant of it."""
    at = Offset(0, 0)
    while widget is not column and isinstance(widget, Widget):
        at += widget.virtual_region.offset
        widget = widget.parent
    return at


MIN_LABEL = 7  # the query marker, "12 [S" and a space: the index and a little of the token


class HeadPicture(Widget):
    """One head large: a row per query with its token, a column per key, the query marked.
    ``tokens`` names the queries; the keys are α's columns. A click on a row posts
    QueryClicked with its query (the first of a band's)."""

    DEFAULT_CSS = """
    HeadPicture { height: auto; width: 1fr; }
    """

    class QueryClicked(Message):
        def __init__(self, picture: HeadPicture, query: int) -> None:
            super().__init__()
            self.picture = picture
            self.query = query  #: the query of the row clicked, from 0

        @property
        def control(self) -> HeadPicture:
            return self.picture

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.alpha: np.ndarray | None = None
        self.tokens: list[str] = []
        self.query_index = 0
        self.max_rows: int | None = None  # more queries than this: rows averaged in bands
        self.hidden: frozenset[tuple[int, int]] = frozenset()  # (query, key) drawn ?
        self.kept_back = False  # every cell drawn ?: a lesson's question is about this picture
        self.when_laid_out: Callable[[], None] | None = None  # called once, at the next layout

    def keep_back(self, on: bool) -> None:
        """Draw every weight as ? (the tokens stay), until a lesson's question is answered:
        hidden whole, the picture left its title over an empty space."""
        if on != self.kept_back:
            self.kept_back = on
            self.refresh()

    def on_resize(self) -> None:
        hook, self.when_laid_out = self.when_laid_out, None
        if hook is not None:
            hook()

    def show(self, alpha: np.ndarray, tokens: list[str], query: int,
             max_rows: int | None = None,
             hidden: frozenset[tuple[int, int]] = frozenset()) -> None:
        """``hidden``: (query, key) cells a lesson keeps back, drawn ? (their rows are never
        banded: a lesson's sequences are short)."""
        rows = self._rows()
        self.alpha, self.tokens, self.query_index = alpha, list(tokens), query
        self.max_rows, self.hidden = max_rows, hidden
        # a mask, scaling or an edit keeps the rows: a repaint, not a layout of the screen
        self.refresh(layout=self._rows() != rows)

    def _bands(self) -> list[tuple[int, int]]:
        """The queries each row pictures, (first, end): one each, or bands when there are
        more than ``max_rows``, so a long sequence's whole α is in sight at once."""
        t = len(self.tokens)
        n = t if self.max_rows is None or t <= self.max_rows else max(1, self.max_rows)
        cuts = np.floor(np.linspace(0, t, n + 1) + 1e-9).astype(int)
        return [(int(a), int(b)) for a, b in zip(cuts, cuts[1:], strict=False)]

    def _keys(self) -> int:
        """How many keys: as many as the queries in a model's head, not in the workbench's
        (one query against three keys by default)."""
        return len(self.tokens) if self.alpha is None else int(np.shape(self.alpha)[1])

    def _layout(self, width: int) -> tuple[int, int, int]:
        """(label width, columns per key, pictured keys) for ``width``."""
        t = self._keys()
        label = min(12, max((cell_len(token_label(i, tok, " ")) for i, tok in enumerate(self.tokens)),
                            default=3)) + 2
        if label > MIN_LABEL and width - label < t <= width - MIN_LABEL:
            # the labels give way, not the keys: each key keeps a column of its own (the tokens
            # are named in full above the map), so the last key, often [SEP], is not averaged in
            label = width - t
        room = max(1, width - label)
        per = 3 if 3 * t <= room else 2 if 2 * t <= room else 1
        return label, per, min(t, room // per) if per == 1 else t

    def _rows(self) -> int:
        return len(self._bands()) + 1 if self.alpha is not None else 1

    def on_click(self, event: events.Click) -> None:
        bands = self._bands() if self.alpha is not None else []
        at = event.get_content_offset(self)  # under the header; the workbench's has a border
        if at is not None and 1 <= at.y <= len(bands):
            self.post_message(self.QueryClicked(self, bands[at.y - 1][0]))

    def query_into_view(self) -> None:
        """Scroll the column holding the picture so the marked query's row shows: 45 tokens
        at 80×24 left ▶ below the screen's edge."""
        band = next((k for k, (a, b) in enumerate(self._bands()) if a <= self.query_index < b), 0)
        rows_into_view(self, Region(0, 1 + band, self.size.width, 1))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._rows()

    def render(self) -> Text:
        if self.alpha is None:
            return Text("")
        t = self._keys()
        label, per, keys = self._layout(self.size.width)
        bands = self._bands()
        picture = np.asarray(self.alpha, dtype=np.float64)
        if len(bands) < len(self.tokens):  # each row the mean of its band's queries
            picture = np.array([picture[a:b].mean(axis=0) for a, b in bands])
        if keys < t:
            picture = resample(picture, len(bands), keys)
        # each row against its own largest weight: a query's favourite key is █ however
        # spread its row (against the head's largest, a row of 0.27 and 0.32 read as faint)
        rows = [shades(r[None])[0] for r in picture]
        if self.max_rows is not None:  # the workbench's map: a masked key (exactly 0) blank,
            # so a row spread over 200 keys still shows, and so does the triangle
            rows = ["".join(" " if x == 0 else ch for x, ch in zip(r, row, strict=True))
                    for r, row in zip(picture, rows, strict=True)]
        out = Text(no_wrap=True, overflow="crop")
        width = self.size.width
        if keys == t:
            header = key_numbers(keys, per)
        else:  # a condensed picture's columns are not keys, so they are not numbered as keys
            notes = (f"keys 1–{t}, about {t / keys:.1f} keys a column",
                     f"{t} keys in {keys} columns")
            header = next((n for n in notes if len(n) < width), notes[-1])
        # over the columns; a condensed picture's note, where they are too narrow for it, from
        # the left edge (the labels' part of that line is empty)
        lead = label if keys == t or label + len(header) <= width else min(1, width)
        out.append(" " * lead + header[: max(0, width - lead)])
        kept = self.hidden or self.kept_back
        if self.kept_back:
            rows = ["?" * len(r) for r in rows]
        elif self.hidden:
            whole = keys == t and len(bands) == len(self.tokens)  # else no cell is its own
            rows = ["".join("?" if not whole or (i, j) in self.hidden else ch
                            for j, ch in enumerate(r)) for i, r in enumerate(rows)]
        bare = not _brackets_fit([(a, self.tokens[a]) for a, b in bands if b - a == 1], label - 2)
        for (first, end), row in zip(bands, rows, strict=True):
            here = first <= self.query_index < end
            name = (row_name(first, self.tokens[first], label - 2, bare) if end - first == 1
                    else cut_label(f"{first + 1}–{end}", label - 2))
            out.append("\n")
            style = Style(bold=True, reverse=True) if here else None
            out.append(f"{'▶' if here else ' '}{name}" + " " * (label - 1 - cell_len(name)), style)
            if "?" in row and kept:  # kept back by a lesson: muted, as the map draws it
                for ch in row:
                    out.append(ch * per, Style(dim=True) if ch == "?" else None)
            else:
                out.append("".join(ch * per for ch in row))
        return out
