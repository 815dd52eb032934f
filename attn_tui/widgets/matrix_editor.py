"""Edit one of Q, K, V: a grid of cells with token labels, and an edit line under it.

Typing a number or pressing Enter opens the edit line; Enter commits, Escape cancels. A value
that does not parse stays in the edit line with a message; the cell keeps its old value.
"""

from __future__ import annotations

from rich.style import Style
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

from attn_tui.parse import parse_cell
from attn_tui.widgets.grid_view import GridView

STARTS_EDIT = set("0123456789-.+−")


def cell_text(x: float, width: int = 5) -> str:
    """A typed value, short: 0.4 not 0.4000; falls back to 3 significant digits when long."""
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return text if len(text) <= width else f"{x:.3g}"


class MatrixGrid(GridView):
    """The cells of one matrix."""

    def __init__(self, **kwargs) -> None:
        super().__init__(cell_width=6, label_width=7, fit_labels=10, **kwargs)
        self.values: tuple[tuple[float, ...], ...] = ()

    def cell_text(self, row: int, col: int) -> str:
        return cell_text(self.values[row][col], self.cell_width - 1)

    def cell_style(self, row: int, col: int) -> Style | None:
        return None


class MatrixEditor(Vertical, can_focus=False):
    """Q, K or V. Posts what the learner asks for; the screen decides what it means."""

    BINDINGS = [
        Binding("enter", "edit", "Edit"),
        Binding("a", "structure('add_row')", "Add token", show=False),
        Binding("x", "structure('remove_row')", "Remove token", show=False),
        Binding("A", "structure('add_col')", "Add dim", show=False),
        Binding("X", "structure('remove_col')", "Remove dim", show=False),
    ]
    DEFAULT_CSS = """
    MatrixEditor { height: auto; border: round $border-blurred; padding: 0 0;
                   border-title-color: $foreground; border-subtitle-color: $foreground-muted; }
    MatrixEditor:focus-within { border: round $border; }
    MatrixEditor > Input { display: none; height: 1; border: none; padding: 0 1; }
    MatrixEditor.-editing > Input { display: block; }
    MatrixEditor > .editor--message { display: none; height: auto; color: $text-error; }
    MatrixEditor.-invalid > .editor--message { display: block; }
    """

    class CellChanged(Message):
        """A cell was given a new, valid value."""

        def __init__(self, editor: MatrixEditor, row: int, col: int, value: float) -> None:
            super().__init__()
            self.editor, self.row, self.col, self.value = editor, row, col, value

        @property
        def control(self) -> MatrixEditor:
            return self.editor

    class StructureRequested(Message):
        """Add or remove a row (token) or a column (dimension) at the cursor."""

        def __init__(self, editor: MatrixEditor, op: str, row: int, col: int) -> None:
            super().__init__()
            self.editor, self.op, self.row, self.col = editor, op, row, col

        @property
        def control(self) -> MatrixEditor:
            return self.editor

    class RowSelected(Message):
        def __init__(self, editor: MatrixEditor, row: int) -> None:
            super().__init__()
            self.editor, self.row = editor, row

        @property
        def control(self) -> MatrixEditor:
            return self.editor

    def __init__(self, matrix: str, title: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.matrix = matrix
        self.border_title = title
        self.grid = MatrixGrid(id=f"grid-{matrix.lower()}")
        self.editing: tuple[int, int] | None = None

    def compose(self) -> ComposeResult:
        yield self.grid
        yield Input(id=f"edit-{self.matrix.lower()}", compact=True, select_on_focus=False)
        yield Static("", classes="editor--message")

    def on_mount(self) -> None:
        self.query_one(Input).cursor_blink = False

    def show(self, values, row_labels, d_labels) -> None:
        """Put new values on screen; keeps the cursor where it was if it still fits."""
        g = self.grid
        shape_changed = (len(values), len(values[0])) != (g.n_rows, g.n_cols) or tuple(
            row_labels) != tuple(g.row_labels)
        g.values = values
        if shape_changed:
            g.set_shape(row_labels, d_labels)
        else:
            g.invalidate()
        self.border_subtitle = f"{len(values)}×{len(values[0])}"

    # ---- editing
    def on_key(self, event) -> None:
        if self.editing is None and self.grid.has_focus and event.character in STARTS_EDIT:
            event.stop()
            event.prevent_default()
            self.begin_edit(event.character)

    def action_edit(self) -> None:
        if self.editing is None:
            self.begin_edit(None)

    def begin_edit(self, first: str | None) -> None:
        g = self.grid
        if not g.n_rows:
            return
        self.editing = (g.cursor_row, g.cursor_col)
        current = g.values[g.cursor_row][g.cursor_col]
        box = self.query_one(Input)
        box.value = first if first is not None else repr(current)
        box.placeholder = f"{self.matrix}[{g.row_labels[g.cursor_row]}, {g.cursor_col + 1}]"
        box.tooltip = None
        self.add_class("-editing")
        self.border_subtitle = "Enter commits · Esc cancels"
        box.focus()
        box.cursor_position = len(box.value)
        if first is None:  # typing replaces the old value; arrows keep it for editing
            box.select_all()

    @on(Input.Submitted)
    def _commit(self, event: Input.Submitted) -> None:
        event.stop()
        if self.editing is None:
            return
        parsed = parse_cell(event.value)
        message = self.query_one(".editor--message", Static)
        if not parsed.ok:
            shown = cell_text(self.grid.values[self.editing[0]][self.editing[1]])
            message.update(f"✗ {parsed.error}. Kept {shown}.")
            self.add_class("-invalid")
            return
        row, col = self.editing
        self._finish()
        self.post_message(self.CellChanged(self, row, col, parsed.value))

    def cancel_edit(self) -> bool:
        if self.editing is None:
            return False
        self._finish()
        return True

    def _finish(self) -> None:
        self.editing = None
        self.remove_class("-editing", "-invalid")
        g = self.grid
        self.border_subtitle = f"{g.n_rows}×{g.n_cols}"
        self.grid.focus()

    def key_escape(self, event) -> None:
        if self.cancel_edit():
            event.stop()

    # ---- structure and selection
    def action_structure(self, op: str) -> None:
        if self.editing is None:
            g = self.grid
            self.post_message(self.StructureRequested(self, op, g.cursor_row, g.cursor_col))

    @on(GridView.CursorMoved)
    def _moved(self, event: GridView.CursorMoved) -> None:
        event.stop()
        self.post_message(self.RowSelected(self, event.row))
