"""One trained head as a workbench workspace: its Q, K and V for the example sequence."""

from __future__ import annotations

from attn_tui.core.state import Workspace
from attn_tui.core.words import as_typed
from attn_tui.models.names import token_labels
from attn_tui.train.replay import forward
from attn_tui.train.runfile import RunRecord


def head_workspace(record: RunRecord, layer: int, head: int, like: Workspace) -> Workspace:
    """Q, K, V of ``head`` in ``layer`` (counted from 0), causal, with the tokens named by
    position, from 1 as every screen counts, and token ('4:>'), in ``like``'s backend and in
    float32, the precision the run trained in, as the model screen's w opens a head in its
    weights' own (float64 would write each float32 number in 17 digits)."""
    h = forward(record.config, record.weights, record.example)[layer][head]
    names = token_labels(record.tokens)

    def m(a):
        return tuple(tuple(float(x) for x in row) for row in a)

    c = record.config  # its settings name the run: two runs of one task differ in them
    source = (f"the train lab's {c.task} run (L {c.layers}, h {c.heads}, D {c.d_model}, "
              f"lr {as_typed(c.lr)}, seed {c.seed}) at step {record.steps_done}, "
              f"layer {layer + 1} head {head + 1}")
    return Workspace(source=source, q=m(h.q), k=m(h.k), v=m(h.v), query_tokens=names, key_tokens=names,
                     mask="causal", scale=True, backend=like.backend, dtype="float32",
                     selected=len(names) - 1, seed=like.seed, preset="random")
