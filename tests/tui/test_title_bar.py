"""The title bar: Header's line, drawn by one widget; its icon opens the command palette."""

from __future__ import annotations

import pytest
from screen_text import screen_lines
from textual.command import CommandPalette

from attn_tui.tui.app import make_app
from attn_tui.tui.widgets.title_bar import ICON_WIDTH, RIGHT_WIDTH, TitleBar


@pytest.mark.parametrize("width", [40, 80, 120])
async def test_the_title_sits_centred_between_icon_and_right_margin(width: int):
    async with make_app().run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        top = screen_lines(pilot.app)[0]
        title = "attn-tui — workbench"
        assert len(top) == width and top.startswith(" α ")
        room = width - ICON_WIDTH - RIGHT_WIDTH
        assert top.index(title) == ICON_WIDTH + (room - len(title)) // 2


async def test_a_title_too_long_is_cut_with_an_ellipsis():
    async with make_app().run_test(size=(40, 24)) as pilot:
        await pilot.pause()
        pilot.app.screen.sub_title = "a sub-title far longer than the room there is"
        await pilot.pause()
        top = screen_lines(pilot.app)[0]
        assert len(top) == 40 and "…" in top and top.rstrip().endswith("…")


async def test_a_lab_shows_its_own_title():
    async with make_app(lab="scaling").run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "attn-tui — lab: scaling" in screen_lines(pilot.app)[0]


async def test_the_icon_opens_the_command_palette_and_has_a_tooltip():
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        bar = pilot.app.screen.query_one(TitleBar)
        await pilot.hover(TitleBar, offset=(1, 0))
        assert bar.tooltip == "Open the command palette"
        await pilot.hover(TitleBar, offset=(60, 0))
        assert bar.tooltip is None
        await pilot.click(TitleBar, offset=(60, 0))  # the title itself does nothing
        await pilot.pause()
        assert not isinstance(pilot.app.screen, CommandPalette)
        await pilot.click(TitleBar, offset=(1, 0))
        await pilot.pause()
        assert isinstance(pilot.app.screen, CommandPalette)


@pytest.mark.parametrize("width", range(38, 61))
async def test_the_hint_has_a_blank_before_it_or_stays_out(width: int):
    # at 40 columns a lesson's title read "attn-tui — lesson maskg lessons"
    async with make_app(lesson="mask", no_progress=True).run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        top = screen_lines(pilot.app)[0]
        assert len(top) == width
        if "g lessons" in top:
            assert top.endswith(" g lessons ") and top[top.index("g lessons") - 1] == " "
        assert "maskg" not in top
        assert "g lessons" in top or width < 44  # still shown where it always fitted


@pytest.mark.parametrize(("lab", "width", "shown"), [
    ("precision", 60, "attn-tui — lab: precision"),  # not "…   (Esc goes bac…"
    ("precision", 120, "attn-tui — lab: precision   (Esc: workbench)"),
    # not "… · numpy…"; the app's name goes before the precision (README: "the title names
    # the precision"), as the α stands for it
    ("minilm", 60, "model all-MiniLM-L6-v2 · numpy float32"),
    ("minilm", 44, "model all-MiniLM-L6-v2"),
    ("scaling", 40, "lab: scaling"),  # not "attn-tui — lab: scali…": the α stands for the app
])
async def test_a_title_too_long_drops_its_last_parts_before_it_is_cut(lab, width, shown):
    app = make_app(lab=lab, confirm_quit=False)
    async with app.run_test(size=(width, 20)) as pilot:
        await pilot.pause()
        line = screen_lines(app)[0]
        assert line.split(None, 1)[1].rstrip() == shown, line
        assert "…" not in line
