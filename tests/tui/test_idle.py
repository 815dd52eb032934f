"""An idle app draws nothing: fifty learners reading on one host must cost no CPU."""

from __future__ import annotations

import asyncio

from attn_tui.tui.app import make_app
from attn_tui.tui.textual_compat import count_frames


async def test_idle_workbench_schedules_no_repaint():
    app = make_app(preset="mask")
    frames = count_frames(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")  # do something, then leave it alone
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        before = frames()
        await asyncio.sleep(2.0)  # the measurement window itself, not synchronisation
        # a clock in the header, a blinking cursor or a spinner would each repaint here
        assert frames() == before, f"{frames() - before} repaints while idle"
