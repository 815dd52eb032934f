"""Figure 2 (edit → repaint) and figure 1b (what is imported by the first frame), in-process.

How "repainted" is decided, honestly: Textual's ``App._display`` is the one place a compositor update
leaves for the terminal (headless run_test skips the write, so the probe does the write's work
itself: it renders the update to the escape-sequence string a terminal would receive). The clock
stops at the first update, after the timed key, that (a) happens while the widget already holds
the expected text and (b) contains that text in its bytes. So the time includes the key's trip
through the app, the recompute, the lines rendered and the terminal string.

Two ways of typing, alternated edit by edit:

- **settled** (the figure with a target): the value's characters are typed, the app is let go
  idle and paint them, then Enter is timed to the frame showing the new α. The bare app's key is
  timed the same way, from an idle, painted app: one key that changes what is shown, each.
- **burst** (information): the characters and Enter at machine speed, timed from the first key.
  Keys then arrive faster than Textual paints (at most 60 frames a second), so this figure also
  holds up to two frame periods of waiting for the frame clock; a typist never sees that, as
  keys a human types are further apart than a frame.

Keys are posted to the app as a driver would post them, one at a time; the next one goes as soon
as the previous one has landed (the edit line holds it). Pilot.press is not used for the timed
part: it sleeps at least 20 ms per key (wait_for_idle).
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable

SIZE = (120, 40)
_SGR = re.compile(r"\x1b\[[0-9;]*m")
VALUES = ("0.7", "1.5", "2.3", "0.1", "3.9", "1.2", "2.8", "0.4", "3.1", "1.8")


class RepaintProbe:
    """Watches every frame the app draws; ``wait`` returns when a matching one has been drawn."""

    def __init__(self, app) -> None:
        from attn_tui.tui.textual_compat import on_each_frame

        self.app = app
        on_each_frame(app, self._frame)
        self._check: Callable[[], bool] | None = None
        self._needle = ""
        self._done = asyncio.Event()
        self.stamp = 0.0

    def _frame(self, screen, text: str | None) -> None:
        # text: what a terminal is sent for a compositor update; styles may split a needle
        # (the bars draw ‹ 3 › as three clickable runs), so it is read without them
        if self._check is None or text is None:
            return
        now = time.perf_counter()
        if self._check() and self._needle in _SGR.sub("", text):
            self.stamp = now
            self._check = None
            self._done.set()

    def arm(self, check: Callable[[], bool], needle: str) -> None:
        self._check, self._needle = check, needle
        self._done.clear()

    async def wait(self, timeout: float = 10.0) -> float:
        await asyncio.wait_for(self._done.wait(), timeout)
        return self.stamp


async def _until(cond: Callable[[], bool], timeout: float = 5.0, pause: float = 0) -> None:
    """Let the app run until ``cond()``; ``pause`` 0 looks again at once (a frame's timing)."""
    end = time.perf_counter() + timeout
    while not cond():
        if time.perf_counter() > end:
            raise TimeoutError("the app never got there")
        await asyncio.sleep(pause)


def _post_key(app, char: str) -> None:
    from textual import events

    from attn_tui.tui.textual_compat import character_to_key

    key = "enter" if char == "\r" else character_to_key(char)
    event = events.Key(key, char)
    event.set_sender(app)
    app.post_message(event)


async def attn_edits(t: int, d: int, n: int, warmup: int = 6) -> dict[str, list[float]]:
    """``n`` edits of each kind: seconds from Enter to the repaint showing the new α with the
    app settled before Enter ("settled"), and from the first key typed at machine speed
    ("burst")."""
    from attn_tui.compute import attend
    from attn_tui.core.state import random_workspace, set_cell
    from attn_tui.report.fmt import num
    from attn_tui.tui.app import make_app
    from attn_tui.tui.widgets.step_table import StepTable

    app = make_app(workspace=random_workspace(t, d, seed=1))
    times: dict[str, list[float]] = {"settled": [], "burst": []}
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.query_one(StepTable)
        grid = screen.query_one("#grid-q")
        editor = screen.query_one("#editor-q")
        probe = RepaintProbe(app)
        i = skipped = done_edits = 0
        while min(len(v) for v in times.values()) < n:
            value = VALUES[i % len(VALUES)]
            i += 1
            ws = set_cell(screen.workspace, "Q", 0, 0, float(value))
            steps = attend(ws.q, ws.k, ws.v, mask=ws.mask, scale=ws.scale, backend=ws.backend,
                           dtype=ws.dtype)
            want = num(float(steps.weights[0, 0]))
            if want == table.cell_text(0, 3):  # this value would not change what α shows
                skipped += 1
                if skipped > 2 * len(VALUES):
                    raise RuntimeError("no value in VALUES changes the α shown")
                continue
            skipped = 0
            kind = "settled" if done_edits % 2 == 0 else "burst"
            await _until(lambda: app.focused is grid)
            probe.arm(lambda w=want: table.cell_text(0, 3) == w, want)
            start = time.perf_counter()
            for ch in value:
                _post_key(app, ch)
                await _until(lambda c=ch: editor.editing is not None
                             and editor.buffer.text.endswith(c))
            if kind == "settled":
                await pilot.pause()  # idle, and the typed characters painted: untimed
                await pilot.pause()
                start = time.perf_counter()
            _post_key(app, "\r")
            done = await probe.wait()
            done_edits += 1
            if done_edits > warmup:
                times[kind].append(done - start)
            await pilot.pause()  # settle, untimed
            assert screen.workspace.q[0][0] == float(value)
    return {k: v[:n] for k, v in times.items()}


async def bare_edits(n: int, warmup: int = 5) -> list[float]:
    """Seconds from one key press, the app settled, to the repaint of the label it updates."""
    from bench_bare_app import BareApp
    from textual.widgets import Label

    app = BareApp()
    times: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        label = app.query_one("#label", Label)
        probe = RepaintProbe(app)
        for _ in range(n + warmup):
            want = app.label_text(app.count + 1)
            probe.arm(lambda w=want: str(label.content) == w, want)
            await pilot.pause()
            start = time.perf_counter()
            _post_key(app, "x")
            times.append(await probe.wait() - start)
            await pilot.pause()
    return times[warmup:]


CONFIGS = {"bare": None, "t8": (8, 3), "t64": (64, 64), "t256": (256, 64)}


def edit_latency(n: int, blocks: int, log=print) -> dict[str, list[float]]:
    """``n`` edits of each kind per configuration, in ``blocks`` interleaved rounds (a fresh app
    per round): settled times under each key, burst times under ``<key>_burst``."""
    out: dict[str, list[float]] = {k: [] for k in CONFIGS}
    burst: dict[str, list[float]] = {f"{k}_burst": [] for k in CONFIGS if k != "bare"}
    per = [n // blocks + (1 if b < n % blocks else 0) for b in range(blocks)]
    for b, count in enumerate(per):
        for key, shape in CONFIGS.items():
            if shape is None:
                out[key] += asyncio.run(bare_edits(count))
                continue
            got = asyncio.run(attn_edits(*shape, count))
            out[key] += got["settled"]
            burst[f"{key}_burst"] += got["burst"]
        log(f"  edit round {b + 1}/{blocks}: " + ", ".join(
            f"{k} {sorted(v)[len(v) // 2] * 1e3:.1f} ms" for k, v in out.items()))
    return out | burst


# ---- figure 1b, run in a fresh interpreter so nothing here is already imported
async def _first_frame_modules() -> list[str]:
    import attn_tui.cli.main  # noqa: F401  (what `python -m attn_tui` imports before the app)
    from attn_tui.tui.app import make_app
    from attn_tui.tui.textual_compat import after_each_update

    app = make_app()
    seen: list[set[str]] = []

    def display(screen, renderable) -> None:
        if renderable is not None and not seen:
            seen.append(set(sys.modules))

    after_each_update(app, display)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
    mods = seen[0]
    bad = [m for m in ("torch", "array_api_strict") if m in mods]
    bad += sorted(m for m in mods if m == "attn_tui.lessons" or m.startswith("attn_tui.lessons.")
                  or (m.startswith("attn_tui.tui.screens.") and m.endswith("lab_screen")))
    return bad


def first_frame_imports() -> list[str]:
    """Unwanted modules loaded by the time attn-tui's first frame is drawn ([] is good)."""
    done = subprocess.run([sys.executable, __file__, "--first-frame-imports"],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


if __name__ == "__main__" and sys.argv[1:] == ["--first-frame-imports"]:
    print(json.dumps(asyncio.run(_first_frame_modules())))
