"""Where a transformer layer's parameters sit, and what sequence length costs."""

from __future__ import annotations

import math
from dataclasses import dataclass

CHAPTER_MODEL = dict(V=50000, D=512, L=6, h=8, H=2048)
CHAPTER_LENGTHS = (128, 512, 2048, 8192, 32768)


@dataclass(frozen=True)
class ParamCount:
    V: int
    D: int
    L: int
    h: int
    H: int
    d_k: int  # = d_v = D / h
    attention: int  # W^Q, W^K, W^V, W^O: 4 D^2
    feed_forward: int  # 2 D H + H + D
    layer_norms: int  # two norms, scale and shift: 4 D
    layer: int
    layers: int  # L x layer
    embeddings: int  # V D
    total: int

    @property
    def attention_share(self) -> float:
        """Attention's part of one layer's parameters (0..1)."""
        return self.attention / self.layer

    @property
    def feed_forward_share(self) -> float:
        return self.feed_forward / self.layer


def count_params(V: int, D: int, L: int, h: int, H: int) -> ParamCount:
    """The chapter's count for a transformer layer stack, as plain integers."""
    for name, value in (("V", V), ("D", D), ("L", L), ("h", h), ("H", H)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} must be a whole number, got {value!r}")
        if value < 1:
            raise ValueError(f"{name} must be at least 1, got {value}")
    if D % h:
        near = _divisors_near(D, h)
        fit = (f"the nearest head counts that fit are {near[0]} and {near[1]}" if len(near) == 2
               else f"the nearest head count that fits is {near[0]}")
        raise ValueError(f"D = {D} does not split into h = {h} heads: D must be divisible by h "
                         f"({fit})")
    attention = 4 * D * D
    feed_forward = 2 * D * H + H + D
    layer_norms = 4 * D
    layer = attention + feed_forward + layer_norms
    embeddings = V * D
    return ParamCount(
        V=V, D=D, L=L, h=h, H=H, d_k=D // h, attention=attention, feed_forward=feed_forward,
        layer_norms=layer_norms, layer=layer, layers=L * layer, embeddings=embeddings,
        total=L * layer + embeddings,
    )


def _divisors_near(D: int, h: int) -> list[int]:
    """The head counts that divide D just below and just above h (one if h is past an end)."""
    divs = {y for x in range(1, math.isqrt(D) + 1) if D % x == 0 for y in (x, D // x)}
    below = [x for x in divs if x < h]
    above = [x for x in divs if x > h]
    return ([max(below)] if below else []) + ([min(above)] if above else [])


def sequence_cost(n: int, reference: int = 512) -> tuple[int, float]:
    """Scores per head for n tokens (n^2), and that as a multiple of the reference length's."""
    if n < 1:
        raise ValueError(f"the number of tokens must be at least 1, got {n}")
    return n * n, (n * n) / (reference * reference)
