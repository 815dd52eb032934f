"""A BERT encoder's weights, read from a safetensors file with safetensors' numpy loader.

The file stays memory-mapped by safetensors for as long as the Weights live; the word-embedding
table (half the file) is never copied: each run reads only its tokens' rows.
Every failure to read becomes ModelDamaged with a one-line reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from attn_tui.models.files import ModelDamaged, missing_words


@dataclass(frozen=True)
class Config:
    layers: int
    heads: int
    d_model: int
    d_ff: int
    vocab: int
    positions: int
    eps: float

    @property
    def d_head(self) -> int:
        return self.d_model // self.heads


@dataclass(frozen=True, eq=False)
class Layer:
    """One encoder layer. The file stores linear weights (out, in), as torch's Linear keeps
    them; here they are (in, out), contiguous, so a projection is x @ W + b, and the query,
    key and value projections are one (d, 3d) matrix: one product instead of three. With 32
    rows in x and weights read from memory once per pass, this takes about 0.9 times as long
    as x @ W.T on the file's layout."""

    wqkv: np.ndarray
    bqkv: np.ndarray
    wo: np.ndarray
    bo: np.ndarray
    ln1_g: np.ndarray
    ln1_b: np.ndarray
    wi: np.ndarray
    bi: np.ndarray
    wf: np.ndarray
    bf: np.ndarray
    ln2_g: np.ndarray
    ln2_b: np.ndarray


@dataclass(frozen=True, eq=False)
class Weights:
    config: Config
    words: Any  # safetensors slice of (vocab, d_model): rows are read on demand
    positions: np.ndarray
    types: np.ndarray
    ln_g: np.ndarray
    ln_b: np.ndarray
    layers: tuple[Layer, ...]
    handle: Any  # keeps the mapped file open

    def word_rows(self, ids: list[int]) -> np.ndarray:
        try:
            rows = [self.words[i : i + 1] for i in ids]
        except Exception as exc:  # safetensors' own error type, or the OS's, for a bad read
            raise ModelDamaged(f"model.safetensors cannot be read: {_reason(exc)}") from None
        out = np.concatenate(rows, axis=0) if rows else np.zeros((0, self.config.d_model))
        if not np.all(np.isfinite(out)):
            raise ModelDamaged("model.safetensors is damaged: a word embedding is not a number")
        return out


def read_config(path: Path) -> Config:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        config = Config(
            layers=int(raw["num_hidden_layers"]), heads=int(raw["num_attention_heads"]),
            d_model=int(raw["hidden_size"]), d_ff=int(raw["intermediate_size"]),
            vocab=int(raw["vocab_size"]), positions=int(raw["max_position_embeddings"]),
            eps=float(raw.get("layer_norm_eps", 1e-12)),
        )
    except (FileNotFoundError, IsADirectoryError):
        raise ModelDamaged(missing_words(path)) from None
    except KeyError as exc:  # str() of it is the bare key, quoted
        raise ModelDamaged(f"{path.name} cannot be read: it has no {exc.args[0]}") from None
    except (OSError, UnicodeDecodeError, ValueError, TypeError) as exc:
        raise ModelDamaged(f"{path.name} cannot be read: {_reason(exc)}") from None
    if min(config.layers, config.heads, config.d_model, config.d_ff) < 1 or (
        config.d_model % config.heads
    ):
        raise ModelDamaged(f"{path.name} describes an impossible model: {config}")
    if raw.get("model_type", "bert") != "bert" or raw.get("hidden_act", "gelu") != "gelu":
        raise ModelDamaged(f"{path.name} is not a BERT encoder with GELU")
    return config


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."


def read_weights(path: Path, config: Config) -> Weights:
    """Open ``path`` and check every tensor's name, shape and dtype against ``config``."""
    from safetensors import safe_open

    if not path.is_file():
        raise ModelDamaged(missing_words(path))
    try:
        handle = safe_open(str(path), framework="numpy")
        names = set(handle.keys())
    except Exception as exc:  # safetensors raises its own SafetensorError and OSErrors
        raise ModelDamaged(f"{path.name} is damaged: {_reason(exc)}") from None

    c = config

    def get(name: str, shape: tuple[int, ...]) -> np.ndarray:
        if name not in names:
            raise ModelDamaged(f"{path.name} is damaged: it has no tensor {name}")
        try:
            array = handle.get_tensor(name)
        except Exception as exc:
            raise ModelDamaged(f"{path.name} is damaged: {name}: {_reason(exc)}") from None
        return _checked(path, name, array, shape)

    def layer(i: int) -> Layer:
        p = f"encoder.layer.{i}."
        a, d, f = p + "attention.", c.d_model, c.d_ff
        qkv = [a + f"self.{n}." for n in ("query", "key", "value")]
        return Layer(
            wqkv=_in_out(*(get(n + "weight", (d, d)) for n in qkv)),
            bqkv=np.concatenate([get(n + "bias", (d,)) for n in qkv]),
            wo=_in_out(get(a + "output.dense.weight", (d, d))), bo=get(a + "output.dense.bias", (d,)),
            ln1_g=get(a + "output.LayerNorm.weight", (d,)),
            ln1_b=get(a + "output.LayerNorm.bias", (d,)),
            wi=_in_out(get(p + "intermediate.dense.weight", (f, d))),
            bi=get(p + "intermediate.dense.bias", (f,)),
            wf=_in_out(get(p + "output.dense.weight", (d, f))), bf=get(p + "output.dense.bias", (d,)),
            ln2_g=get(p + "output.LayerNorm.weight", (d,)),
            ln2_b=get(p + "output.LayerNorm.bias", (d,)),
        )

    words_name = "embeddings.word_embeddings.weight"
    if words_name not in names:
        raise ModelDamaged(f"{path.name} is damaged: it has no tensor {words_name}")
    try:
        words = handle.get_slice(words_name)
        shape, dtype = tuple(words.get_shape()), words.get_dtype()
    except Exception as exc:
        raise ModelDamaged(f"{path.name} is damaged: {words_name}: {_reason(exc)}") from None
    if shape != (c.vocab, c.d_model) or dtype not in ("F32", "F64"):
        raise ModelDamaged(
            f"{path.name} is damaged: {words_name} is {dtype} {shape}, "
            f"expected F32 {(c.vocab, c.d_model)}"
        )
    return Weights(
        config=c, words=words,
        positions=get("embeddings.position_embeddings.weight", (c.positions, c.d_model)),
        types=get("embeddings.token_type_embeddings.weight", (2, c.d_model)),
        ln_g=get("embeddings.LayerNorm.weight", (c.d_model,)),
        ln_b=get("embeddings.LayerNorm.bias", (c.d_model,)),
        layers=tuple(layer(i) for i in range(c.layers)),
        handle=handle,
    )


def _in_out(*weights: np.ndarray) -> np.ndarray:
    """(out, in) matrices from the file, stacked along out, as one contiguous (in, out)."""
    return np.ascontiguousarray(np.concatenate(weights).T)


def _checked(path: Path, name: str, array: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    if array.shape != shape:
        raise ModelDamaged(
            f"{path.name} is damaged: {name} has shape {array.shape}, expected {shape}"
        )
    if array.dtype.kind != "f":
        raise ModelDamaged(f"{path.name} is damaged: {name} holds {array.dtype}, not floats")
    if not np.all(np.isfinite(array)):
        raise ModelDamaged(f"{path.name} is damaged: {name} holds a value that is not a number")
    return array
