"""FittedLine: the longest form that fits its width; none fitting, the one on fewest lines."""

from __future__ import annotations

from textual.app import App, ComposeResult

from attn_tui.tui.widgets.fitted_line import FittedLine


class One(App):
    def compose(self) -> ComposeResult:
        yield FittedLine(id="line")


async def test_the_longest_form_that_fits_and_the_fewest_lines_when_none_does() -> None:
    app = One()
    async with app.run_test(size=(30, 5)) as pilot:
        line = app.query_one(FittedLine)
        line.show("step 11/30 · loss 2.2750 · loaded", "11/30 · 2.2750 · loaded", "11/30")
        await pilot.pause()
        assert line.shown == "11/30 · 2.2750 · loaded" and line.size.height == 1
        await pilot.resize_terminal(40, 5)
        await pilot.pause()
        assert line.shown == "step 11/30 · loss 2.2750 · loaded"
        # none fits: the one that wraps onto fewest lines; shortened words that save no line
        # are not worth it
        assert line._choice(4) == "11/30"
        line.forms = ("a b c d e f", "abcdefghij")  # three lines each at 4 columns
        assert line._choice(4) == "a b c d e f"


async def test_none_fitting_the_form_on_the_fewest_lines_wraps() -> None:
    # the train lab's line after a setting changed at 80×24 took three lines, where its
    # shortest form takes two
    app = One()
    async with app.run_test(size=(60, 5)) as pilot:
        line = app.query_one(FittedLine)
        line.show("step 197/2000 · loss 0.0175 (first 2.4718) · acc 0.9714 at step 100 · "
                  "paused · settings changed: Enter twice trains them (e saves this run)",
                  "197/2000 · loss 0.0175 · acc 0.9714 at step 100 · paused · settings "
                  "changed: ⏎ twice trains them (e saves this run)")
        await pilot.pause()
        assert line.shown.startswith("197/2000") and line.size.height == 2
