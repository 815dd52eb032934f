"""The trained model's forward pass in numpy, through attn-tui's own ``attend``.

It checks the captured α (the torch model's) against the same weights run the workbench's way,
and hands one head's Q, K and V for the example sequence to the workbench.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from attn_tui.compute.attend import attend
from attn_tui.train.config import VOCAB, TrainConfig

EPS = 1e-5  # torch.nn.LayerNorm's default


class HeadQKV(NamedTuple):
    q: np.ndarray  # (T, head_size)
    k: np.ndarray
    v: np.ndarray
    alpha: np.ndarray  # (T, T), from attend


def expected_shapes(config: TrainConfig, t: int) -> dict[str, tuple[int, ...]]:
    d, hs, n = config.d_model, config.head_size, len(VOCAB)
    shapes: dict[str, tuple[int, ...]] = {"tok.weight": (n, d), "pos.weight": (t, d),
                                          "ln_f.weight": (d,), "ln_f.bias": (d,),
                                          "head.weight": (n, d), "head.bias": (n,)}
    for i in range(config.layers):
        b = f"blocks.{i}."
        for name in ("ln1", "ln2"):
            shapes[b + name + ".weight"] = shapes[b + name + ".bias"] = (d,)
        for h in range(config.heads):
            for m in ("key", "query", "value"):
                shapes[f"{b}heads.{h}.{m}.weight"] = (hs, d)
        shapes[b + "proj.weight"], shapes[b + "proj.bias"] = (d, d), (d,)
        shapes[b + "ff.0.weight"], shapes[b + "ff.0.bias"] = (4 * d, d), (4 * d,)
        shapes[b + "ff.2.weight"], shapes[b + "ff.2.bias"] = (d, 4 * d), (d,)
    return shapes


def check_weights(config: TrainConfig, t: int, weights: dict[str, np.ndarray],
                  finite: bool = True) -> None:
    for name, shape in expected_shapes(config, t).items():
        if name not in weights:
            raise ValueError(f"the weight {name} is missing")
        if weights[name].shape != shape:
            raise ValueError(f"the weight {name} has shape {weights[name].shape}, not {shape}")
        if finite and not np.all(np.isfinite(weights[name])):
            raise ValueError(f"the weight {name} holds a value that is not a number")


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True, dtype=np.float32)
    var = ((x - mean) ** 2).mean(-1, keepdims=True, dtype=np.float32)
    return (x - mean) / np.sqrt(var + np.float32(EPS)) * w + b


def forward(config: TrainConfig, weights: dict[str, np.ndarray],
            example: np.ndarray) -> list[list[HeadQKV]]:
    """Every head's Q, K, V and α, layer by layer, for the token ids ``example`` (float32)."""
    w = {k: np.asarray(v, dtype=np.float32) for k, v in weights.items()}
    t = len(example)
    x = w["tok.weight"][example] + w["pos.weight"][:t]
    layers = []
    for i in range(config.layers):
        b = f"blocks.{i}."
        h_in = _layer_norm(x, w[b + "ln1.weight"], w[b + "ln1.bias"])
        heads = []
        for h in range(config.heads):
            q, k, v = (h_in @ w[f"{b}heads.{h}.{m}.weight"].T for m in ("query", "key", "value"))
            steps = attend(q, k, v, mask="causal", dtype="float32")
            heads.append(HeadQKV(q, k, v, steps.weights.astype(np.float32)))
        layers.append(heads)
        z = np.concatenate([hd.alpha @ hd.v for hd in heads], axis=-1)
        x = x + z @ w[b + "proj.weight"].T + w[b + "proj.bias"]
        f = _layer_norm(x, w[b + "ln2.weight"], w[b + "ln2.bias"])
        f = np.maximum(f @ w[b + "ff.0.weight"].T + w[b + "ff.0.bias"], np.float32(0))
        x = x + f @ w[b + "ff.2.weight"].T + w[b + "ff.2.bias"]
    return layers


def alphas(config: TrainConfig, weights: dict[str, np.ndarray],
           example: np.ndarray) -> np.ndarray:
    """(layers, heads, T, T): the α the torch model captured, recomputed."""
    return np.stack([np.stack([h.alpha for h in layer])
                     for layer in forward(config, weights, example)])
