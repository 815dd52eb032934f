"""A one-shot timer that always fires.

Textual's ``set_timer`` is a ``Timer`` with ``skip=True``: if its task reads the clock twice
more than the delay apart before it starts to wait (the process preempted, or another thread
holding the GIL), it counts its one tick as missed and never calls back. With a delay of a few
milliseconds that happens under load, so attn-tui's own one-shot timers use the event loop's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


def call_after(app, seconds: float, callback: Callable[[], object]) -> None:
    """Run ``callback`` on ``app``'s own message loop (as ``set_timer`` does) after ``seconds``.
    Harmless once the app has closed: the callback is then queued to nobody."""
    asyncio.get_running_loop().call_later(seconds, app.call_next, callback)
