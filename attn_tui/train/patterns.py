"""Where a task's attention should land, and how much of it does: the pattern a learner looks
for in a trained head, measured on the task's example sequence. No torch here."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


def pattern_pairs(task: str, t: int) -> tuple[tuple[int, int], ...]:
    """(query, key) pairs of the pattern that solves ``task`` on a sequence of ``t`` tokens;
    empty for a task whose pattern depends on the digits (sort) or takes two layers
    (induction)."""
    if task == "previous":  # each position copies the one before it
        return tuple((i, i - 1) for i in range(1, t))
    if task == "reverse":  # d0..d5 '>' r0..r4: '>' outputs d5, r0 outputs d4, … an anti-diagonal
        return tuple((q, t - 1 - q) for q in range(t // 2, t))
    return ()


def pattern_share(task: str, alpha: np.ndarray) -> float | None:
    """The mean weight one head's (T, T) α puts on the pattern's keys, over its queries; None
    for a task without one."""
    a = np.asarray(alpha, dtype=np.float64)
    pairs = pattern_pairs(task, a.shape[-1])
    if not pairs:
        return None
    q, k = np.array(pairs).T
    return float(np.mean(a[q, k]))


def frame_share(task: str, frames, k: int) -> float:
    """Layer 1 head 1's weight on the pattern in frame ``k`` of ``frames`` ([(step, α of shape
    (L, H, T, T))]); 0.0 where there is no frame or no pattern."""
    share = pattern_share(task, frames[k][1][0, 0]) if frames else None
    return 0.0 if share is None else share


def formed_at(task: str, frames, half: float = 0.5) -> int:
    """The step of the first frame with ``half`` of layer 1 head 1's weight on the pattern
    (the last frame's step if none has; 0 without frames)."""
    for k, (step, _) in enumerate(frames):
        if frame_share(task, frames, k) >= half:
            return step
    return frames[-1][0] if frames else 0


class RunFigures(NamedTuple):
    """What a finished run shows, as a lesson's task reads it."""

    accuracy: float  # the last held-out accuracy
    share: float | None  # layer 1 head 1's weight on the task's pattern, in the last frame
    diverged: float  # 1.0 if the loss stopped being a number, else 0.0


def run_figures(task: str, evals, frames, diverged: bool) -> RunFigures:
    """``evals`` as [(step, accuracy)], ``frames`` as [(step, α of shape (L, H, T, T))]."""
    accuracy = float(evals[-1][1]) if evals else 0.0
    share = pattern_share(task, frames[-1][1][0, 0]) if frames else None
    return RunFigures(accuracy, share, 1.0 if diverged else 0.0)
