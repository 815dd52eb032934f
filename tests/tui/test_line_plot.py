"""The train lab's loss and accuracy plot: its x axis counts steps."""

from __future__ import annotations

import pytest
from screen_text import screen_lines
from textual.app import App, ComposeResult

from attn_tui.tui.widgets.line_plot import LinePlot


class PlotApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LinePlot()


@pytest.mark.parametrize(("xmax", "labels"), [(1, ["0", "1"]), (3, ["0", "1", "2", "3"])])
async def test_a_run_of_a_few_steps_is_numbered_in_whole_steps(xmax: int, labels) -> None:
    # a run of one step read 0.0 0.2 0.4 0.6 0.8 1.0: fractions of a step
    app = PlotApp()
    async with app.run_test(size=(60, 10)) as pilot:
        app.query_one(LinePlot).show_lines([("l", list(range(xmax + 1)), [1.0] * (xmax + 1))],
                                           xmax=xmax)
        await pilot.pause()
        axis = next(line for line in reversed(screen_lines(app)) if line.strip())
        assert axis.split() == labels
