"""A class of twenty opening `attn-tui serve` at once, over textual-serve's own WebSocket
protocol on loopback: every tab draws its first screen and answers keys, the twenty-first is
turned away with the reason."""

from __future__ import annotations

import asyncio
import time

import pytest
from serving import FIRST_ALPHA, Tab, closing, end_group, start_serve

pytest.importorskip("textual_serve")
aiohttp = pytest.importorskip("aiohttp")

CLASS = 20
# generous on a 2-core machine shared with other test runs; an idle one needs about 5 s
ARRIVAL_LIMIT = 60.0


@pytest.mark.slow
def test_twenty_tabs_at_once_all_arrive_and_answer_keys():
    proc, port = start_serve("--max-sessions", str(CLASS))
    url = f"http://127.0.0.1:{port}/ws?width=80&height=24"

    async def tab(http, started: float):
        async with http.get(f"http://127.0.0.1:{port}/") as page:
            assert page.status == 200
        opened = Tab(await http.ws_connect(url))
        arrived = await opened.shows(FIRST_ALPHA, timeout=ARRIVAL_LIMIT)
        return opened, arrived, time.monotonic() - started

    async def scenario():
        async with aiohttp.ClientSession() as http:
            started = time.monotonic()
            tabs = await asyncio.gather(*(tab(http, started) for _ in range(CLASS)))
            extra = await http.ws_connect(url)
            refused = await closing(extra)
            masked = await asyncio.gather(*(t.key("m", b"causal") for t, _, _ in tabs))
            scaled = await asyncio.gather(*(t.key("s", "÷√d_k OFF".encode())
                                            for t, _, _ in tabs))
            for t, _, _ in tabs:
                await t.close()
            return [arrived for _, arrived, _ in tabs], masked, scaled, refused

    try:
        arrived, masked, scaled, refused = asyncio.run(scenario())
    finally:
        end_group(proc)
    assert arrived == [True] * CLASS
    assert masked == [True] * CLASS
    assert scaled == [True] * CLASS
    assert refused == (1013, f"attn-tui is full: all {CLASS} sessions are in use. "
                             "Try again when someone leaves.")
