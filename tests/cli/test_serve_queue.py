"""The start queue of `attn-tui serve` and the reasons it gives a browser, without processes."""

from __future__ import annotations

import asyncio
import signal

import pytest

pytest.importorskip("textual_serve")

from attn_tui.cli.serve_sessions import StartQueue, ended_message, starting_text  # noqa: E402


async def test_places_go_in_arrival_order_and_each_waiter_hears_its_place():
    queue = StartQueue(1)
    heard: dict[str, list[int]] = {"b": [], "c": []}
    entered: list[str] = []

    async def tab(name: str) -> None:
        async def on_wait(ahead: int) -> None:
            heard[name].append(ahead)

        await queue.enter(on_wait)
        entered.append(name)

    await queue.enter(lambda ahead: None)  # "a" holds the only place
    waiters = [asyncio.ensure_future(tab("b")), asyncio.ensure_future(tab("c"))]
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert entered == [] and heard == {"b": [0], "c": [1]}
    queue.leave()  # "a" has drawn: its place passes to "b"
    await waiters[0]
    assert entered == ["b"] and queue.starting == 1
    await asyncio.sleep(0)
    assert heard["c"] == [1, 0]  # told at once that it is next
    queue.leave()
    await waiters[1]
    assert entered == ["b", "c"]
    queue.leave()
    assert queue.starting == 0 and not queue.waiting


async def test_a_tab_that_leaves_the_queue_gives_up_its_place():
    queue = StartQueue(1)
    await queue.enter(lambda ahead: asyncio.sleep(0))
    gone = asyncio.ensure_future(queue.enter(lambda ahead: asyncio.sleep(0)))
    stays = asyncio.ensure_future(queue.enter(lambda ahead: asyncio.sleep(0)))
    await asyncio.sleep(0.01)
    gone.cancel()
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert len(queue.waiting) == 1
    queue.leave()
    await asyncio.wait_for(stays, 1)
    queue.leave()
    assert queue.starting == 0


def test_the_reasons_fit_a_websocket_close_frame():
    for code in (-signal.SIGKILL, -signal.SIGTERM, -99, 1, 137):
        assert len(ended_message(code).encode()) <= 123
    assert "stopped (SIGTERM)" in ended_message(-signal.SIGTERM)
    assert "exit status 1" in ended_message(1)
    assert starting_text(0).endswith("attn-tui: starting… (next)\r\n".encode())
    assert b"(3 ahead of you)" in starting_text(3)
