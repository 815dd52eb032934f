"""A table of ready-made strings on the grid: the labs' number tables.

The screen formats every cell (so the numbers shown are the numbers a test can read back from
``cells``); the table only lays them out, marks rows as totals or muted, and flags cells with a
leading ``›`` so a flag never depends on colour.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style

from attn_tui.tui.widgets.grid_view import GridView

ROW_STYLES = ("total", "muted", "label")


class TextTable(GridView):
    DEFAULT_CSS = """
    TextTable { height: auto; }
    """
    # a → closes the header while columns are hidden to the right: the labs' boxes keep their
    # lower edges for their own words, and at 64 columns the params lesson's share column
    # went with only a scrollbar's sliver to say so
    mark_cut_columns = True

    def __init__(self, *, cell_width: int = 10, label_width: int = 8, corner: str = "",
                 cursor: bool = False, **kwargs) -> None:
        super().__init__(cell_width=cell_width, label_width=label_width, corner=corner, **kwargs)
        self.cells: tuple[tuple[str, ...], ...] = ()
        self.row_styles: dict[int, str] = {}
        self.show_cursor = cursor
        self.can_focus = cursor

    def show(self, row_labels: Sequence[str], col_labels: Sequence[str],
             cells: Sequence[Sequence[str]], *, row_styles: dict[int, str] | None = None,
             flagged: frozenset[tuple[int, int]] = frozenset()) -> None:
        self.cells = tuple(tuple(r) for r in cells)
        self.row_styles = dict(row_styles or {})
        self.highlights = flagged
        self.set_shape(row_labels, col_labels)
        self.invalidate()

    def cell_text(self, row: int, col: int) -> str:
        cells = self.cells[row] if row < len(self.cells) else ()
        return cells[col] if col < len(cells) else ""

    def cell_style(self, row: int, col: int) -> Style | None:
        kind = self.row_styles.get(row)
        if kind in ("total", "muted"):
            return self.style_of(kind)
        return None

    def row_label_style(self, row: int) -> Style:
        if self.row_styles.get(row) == "total":
            return self.style_of("total")
        return super().row_label_style(row)

    def column(self, col: int) -> list[str]:
        return [self.cell_text(r, col) for r in range(self.n_rows)]
