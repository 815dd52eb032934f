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


async def test_under_no_color_a_progress_bars_track_and_the_part_done_both_show(monkeypatch):
    """Greyed, the train lab's track was grey 30 on a background of 18: a bar at 0 % was
    not there, and one part done had no length to be read against."""
    from textual.color import Color
    from textual.widgets import ProgressBar
    from textual.widgets._progress_bar import Bar

    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(lab="train", confirm_quit=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        progress = app.screen.query_one(ProgressBar)
        progress.update(total=100, progress=40)
        await settle(app, pilot)
        bar = progress.query_one(Bar)
        greys = {}  # the grey each glyph of the bar is drawn in, after NO_COLOR's filter
        for strip in bar.render_lines(bar.size.region):
            for f in app._filters:
                strip = strip.apply_filter(f, Color(0, 0, 0))
            for segment in strip:
                red = segment.style.color.triplet.red
                greys[red] = greys.get(red, "") + segment.text
                background = segment.style.bgcolor.triplet.red
        done, track = max(greys), min(greys)
        assert "━" in greys[done] and "━" in greys[track]
        assert done - track >= 100 and track - background >= 50, (done, track, background)
