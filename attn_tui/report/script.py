"""A standalone Python script that rebuilds a workspace's attention, for numpy or for torch.

The stages follow attn_tui.compute.attend operation for operation (same mask order, same stable
softmax), and the printing code is tables.py's own, copied in, so the script prints exactly what
the Markdown export shows. The script needs numpy or torch, nothing of attn-tui.
"""

from __future__ import annotations

import inspect
import re

from attn_tui.core.state import Workspace
from attn_tui.report import fmt, tables

HEAD = '''#!/usr/bin/env python3
"""Scaled dot-product attention, every stage, for one attn-tui workspace.

Needs Python 3.10+ and @LIB@ only. Run: python @NAME@
It prints the step table for query @SELECTED@ (counting from 1) and the weights of every query,
with 4 decimals, as Markdown: what attn-tui's .md export holds (Markdown's own characters in
a token, such as [CLS]'s brackets, get a backslash). Edit Q, K, V or the settings below and run
it again.
"""

from __future__ import annotations

import math
import sys
from types import SimpleNamespace

@IMPORT@

Q = @Q@
K = @K@
V = @V@
QUERY_TOKENS = @QUERY_TOKENS@
KEY_TOKENS = @KEY_TOKENS@
# none | causal (block keys after the query, then softmax) | causal-after (softmax, then zero)
MASK = @MASK@
SCALE = @SCALE@  # divide q.k by sqrt(d_k)
DTYPE = @DTYPE@
SELECTED = @SELECTED_INDEX@  # the query row the step table explains, counting from 0
SOURCE = @SOURCE@  # where Q, K and V came from, when they were not typed
'''

NUMPY = '''

def softmax(z):
    """Stable: subtract the row maximum first; a row with every key blocked gives zeros."""
    top = np.max(z, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, np.zeros_like(top))
    e = np.exp(z - top)
    total = np.sum(e, axis=-1, keepdims=True)
    return e / np.where(total > 0, total, np.ones_like(total))


def stages():
    dt = getattr(np, DTYPE)
    q, k, v = (np.asarray(m, dtype=dt) for m in (Q, K, V))
    d_k = q.shape[-1]
    scores = np.matmul(q, np.swapaxes(k, -1, -2))
    scaled = scores / math.sqrt(d_k) if SCALE else scores
    t_q, t_k = scores.shape
    # top-left aligned, like torch's is_causal: query i may see keys j <= i
    rows, cols = np.arange(t_q).reshape(t_q, 1), np.arange(t_k).reshape(1, t_k)
    blocked = cols > rows if MASK != "none" else np.zeros((t_q, t_k), dtype=bool)
    # what the softmax receives: causal-after zeroes the future's weights after it instead
    masked = (np.where(blocked, np.asarray(-math.inf, dtype=dt), scaled) if MASK == "causal"
              else scaled)
    with np.errstate(over="ignore"):  # exp may overflow in its own column; alpha never does
        exp = np.exp(masked)
        weights = softmax(masked)
        if MASK == "causal-after":
            weights = np.where(blocked, np.zeros_like(weights), weights)
    positive = weights > 0
    logs = np.log2(np.where(positive, weights, np.ones_like(weights)))
    allowed = np.sum((~blocked).astype(dt), axis=-1)
    return SimpleNamespace(
        d_k=d_k, scores=scores, scaled=scaled, masked=masked, exp=exp, weights=weights,
        blocked=blocked, values=v, row_sums=np.sum(weights, axis=-1),
        output=np.matmul(weights, v),
        entropy=-np.sum(np.where(positive, weights * logs, np.zeros_like(weights)), axis=-1),
        max_entropy=np.log2(np.where(allowed > 0, allowed, np.ones_like(allowed))),
    )
'''

TORCH = '''

def softmax(z):
    """Stable: subtract the row maximum first; a row with every key blocked gives zeros."""
    top = torch.amax(z, dim=-1, keepdim=True)
    top = torch.where(torch.isfinite(top), top, torch.zeros_like(top))
    e = torch.exp(z - top)
    total = torch.sum(e, dim=-1, keepdim=True)
    return e / torch.where(total > 0, total, torch.ones_like(total))


def stages():
    dt = getattr(torch, DTYPE)
    q, k, v = (torch.tensor(m, dtype=torch.float64).to(dt) for m in (Q, K, V))
    d_k = q.shape[-1]
    scores = torch.matmul(q, torch.transpose(k, -1, -2))
    scaled = scores / math.sqrt(d_k) if SCALE else scores
    t_q, t_k = scores.shape
    # top-left aligned, like torch's is_causal: query i may see keys j <= i
    rows, cols = torch.arange(t_q).reshape(t_q, 1), torch.arange(t_k).reshape(1, t_k)
    blocked = cols > rows if MASK != "none" else torch.zeros((t_q, t_k), dtype=torch.bool)
    # what the softmax receives: causal-after zeroes the future's weights after it instead
    masked = (torch.where(blocked, torch.tensor(-math.inf, dtype=dt), scaled)
              if MASK == "causal" else scaled)
    exp = torch.exp(masked)
    weights = softmax(masked)
    if MASK == "causal-after":
        weights = torch.where(blocked, torch.zeros_like(weights), weights)
    positive = weights > 0
    logs = torch.log2(torch.where(positive, weights, torch.ones_like(weights)))
    allowed = torch.sum((~blocked).to(dt), dim=-1)
    out = dict(
        scores=scores, scaled=scaled, masked=masked, exp=exp, weights=weights,
        blocked=blocked, values=v, row_sums=torch.sum(weights, dim=-1),
        output=torch.matmul(weights, v),
        entropy=-torch.sum(torch.where(positive, weights * logs, torch.zeros_like(weights)),
                           dim=-1),
        max_entropy=torch.log2(torch.where(allowed > 0, allowed, torch.ones_like(allowed))),
    )
    if dt == torch.bfloat16:  # attn-tui widens bfloat16 results to float32, as numpy must
        out = {k: t.float() if t.is_floating_point() else t for k, t in out.items()}
    return SimpleNamespace(d_k=d_k, **out)
'''

MAIN = '''

def main():
    if hasattr(sys.stdout, "reconfigure"):  # a non-UTF-8 terminal gets escapes, not a crash
        sys.stdout.reconfigure(errors="backslashreplace")
    m = model(stages(), SELECTED, QUERY_TOKENS, KEY_TOKENS, MASK, SCALE, @BACKEND@, DTYPE)
    if SOURCE:
        end = "" if SOURCE.rstrip("'\\"’”").endswith((".", "!", "?")) else "."  # “It sat.”
        sys.stdout.write(f"From {md_cell(SOURCE)}{end}\\n\\n")
    sys.stdout.write(markdown(m))


if __name__ == "__main__":
    main()
'''


def _matrix(m: tuple[tuple[float, ...], ...]) -> str:
    # repr() of a float reads back to the same float, so the script starts from the same bits
    return "[\n" + "".join(f"    [{', '.join(repr(x) for x in row)}],\n" for row in m) + "]"


def script(ws: Workspace, backend: str = "numpy", name: str = "attention.py") -> str:
    if backend not in ("numpy", "torch"):
        raise ValueError(f"unknown script backend {backend!r}; choose numpy or torch")
    if backend == "numpy" and ws.dtype == "bfloat16":
        raise ValueError("numpy has no bfloat16; export a torch script instead")
    values = {
        "@LIB@": backend, "@NAME@": name, "@SELECTED@": str(ws.selected + 1),
        "@IMPORT@": "import numpy as np" if backend == "numpy" else "import torch",
        "@Q@": _matrix(ws.q), "@K@": _matrix(ws.k), "@V@": _matrix(ws.v),
        "@QUERY_TOKENS@": repr(list(ws.query_tokens)), "@KEY_TOKENS@": repr(list(ws.key_tokens)),
        "@MASK@": repr(ws.mask), "@SCALE@": repr(bool(ws.scale)), "@DTYPE@": repr(ws.dtype),
        "@SELECTED_INDEX@": repr(ws.selected), "@BACKEND@": repr(backend),
        "@SOURCE@": repr(ws.source),
    }
    text = HEAD + (NUMPY if backend == "numpy" else TORCH)
    shared = [fmt.num, fmt.table_num, tables.distinct, tables.model, tables.md_cell,
              tables.markdown]
    text += "\n\n" + "\n\n".join(inspect.getsource(f) for f in shared) + MAIN
    # one pass, so a token name that happens to contain "@Q@" stays as it is
    return re.sub("|".join(map(re.escape, values)), lambda m: values[m.group(0)], text)
