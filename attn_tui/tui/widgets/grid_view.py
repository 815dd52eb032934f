"""A table of numbers drawn with the Line API: only the rows and columns on screen are rendered.

Row labels and the column header stay put while the cells scroll, so a 256 x 256 grid costs
what the visible part costs. Subclasses say what a cell shows (`cell_text`) and how it looks
(`cell_style`); the grid handles the cursor, scrolling and highlights.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.coordinate import Coordinate
from textual.geometry import Offset, Region, Size
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from attn_tui.report.fmt import fit
from attn_tui.tui import bindings
from attn_tui.tui.keys import AfterKeys, KeysInOrder, run_after_keys
from attn_tui.tui.widgets.titles import set_border_text

# added to a cell's style: a highlighted cell (keeps the cell's colours, which a heatmap picks
# for contrast) and a row of totals
TEXT_STYLES = {"highlight": Style(bold=True, underline=True), "total": Style(bold=True)}


def right_in_cells(text: str, width: int) -> str:
    """``text`` cut to ``width - 1`` terminal cells and set right in ``width``: a token name may
    be written in wide characters (two cells each), which str.rjust counts as one."""
    text = cut_numbered(text, width - 1)
    return " " * (width - cell_len(text)) + text


def cut_label(text: str, width: int) -> str:
    """``text`` in at most ``width`` terminal cells (one fewer where a wide character would be
    split; callers pad). A longer name loses its middle, marked …,
    and keeps its end, which is where names of a series differ (position_01, position_02 →
    posit…_01, posit…_02)."""
    if cell_len(text) <= width:
        return text
    if width < 3:
        return set_cell_size(text, width)
    return "…".join(cut_ends(text, width, 3))


def cut_ends(text: str, width: int, end: int) -> tuple[str, str]:
    """The start and the end (up to ``end`` cells, and half) of ``text`` that fit ``width``
    cells with a "…" between them; whole characters only: a wide one that would not fit is
    left out."""
    tail = ""
    for ch in reversed(text):
        if cell_len(ch + tail) > min(end, (width - 1) // 2):
            break
        tail = ch + tail
    head, room = "", width - 1 - cell_len(tail)
    for ch in text:
        if cell_len(head + ch) > room:
            break
        head += ch
    return head, tail


def special_token(name: str) -> bool:
    """A model's own token, [CLS] or [SEP]: the one kind of name that may lose its brackets."""
    return len(name) > 2 and name[0] == "[" and name[-1] == "]"


def _numbered_special(text: str) -> bool:
    number, sep, name = text.partition(":")
    return bool(sep) and number.isdigit() and special_token(name)


def brackets_fit(labels: Sequence[str], width: int) -> bool:
    """Whether every numbered special token among ``labels`` ("14:[SEP]") fits ``width`` cells
    whole. Where one does not, all drop their brackets: "1:[CLS]" beside "14:SEP" read as if
    the two were different kinds of token."""
    return all(cell_len(text) <= width for text in labels if _numbered_special(text))


def cut_numbered(text: str, width: int, bare: bool = False) -> str:
    """A label numbered "N:name" (the model screen's tokens) in at most ``width`` cells: the
    number whole and the name's start, or the number alone. Cut as other labels, a narrow
    column showed "12…e" for 121:the and 127:the alike. A special token that does not fit
    loses its brackets first, as the picture's rows do; ``bare``: even where it fits, as
    another row's must."""
    number, sep, name = text.partition(":")
    if not (sep and number.isdigit()) or (cell_len(text) <= width and not bare):
        return cut_label(text, width)
    if _numbered_special(text):  # "1:CLS", not "1:[…S]"
        name = name[1:-1]
        if cell_len(number) + 1 + cell_len(name) <= width:
            return f"{number}:{name}"
    elif cell_len(text) <= width:
        return text
    room = width - len(number) - 1
    if room < 2:  # no room for a letter and its …: the number tells the rows apart
        return number[:width]
    return number + ":" + set_cell_size(name, room - 1).rstrip() + "…"


class GridView(KeysInOrder, ScrollView, can_focus=True):
    BINDINGS = bindings.GRID
    # Only the parts coloured by the theme are component classes: Textual styles every
    # component class again on each style update of each grid (a dozen times per grid before
    # the first frame), and three more of them cost about 5 ms of the first screen. The
    # others are plain text styles, the same in every theme (TEXT_STYLES).
    COMPONENT_CLASSES = {"grid--header", "grid--label", "grid--muted"}
    DEFAULT_CSS = """
    GridView { height: auto; max-height: 100%; scrollbar-size: 1 1; }
    GridView > .grid--header { text-style: bold; color: $text-muted; }
    GridView > .grid--label { color: $text-accent; }
    GridView > .grid--muted { color: $text-disabled; }
    """

    class CursorMoved(Message):
        """The cursor moved to another cell (not sent when the screen moved it: ``quiet``)."""

        def __init__(self, grid: GridView, row: int, col: int) -> None:
            self.grid = grid
            """The grid whose cursor moved."""
            self.row = row
            """The row it is on now."""
            self.col = col
            """The column it is on now."""
            super().__init__()

        @property
        def control(self) -> GridView:
            """Alias for ``grid``."""
            return self.grid

    def __init__(self, *, cell_width: int = 8, label_width: int = 8, corner: str = "",
                 fit_labels: int = 0, name: str | None = None, id: str | None = None,
                 classes: str | None = None):
        super().__init__(name=name, id=id, classes=classes)
        self.fit_labels = fit_labels  # when set, labels get up to this many columns as needed
        self.keep_in_view = 0  # fitted labels leave room for this many first columns (0: all)
        self.cell_width = cell_width
        self.label_width = label_width
        self.corner = corner
        # the row whose label the corner says instead ("q 4:sat"), cut to the labels' width
        self.corner_row: int | None = None
        self.row_labels: Sequence[str] = ()
        self.col_labels: Sequence[str] = ()
        self.show_cursor = True
        self.highlights: frozenset[tuple[int, int]] = frozenset()
        self.concealed: frozenset[tuple[int, int]] = frozenset()  # drawn "?" (a lesson's)
        self._shaped_width = 0  # the cell width the current virtual size was made for
        self._styles: dict[str, Style] | None = None
        self._header_line = 0  # the content line drawn as the header (see header_line)

    # ---- styles, resolved once per style change instead of once per cell
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None

    def style_of(self, name: str) -> Style:
        """"base" (the widget's own) or a component class without its "grid--" prefix."""
        if self._styles is None:
            base = self.rich_style
            # the cursor is the grid's own colours reversed, whatever the cell's colours
            self._styles = {"base": base, "cursor": base + Style(reverse=True), **TEXT_STYLES}
            for part in ("header", "label", "muted"):
                self._styles[part] = self.get_component_rich_style(f"grid--{part}")
        return self._styles[name]

    # ---- the cursor: clamped to the grid where it is set, so a move need not
    cursor_coordinate: var[Coordinate] = var(Coordinate(0, 0), init=False)
    """The cell the cursor is on (row, column), always inside the grid."""

    def validate_cursor_coordinate(self, value: Coordinate) -> Coordinate:
        return Coordinate(max(0, min(self.n_rows - 1, value.row)),
                          max(0, min(self.n_cols - 1, value.column)))

    @property
    def cursor_row(self) -> int:
        return self.cursor_coordinate.row

    @property
    def cursor_col(self) -> int:
        return self.cursor_coordinate.column

    # ---- data
    @property
    def n_rows(self) -> int:
        return len(self.row_labels)

    @property
    def n_cols(self) -> int:
        return len(self.col_labels)

    def set_shape(self, row_labels: Sequence[str], col_labels: Sequence[str]) -> bool:
        """New labels (and so a new size); False, and nothing repainted, if they are the same."""
        shape = (tuple(row_labels), tuple(col_labels), self.cell_width)
        if shape == (self.row_labels, self.col_labels, self._shaped_width):
            return False
        self._shaped_width = self.cell_width
        self.row_labels, self.col_labels = shape[0], shape[1]
        self._fit_label_width()
        self.cursor_coordinate = self.cursor_coordinate  # into the new shape
        self.invalidate()
        return True

    def _fit_label_width(self) -> bool:
        """With ``fit_labels``, labels take what their longest needs, up to that many columns,
        but not the room that would show every column (or the first ``keep_in_view``): at
        80 × 24 a step table with long token names lost its α column off the right edge. True if the width changed."""
        before = self.label_width
        if self.fit_labels:
            width = self.wanted_label_width()
            shown = min(self.n_cols, self.keep_in_view or self.n_cols)
            room = self.scrollable_content_region.width - shown * self.cell_width
            if 4 <= room < width:  # a narrower label, still readable, shows every column
                width = room
            self.label_width = width
        self.virtual_size = Size(self.label_width + self.n_cols * self.cell_width, self.n_rows + 1)
        return self.label_width != before

    def wanted_label_width(self) -> int:
        """What the longest label (and the corner) needs, 4 to ``fit_labels`` columns."""
        longest = max((cell_len(t) for t in (*self.row_labels, self.corner)), default=0)
        return max(4, min(self.fit_labels, longest + 1))

    def shown_region(self) -> Region:
        """The part of the grid on screen at the last update (empty if none of it is)."""
        from textual.errors import NoWidget

        try:
            geometry = self.screen.find_widget(self)
        except NoWidget:
            return Region()
        return geometry.region.intersection(geometry.clip)

    def on_resize(self) -> None:
        if self.fit_labels and self._fit_label_width():
            self.invalidate()
        if self.has_focus:  # narrowed by a scrollbar or a panel: the cursor's cell stays in it
            self.call_after_refresh(self._scroll_to_cursor)
        if self.edge is not None:
            self.call_after_refresh(self.show_edge)  # once the labels have their new width

    # ---- the box's lower edge: its own words, after "← …" / "→ …" while columns are hidden
    # (a sideways scrollbar a cell long was the only sign of them, and a lesson hides it)
    edge: str | None = None  # None: the grid leaves its box's edge alone
    # a → at the header's end while columns are hidden to the right, a ← ending the corner
    # while some are to the left: for a grid whose box's lower edge (and its "→ t5 …") is
    # often below the window
    mark_cut_columns = False
    # row labels "N:name": cut keeping the number whole (see cut_numbered)
    numbered_rows = False
    _bare_for: tuple[Sequence[str], int, bool] = ((), -1, False)

    def _bare_specials(self, room: int) -> bool:
        """Whether the numbered rows' special tokens drop their brackets at ``room`` cells,
        all of them together; worked out once per set of labels and width, not per line."""
        labels, at, bare = self._bare_for
        if labels is not self.row_labels or at != room:
            bare = not brackets_fit(self.row_labels, room)
            self._bare_for = (self.row_labels, room, bare)
        return bare

    def side_hints(self, first_hidden: int) -> tuple[str, str]:
        """What to call the columns off to the left and (from ``first_hidden``) the right: the
        first one hidden by name ("→ lost"), … when more follow it."""
        if not 0 <= first_hidden < len(self.col_labels):
            return "← more", "→ more"
        more = " …" if first_hidden < len(self.col_labels) - 1 else ""
        return "← more", f"→ {self.col_labels[first_hidden]}{more}"

    def hidden_hints(self) -> tuple[str, ...]:
        """"← more" and "→ d4 …" while columns are off to the left or the right."""
        room = self.scrollable_content_region.width
        first = (int(self.scroll_x) + room - self.label_width) // max(1, self.cell_width)
        left, right = self.side_hints(first)
        hints = (left if room > 0 and self.scroll_x > 0 else "",
                 right if room > 0 and self.scroll_x + room < self.virtual_size.width else "")
        return tuple(filter(None, hints))

    def show_edge(self) -> None:
        if self.edge is None:
            return
        box = self if self.styles.border_bottom[0] not in ("", "none", "hidden") else self.parent
        if isinstance(box, Widget):
            set_border_text(box, subtitle=" · ".join((*self.hidden_hints(), self.edge)))

    def watch_scroll_x(self, old: float, new: float) -> None:
        super().watch_scroll_x(old, new)
        self.show_edge()

    def invalidate(self) -> None:
        self.refresh()

    def refresh_row(self, row: int) -> None:
        """Repaint one data row, if it is on screen (the header is line 0)."""
        y = row - self.scroll_offset.y + 1
        if 1 <= y < self.scrollable_content_region.height:
            self.refresh(Region(0, y, self.size.width, 1))

    def set_highlights(self, cells: frozenset[tuple[int, int]]) -> None:
        if cells != self.highlights:
            self.highlights = cells
            self.invalidate()

    def set_concealed(self, cells: frozenset[tuple[int, int]]) -> None:
        if cells != self.concealed:
            self.concealed = cells
            self.invalidate()

    def conceal_more(self, cells: frozenset[tuple[int, int]], from_softmax: bool = False) -> None:
        """A lesson's: ``cells`` drawn ? as well (``from_softmax``: the map's own, see Heatmap)."""
        self.set_concealed(self.concealed | cells)

    def cell_text(self, row: int, col: int) -> str:
        return ""

    def number(self, x: float) -> str:
        """A number as a cell shows it: four decimals when they fit beside the space that
        separates cells, else fewer or e-notation (see fit)."""
        return fit(x, self.cell_width - 1)

    def cell_style(self, row: int, col: int) -> Style | None:
        return None

    def row_label_style(self, row: int) -> Style:
        return self.style_of("label")

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.n_rows + 1

    # ---- the header stays on top of what shows of the grid, also where a pane around it has
    # scrolled past the grid's first line (a 32-token step table at 80 x 24): drawn there over
    # the row it covers, as a spreadsheet's frozen row is
    def header_line(self) -> int:
        """The content line the header is drawn on: 0, or the first one on screen (not where
        the focused cursor is: the cursor is what the keys act on)."""
        shown = self.shown_region()
        if not shown:
            return 0
        hidden = shown.y - self.region.y - self.styles.gutter.top
        if not 0 < hidden < self.scrollable_content_region.height:
            return 0
        if self.has_focus and self.show_cursor and hidden == self._line_of(self.cursor_row):
            return 0
        return hidden

    def query_in_corner(self, row: int | None) -> None:
        """Name row ``row`` as the query in the header's corner instead of its name ("q 4:sat",
        cut as the rows' labels are, never widening them); None puts the name back."""
        if row != self.corner_row:
            self.corner_row = row
            self.refresh()

    def _corner_text(self, label_w: int) -> str:
        row = self.corner_row
        if row is None or row >= len(self.row_labels) or label_w < 5:
            return self.corner
        room = label_w - 3  # "q ", and the space that ends every label
        label = self.row_labels[row]
        cut = (cut_numbered(label, room, self._bare_specials(label_w - 1)) if self.numbered_rows
               else cut_label(label, room))
        return f"q {cut}"

    def _line_of(self, row: int) -> int:
        return row - self.scroll_offset.y + 1

    def cursor_screen_y(self) -> int:
        """The screen line the cursor's row is drawn on (or would be: it may be out of sight)."""
        return self.scrollable_content_region.y + self._line_of(self.cursor_row)

    def render_lines(self, crop: Region) -> list[Strip]:
        line = self.header_line()
        if line != self._header_line:
            # the header leaves one line and takes another: every line is drawn anew (a grid
            # moved by the panes around it is otherwise given its lines as they were)
            self._header_line = line
            self.refresh()
        return super().render_lines(crop)

    # ---- drawing
    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        base = self.style_of("base")
        label_w = min(self.label_width, width)
        if y == 0 or y == self._header_line:
            head = self.style_of("header")
            corner = set_cell_size(self._corner_text(label_w), label_w)
            room = width - label_w
            cells = self._cells_strip(-1, scroll_x, room)
            if self.mark_cut_columns:
                corner, cells = self._mark_cut(corner, cells, scroll_x, room, base + head)
            return Strip([Segment(corner, base + head), *cells], width)
        row = scroll_y + y - 1
        if row >= self.n_rows:
            return Strip.blank(width, base)
        room = max(0, label_w - 1)
        if self.numbered_rows:
            cut = cut_numbered(self.row_labels[row], room, self._bare_specials(room))
        else:
            cut = cut_label(self.row_labels[row], room)
        text = set_cell_size(cut, room) + " " * (label_w > 0)
        label = Segment(text, base + self.row_label_style(row))
        return Strip([label, *self._cells_strip(row, scroll_x, width - label_w)], width)

    def _mark_cut(self, corner: str, cells: list[Segment], scroll_x: int, room: int,
                  style: Style) -> tuple[str, list[Segment]]:
        """The header's corner and cells with a ← ending the corner while columns are hidden
        to the left and a → ending the cells while some are hidden to the right. Never over a
        label's text, and parted from it by a space ("α·v8→" read as one name): where the
        line has no two blank cells at its end, the last label moves left into its own
        blanks, as far as leaves one blank before it, else one cell, arrow against it; with
        no blank to spare, its end gives way to "…→"."""
        if scroll_x > 0 and len(corner) > 1 and corner[-2:] == "  ":
            corner = corner[:-1] + "←"
        if room <= 1 or scroll_x + room >= self.n_cols * self.cell_width:
            return corner, cells
        strip = Strip(cells)

        def blank(at: int) -> bool:
            return strip.crop(at, at + 1).text == " "

        trailing = 0  # blank cells ending the line (the next column's first, partly in sight)
        while trailing < 2 and trailing < room and blank(room - 1 - trailing):
            trailing += 1
        if trailing == 2 or room < 3:
            return corner, ([*strip.crop(0, room - 1), Segment("→", style)] if trailing
                            else cells)
        label_end = room - trailing
        first = label_end  # where the last label starts
        while first > max(0, label_end - self.cell_width) and not blank(first - 1):
            first -= 1
        lead = 0  # the blanks before it
        while lead < 3 and first - lead > 0 and blank(first - 1 - lead):
            lead += 1
        need = 2 - trailing
        if lead > need:  # it moves left, a blank still before it: "5:on 6:the →"
            return corner, [*strip.crop(0, first - need), *strip.crop(first, label_end),
                            Segment(" →", style)]
        if trailing:  # no room to move: the blank after it becomes the arrow
            return corner, [*strip.crop(0, room - 1), Segment("→", style)]
        if lead == 2:  # "5:on 6:the→" rather than "5:on6:the →"
            return corner, [*strip.crop(0, first - 1), *strip.crop(first, room),
                            Segment("→", style)]
        # no blank to spare: the label's end gives way ("3:c…→"), the arrow is never left out
        end = "…→" if room - first >= 4 else "→"
        return corner, [*strip.crop(0, room - len(end)), Segment(end, style)]

    def _cells_strip(self, row: int, scroll_x: int, room: int) -> list[Segment]:
        if room <= 0:
            return []
        cw = self.cell_width
        first = scroll_x // cw
        last = min(self.n_cols, (scroll_x + room) // cw + 1)
        end = scroll_x + room  # the visible columns are scroll_x to end
        base = self.style_of("base")
        segs: list[Segment] = []
        # a cell cut by either edge is drawn blank, in its colours, as wide as the part in
        # sight: "1.2029" cut to "029" reads as another number
        whole_lo, whole_hi = -(-scroll_x // cw), end // cw
        head = base + self.style_of("header") if row < 0 else None
        if head is None:
            cursor, mark = self.style_of("cursor"), self.style_of("highlight")
            # looked up once per line, not per cell: this loop runs for every visible cell
            cursor_col = self.cursor_col if (self.show_cursor and self.has_focus
                                             and row == self.cursor_row) else -1
            marked = {c for r, c in self.highlights if r == row} if self.highlights else ()
            hidden = {c for r, c in self.concealed if r == row} if self.concealed else ()
            cell_style, cell_text = self.cell_style, self.cell_text
        for col in range(first, last):
            if head is not None:
                style = head
            else:
                # a cell a lesson keeps back shows no colour either: a shade tells the number
                extra = self.style_of("muted") if col in hidden else cell_style(row, col)
                style = base + extra if extra is not None else base
                if col in marked:
                    style += mark
                if col == cursor_col:
                    style += cursor
            if not whole_lo <= col < whole_hi:
                shown = min(end, (col + 1) * cw) - max(scroll_x, col * cw)
                if shown > 0:
                    segs.append(Segment(" " * shown, style))
                continue
            if head is not None:
                segs.append(Segment(right_in_cells(self.col_labels[col], cw), head))
                continue
            text = "?" if col in hidden else cell_text(row, col)
            # a › starts a run of marked cells; inside the run it goes only where it
            # leaves the space that parts two numbers (the underline joins the run)
            if col in marked and (len(text) < cw - 1
                                  or (len(text) < cw and col - 1 not in marked)):
                text = "›" + text
            if len(text) > cw:  # cut visibly, never silently (a number's sign first)
                text = text[: cw - 1] + "…"
            segs.append(Segment(text.rjust(cw), style))
        # one strip per line is made by render_line; Strip.crop is only needed where a cell
        # holds a character two columns wide
        width = sum(cell_len(seg.text) for seg in segs)
        if width > room:
            return list(Strip(segs).crop(0, room))
        if width < room:
            segs.append(Segment(" " * (room - width), base))
        return segs

    # ---- the mouse: a click puts the cursor on the cell clicked
    def cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        """The (row, column) at ``x, y`` in the content region: a data cell, or a row's label
        (its row, in the cursor's column). None for the header, a scrollbar or past the end."""
        if y < 1 or y == self._header_line or x >= self.scrollable_content_region.width:
            return None
        row = self.scroll_offset.y + y - 1
        if row >= self.n_rows or not self.n_cols:
            return None
        label_w = min(self.label_width, self.scrollable_content_region.width)
        if x < label_w:
            return row, self.cursor_col
        col = (self.scroll_offset.x + x - label_w) // self.cell_width
        return (row, col) if col < self.n_cols else None

    # the cell the last press was on, where on screen, and when (its release, once clicked)
    _pressed: tuple[tuple[int, int] | None, Offset, float] | None = None
    _chained = False  # the last press was a double click's second, on this grid

    def on_mouse_down(self, event: events.MouseDown) -> None:
        # the press puts the cursor on its cell, before anything it starts moves the panes: a
        # refused value's message moved a matrix two rows down before the button came up (on
        # another row, or off the grid, where no click is made at all). A double click's second
        # press is on the cell of its first, though that one scrolled the panes under it.
        at, last = event.screen_offset, self._pressed
        self._chained = (last is not None and last[1] == at
                         and event.time - last[2] <= self.app.CLICK_CHAIN_TIME_THRESHOLD)
        if self._chained and last is not None:
            cell = last[0]
        else:
            offset = event.get_content_offset(self)
            cell = None if offset is None else self.cell_at(offset.x, offset.y)
        self._pressed = (cell, at, event.time)
        if cell is not None and not self._chained:
            self.clicked(*cell, 1)

    def on_click(self, event: events.Click) -> None:
        cell = None if self._pressed is None else self._pressed[0]
        if event.chain == 1:  # Textual chains from the release: time the next press from it
            self._pressed = (cell, event.screen_offset, event.time)
        elif self._chained and cell is not None:  # a double click, both presses on this grid
            self.clicked(*cell, event.chain)

    def clicked(self, row: int, col: int, chain: int) -> None:
        """A click on a cell (``chain`` 2: a double click)."""
        if (row, col) != (self.cursor_row, self.cursor_col):  # a click again sends nothing
            self.move_cursor(row, col)

    # ---- keys typed in one burst act in order (KeysInOrder); a matrix's grid leaves this to
    # its editor, which reads digits and Enter too
    def on_after_keys(self, event: AfterKeys) -> None:
        if self.KEYS_IN_ORDER:  # else the editor reading this grid's keys runs it
            run_after_keys(event)

    # ---- cursor
    def action_move(self, d_row: int, d_col: int) -> None:
        self.move_cursor(self.cursor_row + d_row, self.cursor_col + d_col)

    def action_jump(self, col: int) -> None:
        self.move_cursor(self.cursor_row, 0 if col == 0 else self.n_cols - 1)

    def action_page(self, direction: int) -> None:
        step = max(1, self._rows_in_sight() - 1)
        self.move_cursor(self.cursor_row + direction * step, self.cursor_col)

    def move_cursor(self, row: int, col: int, *, quiet: bool = False) -> None:
        """``quiet``: the screen is following its own state, so no CursorMoved (a screen
        that answers CursorMoved by moving the cursor would otherwise hear itself)."""
        if not self.n_rows or not self.n_cols:
            return
        before = self.cursor_coordinate
        self.cursor_coordinate = Coordinate(row, col)
        row, col = self.cursor_coordinate
        changed = self.cursor_coordinate != before
        self._scroll_to_cursor()
        self.refresh()
        if changed and not quiet:
            self.post_message(self.CursorMoved(self, row, col))
            if self.has_focus:  # once the grid has scrolled itself
                self.call_after_refresh(self.reveal_cursor)

    def _rows_in_sight(self) -> int:
        """Data rows on screen: the grid's own height, or less where a pane clips a grid taller
        than itself (the steps at T = 64), which PageDown must not page past."""
        rows = self.scrollable_content_region.height - 1  # the header
        shown = self.shown_region().intersection(self.scrollable_content_region).height
        return max(1, min(rows, shown - 1)) if shown else max(1, rows)

    def follow_cursor(self) -> None:
        """After a resize: the grid scrolls to its cursor, then the panes around it do."""
        self._scroll_to_cursor()
        self.call_after_refresh(self.reveal_cursor)

    def reveal_cursor(self) -> None:
        self.reveal_cell(self.cursor_row, self.cursor_col)

    def reveal_cell(self, row: int, col: int) -> None:
        """Scroll the panes around the grid until the cell is on screen: a table taller than
        its pane (the steps at T = 16 in a short window) does not scroll itself. With it, where
        they fit, the column header and the title of the box the grid sits in: a cell alone at
        the top edge does not say which column it is. The walk up is Textual's
        scroll_to_widget's, from the cell instead of the widget, and leaves each pane by its
        whole scroll offset (a pane already scrolled moves the cell by that too)."""
        if not self.n_rows or not self.is_mounted:
            return
        self.row_into_view(row)
        sx, sy = self.scroll_offset
        top, _, _, left = self.styles.gutter
        x = left + self.label_width + col * self.cell_width - sx
        cell = Region(max(left, x), top + 1 + row - sy, self.cell_width, 1)
        # smallest first: the cell; with the line above, where the header is drawn when the
        # grid's top is out of sight; from the grid's top (header, own border); from the box's
        spans = [cell, Region(cell.x, max(0, cell.y - 1), cell.width, 2),
                 Region(cell.x, 0, cell.width, cell.bottom)]
        spans = [span.translate(self.virtual_region.offset) for span in spans]
        widget: Widget = self
        while isinstance(widget.parent, Widget):
            container = widget.parent
            room = container.scrollable_content_region.height
            fits = [span for span in spans if span.height <= room] or spans[:1]
            container.scroll_to_region(fits[-1], animate=False, immediate=True)
            into_parent = (Offset(*container.styles.margin.top_left)
                           + Offset(*container.styles.border.spacing.top_left)
                           + container.virtual_region_with_margin.offset
                           - container.scroll_offset)
            spans = [span.translate(into_parent) for span in spans]
            if widget is self and not container.allow_vertical_scroll:  # a box around the grid
                box_top = container.virtual_region.y
                spans.append(Region(spans[0].x, box_top, cell.width, spans[0].bottom - box_top))
            widget = container

    def row_into_view(self, row: int, last: int | None = None) -> None:
        """Scroll the grid's own rows (under its header, which stays) the least that shows
        rows ``row`` to ``last``, or as many of them as fit from ``row``: a grid kept shorter
        than its rows (a lesson's map at 80 x 24) scrolls itself."""
        sy = self._top_showing(row, row if last is None else max(row, last))
        if sy != self.scroll_offset.y:
            self.scroll_to(y=sy, animate=False, immediate=True)

    def _top_showing(self, row: int, last: int) -> int:
        """The least move of the first row in view that shows rows ``row`` to ``last``, or as
        many as fit from ``row``; the header keeps a row of the region."""
        shown = max(1, self.scrollable_content_region.height - 1)
        sy = self.scroll_offset.y
        if row < sy or last - row + 1 > shown:
            return row
        return last - shown + 1 if last >= sy + shown else sy

    def _scroll_to_cursor(self) -> None:
        region = self.scrollable_content_region
        sx = self.scroll_offset.x
        sy = self._top_showing(self.cursor_row, self.cursor_row)
        room = max(self.cell_width, region.width - self.label_width)
        left = self.cursor_col * self.cell_width
        if left < sx:
            sx = left
        elif left + self.cell_width > sx + room:
            sx = left + self.cell_width - room
        self.scroll_to(sx, sy, animate=False)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
