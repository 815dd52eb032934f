"""put_words: a Static's new words lay the screen out only when they change its height."""

from __future__ import annotations

from lab_pilot import lab_app, settle
from layout_count import count_layouts
from textual.app import App, ComposeResult
from textual.widgets import Static

from attn_tui.tui.widgets.words_in_place import put_words


class Lines(App):
    CSS = "#fill { width: 1fr; } #auto { width: auto; } #hidden { display: none; }"

    def compose(self) -> ComposeResult:
        yield Static("one line", id="fill")
        yield Static("short", id="auto")
        yield Static("", id="hidden")


async def test_words_of_the_same_height_repaint_and_more_lines_lay_out(monkeypatch):
    async with Lines().run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        fill = pilot.app.query_one("#fill", Static)
        layouts = count_layouts(monkeypatch)
        put_words(fill, "another line")
        await pilot.pause()
        assert layouts == [] and str(fill.render()) == "another line"
        put_words(fill, "word " * 20)  # three lines at 40 columns
        await pilot.pause()
        assert layouts and fill.size.height == 3
        layouts.clear()
        put_words(fill, "back to one")
        await pilot.pause()
        assert layouts and fill.size.height == 1


async def test_a_static_as_wide_as_its_words_is_laid_out_for_new_words(monkeypatch):
    async with Lines().run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        auto = pilot.app.query_one("#auto", Static)
        layouts = count_layouts(monkeypatch)
        put_words(auto, "a good deal longer")
        await pilot.pause()
        assert layouts and auto.size.width == len("a good deal longer")


async def test_a_hidden_static_takes_its_words_without_a_layout_and_shows_them_whole(
        monkeypatch):
    async with Lines().run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        hidden = pilot.app.query_one("#hidden", Static)
        layouts = count_layouts(monkeypatch)
        put_words(hidden, "word " * 20)
        await pilot.pause()
        assert layouts == []
        hidden.styles.display = "block"
        await pilot.pause()
        assert hidden.size.height == 3


async def test_a_labs_keys_that_keep_every_lines_height_lay_nothing_out(monkeypatch):
    """Each press of → or ↑ on the scaling lab's bar laid the lab out again: the status line,
    the explanation and the bar were set anew, at the heights they had."""
    async with lab_app("scaling").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        status = screen.query_one("#status", Static)
        before = str(status.render())
        layouts = count_layouts(monkeypatch)
        await pilot.press("right", "right", "down")
        await settle(pilot)
        assert str(status.render()) != before  # the status line did change
        assert layouts == []
