"""The pattern a task's head should learn, measured on captured frames (no torch needed)."""

from __future__ import annotations

import numpy as np

from attn_tui.train.patterns import formed_at, frame_share, pattern_pairs, pattern_share


def _causal_flat(t: int) -> np.ndarray:
    a = np.tril(np.ones((t, t)))
    return a / a.sum(axis=1, keepdims=True)


def _previous(t: int) -> np.ndarray:
    a = np.zeros((t, t))
    a[0, 0] = 1.0
    a[np.arange(1, t), np.arange(t - 1)] = 1.0
    return a


def _frame(step: int, alpha: np.ndarray) -> tuple[int, np.ndarray]:
    return step, alpha[None, None]  # layer 1, head 1


def test_the_previous_tokens_pattern_is_the_sub_diagonal() -> None:
    assert pattern_pairs("previous", 4) == ((1, 0), (2, 1), (3, 2))
    assert pattern_share("previous", _previous(4)) == 1.0
    # a flat causal row i gives 1/(i+1) to its previous key: (1/2 + 1/3 + 1/4) / 3
    assert abs(pattern_share("previous", _causal_flat(4)) - (1 / 2 + 1 / 3 + 1 / 4) / 3) < 1e-12


def test_a_task_without_a_fixed_pattern_measures_none_and_its_frames_zero() -> None:
    assert pattern_share("sort", _causal_flat(5)) is None
    assert frame_share("sort", [_frame(0, _causal_flat(5))], 0) == 0.0
    assert frame_share("previous", [], -1) == 0.0


def test_formed_at_is_the_first_frame_at_half_or_else_the_last() -> None:
    t = 6
    flat, sharp = _causal_flat(t), _previous(t)
    frames = [_frame(0, flat), _frame(50, 0.9 * flat + 0.1 * sharp),
              _frame(100, 0.3 * flat + 0.7 * sharp), _frame(150, sharp)]
    assert frame_share("previous", frames, 1) < 0.5 <= frame_share("previous", frames, 2)
    assert formed_at("previous", frames) == 100
    assert formed_at("previous", frames[:2]) == 50  # never half: the last frame's step
    assert formed_at("previous", []) == 0
