"""A grid's column header stays on the top line in sight of a pane scrolled past the grid's
first line: once, never over the focused cursor, and moved with the grid when the panes
around it change without scrolling."""

from __future__ import annotations

import pytest
from screen_text import screen_lines

from attn_tui.tui.app import make_app
from attn_tui.tui.widgets.matrix_editor import MatrixEditor


async def settle(pilot) -> None:
    for _ in range(3):
        await pilot.pause()


def _column(app, grid) -> list[tuple[int, str]]:
    """The screen lines of the column the grid is in, from its pane's top, as (y, text)."""
    pane = app.screen.query_one("#inputs")
    x0, x1 = pane.region.x, pane.region.right
    return [(y, line[x0:x1]) for y, line in enumerate(screen_lines(app))
            if pane.region.y <= y < pane.region.bottom]


def _headers(app, grid) -> list[int]:
    """The lines in sight showing the grid's header (its corner blank, then d1 d2 …)."""
    x = grid.region.x - app.screen.query_one("#inputs").region.x
    return [y for y, text in _column(app, grid)
            if text[x:x + grid.label_width].strip() == "" and text[x:].split()[:2] == ["d1", "d2"]
            and grid.region.y <= y < grid.region.bottom]


async def test_a_grid_moved_by_a_message_above_it_keeps_one_header_on_its_top_line():
    """Scrolled past K's first line, a refused value's message under Q moved K two lines down
    with nothing scrolling: K's header was then drawn twice (its old line kept), and when the
    message went, K showed no header at all and a click on its top row did nothing."""
    app = make_app(preset="lecture-head")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter", "x")
        await settle(pilot)
        inputs = app.screen.query_one("#inputs")
        k = app.screen.query_one("#editor-k", MatrixEditor).grid
        inputs.scroll_to(y=k.region.y - inputs.region.y + inputs.scroll_y + 3, animate=False)
        await settle(pilot)
        top = inputs.region.y
        assert _headers(app, k) == [top]
        before = k.region.y
        await pilot.press("enter")  # 'x' refused: the message shows under Q's row
        await settle(pilot)
        assert k.region.y == before + 2  # moved down, with nothing scrolled
        headers = _headers(app, k)
        assert len(headers) <= 1 and (not headers or headers == [max(top, k.region.y + 1)])
        await pilot.press("escape")  # the message goes, K moves back up
        await settle(pilot)
        assert _headers(app, k) == [top]


async def test_the_header_never_covers_the_focused_cursor():
    """One wheel notch over Q put its header over t1, where the cursor was: no cursor in sight."""
    app = make_app(preset="random")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        q = app.screen.query_one("#editor-q", MatrixEditor).grid
        assert app.focused is q and q.cursor_row == 0
        inputs = app.screen.query_one("#inputs")
        inputs.scroll_to(y=inputs.scroll_y + (q.region.y - inputs.region.y) + 1, animate=False)
        await settle(pilot)
        top = dict(_column(app, q))[inputs.region.y][q.region.x - inputs.region.x:]
        assert top.split()[0] == "t1" and _headers(app, q) == []
        await pilot.press("down")  # the cursor moves on: the grid's top comes back with it
        await settle(pilot)
        assert len(_headers(app, q)) == 1


@pytest.mark.parametrize(("line", "marked"), [
    # the last column ends the line exactly: its label moves two cells, a blank kept before it
    ("     α·v1     α·v2     α·v3", "     α·v1     α·v2   α·v3 →"),
    # one blank of the next column in sight: one cell, not "α·v3→"
    ("     α·v1     α·v2     α·v3 ", "     α·v1     α·v2    α·v3 →"),
    ("     α·v1     α·v2     α·v3  ", "     α·v1     α·v2     α·v3 →"),
    # two blanks only between labels: one cell, arrow against it, not "2:the3:cat →"
    ("  1:CLS  2:the  3:cat", "  1:CLS  2:the 3:cat→"),
    ("  1:CLS   2:the   3:cat", "  1:CLS   2:the 3:cat →"),
    # no blank to spare: the label gives way, the arrow is never left out
    (" 1:CLS 2:the 3:cat", " 1:CLS 2:the 3:c…→"),
    (" 1:CLS 2:the 3:c", " 1:CLS 2:the 3:→"),
])
def test_the_arrow_after_a_cut_header_never_joins_two_labels(line, marked):
    from rich.segment import Segment
    from rich.style import Style

    from attn_tui.tui.widgets.grid_view import GridView

    class Wide(GridView):
        n_cols = 32  # more columns than the line shows

    grid = Wide(cell_width=9, corner="key")
    _, cells = grid._mark_cut("key", [Segment(line)], 0, len(line), Style())
    assert "".join(seg.text for seg in cells) == marked
