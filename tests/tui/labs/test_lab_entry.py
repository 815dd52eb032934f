"""Every lab opens from inside the app (the Go to menu, the command palette) and goes back."""

from __future__ import annotations

import pytest
from lab_pilot import settle
from textual.widgets import OptionList

from attn_tui.core.labs import LABS
from attn_tui.tui.app import make_app

NAMES = list(LABS)


@pytest.mark.parametrize("name", NAMES)
async def test_go_to_menu_opens_the_lab(name: str) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await pilot.pause()
        options = pilot.app.screen.query_one(OptionList)
        options.highlighted = options.get_option_index(f"lab:{name}")
        await pilot.press("enter")
        await settle(pilot)
        assert type(pilot.app.screen).__name__ == LABS[name].screen_class
        await pilot.press("escape")
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "WorkbenchScreen"


@pytest.mark.parametrize("name", NAMES)
async def test_command_palette_opens_the_lab(name: str) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*f"Lab: {name}")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert type(pilot.app.screen).__name__ == LABS[name].screen_class


@pytest.mark.parametrize("name", NAMES)
async def test_labs_take_the_backend_and_dtype(name: str) -> None:
    async with make_app(lab=name, dtype="float32").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert (screen.backend, screen.dtype) == ("numpy", "float32")
        assert screen.message == ""
