"""Scaled dot-product attention, one stage at a time, as the chapter tabulates it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal, overload

import numpy as np

from attn_tui.compute.backend import namespace, resolve_dtype, to_backend, to_numpy
from attn_tui.compute.softmax import entropy_bits, softmax

MASKS = ("none", "causal", "causal-after")

MASK_WORDS = {
    "none": "no mask: every query sees every key",
    "causal": "causal: mask, then softmax (rows sum to 1)",
    "causal-after": "causal-after: softmax, then zero the future (mass is lost)",
}


@dataclass(frozen=True, eq=False)
class Steps:
    """Every stage of attention for each query, as numpy arrays.

    Shapes for a query matrix Q (T_q x d) against K (T_k x d) and V (T_k x d_v):
    ``scores``, ``scaled``, ``masked``, ``exp``, ``weights``, ``blocked``: (T_q, T_k);
    ``row_sums``, ``entropy``, ``max_entropy``: (T_q,); ``output``: (T_q, d_v).
    A 1-D query drops the T_q axis; a batch (B x T x d) adds a leading B axis.
    """

    scores: np.ndarray  # q . k
    scaled: np.ndarray  # q . k / sqrt(d_k), or q . k when scale is off
    masked: np.ndarray  # what the softmax receives: scaled, -inf where "causal" blocks a key
    exp: np.ndarray  # exp of masked (before normalising)
    weights: np.ndarray  # alpha
    row_sums: np.ndarray
    output: np.ndarray  # zeta = sum_j alpha_j v_j
    entropy: np.ndarray  # bits (in causal-after, of weights that may sum to less than 1)
    blocked: np.ndarray  # True where the mask hides a key from a query
    max_entropy: np.ndarray  # log2 of the number of keys a query may see
    values: np.ndarray = field(repr=False)
    d_k: int = 0
    mask: str = "none"
    scale: bool = True
    backend: str = "numpy"
    dtype: str = "float64"

    @property
    def scale_factor(self) -> float:
        return math.sqrt(self.d_k) if self.scale else 1.0

    @property
    def lost(self) -> np.ndarray:
        """Probability mass thrown away per query (non-zero only in causal-after)."""
        return 1.0 - self.row_sums

    def exp_out_of_range(self, query: int) -> str | None:
        """"overflows" where a 2-D table's exp column for ``query`` reads inf, "underflows"
        where it reads 0 beside a weight that is not: the dtype's range, which α, computed
        from e^(x − max), stays inside. None where every exp is as it reads."""
        exp = self.exp[query]
        if bool(np.isinf(exp).any()):
            return "overflows"
        if bool(((exp == 0) & (self.weights[query] > 0)).any()):
            return "underflows"
        return None

    def contributions(self, query: int = 0, batch: int | None = None) -> np.ndarray:
        """alpha_j * v_j for one query: (T_k, d_v); their column sums are the output."""
        w, v = self.weights, self.values
        if batch is not None:
            w = w[batch]
            v = v[batch] if v.ndim == 3 else v
        if w.ndim == 2:
            w = w[query]
        return w[:, None] * v


@dataclass(frozen=True, eq=False)
class Attention:
    """Only what a model's forward pass needs from attention, as numpy arrays: ``weights``
    (alpha, shaped like Steps.weights) and ``output`` (zeta, shaped like Steps.output)."""

    weights: np.ndarray
    output: np.ndarray
    d_k: int = 0
    mask: str = "none"
    scale: bool = True
    backend: str = "numpy"
    dtype: str = "float64"


def _check(name: str, x: Any, xp: Any, given: Any, dtype: str) -> None:
    if bool(xp.all(xp.isfinite(x))):
        return
    raw = np.asarray(to_numpy(given), dtype=np.float64)
    if np.all(np.isfinite(raw)):  # finite as given: too large for the dtype (70000 in float16)
        largest = float(xp.finfo(x.dtype).max)
        big = float(raw.flat[int(np.argmax(np.abs(raw)))])
        raise ValueError(f"{name} holds {big:g}, more than {dtype} holds (at most {largest:,g}): "
                         "use a wider dtype, or smaller numbers")
    raise ValueError(f"{name} contains a value that is not a finite number (nan or inf)")


@overload
def attend(
    q: Any, k: Any, v: Any, *, mask: str = ..., scale: bool = ..., backend: str = ...,
    dtype: str = ..., device: Any = ..., every_stage: Literal[True] = ...,
) -> Steps: ...


@overload
def attend(
    q: Any, k: Any, v: Any, *, mask: str = ..., scale: bool = ..., backend: str = ...,
    dtype: str = ..., device: Any = ..., every_stage: Literal[False],
) -> Attention: ...


def attend(
    q: Any,
    k: Any,
    v: Any,
    *,
    mask: str = "none",
    scale: bool = True,
    backend: str = "numpy",
    dtype: str = "float64",
    device: Any = None,
    every_stage: bool = True,
) -> Steps | Attention:
    """Run attention of queries ``q`` over keys ``k`` and values ``v``, keeping every stage.

    ``mask``: ``"none"``; ``"causal"`` hides keys after the query (j > i) before the softmax,
    so rows still sum to 1; ``"causal-after"`` applies the softmax first and then zeroes those
    cells, the wrong order, whose rows sum to less than 1.

    ``every_stage=False`` computes and returns only alpha and the output (an ``Attention``),
    the same numbers as the Steps' ``weights`` and ``output``: for a model's forward pass, which
    runs every head of every layer and shows the stages of one head only.
    """
    if mask not in MASKS:
        raise ValueError(f"unknown mask {mask!r}; choose one of: {', '.join(MASKS)}")
    xp = namespace(backend)
    dt = resolve_dtype(xp, dtype)
    Q, K, V = (to_backend(xp, a, dt, device) for a in (q, k, v))
    single = Q.ndim == 1
    if single:
        Q = xp.reshape(Q, (1, Q.shape[0]))  # one query row; its axis is dropped again at the end
    if Q.ndim not in (2, 3) or K.ndim not in (2, 3) or V.ndim not in (2, 3):
        raise ValueError(
            f"expected Q as (d,), (T, d) or (B, T, d) and K, V as (T, d) or (B, T, d); "
            f"got Q {tuple(Q.shape)}, K {tuple(K.shape)}, V {tuple(V.shape)}"
        )
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(
            f"Q and K must have the same width d_k: Q is {tuple(Q.shape)}, K is {tuple(K.shape)}"
        )
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(
            f"K and V need one row per key: K is {tuple(K.shape)}, V is {tuple(V.shape)}"
        )
    if Q.shape[-1] == 0 or K.shape[-2] == 0:
        raise ValueError("need at least one key and a width d_k of at least 1")
    for name, a, given in (("Q", Q, q), ("K", K, k), ("V", V, v)):
        _check(name, a, xp, given, dtype)

    with np.errstate(over="ignore", invalid="ignore"):
        # in float16 q·k may overflow to inf, and α be nan: the tables show it, and no
        # numpy warning is printed beside them
        return _attend(xp, Q, K, V, single, mask, scale, backend, dtype, dt, device,
                       every_stage)


def _attend(xp: Any, Q: Any, K: Any, V: Any, single: bool, mask: str, scale: bool,
            backend: str, dtype: str, dt: Any, device: Any, every_stage: bool
            ) -> Steps | Attention:
    d_k = int(Q.shape[-1])
    scores = xp.matmul(Q, xp.matrix_transpose(K))
    scaled = scores / math.sqrt(d_k) if scale else scores
    t_q, t_k = int(scores.shape[-2]), int(scores.shape[-1])

    # top-left aligned, like torch's is_causal: query i may see keys j <= i
    rows = xp.reshape(xp.arange(t_q), (t_q, 1))
    cols = xp.reshape(xp.arange(t_k), (1, t_k))
    blocked = (cols > rows) if mask != "none" else xp.zeros((t_q, t_k), dtype=xp.bool)
    neg_inf = xp.asarray(-math.inf, dtype=dt, device=device)
    # what the softmax receives: only "causal" hides keys from it; "causal-after" zeroes
    # their α after it, and with no mask the softmax receives scaled itself
    masked = xp.where(blocked, neg_inf, scaled) if mask == "causal" else scaled

    weights = softmax(masked)  # the exp column may overflow on purpose; alpha never does
    if mask == "causal-after":
        weights = xp.where(blocked, xp.zeros_like(weights), weights)
    exp = xp.exp(masked) if every_stage else None
    output = xp.matmul(weights, V)
    if not every_stage:
        return Attention(
            weights=_drop_query(to_numpy(weights), single),
            output=_drop_query(to_numpy(output), single),
            d_k=d_k, mask=mask, scale=bool(scale), backend=backend, dtype=dtype,
        )
    row_sums = xp.sum(weights, axis=-1)
    entropy = entropy_bits(weights)
    allowed = xp.sum(xp.astype(~blocked, dt), axis=-1)
    max_entropy = xp.log2(xp.where(allowed > 0, allowed, xp.ones_like(allowed)))

    arrays = dict(
        scores=scores, scaled=scaled, masked=masked, exp=exp, weights=weights,
        row_sums=row_sums, output=output, entropy=entropy,
    )
    out = {name: to_numpy(a) for name, a in arrays.items()}
    out["blocked"] = np.broadcast_to(to_numpy(blocked), out["weights"].shape)
    out["max_entropy"] = np.broadcast_to(to_numpy(max_entropy), out["row_sums"].shape)
    if single:  # drop the query axis, which is -2 for per-key stages and -1 for per-query ones
        per_query = ("row_sums", "entropy", "max_entropy")
        out = {name: (a[..., 0] if name in per_query else _drop_query(a, True))
               for name, a in out.items()}
    return Steps(
        **out, values=to_numpy(V), d_k=d_k, mask=mask, scale=bool(scale),
        backend=backend, dtype=dtype,
    )


def _drop_query(a: np.ndarray, single: bool) -> np.ndarray:
    """A per-key stage of a 1-D query without its query axis (-2)."""
    return a[..., 0, :] if single else a
