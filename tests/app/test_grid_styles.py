"""How a grid styles a cell: a highlight keeps a heat cell's colours, the cursor does not."""

from __future__ import annotations

from attn_tui.app import make_app
from attn_tui.widgets.heatmap import Heatmap


def _cell_segment(grid, row: int, col: int):
    """The segment drawn for (row, col): labels first, then one segment per cell."""
    strip = grid.render_line(row + 1)  # line 0 is the header
    return list(strip)[1 + col]


async def test_a_highlighted_heat_cell_keeps_its_contrast_colours():
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        heat = pilot.app.screen.query_one(Heatmap)
        plain = _cell_segment(heat, 0, 0).style
        heat.set_highlights(frozenset({(0, 0)}))
        marked = _cell_segment(heat, 0, 0).style
        assert marked.bgcolor == plain.bgcolor and marked.color == plain.color
        assert marked.bold and marked.underline and not plain.underline


async def test_the_cursor_is_the_grids_colours_reversed_on_any_cell():
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        heat = pilot.app.screen.query_one(Heatmap)
        heat.focus()
        await pilot.pause()
        base = heat.style_of("base")
        cursor = _cell_segment(heat, heat.cursor_row, heat.cursor_col).style
        other = _cell_segment(heat, 0, 1).style
        assert cursor.reverse and (cursor.color, cursor.bgcolor) == (base.color, base.bgcolor)
        assert other.bgcolor != base.bgcolor  # a heat cell: its own colour
