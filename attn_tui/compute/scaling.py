"""Why divide by sqrt(d_k): the chapter's random experiment, vectorised over trials.

The experiment is two parts: the draws and their dot products q·k (``score_blocks``, most of the
time), and the softmax arithmetic on them (``scaling_rows``). The scores are kept for the last
few (d_k sweep, keys, trials, seed, backend, dtype), so a change of temperature, or a second look
at settings seen before, draws nothing.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from attn_tui.compute.backend import namespace, resolve_dtype, to_numpy, xp_of

CHAPTER_DIMS = (4, 16, 64, 256, 1024)


def sweep_up_to(d_k: int) -> tuple[int, ...]:
    """d_k and up to four steps of ÷4 below it, smallest first: 1024 gives the chapter's 4 … 1024."""
    return tuple(d for d in (d_k // 4**i for i in range(4, -1, -1)) if d >= 1)
CHUNK = 2**17  # numbers drawn at a time (1 MiB of float64)
KEPT = 16  # score sets kept: at most 500 trials x 64 keys x 5 d_k each, 1.3 MB


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
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
    reuse: bool = True,
) -> ScalingResult:
    """Random unit-variance queries and keys; how peaked is the softmax, raw and scaled?

    Draws come from ``numpy.random.default_rng(seed)`` in the chapter's order (for each d_k, for
    each trial: q then K), taken in one block per d_k, so the defaults reproduce its table.
    ``temperature`` divides the scores of both columns. ``should_stop`` is polled between rows
    so a worker can abandon a stale run (its rows so far are returned); ``progress`` hears the
    share of the draws done after each row. ``reuse=False`` draws afresh even when the scores
    for these settings are kept.
    """
    _check(dims, n_keys, trials, temperature)
    blocks = score_blocks(dims, n_keys, trials, seed, backend=backend, dtype=dtype,
                          should_stop=should_stop, progress=progress, reuse=reuse)
    return scaling_rows(dims[:len(blocks)], blocks, n_keys, trials, seed, temperature)


def _check(dims: tuple[int, ...], n_keys: int, trials: int, temperature: float) -> None:
    if n_keys < 1 or trials < 1:
        raise ValueError("need at least one key and one trial")
    if any(int(d) < 1 for d in dims):
        raise ValueError("every d_k must be at least 1")
    if not temperature > 0:
        raise ValueError("temperature must be greater than 0")


_kept: OrderedDict[tuple, tuple[Any, ...]] = OrderedDict()
_kept_lock = threading.Lock()


def _key(dims, n_keys, trials, seed, backend, dtype) -> tuple:
    return (tuple(int(d) for d in dims), int(n_keys), int(trials), int(seed), backend, dtype)


def kept_scores(dims: tuple[int, ...], n_keys: int, trials: int, seed: int, *,
                backend: str = "numpy", dtype: str = "float64") -> tuple[Any, ...] | None:
    """The scores ``score_blocks`` made for these settings, if they are still kept."""
    key = _key(dims, n_keys, trials, seed, backend, dtype)
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    return None


def forget_scores() -> None:
    """Drop every kept score set (the next run of any settings draws afresh)."""
    with _kept_lock:
        _kept.clear()


def score_blocks(
    dims: tuple[int, ...], n_keys: int, trials: int, seed: int, *, backend: str = "numpy",
    dtype: str = "float64", should_stop: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None, reuse: bool = True,
) -> tuple[Any, ...]:
    """q·k for every trial and key, one (trials, n_keys) array per d_k, in ``dtype``.

    Only a complete sweep is kept: a run abandoned through ``should_stop`` returns the blocks
    it made and keeps nothing.
    """
    if reuse and (found := kept_scores(dims, n_keys, trials, seed, backend=backend,
                                       dtype=dtype)) is not None:
        return found
    xp = namespace(backend)
    dt = resolve_dtype(xp, dtype)
    rng = np.random.default_rng(seed)
    sizes = [int(d) * (1 + n_keys) * trials for d in dims]
    done, told = 0, 0.0
    blocks = []
    for d in dims:
        d = int(d)
        # a few trials at a time: the same stream of numbers as one (trials, …) call, in
        # memory that stays in cache until its q·k is taken (and a block of 4096 × 65 × 500
        # numbers is never held whole)
        step = max(1, CHUNK // (d * (1 + n_keys)))
        parts = []
        for start in range(0, trials, step):
            if should_stop is not None and should_stop():
                return tuple(blocks)
            m = min(step, trials - start)
            # the chapter's rng.normal(0, 1, …) values exactly (0 + 1·z is z), from numpy's
            # faster fill loop: the draws are most of this function's time
            parts.append(scores_from_draws(rng.standard_normal((m, d + n_keys * d)), d,
                                           n_keys, xp, dt))
            done += m * d * (1 + n_keys)
            if progress is not None and (done == sum(sizes) or done / sum(sizes) - told >= 0.05):
                told = done / sum(sizes)
                progress(told)
        blocks.append(parts[0] if len(parts) == 1 else xp.concat(parts, axis=0))
    found = tuple(blocks)
    with _kept_lock:
        _kept[_key(dims, n_keys, trials, seed, backend, dtype)] = found
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return found


def scores_from_draws(draws: np.ndarray, d: int, n_keys: int, xp: Any = np, dt: Any = None) -> Any:
    """q·k per trial and key, (trials, n_keys), from one row of draws per trial: q, then K."""
    trials = draws.shape[0]
    q = xp.asarray(draws[:, :d], dtype=dt)
    k = xp.asarray(np.reshape(draws[:, d:], (trials, n_keys, d)), dtype=dt)
    return xp.matmul(k, xp.reshape(q, (trials, d, 1)))[..., 0]


def scaling_rows(dims: tuple[int, ...], blocks: tuple[Any, ...], n_keys: int, trials: int,
                 seed: int, temperature: float = 1.0) -> ScalingResult:
    """The table from the scores: entropy and largest weight of the softmax, raw and ÷√d_k.

    Every d_k's scores have one shape, (trials, n_keys), so all of them, raw and scaled, go
    through one pass as a (2, len(dims), trials, n_keys) stack: the same numbers as one d_k
    at a time (each row is reduced alone either way) in a tenth of the array calls. α itself
    is never formed: with z shifted to a row maximum of 0 and e = exp(z), the largest weight
    is 1/Σe and the entropy log Σe − Σ e·z / Σe (nats), half the work of softmax and then
    entropy_bits, to within 2e-15 bits. Scores are finite here: there is no mask.
    """
    if not blocks:
        return ScalingResult((), n_keys, trials, seed, temperature)
    xp = xp_of(blocks[0])
    raw = xp.stack(blocks)
    root = xp.asarray([math.sqrt(int(d)) for d in dims], dtype=raw.dtype)
    z = xp.stack([raw, raw / xp.reshape(root, (len(dims), 1, 1))]) / temperature
    z = z - xp.max(z, axis=-1, keepdims=True)
    e = xp.exp(z)
    total = xp.sum(e, axis=-1)
    bits = (xp.log(total) - xp.sum(e * z, axis=-1) / total) / math.log(2)
    entropy = _means(xp.where(bits > 0, bits, xp.zeros_like(bits)))  # one-hot: 0, not -1e-17
    top = _means(1 / total)
    sd = _means(xp.std(raw, axis=-1))
    rows = tuple(ScalingRow(d_k=int(d), sd=float(sd[i]), entropy_raw=float(entropy[0, i]),
                            entropy_scaled=float(entropy[1, i]), max_alpha_raw=float(top[0, i]),
                            max_alpha_scaled=float(top[1, i]))
                 for i, d in enumerate(dims))
    return ScalingResult(rows, n_keys, trials, seed, temperature)


def _means(x: Any) -> np.ndarray:
    """Means over the trials (the last axis), in float64 as the table reports them."""
    return np.mean(to_numpy(x), axis=-1)
