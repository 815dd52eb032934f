"""How a grid styles a cell: a highlight keeps a heat cell's colours, the cursor does not."""

from __future__ import annotations

from attn_tui.tui.app import make_app
from attn_tui.tui.widgets.heatmap import Heatmap


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


async def test_every_grid_line_is_the_grids_width_whatever_the_labels_and_scroll():
    # token names may be wide characters (two cells each): a line must still fill the grid's
    # width exactly, or the frame around it is pushed out of line
    from textual.app import App

    from attn_tui.tui.widgets.grid_view import GridView

    class Numbers(GridView):
        def cell_text(self, row: int, col: int) -> str:
            return self.number(row + col / 10)

    class One(App):
        def compose(self):
            yield Numbers(cell_width=7, label_width=6)

    for size in ((50, 8), (90, 8)):  # scrolled, and every column in view
        await _lines_fill_the_grid(One(), size)


async def _lines_fill_the_grid(app, size) -> None:
    from rich.cells import cell_len

    async with app.run_test(size=size) as pilot:
        grid = pilot.app.query_one("Numbers")
        rows = ["東京都市", *(f"r{i}" for i in range(1, 5))]
        grid.set_shape(rows, ["猫", "is", "東京都市", "x", "ab", "c", "é", "z"])
        await pilot.pause()
        for scroll_x in (0, 3, 7, 11, 20):
            grid.scroll_to(scroll_x, 0, animate=False)
            await pilot.pause()
            # the width as it is now: the new shape's scrollbars may come a layout later
            width = grid.scrollable_content_region.width
            for y in range(6):
                drawn = sum(cell_len(seg.text) for seg in grid.render_line(y))
                assert drawn == width, (scroll_x, y)
        grid.scroll_to(0, 0, animate=False)
        await pilot.pause()
        assert grid.render_line(2).text.split()[:3] == ["r1", "1.0000", "1.1000"]
        # each column's name sits over its column: label, then one cell_width per name
        head = list(grid.render_line(0))
        assert [cell_len(seg.text) for seg in head[1:4]] == [7, 7, 7]
        # cut to six cells at most, never inside a character, keeping its end
        assert head[3].text == "  東…市"


async def test_a_cell_cut_by_the_edge_is_blank_never_part_of_a_number():
    # scrolled 3 columns into a cell, "1.2029" showed as "029": another number
    from textual.app import App

    from attn_tui.tui.widgets.grid_view import GridView

    class Numbers(GridView):
        def cell_text(self, row: int, col: int) -> str:
            return self.number(1.2029 + row + col)

    class One(App):
        def compose(self):
            yield Numbers(cell_width=8, label_width=4)

    async with One().run_test(size=(45, 8)) as pilot:
        grid = pilot.app.query_one(Numbers)
        grid.set_shape([f"r{i}" for i in range(4)], [f"c{j}" for j in range(12)])
        await pilot.pause()
        whole = {grid.cell_text(r, c) for r in range(4) for c in range(12)}
        for scroll_x in range(0, 17):
            grid.scroll_to(scroll_x, 0, animate=False)
            await pilot.pause()
            for y in range(1, 5):
                numbers = grid.render_line(y).text.split()[1:]
                assert numbers and set(numbers) <= whole, (scroll_x, numbers)
            heads = grid.render_line(0).text.split()
            assert set(heads) <= {f"c{j}" for j in range(12)}, (scroll_x, heads)


def test_a_long_label_loses_its_middle_and_keeps_its_end():
    from attn_tui.tui.widgets.grid_view import cut_label

    # position_01 … position_03 all read "position_" before, with no mark that they were cut
    assert [cut_label(f"position_0{i}", 9) for i in (1, 2, 3)] == [
        "posit…_01", "posit…_02", "posit…_03"]
    assert cut_label("who", 9) == "who" and cut_label("position_01", 11) == "position_01"
    assert cut_label("日本語のトークン", 7) == "日本…ン"  # wide characters: 7 cells, not 7 chars
    assert cut_label("日本語のトークン", 6) == "日…ン"  # 5 cells: 本 would be split


async def test_long_token_names_leave_the_alpha_column_in_view_at_80x24():
    from dataclasses import replace

    from attn_tui.core import state
    from attn_tui.tui.app import make_app

    names = ("position_01", "position_02", "position_03")
    ws = replace(state.random_workspace(3, 3, 0), query_tokens=names, key_tokens=names)
    app = make_app(workspace=ws)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#steps")
        room = table.scrollable_content_region.width
        # q·k, ÷√d_k, exp and α fit beside the names; the α·v columns may scroll. The cells
        # narrow to 8 columns rather than cut the names to fewer than they want (10)
        assert table.label_width + 4 * table.cell_width <= room
        assert table.cell_width == 8 and table.label_width == 10
