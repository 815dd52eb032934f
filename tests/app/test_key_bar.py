"""The key bar: the focused pane's keys on one line, clickable, never wider than the screen."""

from __future__ import annotations

import pytest
from screen_text import screen_lines

from attn_tui.app import make_app
from attn_tui.widgets.key_bar import KeyBar


def _descriptions(bar: KeyBar) -> list[str]:
    left, _ = bar.items()
    return [item.description for item in left]


async def test_the_bar_follows_the_focused_pane():
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        bar = pilot.app.screen.query_one(KeyBar)
        assert {"Edit", "Mask", "Quit", "Help"} <= set(_descriptions(bar))
        await pilot.press("D")  # the dimensions bar: its own keys
        await pilot.pause()
        assert "+1" in _descriptions(bar) and "Edit" not in _descriptions(bar)
        assert "+1" in screen_lines(pilot.app)[-1]


async def test_tab_between_matrices_repaints_nothing():
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        bar = pilot.app.screen.query_one(KeyBar)
        repaints: list[int] = []
        original = bar.refresh
        bar.refresh = lambda *a, **k: (repaints.append(1), original(*a, **k))[1]
        await pilot.press("tab")  # Q -> K: the same keys
        await pilot.pause()
        assert pilot.app.focused.id == "grid-k"
        assert repaints == []


@pytest.mark.parametrize("width", [80, 120])
async def test_the_line_fits_and_ends_with_the_palette_key(width: int):
    async with make_app().run_test(size=(width, 24)) as pilot:
        await pilot.press("D")
        await pilot.pause()
        last = screen_lines(pilot.app)[-1]
        assert len(last) == width
        assert last.endswith("▏^p Commands")


async def test_clicking_a_key_presses_it():
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        bar = pilot.app.screen.query_one(KeyBar)
        x = screen_lines(pilot.app)[-1].index("m Mask")
        await pilot.click(KeyBar, offset=(x, 0))
        await pilot.pause()
        assert pilot.app.screen.workspace.mask == "causal"
        assert bar._item_at(x).description == "Mask"
