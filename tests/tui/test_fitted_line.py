"""FittedLine: the longest form that fits its width; none fitting, the first, whole."""

from __future__ import annotations

from textual.app import App, ComposeResult

from attn_tui.tui.widgets.fitted_line import FittedLine


class One(App):
    def compose(self) -> ComposeResult:
        yield FittedLine(id="line")


async def test_the_longest_form_that_fits_and_the_whole_when_none_does() -> None:
    app = One()
    async with app.run_test(size=(30, 5)) as pilot:
        line = app.query_one(FittedLine)
        line.show("step 11/30 · loss 2.2750 · loaded", "11/30 · 2.2750 · loaded", "11/30")
        await pilot.pause()
        assert line.shown == "11/30 · 2.2750 · loaded" and line.size.height == 1
        await pilot.resize_terminal(40, 5)
        await pilot.pause()
        assert line.shown == "step 11/30 · loss 2.2750 · loaded"
        await pilot.resize_terminal(4, 5)  # none fits: shortened words would save no line
        await pilot.pause()
        assert line.shown == "step 11/30 · loss 2.2750 · loaded" and line.size.height > 1
