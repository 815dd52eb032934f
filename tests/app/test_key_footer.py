"""The footer rebuilds its keys only when they change: once at start-up, not on every Tab."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from attn_tui.app import make_app
from attn_tui.widgets.key_footer import KeyFooter


def _count_rebuilds(footer: KeyFooter) -> list[int]:
    calls: list[int] = []
    original = footer.recompose

    async def recompose() -> None:
        calls.append(1)
        await original()

    footer.recompose = recompose
    return calls


def _labels(footer: KeyFooter) -> list[str]:
    return [key.description for key in footer.query(FooterKey)]


async def test_tab_between_matrices_keeps_the_keys_and_the_dims_bar_shows_its_own():
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        footer = pilot.app.screen.query_one(KeyFooter)
        assert "Mask" in _labels(footer) and "Edit" in _labels(footer)
        rebuilt = _count_rebuilds(footer)
        await pilot.press("tab")  # Q -> K: the same keys
        await pilot.pause()
        await pilot.pause()
        assert pilot.app.focused.id == "grid-k"
        assert rebuilt == []
        await pilot.press("D")  # the dimensions bar: its own keys
        await pilot.pause()
        await pilot.pause()
        assert rebuilt == [1]
        assert "+1" in _labels(footer) and "Edit" not in _labels(footer)


async def test_the_footer_is_built_once_at_start_up(monkeypatch):
    built: list[int] = []
    original = KeyFooter.recompose

    async def recompose(self) -> None:
        built.append(1)
        await original(self)

    monkeypatch.setattr(KeyFooter, "recompose", recompose)
    async with make_app().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert len(built) == 1
        assert "Mask" in _labels(pilot.app.screen.query_one(KeyFooter))
