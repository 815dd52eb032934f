"""Figure 7: training speed in the train lab against a bare torch loop, and a key's repaint
while the lab trains against the same key when it does not.

Speed: seconds per step for the same model, optimizer and batches three ways, alternated: a
bare loop (forward, loss, backward, AdamW step, nothing else), the Run the lab drives (with its
α frames and held-out accuracy) without a screen, and the lab itself under run_test (the worker
thread, its reports four times a second, the plot and maps redrawn). The lab is timed from its
first reported step to its last, so loading torch is not counted.

Key → repaint: the seed field's ↑ on the control bar, timed from the key to the first frame
that shows the new seed (bench_edit's RepaintProbe), with a run going and with none.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

from bench_edit import RepaintProbe, _until

SIZE = (80, 24)


def _default_steps() -> int:
    from attn_tui.train.config import TASKS

    return TASKS["sort"].steps


# the run the lab starts on Enter: sort at its own length, so that α frames and held-out checks
# come as often per step as in a learner's run (a shorter run with the same 50 frames and 20
# checks captured 3.3 times as densely as anyone trains)
STEPS = _default_steps()


def sort_config(steps: int):
    from attn_tui.train import default_config

    return default_config("sort", steps=steps)


def bare_loop(steps: int) -> float:
    """Seconds per step of the plainest loop over the lab's model and batches."""
    import torch
    from torch.nn import functional as F

    from attn_tui.train import tasks
    from attn_tui.train.adamw import AdamW
    from attn_tui.train.trainer import build_model, one_thread

    config = sort_config(steps)
    with one_thread():
        model = build_model(config)
        opt = AdamW(model.parameters(), lr=config.lr)  # the lab's, as torch.optim.AdamW steps
        g = torch.Generator().manual_seed(config.seed)
        start = time.perf_counter()
        for _ in range(steps):
            x, y = tasks.batch(config.task, config.batch, g)
            logits, _ = model(x)
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1),
                                   ignore_index=tasks.IGNORE)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        return (time.perf_counter() - start) / steps


def run_loop(steps: int) -> float:
    from attn_tui.train.trainer import Run

    run = Run(sort_config(steps))
    start = time.perf_counter()
    run.advance()
    return (time.perf_counter() - start) / steps


async def _lab(steps: int) -> float:
    from attn_tui.tui.app import make_app

    app = make_app(lab="train")
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.settings = replace(sort_config(steps))
        await pilot.pause()
        await pilot.press("enter")
        # looked at every 10 ms, not spun on: a spinning event loop holds the GIL that the
        # worker's torch calls need between kernels, and would time the harness
        await _until(lambda: screen.state == "running" and screen.step > 0, timeout=120,
                     pause=0.01)
        start, first = time.perf_counter(), screen.step
        await _until(lambda: screen.state == "done", timeout=600, pause=0.01)
        return (time.perf_counter() - start) / (steps - first)


def lab_loop(steps: int) -> float:
    return asyncio.run(_lab(steps))


def _press(app, key: str) -> None:
    from textual import events

    event = events.Key(key, None)
    event.set_sender(app)
    app.post_message(event)


async def _keys(n: int, training: bool) -> list[float]:
    from attn_tui.tui.app import make_app

    app = make_app(lab="train")
    app.animation_level = "none"
    times = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        bar = screen.query_one("#controls")
        screen.settings = sort_config(100_000)
        for _ in range(6):  # to the seed field
            await pilot.press("right")
        if training:
            await pilot.press("enter")
            await _until(lambda: screen.state == "running" and screen.step > 0, timeout=120)
        probe = RepaintProbe(app)
        for _ in range(n):
            want = screen.settings.seed + 1
            probe.arm(lambda w=want: screen.settings.seed == w, f"‹{want}›")
            await pilot.pause()
            start = time.perf_counter()
            _press(app, "up")
            times.append(await probe.wait() - start)
        assert bar.values["seed"] == want
        if training:
            assert screen.state == "running"
    return times


def train_figures(reps: int, keys: int, steps: int = STEPS, log=print) -> dict:
    """Medians: seconds per step (bare, run, lab) and key → repaint (idle, training)."""
    from statistics import median

    out: dict[str, list[float]] = {"bare": [], "run": [], "lab": []}
    for r in range(reps):
        out["bare"].append(bare_loop(steps))
        out["run"].append(run_loop(steps))
        out["lab"].append(lab_loop(steps))
        log(f"  train round {r + 1}/{reps}: " + ", ".join(
            f"{k} {v[-1] * 1e3:.2f} ms/step" for k, v in out.items()))
    idle = asyncio.run(_keys(keys, training=False))
    busy = asyncio.run(_keys(keys, training=True))
    # each round's lab over the bare loop run just before it: the spread the machine adds
    rounds = [lab / bare for lab, bare in zip(out["lab"], out["bare"], strict=True)]
    return {"bare": median(out["bare"]), "run": median(out["run"]), "lab": median(out["lab"]),
            "lab_rounds": rounds,
            "key_idle": median(idle), "key_training": median(busy)}
