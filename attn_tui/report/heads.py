"""A trained model's heads as plain text, and one head as a workbench workspace.

`attn-tui print heads` prints the tokens and, per head, each query's strongest key and its
weight; a head becomes a Workspace (its real Q, K and V) so it exports, and edits, like the
workbench's own tables.
"""

from __future__ import annotations

import unicodedata

import numpy as np

from attn_tui.core.state import Workspace
from attn_tui.models import Run, head_name, summarise, token_label
from attn_tui.report.fmt import num


def head_workspace(run: Run, layer: int, head: int, selected: int = 0) -> Workspace:
    """Head (``layer``, ``head``) of ``run`` (array indexes) as an editable workspace named by its tokens:
    Q, K, V are the head's real T x 32 projections; scaled by sqrt(32), no mask (an encoder)."""

    def m(a: np.ndarray) -> tuple[tuple[float, ...], ...]:
        return tuple(tuple(float(x) for x in row) for row in np.asarray(a, dtype=np.float64))

    from attn_tui.models.files import MODELS

    tokens = tuple(run.tokens)
    dtype = run.dtype if run.dtype in ("float32", "float64") else "float32"
    spec = MODELS.get(run.model)
    words = " ".join(run.text.split()) or " ".join(tokens[1:-1])  # as typed, not its pieces
    # the whole sentence, so an export alone can reproduce its numbers
    cut = f" (read to its first {len(tokens)} tokens)" if run.truncated else ""
    source = f"{spec.title if spec else run.model}, {head_name(layer, head)}, on “{words}”{cut}"
    return Workspace(source=source,
        q=m(run.q[layer, head]), k=m(run.k[layer, head]), v=m(run.v[layer, head]),
        query_tokens=tokens, key_tokens=tokens, mask="none", scale=True, backend=run.backend,
        dtype=dtype, selected=max(0, min(selected, len(tokens) - 1)), preset="random",
    )


def summary_line(run: Run, layer: int, head: int) -> str:
    s = summarise(run.weights[layer, head], layer, head)
    return (
        f"means over queries: entropy {num(s.entropy)} bits of at most {num(s.max_entropy)}; "
        f"share on the previous token {num(s.previous)}, next {num(s.next)}, itself "
        f"{num(s.itself)}, [CLS] {num(s.cls)}, [SEP] {num(s.sep)} (each share its own mean); "
        f"mostly: {s.named(run.tokens)}"
    )  # the model screen's summary, in the same order


def token_list(run: Run) -> str:
    return "  ".join(token_label(i, t) for i, t in enumerate(run.tokens))


def head_text(run: Run, layer: int, head: int) -> list[str]:
    """Each query's top key and weight for one head (ties go to the earlier key)."""
    alpha = run.weights[layer, head]
    width = max(cells(token_label(i, t, " ")) for i, t in enumerate(run.tokens))
    out = [f"{head_name(layer, head)}: {summary_line(run, layer, head)}",
           f"  {pad('query', width)}  {pad('top key', width)}  weight"]
    for i, token in enumerate(run.tokens):
        j = int(np.argmax(alpha[i]))
        out.append(f"  {pad(token_label(i, token, ' '), width)}  "
                   f"{pad(token_label(j, run.tokens[j], ' '), width)}  "
                   f"{num(float(alpha[i, j]))}")
    return out


def cells(text: str) -> int:
    """Columns ``text`` takes in a terminal: a wide character (猫, most emoji) takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 0
               if unicodedata.combining(ch) else 1 for ch in text)


def pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cells(text))


def heads_text(run: Run, title: str, layer: int | None = None, head: int | None = None) -> str:
    """Every head (or one layer's, one head index's, or one head) of ``run``."""
    layers = range(run.layers) if layer is None else [layer]
    heads = range(run.heads) if head is None else [head]
    out = [f"{title}: {run.layers} layers x {run.heads} heads, d_head {run.q.shape[-1]}; "
           f"{run.backend} {run.dtype}; no mask (an encoder, trained without one)",
           f"tokens ({len(run.tokens)}): {token_list(run)}"]
    for note in run.notices:
        out.append(f"note: {note}")
    for lay in layers:
        for h in heads:
            out += [""] + head_text(run, lay, h)
    return "\n".join(out) + "\n"
