"""Figure 3: attn_tui.compute.scaling_experiment against the chapter's own loop, and the lab.

``chapter_loop`` is show_scale's experiment from seeds/attention.py, rewritten to return its
numbers instead of printing them (and not imported, so the seed stays a seed): one query and
one key matrix per trial, drawn in that order from one default_rng(seed), softmax and entropy
per trial, means per d_k. Same draws, same sums: the results must agree to 1e-9 before the
timings mean anything.

Both must draw the same 2.45 M normal numbers, which no faithful build can skip; so the target is
on the arithmetic net of them: (loop − draws) against (vectorised − draws), all three timed
alternately in one run. The vectorised run draws afresh each time (``reuse=False``).

``lab_answers`` opens the scaling lab headless and times a key that needs no new draws (s for
÷√d_k, ↑ on the temperature) to the frame that shows the new numbers, at the chapter's settings
and at the lab's largest (top d_k 4096, 64 keys, 500 trials), and counts the sweeps of draws the
lab made on the way.
"""

from __future__ import annotations

import math
import time

import numpy as np

TOLERANCE = 1e-9


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - np.max(z, axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _entropy(p: np.ndarray) -> float:
    p = p[p > 0]
    return float(-(p * np.log2(p)).sum())


def chapter_loop(dims: tuple[int, ...], n_keys: int = 8, trials: int = 200,
                 seed: int = 0) -> list[tuple[float, float, float, float]]:
    """(sd of q·k, entropy raw, entropy scaled, max α raw) per d_k, the chapter's way."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in dims:
        sd, e_raw, e_scaled, top = [], [], [], []
        for _ in range(trials):
            q = rng.normal(0, 1, d)
            k = rng.normal(0, 1, (n_keys, d))
            s = k @ q
            sd.append(s.std())
            a_raw = _softmax(s)
            a_sc = _softmax(s / math.sqrt(d))
            e_raw.append(_entropy(a_raw))
            e_scaled.append(_entropy(a_sc))
            top.append(a_raw.max())
        rows.append((float(np.mean(sd)), float(np.mean(e_raw)), float(np.mean(e_scaled)),
                     float(np.mean(top))))
    return rows


def vectorised(dims: tuple[int, ...], n_keys: int = 8, trials: int = 200,
               seed: int = 0) -> list[tuple[float, float, float, float]]:
    from attn_tui.compute import scaling_experiment

    res = scaling_experiment(dims, n_keys=n_keys, trials=trials, seed=seed, reuse=False)
    return [(r.sd, r.entropy_raw, r.entropy_scaled, r.max_alpha_raw) for r in res.rows]


def same_results(dims: tuple[int, ...], trials: int) -> bool:
    a, b = chapter_loop(dims, trials=trials), vectorised(dims, trials=trials)
    return len(a) == len(b) and bool(np.allclose(a, b, rtol=TOLERANCE, atol=TOLERANCE))


def draws_only(dims: tuple[int, ...], n_keys: int = 8, trials: int = 200,
               seed: int = 0) -> None:
    """Just the random numbers both must draw, in the vectorised code's blocks, by the
    fastest numpy call that gives them: the floor."""
    rng = np.random.default_rng(seed)
    for d in dims:
        rng.standard_normal((trials, d + n_keys * d))


class TimedGenerator:
    """numpy's Generator, timing its own normal and standard_normal calls: what a run spends
    drawing, measured inside the run, so the rest is its arithmetic on the very same numbers."""

    def __init__(self, seed: int) -> None:
        self._rng = _default_rng(seed)
        self.seconds = 0.0

    def _timed(self, fill, *args):
        start = time.perf_counter()
        out = fill(*args)
        self.seconds += time.perf_counter() - start
        return out

    def normal(self, *args):
        return self._timed(self._rng.normal, *args)

    def standard_normal(self, *args):
        return self._timed(self._rng.standard_normal, *args)


_default_rng = np.random.default_rng


def net_of_draws(run) -> tuple[float, float]:
    """(seconds of ``run()``, seconds of it spent outside the draws) with every default_rng a
    TimedGenerator."""
    made: list[TimedGenerator] = []

    def timed_rng(seed=None):
        made.append(TimedGenerator(seed))
        return made[-1]

    np.random.default_rng = timed_rng
    try:
        start = time.perf_counter()
        run()
        total = time.perf_counter() - start
    finally:
        np.random.default_rng = _default_rng
    return total, total - sum(g.seconds for g in made)


def scaling_figure(dims: tuple[int, ...] = (4, 16, 64, 256, 1024), trials: int = 200,
                   reps: int = 15) -> dict:
    """Median seconds of each, alternated, after checking they agree; plus the draws alone.
    ``loop_arithmetic`` and ``arithmetic`` are each run's time outside its own draws, timed in
    the run; ``compute_speedup`` is the first over the second."""
    same = same_results(dims, trials)
    times: dict[str, list[float]] = {"loop": [], "vectorised": [], "draws": [],
                                     "loop_arithmetic": [], "arithmetic": []}
    fns = {"loop": chapter_loop, "vectorised": vectorised, "draws": draws_only}
    for i in range(reps):
        order = list(fns) if i % 2 == 0 else list(fns)[::-1]
        for name in order:
            if name == "draws":
                start = time.perf_counter()
                draws_only(dims, trials=trials)
                times[name].append(time.perf_counter() - start)
                continue
            total, net = net_of_draws(lambda f=fns[name]: f(dims, trials=trials))
            times[name].append(total)
            times["loop_arithmetic" if name == "loop" else "arithmetic"].append(net)
    out: dict = {name: float(np.median(t)) for name, t in times.items()}
    work = out["arithmetic"]
    out["compute_speedup"] = out["loop_arithmetic"] / work if work > 0 else float("inf")
    out["same"] = same
    return out


LAB_SETTINGS = {"chapter": {}, "largest": {"d_k": 4096, "keys": 64, "trials": 500}}


async def _lab_answers(presses: int, settings: dict) -> tuple[list[float], list[float], int]:
    """Seconds from each key (s, or ↑ on temp) to the frame with the new numbers, and to the
    frame with the new plots; and how many sweeps of draws the presses made."""
    from bench_edit import RepaintProbe
    from textual import events

    from attn_tui.compute import scaling
    from attn_tui.tui.app import make_app
    from attn_tui.tui.widgets.control_bar import ControlBar
    from attn_tui.tui.widgets.text_table import TextTable

    sweeps = 0
    real = scaling.score_blocks

    def counted(*args, **kwargs):
        nonlocal sweeps
        if scaling.kept_scores(*args[:4], backend=kwargs.get("backend", "numpy"),
                               dtype=kwargs.get("dtype", "float64")) is None:
            sweeps += 1
        return real(*args, **kwargs)

    scaling.forget_scores()
    scaling.score_blocks = counted
    app = make_app(lab="scaling")
    times: list[float] = []
    plot_times: list[float] = []
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await app.workers.wait_for_complete()
            screen = app.screen
            for key, value in settings.items():
                screen.action_set(key, value)
                await pilot.pause()
                await app.workers.wait_for_complete()
            await pilot.pause()
            table = screen.query_one(TextTable)
            bar = screen.query_one(ControlBar)
            probe = RepaintProbe(app)
            plotted: list[object] = []
            show_plots = screen._show_plots
            screen._show_plots = lambda st, r: (show_plots(st, r), plotted.append(r))
            sweeps = 0
            for i in range(presses):
                on_temp = i % 2 == 1
                bar.field = [f.key for f in bar.fields].index("temperature" if on_temp else "scale")
                await pilot.pause()
                before = table.cells
                probe.arm(lambda b=before: table.cells != b, "")
                start = time.perf_counter()
                event = events.Key("up", None) if on_temp else events.Key("space", " ")
                event.set_sender(app)
                app.post_message(event)
                times.append(await probe.wait() - start)
                assert not any(w.is_running for w in app.workers), "a worker ran: new draws"
                probe.arm(lambda: bool(plotted) and plotted[-1] is screen.result, "")
                plot_times.append(await probe.wait() - start)
                await pilot.pause()
    finally:
        scaling.score_blocks = real
        scaling.forget_scores()
    return times, plot_times, sweeps


def lab_answers(presses: int = 20) -> dict:
    """Per lab setting: median seconds key → frame with the numbers, key → frame with the
    plots, and the sweeps of draws the presses made (0: every press reused the kept scores)."""
    import asyncio

    out: dict = {}
    for name, settings in LAB_SETTINGS.items():
        times, plot_times, sweeps = asyncio.run(_lab_answers(presses, settings))
        out[name] = float(np.median(times))
        out[f"{name}_plots"] = float(np.median(plot_times))
        out[f"{name}_sweeps"] = sweeps
    return out
