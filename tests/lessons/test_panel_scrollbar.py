"""The lesson panel shows a scrollbar only when its words need one at its whole width."""

from __future__ import annotations

from dataclasses import replace

from lesson_pilot import lesson_app, panel, settle, shown
from screen_text import screen_lines


async def test_a_scrollbar_the_words_do_not_need_at_the_whole_width_goes():
    # learning step 1 at 80x24: five lines at the panel's whole width, six beside a scrollbar.
    # Under load, a scrollbar shown while the lab above was still settling stayed: the text
    # wrapped beside it, hid its last line and said "more" though it all fits (seen in the
    # suite on three workers). Here the scrollbar is put there by hand, then the panel redrawn
    async with lesson_app("learning").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        p = panel(pilot.app)
        assert not p.show_vertical_scrollbar and p.max_scroll_y == 0
        p.styles.overflow_y = "scroll"
        await settle(pilot)
        assert p.show_vertical_scrollbar and p.max_scroll_y > 0  # six lines in five rows
        p.show(p.view)
        await settle(pilot)
        assert not p.show_vertical_scrollbar and p.max_scroll_y == 0
        assert "more" not in p.edge_text
        assert "1 layer, 1 head, 32 numbers per token" in shown(pilot.app)
        lines = screen_lines(pilot.app)
        edge = next(i for i, line in enumerate(lines) if "n next · p back" in line)
        assert "Try" in lines[edge - 1]  # the panel's last line is in sight


async def test_words_longer_than_the_panel_keep_their_scrollbar():
    async with lesson_app("learning").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        p = panel(pilot.app)
        p.show(replace(p.view, text=p.view.text + " More words." * 60))
        await settle(pilot)
        assert p.show_vertical_scrollbar and p.max_scroll_y > 0
        assert "⇧↑↓ more" in p.edge_text
