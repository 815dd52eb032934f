"""What one head does, computed from its weights: how spread its attention is (entropy) and how
much of it lands on the previous token, the next one, the query itself, [CLS] and [SEP]."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_tui.compute import entropy_bits

# "spread": the mean entropy at least this share of its ceiling, log2 T. real-heads asks for
# a head that spreads "almost evenly", 3.3 bits or more of its sentence's 3.70 (0.892): every
# head that meets it is called spread, and hardly one that does not
SPREAD = 0.89


@dataclass(frozen=True)
class HeadSummary:
    layer: int
    head: int
    entropy: float  # bits, the mean over queries
    max_entropy: float  # log2 T: every key weighted alike
    previous: float  # mean over queries 1..T-1 of alpha[i, i-1]
    next: float  # mean over queries 0..T-2 of alpha[i, i+1]: what a causal mask would hide
    itself: float  # mean over queries of alpha[i, i]
    cls: float  # mean over queries of alpha[i, 0]
    sep: float  # mean over queries of alpha[i, T-1]
    top_key: int = 0  # the key with the largest mean weight over queries (0-based)
    top_share: float = 0.0  # that mean

    @property
    def label(self) -> str:
        """The strongest pattern in words: a position (previous token, itself, [CLS], …) or
        one key holding half of the attention or more; else "spread" near the entropy's
        ceiling (every key weighted nearly alike, SPREAD), and "mixed" below it."""
        shares = {"previous token": self.previous, "next token": self.next,
                  "itself": self.itself, "[CLS]": self.cls, "[SEP]": self.sep}
        best = max(shares, key=lambda name: shares[name])
        # judged on the share as written (4 decimals): 0.49996 shown as 0.5000 beside
        # "mostly: spread" contradicted the rule "half or more"
        if round(shares[best], 4) >= 0.5:
            return best
        if round(self.top_share, 4) >= 0.5:  # every query's top key one content token:
            return f"key {self.top_key + 1}"  # it had been called "spread"
        return "spread" if self.entropy >= SPREAD * self.max_entropy else "mixed"

    def named(self, tokens: list[str]) -> str:
        """``label`` with the token a "key N" label stands for: key 3 'cat'."""
        label = self.label
        if label.startswith("key ") and 0 <= self.top_key < len(tokens):
            return f"{label} '{tokens[self.top_key]}'"
        return label


def summarise(alpha: np.ndarray, layer: int = 0, head: int = 0) -> HeadSummary:
    """The summary of one head's (T, T) weights."""
    a = np.asarray(alpha, dtype=np.float64)
    t = a.shape[-1]
    idx = np.arange(t)
    return HeadSummary(
        layer=layer, head=head,
        entropy=float(np.mean(entropy_bits(a))), max_entropy=float(np.log2(t)),
        previous=float(np.mean(a[idx[1:], idx[:-1]])) if t > 1 else 0.0,
        next=float(np.mean(a[idx[:-1], idx[1:]])) if t > 1 else 0.0,
        itself=float(np.mean(a[idx, idx])),
        cls=float(np.mean(a[:, 0])), sep=float(np.mean(a[:, -1])),
        top_key=int(np.argmax(column := a.mean(axis=0))), top_share=float(column.max()),
    )


def summarise_all(weights: np.ndarray) -> list[list[HeadSummary]]:
    """Summaries of every head of an (L, H, T, T) array, by layer then head."""
    return [
        [summarise(weights[layer, head], layer, head) for head in range(weights.shape[1])]
        for layer in range(weights.shape[0])
    ]
