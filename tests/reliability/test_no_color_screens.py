"""Every screen draws under NO_COLOR (Textual's Monochrome filter), in every lab and lesson.

The scaling lab's plot drew a canvas that had no size yet as a segment without a style, which
that filter cannot take: `NO_COLOR=1 attn-tui --lab scaling` crashed, and so did the scale
lesson and opening the lab from a workbench with unsaved edits.
"""

from __future__ import annotations

import pytest
from screen_text import screen_text
from textual.worker import WorkerCancelled

from attn_tui.core.labs import LABS
from attn_tui.lessons import catalog
from attn_tui.tui.app import make_app
from attn_tui.tui.textual_compat import app_exception

CASES = ([{}, {"preset": "mask"}] + [{"lab": name} for name in LABS]
         + [{"lesson": entry.name} for entry in catalog()])


async def settle(app, pilot) -> None:
    try:
        await app.workers.wait_for_complete()
    except WorkerCancelled:  # a step left before its set-up finished: the next one's runs
        await app.workers.wait_for_complete()
    for _ in range(3):  # the lab's plot is drawn once its worker's numbers are in
        await pilot.pause()


@pytest.mark.parametrize("kwargs", CASES,
                         ids=lambda v: "-".join(f"{k}={x}" for k, x in v.items()) or "workbench")
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_every_screen_draws_without_colour(kwargs, size, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(confirm_quit=False, **kwargs)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("n")  # a lesson's second step; elsewhere n is at most a no-op
        await settle(app, pilot)
        assert app.no_color and app.is_running and app_exception(app) is None
        assert "attn-tui" in screen_text(app)


async def test_under_no_color_the_pane_with_the_keys_is_drawn_heavy(monkeypatch):
    """Greyed, the focused pane's border was grey 241 against the others' 240: which pane has
    the keys could not be seen."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for _ in range(6):  # Q, K, V, and on
            in_pane = any(node.has_class("pane") or type(node).__name__ == "MatrixEditor"
                          for node in app.focused.ancestors_with_self)
            assert screen_text(app).count("┏") == (1 if in_pane else 0), app.focused
            await pilot.press("tab")
            await settle(app, pilot)
    monkeypatch.delenv("NO_COLOR")
    app = make_app(confirm_quit=False)
    async with app.run_test(size=(80, 24)) as pilot:  # in colour, the border's colour says it
        await settle(app, pilot)
        assert "┏" not in screen_text(app)
