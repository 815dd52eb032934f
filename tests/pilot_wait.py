"""Pilot's press and pause end with Textual's idle wait (textual._wait.wait_for_idle), which
sleeps in 20 ms slices until one slice used under 1 ms of CPU: 40 ms of sleep a key, two fifths
of a lesson replay's time. The suite's own wait (below) asks the same (a slice in which the app
did nothing) with 5 ms slices and 0.5 ms of CPU, in a quarter of the sleep. Shorter slices fail
it: the event loop's own turn costs more than a tenth of a 2 ms slice, and every wait ran to its
1 s limit. Past that limit it waits on while keys are still on their way or a repaint is owed.

It only shortens a heuristic: a test that needs a worker's result waits for the workers
(``app.workers.wait_for_complete()``), not for the process to look idle.
tests/tui/test_textual_compat.py checks that Pilot and App still wait through the names replaced.
"""

from __future__ import annotations

import asyncio
import time

import pytest
import textual._wait
import textual.app
import textual.pilot
import textual.screen
from textual._context import active_app

IDLE_SLICE, IDLE_CPU = 0.005, 0.0005
# past the caller's max_sleep, a wait goes on while keys are on their way or a repaint is owed,
# up to this: a worker starved of the CPU for a second (three test workers on two cores, with
# CI's own load) returned with "abc" not yet typed, and a snapshot differed
OWED_WORK_LIMIT = 15.0
TEXTUALS_WAIT = textual._wait.wait_for_idle  # the one replaced


async def wait_for_idle(min_sleep: float = IDLE_SLICE, max_sleep: float = 1) -> None:
    """Textual's wait, except that a slice is not taken as idle while the screen still owes
    a layout or repaint, or when it ended late: a process the scheduler left waiting (three
    test workers on two cores) used no CPU in it without having finished its work."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    while True:
        cpu, began = time.process_time(), loop.time()
        await asyncio.sleep(IDLE_SLICE)
        now = loop.time()
        owed = _screen_update_due() or _keys_waiting()
        if now - start >= max_sleep and (not owed or now - start >= OWED_WORK_LIMIT):
            return
        on_time = now - began < 2 * IDLE_SLICE
        if (now - start > min_sleep and on_time and time.process_time() - cpu < IDLE_CPU
                and not owed):
            return


def _screen_update_due() -> bool:
    """The screen lays out and repaints on a timer (60 a second), not at once: a slice of 5 ms
    can fall inside its wait, and a resize then reached the widgets only after the test had
    read the screen. Textual's 20 ms slices outlast the timer's 16.7 ms. The App passes a
    resize on to the screen on a timer of its own (1/120 s), also longer than a slice."""
    try:
        app = active_app.get()
        screen = app.screen
    except Exception:  # no app running, or no screen yet
        return False
    if app._resize_event is not None:
        return True
    if not screen._message_queue.empty():
        # handed on (a Resize) but not yet read: a slice under load can pass without the
        # screen's turn, and a test read its breakpoint classes from before the resize
        return True
    if app._batch_count or not screen.is_current:
        return False  # the timer would not update it either
    return bool(screen._layout_required or screen._scroll_required or screen._repaint_required
                or screen._recompose_required or screen._dirty_widgets)


def _keys_waiting() -> bool:
    """attn-tui hands keys typed in a burst back to the App one at a time on a 5 ms timer
    (attn_tui.tui.keys), and holds keys while a lesson key waits its turn: between two looks
    at that line the process is idle, yet a key is still on its way."""
    try:
        app = active_app.get()
    except LookupError:
        return False
    hold = getattr(app, "keys_on_hold", None)
    if hold is None or getattr(app, "closing", False):  # not attn-tui's app, or quitting
        return False
    from attn_tui.tui.keys import key_line

    line = key_line(app)
    held = hold()
    if line.waiting and not held and app.screen_stack and _stalled(app, line.due):
        # nothing will hand them on: waiting out OWED_WORK_LIMIT at every pause hid a line
        # left without its timer (75 s in one test); the test is named instead (see conftest)
        STALLED_LINES.append(", ".join(getattr(k, "key", "paste") for k in line.waiting))
        STALLED_STATES.append(_line_state(app, line))
        return False
    return bool(line.waiting) or held > 0


# Keys in the line with no hold, and the App's timer (it looks every 5 ms) this late, and
# still as late after this long seen from here (a loop blocked for seconds wakes this wait
# before the timer's own turn): stuck.
STALLED_AFTER, STILL_STALLED = 2.0, 1.0
STALLED_LINES: list[str] = []  # what the waits found stuck, for conftest to name the test
STALLED_STATES: list[str] = []  # and what else the App and the line held then, to find why


def _line_state(app, line) -> str:
    """The App and the line as a stuck line was found: what a warning needs to tell why."""
    tutor = getattr(app, "_tutor", None)
    lesson = getattr(getattr(tutor, "lesson", None), "name", None)
    return (f"screen {type(app.screen).__name__}, focus {type(app.focused).__name__}, "
            f"{time.monotonic() - line.due:.1f} s past the line's timer, {line.handed} handed "
            f"back, posted {getattr(line.posted, 'key', line.posted)!r}, aside "
            f"{[getattr(k, 'key', 'paste') for k in line.aside]}, lesson {lesson} step "
            f"{getattr(tutor, 'index', None)}, setting up {getattr(tutor, 'setting_up', None)}; "
            f"{_pump_state(app)}")


def _pump_state(app) -> str:
    """Where the App's own loop is: its queue, the callbacks it owes, its timers still to
    run, and the line it awaits at (a loop stuck in one handler never runs the line's timer)."""
    task = app._task
    where = "not running"
    if task is not None and not task.done():
        chain, coro = [], task.get_coro()
        while coro is not None and getattr(coro, "cr_frame", None) is not None:
            chain.append(f"{coro.cr_code.co_name}:{coro.cr_frame.f_lineno}")
            coro = coro.cr_await
        where = " < ".join(reversed(chain[-4:]))
    timers = [t for t in list(app._timers) if t._task is not None and not t._task.done()]
    return (f"App queue {app._message_queue.qsize()}, next callbacks "
            f"{len(app._next_callbacks)}, timers pending {len(timers)}, awaiting at {where}")
_LATE: dict[int, tuple[float, float]] = {}  # id(app): (the late due, when first seen late)


def _stalled(app, due: float) -> bool:
    now = time.monotonic()
    if now - due <= STALLED_AFTER:
        _LATE.pop(id(app), None)
        return False
    seen, since = _LATE.setdefault(id(app), (due, now))
    if seen != due:  # the timer ran since, and is late again
        _LATE[id(app)] = (due, now)
        return False
    return now - since >= STILL_STALLED


# A screen lays out and repaints on a timer, 60 a second in the app (1 / TEXTUAL_FPS). Under
# Pilot every key waits for that repaint (see _screen_update_due): at 240 a second a lesson
# replay took 29.3 s of wall time where it took 34.8 s, on the same 18.2-18.4 s of CPU. What
# is drawn does not depend on when: only how long a test sits waiting for it.
TEST_UPDATE_PERIOD = 1 / 240


def quicker_idle_wait() -> None:
    for module in (textual._wait, textual.pilot, textual.app):
        module.wait_for_idle = wait_for_idle
    textual.screen.UPDATE_PERIOD = TEST_UPDATE_PERIOD
    textual.pilot.Pilot._wait_for_screen = wait_for_screen


TEXTUALS_WAIT_FOR_SCREEN = textual.pilot.Pilot._wait_for_screen


async def wait_for_screen(self, timeout: float = 30.0) -> bool:
    """Pilot's wait for every widget on the screen to have handled what it was sent
    (Pilot._wait_for_screen), with a callback sent only to the App, the screen and the
    widgets that are not parked on an empty queue; then to the screen's widgets busy after
    that, until none is, in five rounds at most (a click the App handed on while it was waited
    for: Textual's wait returned before the widget had it). Textual sends one to each widget,
    some 20 to 70 of them, six times a key in a lesson's settle: half the messages a lesson
    replay dispatched, about 7% of its CPU time. A widget parked has nothing in hand and
    nothing queued: its callback would come back at once and prove nothing more."""
    try:
        screen = self.app.screen
    except Exception:
        return False
    # the App and the screen at first: an Idle after the callback is when a screen runs its
    # call_after_refresh callbacks or starts a repaint it owes
    pumps = [self.app, screen]
    for _ in range(RECHECKS):
        pumps += [w for w in screen.walk_children() if not _parked(w)]
        if not pumps:
            return True
        if not await _handled_by(self.app, pumps, timeout):
            return False
        pumps = []
    return True


RECHECKS = 5  # rounds of widgets found busy after the last: events handed on and on


async def _handled_by(app, pumps: list, timeout: float) -> bool:
    """Send each pump a callback and wait until all have come back; False if the app failed."""
    count = 0
    all_done = asyncio.Event()

    def handled() -> None:
        nonlocal count
        count -= 1
        if count == 0:
            all_done.set()

    for pump in pumps:
        if pump.call_later(handled):
            count += 1
    if not count:
        return True
    waits = [asyncio.create_task(all_done.wait()),
             asyncio.create_task(app._exception_event.wait())]
    _, pending = await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    if len(pending) == len(waits):
        raise textual.pilot.WaitForScreenTimeout(
            "Timed out while waiting for widgets to process pending messages.")
    return count <= 0


def _parked(pump) -> bool:
    """``pump``'s task waits for its queue's event in MessagePump._get_message (Textual's
    Queue.get), the queue is empty and it owes no callbacks: between messages, none to come."""
    task = pump._task
    if (task is None or task.done() or pump._next_callbacks or pump._pending_message is not None
            or not pump._message_queue.empty()):
        return False
    coro, names = task.get_coro(), []
    while coro is not None and hasattr(coro, "cr_frame"):
        names.append(coro.cr_code.co_name)
        coro = coro.cr_await
    return names[-3:] == ["_get_message", "get", "wait"]


async def until(pilot, ready, what: str = "the app to get there", seconds: float = 120) -> None:
    """Let the app run until ``ready()`` (a worker reporting, a run ending); fail, never
    hang, if it does not come within ``seconds``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not ready():
        if loop.time() > deadline:
            pytest.fail(f"waited {seconds} s for {what}")
        await pilot.pause(0.05)
