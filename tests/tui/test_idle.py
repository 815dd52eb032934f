"""An idle app draws nothing: fifty learners reading on one host must cost no CPU."""

from __future__ import annotations

import asyncio

import pytest

from attn_tui.tui.app import make_app
from attn_tui.tui.textual_compat import count_frames


async def _quiet(pilot, frames) -> None:
    """Until the repaints that m asked for are done: three pauses in a row with no new frame
    (at most 100 pauses; a screen that never stops painting fails below)."""
    still, last = 0, frames()
    for _ in range(100):
        await pilot.pause()
        still, last = (still + 1, last) if frames() == last else (0, frames())
        if still == 3:
            return


async def test_idle_workbench_schedules_no_repaint():
    app = make_app(preset="mask")
    frames = count_frames(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")  # do something, then leave it alone
        await app.workers.wait_for_complete()
        await _quiet(pilot, frames)
        before = frames()
        await asyncio.sleep(2.0)  # the measurement window itself, not synchronisation
        # a clock in the header, a blinking cursor or a spinner would each repaint here
        assert frames() == before, f"{frames() - before} repaints while idle"


async def _repaints_while_left_alone(app, pilot, frames) -> int:
    await app.workers.wait_for_complete()
    await _quiet(pilot, frames)
    before = frames()
    await asyncio.sleep(1.2)  # the window: more than two of a blinking cursor's half-seconds
    return frames() - before


async def test_a_focused_sentence_box_draws_nothing_while_idle():
    app = make_app(lab="minilm")
    frames = count_frames(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("slash")
        assert app.focused is app.screen.query_one("#sentence")
        assert await _repaints_while_left_alone(app, pilot, frames) == 0


async def test_the_open_command_palette_draws_nothing_while_idle():
    app = make_app()
    frames = count_frames(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.press("m")  # a few letters typed, then left alone
        assert type(app.screen).__name__ == "Palette"
        assert await _repaints_while_left_alone(app, pilot, frames) == 0


@pytest.mark.parametrize("size", [(1, 5), (2, 2), (1, 1)])
async def test_a_window_a_column_or_two_wide_is_drawn_once_not_over_and_over(size):
    """In one or two columns the "Too small" notice got a scrollbar, lost its room to it, got
    shorter, lost the bar, and was drawn again: about 50 frames a second, for ever."""
    app = make_app()
    frames = count_frames(app)
    async with app.run_test(size=size):
        assert type(app.screen).__name__ == "TooSmallScreen"
        # time, not pilot.pause: a screen that never goes idle would hold each pause 15 s.
        # The notice's first frames come within about 0.15 s; 0.3 s without one ends them
        loop = asyncio.get_running_loop()
        last, start = frames(), loop.time()
        quiet_since = start
        while loop.time() - start < 3 and loop.time() - quiet_since < 0.3:
            await asyncio.sleep(0.05)
            if frames() != last:
                last, quiet_since = frames(), loop.time()
        before = frames()
        await asyncio.sleep(1.0)  # the measurement window itself
        assert frames() == before, f"{frames() - before} frames in a second, left alone"

