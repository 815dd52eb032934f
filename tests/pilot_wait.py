"""Pilot's press and pause end with Textual's idle wait (textual._wait.wait_for_idle), which
sleeps in 20 ms slices until one slice used under 1 ms of CPU: 40 ms of sleep a key, two fifths
of a lesson replay's time. 5 ms slices with 0.5 ms of CPU ask the same (a slice in which the app
did nothing) in a quarter of the sleep. Shorter slices fail it: the event loop's own turn costs
more than a tenth of a 2 ms slice, and every wait ran to its 1 s limit.

It only shortens a heuristic: a test that needs a worker's result waits for the workers
(``app.workers.wait_for_complete()``), not for the process to look idle.
tests/tui/test_textual_compat.py checks that Textual still reads both names.
"""

from __future__ import annotations

import asyncio

import pytest
import textual._wait

IDLE_SLICE, IDLE_CPU = 0.005, 0.0005


def quicker_idle_wait() -> None:
    textual._wait.SLEEP_GRANULARITY = IDLE_SLICE
    textual._wait.SLEEP_IDLE = IDLE_CPU


async def until(pilot, ready, what: str = "the app to get there", seconds: float = 120) -> None:
    """Let the app run until ``ready()`` (a worker reporting, a run ending); fail, never
    hang, if it does not come within ``seconds``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not ready():
        if loop.time() > deadline:
            pytest.fail(f"waited {seconds} s for {what}")
        await pilot.pause(0.05)
