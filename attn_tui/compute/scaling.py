"""Why divide by sqrt(d_k): the chapter's random experiment, vectorised over trials."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from attn_tui.compute.backend import namespace, resolve_dtype, to_numpy
from attn_tui.compute.softmax import entropy_bits, softmax

CHAPTER_DIMS = (4, 16, 64, 256, 1024)


@dataclass(frozen=True)
class ScalingRow:
    d_k: int
    sd: float  # mean over trials of the standard deviation of q . k across keys
    entropy_raw: float  # bits, softmax(q . k)
    entropy_scaled: float  # bits, softmax(q . k / sqrt(d_k))
    max_alpha_raw: float
    max_alpha_scaled: float


@dataclass(frozen=True)
class ScalingResult:
    rows: tuple[ScalingRow, ...]
    n_keys: int
    trials: int
    seed: int
    temperature: float

    @property
    def max_entropy(self) -> float:
        return math.log2(self.n_keys)


def scaling_experiment(
    dims: tuple[int, ...] = CHAPTER_DIMS,
    n_keys: int = 8,
    trials: int = 200,
    seed: int = 0,
    *,
    temperature: float = 1.0,
    backend: str = "numpy",
    dtype: str = "float64",
    should_stop: Any = None,
) -> ScalingResult:
    """Random unit-variance queries and keys; how peaked is the softmax, raw and scaled?

    Draws come from ``numpy.random.default_rng(seed)`` in the chapter's order (for each d_k, for
    each trial: q then K), taken in one block per d_k, so the defaults reproduce its table.
    ``temperature`` divides the scores of both columns. ``should_stop`` is polled between rows
    so a worker can abandon a stale run.
    """
    if n_keys < 1 or trials < 1:
        raise ValueError("need at least one key and one trial")
    if any(int(d) < 1 for d in dims):
        raise ValueError("every d_k must be at least 1")
    if not temperature > 0:
        raise ValueError("temperature must be greater than 0")
    xp = namespace(backend)
    dt = resolve_dtype(xp, dtype)
    rng = np.random.default_rng(seed)
    rows = []
    for d in dims:
        if should_stop is not None and should_stop():
            break
        d = int(d)
        # the chapter's rng.normal(0, 1, …) values exactly (0 + 1·z is z), from numpy's faster
        # fill loop: the draws are most of this function's time
        draws = rng.standard_normal((trials, d + n_keys * d))
        q = xp.asarray(draws[:, :d], dtype=dt)
        k = xp.asarray(np.reshape(draws[:, d:], (trials, n_keys, d)), dtype=dt)
        s = xp.matmul(k, xp.reshape(q, (trials, d, 1)))[..., 0]  # (trials, n_keys)
        s = s / temperature
        a_raw = softmax(s)
        a_sc = softmax(s / math.sqrt(d))
        rows.append(
            ScalingRow(
                d_k=d,
                sd=_mean(xp.std(s * temperature, axis=-1)),
                entropy_raw=_mean(entropy_bits(a_raw)),
                entropy_scaled=_mean(entropy_bits(a_sc)),
                max_alpha_raw=_mean(xp.max(a_raw, axis=-1)),
                max_alpha_scaled=_mean(xp.max(a_sc, axis=-1)),
            )
        )
    return ScalingResult(tuple(rows), n_keys, trials, seed, temperature)


def _mean(x: Any) -> float:
    return float(np.mean(to_numpy(x)))
