"""A grid's cursor is a reactive kept inside the grid by its validator, whatever sets it."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.coordinate import Coordinate

from attn_tui.tui.widgets.grid_view import GridView


class OneGrid(App):
    def compose(self) -> ComposeResult:
        yield GridView(id="grid")


async def test_the_cursor_stays_inside_the_grid_however_it_is_set():
    app = OneGrid()
    async with app.run_test(size=(60, 12)) as pilot:
        grid = app.query_one(GridView)
        grid.set_shape(["a", "b", "c"], ["x", "y"])
        grid.cursor_coordinate = Coordinate(9, -4)
        assert (grid.cursor_row, grid.cursor_col) == (2, 0)
        grid.move_cursor(-5, 7)
        assert grid.cursor_coordinate == Coordinate(0, 1)
        grid.move_cursor(2, 1)
        grid.set_shape(["a"], ["x"])  # a smaller grid takes the cursor in with it
        assert grid.cursor_coordinate == Coordinate(0, 0)
        grid.set_shape([], [])
        assert grid.cursor_coordinate == Coordinate(0, 0)
        await pilot.pause()


async def test_a_move_says_where_the_cursor_went_once_clamped():
    moved = []

    class Listening(OneGrid):
        def on_grid_view_cursor_moved(self, event: GridView.CursorMoved) -> None:
            moved.append((event.control.id, event.row, event.col))

    app = Listening()
    async with app.run_test(size=(60, 12)) as pilot:
        grid = app.query_one(GridView)
        grid.set_shape(["a", "b"], ["x", "y", "z"])
        grid.move_cursor(5, 5)
        grid.move_cursor(8, 8)  # already at the corner: no move, no message
        await pilot.pause()
        assert moved == [("grid", 1, 2)]
