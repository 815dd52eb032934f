"""The BERT encoder's forward pass, written once against the Array API (numpy or torch).

embeddings (word + position + token type) -> LayerNorm -> per layer: Q, K, V projections,
attention per head through attn_tui.compute's own ``attend``, output projection, residual,
LayerNorm, GELU feed-forward, residual, LayerNorm; then mean pooling and L2 normalising, as the
model's sentence-transformers modules (Pooling mean, Normalize) define its sentence embedding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from attn_tui.compute import attend, namespace
from attn_tui.compute.backend import resolve_dtype, to_backend, to_numpy
from attn_tui.models.files import ModelDamaged
from attn_tui.models.weights import Layer, Weights

# Numerical Recipes' Chebyshev fit of erfc (fractional error below 1.2e-7 everywhere): the Array
# API has no erf, and BERT's GELU is the exact erf form, not the tanh approximation.
_ERFC = (
    -1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806,
    0.27886807, -1.13520398, 1.48851587, -0.82215223, 0.17087277,
)


# t = 1 / (1 + z/2) with z = |x|/sqrt 2, and erfc(z) / 2 = t exp(-z^2 + ln 1/2 + c0 + poly(t))
_T_SLOPE = 0.5 / math.sqrt(2.0)
_EXP_CONST = _ERFC[0] + math.log(0.5)


def gelu(x: Any, xp: Any) -> Any:
    """x * Phi(x), as max(x, 0) - |x| * Phi(-|x|): one formula for both signs, so no where
    (numpy's where branches per element: on mixed signs it took a third of the old form's
    time), and Phi(-|x|) is erfc's own small value, never 1 minus something near 1, so it is
    exact at both ends. Each step works in place on one of three arrays, in the order of the
    plain expression (the same numbers, bit for bit): a new array per step took 1.6 times as
    long at (32, 1536) and 2.4 times at (12, 1536)."""
    ax = xp.abs(x)
    t = ax * _T_SLOPE
    t += 1.0
    t = 1.0 / t
    poly = t * _ERFC[-1]
    for c in reversed(_ERFC[1:-1]):
        poly += c
        poly *= t
    tail = ax * ax  # becomes Phi(-|x|) = t exp(poly + c - x^2/2), then |x| Phi(-|x|)
    tail *= -0.5
    tail += _EXP_CONST
    tail += poly
    tail = xp.exp(tail)
    tail *= t
    tail *= ax
    out = xp.maximum(x, xp.asarray(0.0, dtype=x.dtype))
    out -= tail
    return out


def layer_norm(x: Any, g: Any, b: Any, eps: float, xp: Any) -> Any:
    mean = xp.mean(x, axis=-1, keepdims=True)
    centred = x - mean
    var = xp.mean(centred * centred, axis=-1, keepdims=True)
    return centred / xp.sqrt(var + eps) * g + b


def linear(x: Any, w: Any, b: Any, xp: Any) -> Any:
    """Weights are held (in, out) (see weights.Layer): x @ W + b."""
    return xp.matmul(x, w) + b


@dataclass(frozen=True, eq=False)
class Prepared:
    """The dense weights moved into one namespace and dtype, done once per backend and dtype."""

    xp: Any
    dtype: Any
    positions: Any
    type0: Any
    ln_g: Any
    ln_b: Any
    layers: tuple[dict[str, Any], ...]


def prepare(weights: Weights, backend: str, dtype: str) -> Prepared:
    xp = namespace(backend)
    dt = resolve_dtype(xp, dtype)

    def move(a: np.ndarray) -> Any:
        return to_backend(xp, a, dt)

    layers = tuple(
        {f.name: move(getattr(layer, f.name)) for f in fields(Layer)} for layer in weights.layers
    )
    return Prepared(
        xp=xp, dtype=dt, positions=move(weights.positions), type0=move(weights.types[0]),
        ln_g=move(weights.ln_g), ln_b=move(weights.ln_b), layers=layers,
    )


@dataclass(frozen=True, eq=False)
class Forward:
    """Every intermediate the UI shows, as numpy: (L, H, T, T), (L, H, T, d_head), (L + 1, T, d);
    ``hidden`` and ``embedding`` are None from a pass asked for the maps only (full=False)."""

    weights: np.ndarray
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    hidden: np.ndarray | None
    embedding: np.ndarray | None


def forward(
    weights: Weights, prepared: Prepared, ids: list[int], *, backend: str, dtype: str,
    full: bool = True,
) -> Forward:
    """``full=False``: the maps only. No map depends on the last layer's output projection
    and feed-forward, which only ``hidden``'s last row and the embedding need (an eighth of a
    32-token pass)."""
    xp, dt, c = prepared.xp, prepared.dtype, weights.config
    t, heads, d_head = len(ids), c.heads, c.d_head
    words = to_backend(xp, weights.word_rows(ids), dt)
    x = words + prepared.positions[:t, :] + prepared.type0
    x = layer_norm(x, prepared.ln_g, prepared.ln_b, c.eps, xp)
    hidden, alphas, qs, ks, vs = [to_numpy(x)], [], [], [], []

    def split(a: Any) -> Any:  # (T, d_model) -> (heads, T, d_head)
        return xp.permute_dims(xp.reshape(a, (t, heads, d_head)), (1, 0, 2))

    def feed_forward(x: Any, p: dict[str, Any]) -> Any:
        ff = linear(gelu(linear(x, p["wi"], p["bi"], xp), xp), p["wf"], p["bf"], xp)
        return layer_norm(x + ff, p["ln2_g"], p["ln2_b"], c.eps, xp)

    last, d = len(prepared.layers) - 1, heads * d_head
    for i, p in enumerate(prepared.layers):
        qkv = linear(x, p["wqkv"], p["bqkv"], xp)
        q, k, v = (split(qkv[:, j * d : (j + 1) * d]) for j in range(3))
        qs.append(to_numpy(q))
        ks.append(to_numpy(k))
        vs.append(to_numpy(v))
        _finite(f"layer {i + 1}'s queries, keys or values", qs[-1], ks[-1], vs[-1])
        # the heads are attend's batch; the stages of one head are computed again when shown
        heads_out = attend(q, k, v, backend=backend, dtype=dtype, every_stage=False)
        alphas.append(heads_out.weights)
        if i == last and not full:
            break
        context = to_backend(xp, heads_out.output, dt)
        context = xp.reshape(xp.permute_dims(context, (1, 0, 2)), (t, d))
        x = layer_norm(x + linear(context, p["wo"], p["bo"], xp), p["ln1_g"], p["ln1_b"], c.eps, xp)
        if i < last:
            x = feed_forward(x, p)
            hidden.append(to_numpy(x))

    embedding = None
    if full:
        if prepared.layers:
            x = feed_forward(x, prepared.layers[last])
            hidden.append(to_numpy(x))
            _finite(f"layer {last + 1}'s outputs", hidden[-1])
        pooled = xp.mean(x, axis=0)
        norm = xp.sqrt(xp.sum(pooled * pooled))
        embedding = to_numpy(pooled / xp.maximum(norm, xp.asarray(1e-12, dtype=dt)))
    return Forward(weights=np.stack(alphas), q=np.stack(qs), k=np.stack(ks), v=np.stack(vs),
                   hidden=np.stack(hidden) if full else None, embedding=embedding)


def _finite(what: str, *arrays: np.ndarray) -> None:
    """A trained model's numbers are finite for any sentence; weights that overflow them are a
    damaged file, said as such (attend's own refusal reads as if about the learner's Q)."""
    if not all(np.isfinite(a).all() for a in arrays):
        raise ModelDamaged(f"model.safetensors is damaged: {what} are not finite numbers "
                           "(nan or inf) for this sentence")
