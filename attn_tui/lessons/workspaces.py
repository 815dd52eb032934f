"""The workspaces a lesson step can start from: the presets, and the lecture's tensors as Q, K, V.

``lecture-bow``: the bag-of-words average as attention. Every score is 0 (Q = K = zeros, width
1) and the mask is causal, so each token's weights are 1/(t+1) on itself and its past, V = x[0]
and the outputs are the running means the lecture computes with loops.

``lecture-head``: the lecture's single head on batch 0. Q, K and V are x[0] times the three
nn.Linear weight matrices, drawn in the lecture's order, so the workbench's scaled, masked,
softmaxed weights are the very ones the lecture prints.

torch is used when it is installed (seed 1337: the lecture's draws); otherwise numpy, whose draws
differ but keep every relation. It is imported only when one of these is built.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from attn_tui.core import state
from attn_tui.core.presets import LECTURE_EXAMPLES, PRESET_NAMES

LECTURE_WORKSPACES = tuple(LECTURE_EXAMPLES)
WORKSPACE_NAMES = (*PRESET_NAMES, *LECTURE_WORKSPACES)
LECTURE_SEED = 1337
HEAD_SIZE = 16


def lecture_backend() -> str:
    from attn_tui.compute import torch_available

    return "torch" if torch_available() else "numpy"


def build(name: str, backend: str | None = None) -> state.Workspace:
    """The workspace called ``name`` (presets on numpy float64; the lecture's on its backend,
    or on ``backend`` when given)."""
    if name in PRESET_NAMES:
        return state.from_preset(name)
    if name not in LECTURE_WORKSPACES:
        raise ValueError(f"unknown workspace {name!r}; choose one of: {', '.join(WORKSPACE_NAMES)}")
    backend = backend or lecture_backend()
    x, q, k, v = _lecture_tensors(backend)
    tokens = tuple(f"t{i}" for i in range(1, x.shape[0] + 1))  # x[0] is t1
    if name == "lecture-bow":
        zeros = np.zeros((x.shape[0], 1))
        q, k, v = zeros, zeros, x
    m = state.as_matrix
    return state.Workspace(
        q=m(q), k=m(k), v=m(v), query_tokens=tokens, key_tokens=tokens, mask="causal",
        scale=True, backend=backend, dtype="float32", seed=LECTURE_SEED, preset=name,
    )


@lru_cache(maxsize=2)
def _lecture_tensors(backend: str) -> tuple[np.ndarray, ...]:
    """x[0] (T x 2) of the bag-of-words part, and q, k, v (T x 16) of the head, for batch 0."""
    from attn_tui.compute import namespace, to_numpy
    from attn_tui.compute.backend import resolve_dtype
    from attn_tui.compute.draws import lecture_draws

    xp = namespace(backend)
    dt = resolve_dtype(xp, "float32")
    # the same generator calls, in the same order, as attn_tui.compute.lecture
    draw = lecture_draws(backend, LECTURE_SEED, xp, dt)
    x = draw.normal((4, 8, 2))
    draw.toy_integers()
    hx = draw.head_input((4, 8, 32))
    w_key, w_query, w_value = (draw.linear(32, HEAD_SIZE) for _ in range(3))
    q, k, v = (xp.matmul(hx[0, ...], xp.matrix_transpose(w)) for w in (w_query, w_key, w_value))
    return tuple(to_numpy(a).astype(np.float64) for a in (x[0, ...], q, k, v))
