"""Edit one of Q, K, V: a grid of cells with token labels, and an edit line under it.

Typing a number or pressing Enter opens the edit line; Enter commits, Escape cancels. A value
that does not parse stays in the edit line with a message; the cell keeps its old value.
"""

from __future__ import annotations

import math

from rich.cells import cell_len
from rich.style import Style
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Static

from attn_tui.core.parse import MAX_LEN, parse_cell
from attn_tui.report.fmt import exact, squeeze
from attn_tui.tui import bindings
from attn_tui.tui.keys import (
    AfterKeys,
    KeysInOrder,
    forward_if_unfocused,
    run_after_keys,
)
from attn_tui.tui.roles import HoldsForQuestion, SettlesEdits
from attn_tui.tui.widgets.edit_buffer import EditBuffer
from attn_tui.tui.widgets.editor_message import EditorMessage
from attn_tui.tui.widgets.grid_view import GridView, cut_label
from attn_tui.tui.widgets.titles import set_border_text

STARTS_EDIT = set("0123456789-.+−")


def cell_text(x: float, width: int = 5) -> str:
    """A typed value, short: 0.4 not 0.4000. Too wide, it keeps its sign and leading digits:
    fewer decimals (-1234), then e-notation (-1e-4, 1.2e5), never a cut: a number too small
    for that is ≈0 (the editor's border shows it in full when the cursor is on it). Rounded
    to a whole number, it keeps a decimal where one fits: -0.99863 is -1.0, not the -1 typed."""
    text = _cell_text(x, width)
    if (math.isfinite(x) and not float(x).is_integer() and len(text) + 2 <= width
            and not any(c in text for c in ".e≈")):
        return text + ".0"
    return text


def _cell_text(x: float, width: int) -> str:
    # as many decimals as fit: 100.25 in five columns is 100.2 (significant digits would
    # round it to 100)
    for decimals in range(4, -1, -1):
        text = _short_fixed(x, decimals)
        if len(text) <= width and (float(text) != 0 or x == 0):
            return text
    mantissa, _, exp = f"{x:.3g}".partition("e")  # three significant digits: 1.17
    text = f"{mantissa}e{int(exp)}" if exp else mantissa
    if len(text) <= width:
        return text
    text = squeeze(x, width, 3, trim=True)
    if len(text) > width:  # -1e-300 in five columns: cut, it read as -1e-3 (the border says it)
        return "-≈0" if x < 0 else "≈0"
    return text


def _short_fixed(x: float, decimals: int) -> str:
    """Fixed decimals without trailing zeros; -0 as 0."""
    text = f"{x:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class MatrixGrid(GridView):
    """The cells of one matrix."""

    KEYS_IN_ORDER = False  # MatrixEditor.on_key keeps them in order, with the typing

    def __init__(self, **kwargs) -> None:
        super().__init__(cell_width=6, label_width=7, fit_labels=10, **kwargs)
        self.values: tuple[tuple[float, ...], ...] = ()
        self.editor: MatrixEditor | None = None

    def watch_scroll_x(self, old: float, new: float) -> None:
        super().watch_scroll_x(old, new)
        if self.editor is not None:  # its lower edge names the columns off to the side
            self.editor.cursor_followed()

    @property
    def is_typing(self) -> bool:
        """True while a cell is being typed into (keys are text, not commands): ``TypedInto``."""
        return self.editor is not None and self.editor.editing is not None

    def cell_text(self, row: int, col: int) -> str:
        ed = self.editor
        if ed is not None and ed.editing == (row, col):
            return ed.buffer.shown(self.cell_width - 1)
        return cell_text(self.values[row][col], self.cell_width - 1)

    def cell_style(self, row: int, col: int) -> Style | None:
        ed = self.editor
        if ed is not None and ed.editing == (row, col):
            return Style(underline=True, bold=True)
        return None

    def clicked(self, row: int, col: int, chain: int) -> None:
        ed = self.editor
        if ed is not None and not ed.cell_clicked(row, col, chain):
            return
        super().clicked(row, col, chain)


class MatrixEditor(KeysInOrder, Vertical, can_focus=False):
    """Q, K or V. Posts what the learner asks for; the screen decides what it means."""

    BINDINGS = bindings.EDITOR
    DEFAULT_CSS = """
    MatrixEditor { height: auto; border: round $foreground 35%; padding: 0 0;
                   border-title-color: $foreground; border-subtitle-color: $foreground-muted; }
    MatrixEditor:focus-within { border: round $border; }
    MatrixEditor > .editor--message { display: none; height: auto; color: $text-error; }
    MatrixEditor.-invalid > .editor--message { display: block; }
    """

    class CellChanged(EditorMessage):
        """A cell was given a new, valid value."""

        def __init__(self, editor: Widget, row: int, col: int, value: float) -> None:
            self.row = row
            """The cell's row (its token)."""
            self.col = col
            """The cell's column (its dimension)."""
            self.value = value
            """The value it was given."""
            super().__init__(editor)

    class BlockPasted(EditorMessage):
        """Several numbers were pasted onto the grid: they go into the cells from the cursor."""

        def __init__(self, editor: Widget, row: int, col: int,
                     block: tuple[tuple[float, ...], ...]) -> None:
            self.row = row
            """The cursor's row: the block's top."""
            self.col = col
            """The cursor's column: the block's left edge."""
            self.block = block
            """The numbers, row by row."""
            super().__init__(editor)

    class StructureRequested(EditorMessage):
        """Add or remove a row (token) or a column (dimension) at the cursor."""

        def __init__(self, editor: Widget, op: str, row: int, col: int) -> None:
            self.op = op
            """What to do: the action's name (add or remove a row or a column)."""
            self.row = row
            """The cursor's row."""
            self.col = col
            """The cursor's column."""
            super().__init__(editor)

    class RowSelected(EditorMessage):
        """The cursor moved to another row (token) of the matrix."""

        def __init__(self, editor: Widget, row: int) -> None:
            self.row = row
            """The row the cursor is on now."""
            super().__init__(editor)

    def __init__(self, matrix: str, title: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.matrix = matrix
        self.dtype = "float64"
        self.border_title = title
        self.grid = MatrixGrid(id=f"grid-{matrix.lower()}")
        self.grid.editor = self
        self.editing: tuple[int, int] | None = None
        self.buffer = EditBuffer()
        self._settled = True  # False after a commit, until the screen answers with show()
        # what was sent (a value, a row added, a paste) and not yet taken by the screen, in
        # order: a key's binding run early (see key_order) has the screen take these first
        self.in_flight: list[EditorMessage] = []
        self._stale_rows: tuple[int, ...] = ()  # the row of that commit
        self._keys_due = False  # the key bar changes with the commit's answer, not before it

    def compose(self) -> ComposeResult:
        yield self.grid

    def _message_line(self) -> Static:
        """The error line under the grid, mounted the first time a value is refused: most
        sessions never need it, and every widget adds to the first screen's time."""
        try:
            return self.query_one(".editor--message", Static)
        except NoMatches:
            line = Static("", classes="editor--message", markup=False)  # it quotes the input
            self.mount(line)
            return line

    def show(self, values, row_labels, d_labels, dtype: str = "float64") -> None:
        """Put new values on screen; keeps the cursor where it was if it still fits. ``dtype``
        (the workspace's) is how the border writes a value in full."""
        g = self.grid
        shape_changed = (len(values), len(values[0])) != (g.n_rows, g.n_cols) or tuple(
            row_labels) != tuple(g.row_labels)
        dtype_changed, self.dtype = dtype != self.dtype, dtype
        if values is g.values and not shape_changed and self._settled:
            # an edit elsewhere: this matrix is the same object, nothing to redraw
            if dtype_changed and self.editing is None:
                self._subtitle(self._resting_subtitle())
            return
        old, g.values = g.values, values
        stale = set(self._stale_rows)
        self._settled, self._stale_rows = True, ()
        if self._keys_due:  # the key bar's Set/Cancel give way to the grid's keys: in the frame
            self._keys_due = False  # after the new α's, which they would make 1 ms later
            self.call_after_refresh(self.refresh_bindings)
        if shape_changed:
            g.set_shape(row_labels, d_labels)
            if self.editing is not None and not (self.editing[0] < g.n_rows
                                                 and self.editing[1] < g.n_cols):
                # the cell being typed into was removed (or a smaller example loaded): a
                # commit now would write outside the matrix
                typed = self.buffer.text
                self.cancel_edit()
                self.notify(f"The {self.matrix} cell you were typing into is gone"
                            + (f"; {typed[:24]!r} was not entered." if typed else "."),
                            severity="warning", timeout=4, markup=False)
        else:
            # a typed cell changes one row: repaint that row, not the whole grid
            pairs = enumerate(zip(old, values, strict=True))
            stale.update(r for r, (a, b) in pairs if a is not b and a != b)
            if len(stale) > 4:
                g.invalidate()
            else:
                for row in stale:
                    g.refresh_row(row)
        if self.editing is None:
            self._subtitle(self._resting_subtitle())

    def on_resize(self) -> None:
        # the first values arrive before the first layout, when no name fitted beside a value;
        # and the columns in sight change with the width: once the grid has its own
        if self.editing is None and self.grid.values:
            self._subtitle(self._resting_subtitle())
            self.call_after_refresh(self.cursor_followed)

    def unanswered(self) -> None:
        """The screen could not take the value sent (its cell is gone): no show() follows."""
        if self._keys_due:
            self._keys_due = False
            self.refresh_bindings()

    def _subtitle(self, text: str | Content) -> None:
        set_border_text(self, subtitle=text)

    def _resting_subtitle(self) -> str:
        """R×C; and where the cursor's cell shows its value rounded or cut (-1e5 for -123456,
        -1e-300 in five columns), that value in full, not only while it is typed."""
        g = self.grid
        # "→ d4 · 4×4": a lesson's snug panes have no sideways scrollbar to say so
        shape = f"{g.n_rows}×{g.n_cols}"
        size = " · ".join((*g.hidden_hints(), shape))
        try:
            x = g.values[g.cursor_row][g.cursor_col]
        except IndexError:
            return size
        room = g.cell_width - 1
        shown = cell_text(x, room)
        if "≈" not in shown and float(shown) == x:
            return size
        # the value whole (repr: the shortest text that reads back as it), then what fits of
        # the cell's name and the size: a cut value would mislead as the cell did
        value = exact(x, self.dtype)
        room = self.size.width - 4  # the border's width less its corners, a space each side
        label = g.row_labels[g.cursor_row]
        tail = f"·d{g.cursor_col + 1} = {value}"
        name = f"{cut_label(label, 8)}{tail}"
        # the cell's name as far as it fits: "= 0.3333333333333333" alone said not which cell
        spare = room - cell_len(tail)  # for the row's name, cut (3 cells at least: "w…o")
        cut = f"{cut_label(label, spare)}{tail}" if spare >= 3 else name
        for text in (f"{name} · {size}", f"{name} · {shape}", name, cut, tail[1:], f"= {value}"):
            if cell_len(text) <= room:
                return text
        return value

    @property
    def message(self) -> str:
        try:
            return str(self.query_one(".editor--message", Static).render())
        except NoMatches:
            return ""

    # ---- editing, in place: the grid keeps focus, so nothing is laid out again per key
    def on_after_keys(self, event: AfterKeys) -> None:
        run_after_keys(event)  # the keys before it have been read here

    def hands_back(self, event: events.Key) -> bool:
        return forward_if_unfocused(self.grid, event)  # the grid has the focus, not the editor

    async def read_own_key(self, event: events.Key) -> bool:
        if self.editing is None:
            if event.character in STARTS_EDIT:
                self._swallow(event)
                self.begin_edit(event.character)
                return True
            if event.key == "enter":
                self._swallow(event)
                self.begin_edit(None)
                return True
            if event.key in ("backspace", "delete"):  # as in a spreadsheet: the cell opened
                self._swallow(event)  # empty, to type its new value (Escape keeps the old)
                self.begin_edit("")
                return True
            return False
        key, buf = event.key, self.buffer
        if key == "enter":
            self.commit()
        elif key in ("escape", "ctrl+z"):  # undo while typing undoes the typing, not an edit
            self.cancel_edit()
        elif key == "ctrl+y":
            pass  # nothing typed to redo; redoing an edit under an open cell would confuse
        elif key == "backspace":
            buf.backspace()
        elif key == "delete":
            buf.delete()
        elif key in ("left", "right", "home", "end"):
            buf.move(key)
        elif key == "ctrl+u":
            buf.clear()
        elif event.is_printable and event.character:
            buf.insert(event.character)
        elif key in ("up", "down", "pageup", "pagedown"):
            pass  # the cursor stays on the cell being edited
        else:  # tab, ctrl+q, F1 ... keep their meaning
            return False
        self._swallow(event)
        self._show_buffer()
        return True

    def on_paste(self, event: events.Paste) -> None:
        """On the grid, several numbers fill cells from the cursor (see attn_tui.core.paste); one
        value, or text, is typed into the cell, where Enter takes or refuses it."""
        if not self.grid.has_focus:
            return
        event.stop()
        if self.editing is None:
            from attn_tui.core.paste import (  # on first paste, not at start-up
                BlockError,
                paste_too_long,
                read_block,
            )

            try:
                block = read_block(event.text)
            except BlockError as exc:
                self.notify(f"Nothing pasted: {exc}.", title=f"Paste into {self.matrix}",
                            severity="warning", timeout=6, markup=False)
                return
            if block is not None:
                g = self.grid
                self._send(self.BlockPasted(self, g.cursor_row, g.cursor_col, block))
                return
            if len(event.text.strip()) > MAX_LEN:  # no use in a cell's edit line
                self.notify(f"Nothing pasted: {paste_too_long(event.text)}.",
                            title=f"Paste into {self.matrix}", severity="warning", timeout=6,
                            markup=False)
                return
            self.begin_edit("")
        self.buffer.insert(event.text.strip())  # a copied cell often ends in a line break
        self._show_buffer()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        # leaving the grid mid-edit (Tab, a click) keeps a valid value; an invalid one stays
        # in the buffer with its message, so nothing typed is lost
        if self.editing is not None and not self.has_class("-invalid") and self.app.app_focus:
            self.commit()  # (the terminal window losing focus is not leaving: typing goes on)

    @staticmethod
    def _swallow(event: events.Key) -> None:
        event.stop()
        event.prevent_default()

    def cell_clicked(self, row: int, col: int, chain: int) -> bool:
        """A click on a cell of this matrix: True if the cursor goes there. A value typed into
        another cell is stored first, as Tab away stores it; one that is not a number stays
        open with its message, and the cursor with it. A double click opens the cell."""
        if self.editing is not None and self.editing != (row, col) and not self.commit():
            return False
        if chain == 2 and self.editing is None:
            self.grid.move_cursor(row, col)
            self.begin_edit(None)
            return False
        return self.editing is None

    def action_edit(self) -> None:
        if self.editing is None:
            self.begin_edit(None)

    def action_typed(self, what: str) -> None:
        if what == "set":
            self.commit()
        else:
            self.cancel_edit()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "edit":
            return self.editing is None
        if action == "typed":
            return self.editing is not None
        return super().check_action(action, parameters)

    def begin_edit(self, first: str | None, caret: int | None = None) -> None:
        """Open the cell under the cursor: with ``first`` typed (the caret after it, or at
        ``caret``), or its value selected."""
        g = self.grid
        if not g.n_rows:
            return
        screen = self.screen
        if isinstance(screen, HoldsForQuestion) and screen.held():  # a lesson's question
            return  # keeps the numbers
        if self.in_flight and isinstance(screen, SettlesEdits):  # `7 Enter Enter`: open on
            screen.settle_edits()  # the 7, just sent
        self.editing = (g.cursor_row, g.cursor_col)
        self.refresh_bindings()  # a lesson's keys stand aside while a cell is typed into
        if first is None:
            self.buffer = EditBuffer.opened_with(repr(g.values[g.cursor_row][g.cursor_col]), True)
        else:
            self.buffer = EditBuffer.opened_with(first, False)
            if caret is not None:
                self.buffer.caret = max(0, min(caret, len(first)))
        self._show_buffer()
        self.grid.call_after_refresh(self.grid.reveal_cursor)  # no typing into a hidden cell

    def _show_buffer(self) -> None:
        if self.editing is None:
            return
        row, col = self.editing
        where = f"{self.grid.row_labels[row]}·d{col + 1} = "
        room = max(6, self.size.width - cell_len(where) - 6)  # a token may be wide characters
        self._subtitle(Content.from_markup("[b $text]$where$value[/]", where=where,
                                           value=self.buffer.shown(room)))
        self.grid.refresh_row(row)

    def commit(self) -> bool:
        """Enter: store a valid value; keep an invalid one in the buffer, with a message."""
        taken = self.take_edit()
        if taken is None:
            return False
        self._send(self.CellChanged(self, *taken))
        return True

    def _send(self, change: EditorMessage) -> None:
        self.in_flight.append(change)
        del self.in_flight[:-16]  # taken or lost by then
        self.post_message(change)

    def take_edit(self) -> tuple[int, int, float] | None:
        """Close the open cell and return (row, col, value) for the screen to store; None if
        no cell is open, or if its text is not a number (then it stays open, with why)."""
        if self.editing is None:
            return None
        parsed = parse_cell(self.buffer.text)
        if not parsed.ok:
            row, col = self.editing
            shown = cell_text(self.grid.values[row][col])
            self._message_line().update(f"✗ {parsed.error}. Kept {shown}.")
            self.add_class("-invalid")
            return None
        row, col = self.editing
        self._finish(keys_now=False)
        # No repaint here: the screen stores the value and show()s it, and the new value and
        # its α go out in one frame (the key bar too). A frame now would start Textual's 60 fps
        # pacing clock and hold the α frame back by up to two frame periods.
        self._settled, self._stale_rows = False, (row,)
        assert parsed.value is not None
        return row, col, parsed.value

    def cancel_edit(self) -> bool:
        if self.editing is None:
            return False
        row, _ = self.editing
        self._finish()
        g = self.grid
        self._subtitle(self._resting_subtitle())
        g.refresh_row(row)
        return True

    def _finish(self, keys_now: bool = True) -> None:
        self.editing = None
        if keys_now:
            self.refresh_bindings()
        else:
            self._keys_due = True
        self.buffer = EditBuffer()
        self.remove_class("-invalid")

    # ---- structure and selection
    def action_structure(self, op: str) -> None:
        if self.editing is None:
            g = self.grid
            self._send(self.StructureRequested(self, op, g.cursor_row, g.cursor_col))

    def cursor_followed(self) -> None:
        """The screen moved the cursor to follow its state (quietly, no CursorMoved): the
        border's name of the cursor's cell follows too."""
        if self.editing is None:
            self._subtitle(self._resting_subtitle())

    @on(GridView.CursorMoved)
    def _moved(self, event: GridView.CursorMoved) -> None:
        event.stop()
        if self.editing is None:
            self._subtitle(self._resting_subtitle())
        self.post_message(self.RowSelected(self, event.row))
