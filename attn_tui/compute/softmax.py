"""Softmax two ways, and entropy in bits, for any Array API namespace."""

from __future__ import annotations

from typing import Any

from attn_tui.compute.backend import xp_of


def softmax(z: Any, axis: int = -1) -> Any:
    """Stable softmax: subtract the row maximum first, so exp never overflows.

    A row that is entirely -inf (every key blocked) gives zeros rather than NaN.
    """
    xp = xp_of(z)
    top = xp.max(z, axis=axis, keepdims=True)
    top = xp.where(xp.isfinite(top), top, xp.zeros_like(top))
    e = xp.exp(z - top)
    total = xp.sum(e, axis=axis, keepdims=True)
    safe = xp.where(total > 0, total, xp.ones_like(total))
    return e / safe


def naive_softmax(z: Any, axis: int = -1) -> Any:
    """Textbook softmax, exp(z) / sum exp(z): overflows to inf and then NaN for large scores.

    Kept on purpose for the precision lab, which shows where it breaks.
    """
    xp = xp_of(z)
    e = xp.exp(z)
    return e / xp.sum(e, axis=axis, keepdims=True)


def entropy_bits(p: Any, axis: int = -1) -> Any:
    """Shannon entropy in bits along ``axis``, with 0 * log 0 taken as 0."""
    xp = xp_of(p)
    positive = p > 0
    logs = xp.log2(xp.where(positive, p, xp.ones_like(p)))
    # 0.0 - x rather than -x: a one-hot row gives 0.0, not -0.0 (which prints as "-0.0000")
    return 0.0 - xp.sum(xp.where(positive, p * logs, xp.zeros_like(p)), axis=axis)
