"""Multi-head attention as a reshape: D split into h heads of d_k = D / h.

X (T x D) is projected once by W^Q, W^K, W^V (each D x D). Head i takes columns
i*d_k .. (i+1)*d_k of each projection and runs ordinary attention on them, giving a T x d_k
output; the h outputs side by side are T x D again, and W^O (D x D) mixes them. The weight
matrices are the same size whatever h is: heads cost no parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_tui.compute.attend import Steps, attend
from attn_tui.compute.backend import namespace, resolve_dtype, to_backend, to_numpy
from attn_tui.compute.params import count_params


@dataclass(frozen=True, eq=False)
class HeadsResult:
    T: int
    D: int
    h: int
    heads: tuple[Steps, ...]  # one per head: weights (T x T), output (T x d_k), entropy (T,)
    concat: np.ndarray  # (T, D): the heads' outputs side by side
    output: np.ndarray  # (T, D): concat @ W^O
    mask: str = "none"

    @property
    def d_k(self) -> int:
        return self.D // self.h

    @property
    def attention_params(self) -> int:
        """W^Q, W^K, W^V, W^O: 4 D^2, the same for every h that divides D."""
        return 4 * self.D * self.D

    @property
    def params_per_head(self) -> int:
        """Each head's share: its d_k columns of W^Q, W^K, W^V and d_k rows of W^O."""
        return 4 * self.D * self.d_k

    def mean_entropy(self, head: int) -> float:
        return float(np.mean(self.heads[head].entropy))

    def mean_max_weight(self, head: int) -> float:
        return float(np.mean(np.max(self.heads[head].weights, axis=-1)))

    def shapes(self) -> list[tuple[str, str]]:
        """(what, shape) from the input to the output, for one head and for all."""
        T, D, h, d = self.T, self.D, self.h, self.d_k
        return [
            ("X, the tokens", f"{T} × {D}"),
            ("W^Q, W^K, W^V", f"{D} × {D} each"),
            ("Q_i, K_i, V_i (head i)", f"{T} × {d}  ({d} column{'s' if d != 1 else ''} wide)"),
            ("weights α_i", f"{T} × {T}"),
            ("head i output", f"{T} × {d}"),
            (f"concat of {h} head{'s' if h != 1 else ''}", f"{T} × ({h} × {d}) = {T} × {D}"),
            ("W^O", f"{D} × {D}"),
            ("output", f"{T} × {D}"),
        ]


def heads_inputs(tokens: int, D: int, seed: int = 0) -> tuple[np.ndarray, ...]:
    """Seeded X (N(0, 1)) and W^Q, W^K, W^V, W^O (N(0, 1/D)), in float64.

    X comes from a stream of its own, filled row by row, so token t's row does not depend on
    how many tokens there are: one more token leaves the others as they were (and, under the
    causal mask, their weights too), and the weights never depend on T."""
    x = np.random.default_rng([seed, 1]).standard_normal((tokens, D))
    rng = np.random.default_rng([seed, 0])
    ws = tuple(rng.standard_normal((D, D)) / np.sqrt(D) for _ in range(4))
    return (x, *ws)


def split_heads(
    x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray, w_o: np.ndarray, h: int,
    *, mask: str = "none", backend: str = "numpy", dtype: str = "float64",
) -> HeadsResult:
    """Run h-head attention on X and keep every head's stages."""
    T, D = int(x.shape[0]), int(x.shape[1])
    count_params(1, D, 1, h, 1)  # the same check, and message, as the parameter count
    xp = namespace(backend)
    dt = resolve_dtype(xp, dtype)
    X, WQ, WK, WV, WO = (to_backend(xp, a, dt) for a in (x, w_q, w_k, w_v, w_o))
    Q, K, V = xp.matmul(X, WQ), xp.matmul(X, WK), xp.matmul(X, WV)
    d = D // h
    heads = tuple(
        attend(Q[:, i * d:(i + 1) * d], K[:, i * d:(i + 1) * d], V[:, i * d:(i + 1) * d],
               mask=mask, backend=backend, dtype=dtype)
        for i in range(h)
    )
    concat = xp.concat([to_backend(xp, s.output, dt) for s in heads], axis=1)
    output = xp.matmul(concat, WO)
    return HeadsResult(T, D, h, heads, to_numpy(concat), to_numpy(output), mask)
