"""The lecture's road to self-attention: four ways to mix a token with its past.

1. a bag-of-words average by Python loops,
2. the same average as one matmul with a row-normalised lower-triangular matrix,
3. the same weights made by a masked softmax of zeros,
4. one self-attention head (head_size 16): the weights now depend on the data.

On torch with seed 1337 the random draws match the lecture's script tensor for tensor; on numpy
the draws come from ``numpy.random.default_rng(seed)``, so the numbers differ but every relation
between the versions holds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from attn_tui.compute.backend import namespace, resolve_dtype, to_numpy
from attn_tui.compute.draws import lecture_draws
from attn_tui.compute.softmax import softmax


@dataclass(frozen=True, eq=False)
class LectureRun:
    backend: str
    dtype: str
    seed: int
    x: np.ndarray  # (B, T, C) with C = 2
    bow_loops: np.ndarray  # version 1
    bow_matmul: np.ndarray  # version 2
    bow_softmax: np.ndarray  # version 3
    toy_b: np.ndarray  # the 3x2 integer matrix of the matmul warm-up
    toy_sum: np.ndarray  # ones(3,3) @ b
    toy_tril: np.ndarray
    toy_avg_weights: np.ndarray
    toy_avg: np.ndarray  # row-normalised tril @ b: running means of b's rows
    tril: np.ndarray  # (T, T) ones on and below the diagonal: the keys each token may see
    avg_weights: np.ndarray  # (T, T) row-normalised tril, also the softmax-of-zeros result
    zero_scores_masked: np.ndarray  # zeros with -inf above the diagonal
    head_x: np.ndarray  # (B, T, 32)
    head_scores: np.ndarray  # q k^T / sqrt(head_size), (B, T, T)
    head_masked: np.ndarray
    head_weights: np.ndarray
    head_out: np.ndarray  # (B, T, head_size)
    head_size: int

    @property
    def diff_matmul(self) -> float:
        """Largest |version 2 - version 1|."""
        return float(np.max(np.abs(self.bow_matmul - self.bow_loops)))

    @property
    def diff_softmax(self) -> float:
        """Largest |version 3 - version 1|."""
        return float(np.max(np.abs(self.bow_softmax - self.bow_loops)))

    def allclose_matmul(self) -> bool:
        """What the lecture's ``allclose(xbow2, xbow)`` answers (rtol 1e-5, atol 1e-8)."""
        return _allclose(self.bow_matmul, self.bow_loops)

    def allclose_softmax(self) -> bool:
        return _allclose(self.bow_softmax, self.bow_loops)


def _allclose(a: np.ndarray, b: np.ndarray, rtol: float = 1e-5, atol: float = 1e-8) -> bool:
    return bool(np.all(np.abs(a - b) <= atol + rtol * np.abs(b)))


def lecture(
    *, backend: str = "torch", dtype: str = "float32", seed: int = 1337, B: int = 4, T: int = 8,
    head_size: int = 16,
) -> LectureRun:
    xp = namespace(backend)
    dt = resolve_dtype(xp, dtype)
    draw = lecture_draws(backend, seed, xp, dt)

    x = draw.normal((B, T, 2))
    # version 1: loops over batch and time, mean of the prefix
    loops = xp.stack(
        [xp.stack([xp.mean(x[b, : t + 1, :], axis=0) for t in range(T)]) for b in range(B)]
    )
    # version 2: the same means as one matmul
    tril = _tril(xp, T, dt)
    avg = tril / xp.sum(tril, axis=1, keepdims=True)
    matmul = xp.matmul(avg, x)
    # version 3: softmax of zeros with the future at -inf gives the same weights
    zeros = xp.zeros((T, T), dtype=dt)
    zero_masked = xp.where(tril == 0, xp.asarray(-math.inf, dtype=dt), zeros)
    sm = softmax(zero_masked)
    via_softmax = xp.matmul(sm, x)

    # the warm-up: ones @ b sums columns; a normalised tril @ b gives running means
    toy_b = draw.toy_integers()
    toy_tril = _tril(xp, 3, dt)
    toy_avg_w = toy_tril / xp.sum(toy_tril, axis=1, keepdims=True)

    # version 4: one head; the weights now come from the data
    hx = draw.head_input((B, T, 32))
    w_key, w_query, w_value = (draw.linear(32, head_size) for _ in range(3))
    k = xp.matmul(hx, xp.matrix_transpose(w_key))
    q = xp.matmul(hx, xp.matrix_transpose(w_query))
    scores = xp.matmul(q, xp.matrix_transpose(k)) * (head_size**-0.5)
    masked = xp.where(tril == 0, xp.asarray(-math.inf, dtype=dt), scores)
    weights = softmax(masked)
    v = xp.matmul(hx, xp.matrix_transpose(w_value))
    out = xp.matmul(weights, v)

    n = to_numpy
    return LectureRun(
        backend=backend, dtype=dtype, seed=seed, x=n(x), bow_loops=n(loops),
        bow_matmul=n(matmul), bow_softmax=n(via_softmax), toy_b=n(toy_b),
        toy_sum=n(xp.matmul(xp.ones((3, 3), dtype=dt), toy_b)), toy_tril=n(toy_tril),
        toy_avg_weights=n(toy_avg_w), toy_avg=n(xp.matmul(toy_avg_w, toy_b)),
        tril=n(tril), avg_weights=n(sm), zero_scores_masked=n(zero_masked), head_x=n(hx),
        head_scores=n(scores), head_masked=n(masked), head_weights=n(weights), head_out=n(out),
        head_size=head_size,
    )


def _tril(xp: Any, n: int, dt: Any) -> Any:
    rows = xp.reshape(xp.arange(n), (n, 1))
    cols = xp.reshape(xp.arange(n), (1, n))
    return xp.astype(cols <= rows, dt)
