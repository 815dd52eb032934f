"""``load_model(name) -> Model`` and ``Model.run(text) -> Run``: a trained encoder's heads.

Nothing here touches the network: the files come from an installed package (see files.py).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from attn_tui.compute import Steps, attend
from attn_tui.models.files import (
    ModelFiles,
    ModelSpec,
    locate,
    require_readers,
    spec_for,
)
from attn_tui.models.forward import Prepared, forward, prepare
from attn_tui.models.text import Tokenizer, Tokens
from attn_tui.models.weights import Config, Weights, read_config, read_weights


@dataclass(frozen=True, eq=False)
class Run:
    """One sentence through the model. Shapes: ``weights`` (L, H, T, T); ``q``, ``k``, ``v``
    (L, H, T, d_head); ``hidden`` (L + 1, T, d_model), the embeddings' output first;
    ``embedding`` (d_model,), the sentence embedding (mean of the last layer, L2-normalised);
    both None from ``run(..., full=False)``, the maps only."""

    tokens: list[str]
    ids: list[int]
    weights: np.ndarray
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    hidden: np.ndarray | None
    embedding: np.ndarray | None
    text: str = ""
    notices: tuple[str, ...] = ()
    truncated: bool = False
    read: str = ""  # the part of ``text`` the maps cover: all of it unless truncated
    backend: str = "numpy"
    dtype: str = "float32"
    model: str = "minilm"

    @property
    def layers(self) -> int:
        return int(self.weights.shape[0])

    @property
    def heads(self) -> int:
        return int(self.weights.shape[1])

    def head_steps(self, layer: int, head: int, *, dtype: str | None = None) -> Steps:
        """Every stage of one head (q.k, scaled, exp, alpha, output) from its real q, k, v,
        as contiguous copies: a strided view takes another BLAS path, and q·k came out in
        other last float32 digits than the workbench's on the same numbers (after w)."""
        q, k, v = (np.ascontiguousarray(a[layer, head]) for a in (self.q, self.k, self.v))
        return attend(q, k, v, dtype=dtype or self.dtype)


@dataclass(eq=False)
class Model:
    spec: ModelSpec
    files: ModelFiles
    config: Config
    weights: Weights
    tokenizer: Tokenizer
    _prepared: dict[tuple[str, str], Prepared] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return self.spec.name

    def tokenize(self, text: str) -> Tokens:
        """The tokens ``text`` becomes; EmptySentence when nothing is left to read."""
        return self.tokenizer.encode(text)

    def run(self, text: str, *, backend: str = "numpy", dtype: str = "float32",
            full: bool = True) -> Run:
        """``full=False``: the maps, q, k and v only, without the last layer's output
        projection and feed-forward, that only ``hidden`` and ``embedding`` need (what the
        model screen shows)."""
        tokens = self.tokenize(text)
        return self.run_tokens(tokens, backend=backend, dtype=dtype, full=full)

    def run_tokens(self, tokens: Tokens, *, backend: str = "numpy", dtype: str = "float32",
                   full: bool = True) -> Run:
        key = (backend, dtype)
        if key not in self._prepared:
            self._prepared[key] = prepare(self.weights, backend, dtype)
        # damaged weights overflow: forward says so as ModelDamaged, with no warning printed
        with np.errstate(over="ignore", invalid="ignore"):
            out = forward(self.weights, self._prepared[key], list(tokens.ids), backend=backend,
                          dtype=dtype, full=full)
        return Run(
            tokens=list(tokens.tokens), ids=list(tokens.ids), weights=out.weights, q=out.q,
            k=out.k, v=out.v, hidden=out.hidden, embedding=out.embedding, text=tokens.text,
            notices=tokens.notices, truncated=tokens.truncated, read=tokens.read,
            backend=backend, dtype=dtype, model=self.spec.name,
        )


def load_model(name: str = "minilm", *, folder: Any = None) -> Model:
    """Load a model by name from its installed package (or from ``folder``, a copy of its files).

    Raises ModelUnavailable (one line naming the install command) or ModelDamaged (one line
    with the reason); never downloads anything.
    """
    from pathlib import Path

    spec = spec_for(name)
    require_readers()
    files = ModelFiles(Path(folder)) if folder is not None else locate(spec)
    config = read_config(files.config)
    weights = read_weights(files.weights, config)
    tokenizer = Tokenizer(files.tokenizer)
    return Model(spec=spec, files=files, config=config, weights=weights, tokenizer=tokenizer)


_shared: dict[str, Model] = {}
_sharing = threading.Lock()


def shared_model(name: str = "minilm") -> Model:
    """``load_model(name)`` once per process: the model screen, reopened, and a lesson's task
    checks read the same weights."""
    with _sharing:
        if name not in _shared:
            _shared[name] = load_model(name)
        return _shared[name]
