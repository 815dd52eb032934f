"""Figure 3: attn_tui.compute.scaling_experiment against the chapter's own loop.

``chapter_loop`` is show_scale's experiment from seeds/attention.py, rewritten to return its
numbers instead of printing them (and not imported, so the seed stays a seed): one query and
one key matrix per trial, drawn in that order from one default_rng(seed), softmax and entropy
per trial, means per d_k. Same draws, same sums: the results must agree to 1e-9 before the
timings mean anything.
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

    res = scaling_experiment(dims, n_keys=n_keys, trials=trials, seed=seed)
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


def scaling_figure(dims: tuple[int, ...] = (4, 16, 64, 256, 1024), trials: int = 200,
                   reps: int = 15) -> dict:
    """Median seconds of each, alternated, after checking they agree; plus the draws alone."""
    same = same_results(dims, trials)
    times: dict[str, list[float]] = {"loop": [], "vectorised": [], "draws": []}
    fns = {"loop": chapter_loop, "vectorised": vectorised, "draws": draws_only}
    for i in range(reps):
        order = list(fns) if i % 2 == 0 else list(fns)[::-1]
        for name in order:
            start = time.perf_counter()
            fns[name](dims, trials=trials)
            times[name].append(time.perf_counter() - start)
    out = {name: float(np.median(t)) for name, t in times.items()}
    work = out["vectorised"] - out["draws"]
    out["compute_speedup"] = (out["loop"] - out["draws"]) / work if work > 0 else float("inf")
    out["same"] = same
    return out
