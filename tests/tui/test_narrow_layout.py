"""Narrow windows: what the learner is looking at stays on screen (cursor, edit, map, lesson)."""

from __future__ import annotations

import pytest
from screen_text import screen_lines, screen_text

from attn_tui.tui.app import make_app
from attn_tui.tui.screens.dialogs.preset_modal import CHOICES
from attn_tui.tui.textual_compat import notifications, visible_region
from attn_tui.tui.widgets.grid_view import GridView


def _on_screen(grid: GridView, row: int, col: int) -> bool:
    """Is the cell (row, col) of ``grid`` inside the grid's own view and on the screen?"""
    sx, sy = grid.scroll_offset
    top, _, _, left = grid.styles.gutter
    x = grid.region.x + left + grid.label_width + col * grid.cell_width - sx
    y = grid.region.y + top + 1 + row - sy
    shown = visible_region(grid)  # (region, clip) as drawn
    if shown is None:
        return False
    # inside the panes' clip, and not under the grid's own scrollbars
    view = shown[1].intersection(grid.scrollable_content_region)
    return view.contains(x, y) and view.contains(x + grid.cell_width - 1, y)


async def test_the_step_table_cursor_stays_in_view_when_the_table_is_taller_than_its_pane():
    async with make_app(preset="mask").run_test(size=(60, 20)) as pilot:
        await pilot.press("D", "1", "6", "enter")
        await pilot.pause()
        steps = pilot.app.screen.query_one("#steps", GridView)
        steps.focus()
        await pilot.pause()
        for _ in range(12):
            await pilot.press("down")
        await pilot.pause()
        assert steps.cursor_row == 12
        assert _on_screen(steps, 12, steps.cursor_col)
        assert "t12" in screen_text(pilot.app)


async def test_a_cell_being_typed_into_stays_in_view_across_a_resize():
    async with make_app(preset="mask").run_test(size=(80, 24)) as pilot:
        await pilot.press("down", "down", "down", "right", "3", ".", "5")
        await pilot.pause()
        grid = pilot.app.screen.query_one("#grid-q", GridView)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.pause()
        assert _on_screen(grid, 3, 1)
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.screen.workspace.q[3][1] == 3.5


async def _focus_the_last_row_of_v(pilot) -> GridView:
    await pilot.press("tab", "tab", "down", "down", "down")
    await pilot.pause()
    grid = pilot.app.focused
    assert isinstance(grid, GridView) and grid.id == "grid-v"
    return grid


async def test_after_a_resize_the_focused_grid_is_brought_back_into_view():
    async with make_app(preset="mask").run_test(size=(60, 20)) as pilot:
        grid = await _focus_the_last_row_of_v(pilot)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.pause()
        assert _on_screen(grid, 3, 0)


async def test_v_brings_the_map_into_view_in_a_stacked_window():
    async with make_app(preset="mask").run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert "all queries" not in screen_text(pilot.app)  # below the fold
        await pilot.press("v")
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "all queries: scores" in text
        assert "q\\k" in text


async def test_a_tall_inputs_pane_still_shows_the_focused_cell_at_40x12():
    async with make_app(preset="lecture-head").run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        grid = pilot.app.screen.query_one("#grid-q", GridView)
        assert pilot.app.focused is grid
        assert _on_screen(grid, 0, 0)


async def test_token_names_are_not_cut_where_narrower_cells_leave_them_room():
    async with make_app(preset="select").run_test(size=(70, 24)) as pilot:
        await pilot.pause()
        steps = pilot.app.screen.query_one("#steps", GridView)
        text = screen_text(pilot.app)
        assert steps.cell_width == 8
        for name in ("dog", "truck", "barked"):
            assert f"│{name} " in text, name
        header = next(line for line in text.splitlines() if "q·k" in line)
        assert "α" in header


async def _step_table_focused(pilot, t: int) -> GridView:
    await pilot.press("D", *str(t), "enter")
    await pilot.pause()
    steps = pilot.app.screen.query_one("#steps", GridView)
    steps.focus()
    await pilot.pause()
    return steps


async def test_moving_back_up_the_step_table_brings_its_header_back():
    async with make_app(preset="random").run_test(size=(80, 24)) as pilot:
        steps = await _step_table_focused(pilot, 24)
        for key in ["down"] * 24 + ["up"] * 24:
            await pilot.press(key)
        await pilot.pause()
        assert steps.cursor_row == 0
        text = screen_text(pilot.app)
        assert "steps for query" in text  # the box's title
        assert any("q·k" in line and "exp" in line for line in text.splitlines())


async def test_page_down_in_a_step_table_taller_than_its_pane_pages_by_what_shows():
    async with make_app(preset="random").run_test(size=(80, 24)) as pilot:
        steps = await _step_table_focused(pilot, 64)
        await pilot.press("pagedown")
        await pilot.pause()
        assert 3 <= steps.cursor_row < 20  # a page of the rows in sight, not row 64 (sum)
        assert _on_screen(steps, steps.cursor_row, steps.cursor_col)


async def test_v_leaves_a_side_by_side_results_pane_where_it_was():
    async with make_app(preset="random").run_test(size=(80, 24)) as pilot:
        steps = await _step_table_focused(pilot, 16)
        for _ in range(5):
            await pilot.press("down")
        await pilot.pause()
        results = pilot.app.screen.query_one("#results")
        before = results.scroll_offset
        await pilot.press("v")
        await pilot.pause()
        assert results.scroll_offset == before
        assert _on_screen(steps, 5, steps.cursor_col)
        # the map's new view is below the fold: said, or v seemed to do nothing
        said = [str(n.message) for n in notifications(pilot.app)]
        assert said[-1] == "The map, below the step table, now shows scores (q·k ÷ √d_k)."


async def test_a_resize_while_help_is_open_still_brings_the_cursor_back():
    async with make_app(preset="mask").run_test(size=(80, 24)) as pilot:
        grid = await _focus_the_last_row_of_v(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        assert pilot.app.focused is grid
        assert _on_screen(grid, 3, 0)


async def _settle(pilot) -> None:
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    await pilot.pause()


async def test_under_14_rows_the_focused_map_shows_a_row_not_only_its_scrollbar():
    # 64 keys make the map scroll sideways; the results pane has 3 rows at 40 × 12 and 4 at 13
    for height in (12, 13):
        async with make_app().run_test(size=(40, height)) as pilot:
            await pilot.press("D", "6", "4", "enter")
            await _settle(pilot)  # the step table's 64 rows laid out
            heatmap = pilot.app.screen.query_one("#heatmap", GridView)
            heatmap.focus()
            await _settle(pilot)  # and the pane scrolled to the map
            assert heatmap.show_horizontal_scrollbar
            assert _on_screen(heatmap, 0, 0), height
            lines = screen_text(pilot.app).splitlines()
            assert any(line.startswith("│who ") and "0.0178" in line for line in lines), height


async def test_the_maps_header_ends_in_an_arrow_while_keys_are_off_to_the_right():
    """--preset random at 80×24 showed t0–t4 of six keys and no sum, with nothing to say so:
    the "→ t5 …" on the map's lower edge was below the window."""
    from attn_tui.tui.widgets.heatmap import Heatmap

    for preset, size, cut in (("random", (80, 24), True), ("one", (80, 24), False),
                              ("random", (160, 40), False)):
        async with make_app(preset=preset).run_test(size=size) as pilot:
            await pilot.pause()
            heatmap = pilot.app.screen.query_one(Heatmap)
            header = heatmap.render_line(0).text
            assert (heatmap.scroll_x + heatmap.scrollable_content_region.width
                    < heatmap.virtual_size.width) is cut
            assert header.endswith("→") is cut, (preset, size, header)
            assert (header in screen_text(pilot.app)) is True


async def test_a_snug_pane_names_the_columns_off_to_the_side_on_its_lower_edge():
    """At 72x24 a lesson's Q and K showed d1-d3 of four, with no scrollbar to say so (the
    lesson's snug layout drops it): their lower edge now reads "→ d4 · 4×4"."""
    from attn_tui.tui.widgets.matrix_editor import MatrixEditor

    app = make_app(lesson="mask", confirm_quit=False, no_progress=True)
    async with app.run_test(size=(72, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        q = app.screen.query_one("#editor-q", MatrixEditor)
        assert str(q.border_subtitle) == "→ d4 · 4×4"
        await pilot.press("right", "right", "right")  # to d4: d1 goes off to the left
        await pilot.pause()
        assert str(q.border_subtitle) == "← more · 4×4"
        await pilot.resize_terminal(120, 40)  # room for every column: the size alone
        await pilot.pause()
        await pilot.pause()
        assert str(q.border_subtitle) == "4×4"


@pytest.mark.parametrize("size", [(60, 20), (40, 12)])
async def test_the_example_list_fits_a_small_window_and_wraps_under_its_words(size):
    """At 40×12 its title ran off the top; at 60×20 a description wrapped back under the names
    and read as an example of its own ("verb)")."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        lines = screen_lines(app)
        assert any("Load an example" in line for line in lines)
        first = next(line for line in lines if "one query," in line)
        words_at = first.index("one query,")
        names = {name for name, _ in CHOICES}
        rows = [line for line in lines[lines.index(first):] if "▊" in line and "▔" not in line
                and "▁" not in line]  # the list's rows, not its edges
        assert len(rows) > 2
        for line in rows:
            assert line[first.index("one"):words_at].strip() in names | {""}, line


async def test_too_small_because_of_an_exported_columns_says_to_unset_it(monkeypatch):
    """COLUMNS=10 left in the shell made a 100-column window "Too small: 10×30", and the
    notice said to enlarge the window, which changes nothing."""
    import os

    monkeypatch.setenv("COLUMNS", "30")
    monkeypatch.setattr(os, "get_terminal_size", lambda fd: os.terminal_size((100, 20)))
    async with make_app().run_test(size=(30, 20)) as pilot:
        await pilot.pause()
        words = " ".join(str(pilot.app.screen.query_one("#too-small-text").render()).split())
        assert "COLUMNS=30 in the environment sets this size: unset it; q quits." in words
        assert "Enlarge" not in words
    # the terminal is 30 wide itself (or cannot be asked): COLUMNS is not the cause
    for real in (lambda fd: os.terminal_size((30, 20)), None):
        if real is None:
            monkeypatch.delenv("COLUMNS")
        else:
            monkeypatch.setattr(os, "get_terminal_size", real)
        async with make_app().run_test(size=(30, 20)) as pilot:
            await pilot.pause()
            words = " ".join(str(pilot.app.screen.query_one("#too-small-text").render()).split())
            assert "Enlarge the window; q quits." in words
