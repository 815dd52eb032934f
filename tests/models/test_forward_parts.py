"""The forward pass's own functions, on every array library, against exact float64 values."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from attn_tui.compute import to_numpy
from attn_tui.models.forward import gelu


def _exact_gelu(x: np.ndarray) -> np.ndarray:
    """x * Phi(x) in float64, through erfc so that neither tail cancels."""
    return np.array([v * 0.5 * math.erfc(-v / math.sqrt(2.0)) for v in x.astype(np.float64)])


def test_gelu_is_float32_exact_on_both_tails(xp: Any) -> None:
    x = np.linspace(-12.0, 12.0, 4801, dtype=np.float32)
    got = to_numpy(gelu(xp.asarray(x, dtype=xp.float32), xp))
    assert got.dtype == np.float32
    want = _exact_gelu(x)
    assert float(np.max(np.abs(got - want))) <= 3e-7
    # where GELU is tiny (x far below 0) it is still right to a few parts in a million, not 0
    tail = x < -3.0
    assert np.all(got[tail] < 0.0)
    assert float(np.max(np.abs(got[tail] / want[tail] - 1.0))) <= 2e-5
