"""The workspace: everything the workbench shows, as one immutable value.

Screens hold a Workspace in a reactive and replace it with the functions below; nothing here
mutates. Matrices are tuples of tuples of floats, so equality is cheap and exact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from attn_tui.compute.attend import MASKS
from attn_tui.compute.backend import DTYPES_BY_BACKEND
from attn_tui.core.presets import PRESETS
from attn_tui.core.words import as_typed

Matrix = tuple[tuple[float, ...], ...]

MAX_TOKENS = 256
MAX_DK = 1024
MAX_DV = 1024
MAX_ABS = 1e6  # cells beyond this are refused: they only overflow the exp column
MATRICES = ("Q", "K", "V")
RANDOM_T, RANDOM_D = 6, 4


@dataclass(frozen=True)
class Workspace:
    q: Matrix
    k: Matrix
    v: Matrix
    query_tokens: tuple[str, ...]
    key_tokens: tuple[str, ...]
    mask: str = "none"
    scale: bool = True
    backend: str = "numpy"
    dtype: str = "float64"
    selected: int = 0  # the query row the step table explains
    seed: int = 0
    preset: str = "one"
    # where the numbers came from when they were not typed (a model's head, a trained run):
    # exports say it; a session keeps it (its schema version 4)
    source: str = ""

    @property
    def t_q(self) -> int:
        return len(self.q)

    @property
    def t_k(self) -> int:
        return len(self.k)

    @property
    def d_k(self) -> int:
        return len(self.q[0])

    @property
    def d_v(self) -> int:
        return len(self.v[0])

    @property
    def self_attention(self) -> bool:
        """Queries and keys are the same tokens (so adding a token adds a row everywhere)."""
        return self.query_tokens == self.key_tokens

    def matrix(self, name: str) -> Matrix:
        return {"Q": self.q, "K": self.k, "V": self.v}[name]

    def labels(self, name: str) -> tuple[str, ...]:
        return self.query_tokens if name == "Q" else self.key_tokens


EDITED = ", edited since"


def with_source_kept(old: Workspace, new: Workspace) -> Workspace:
    """``new``, its source saying "edited since" once its numbers or tokens are no longer
    those of the head it names (an export credited the model with the learner's edits)."""
    if (not new.source or new.source != old.source or new.source.endswith(EDITED)
            or (new.q, new.k, new.v, new.query_tokens, new.key_tokens)
            == (old.q, old.k, old.v, old.query_tokens, old.key_tokens)):
        return new
    return replace(new, source=new.source + EDITED)


def as_matrix(a: np.ndarray) -> Matrix:
    """Any 2-D array as a workspace holds it: tuples of tuples of Python floats."""
    return tuple(tuple(float(x) for x in row) for row in np.asarray(a, dtype=np.float64))


def from_preset(name: str, seed: int = 0) -> Workspace:
    if name == "random":
        return random_workspace(RANDOM_T, RANDOM_D, seed)
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; choose one of: one, select, mask, random")
    p = PRESETS[name]
    return Workspace(
        q=p.q, k=p.k, v=p.v, query_tokens=p.query_tokens, key_tokens=p.tokens,
        mask=p.mask, scale=p.scale, seed=seed, preset=name,
    )


def _draw(seed: int, which: int, shape: tuple[int, int]) -> np.ndarray:
    # one generator per (seed, matrix, shape): new cells are the same every time for that seed
    rng = np.random.default_rng((seed, which, *shape))
    return np.round(rng.standard_normal(shape), 2)


def random_workspace(t: int, d: int, seed: int) -> Workspace:
    """T tokens of width d filled with seeded N(0, 1) values, rounded to 2 places."""
    t, d = _clamp(t, 1, MAX_TOKENS), _clamp(d, 1, MAX_DK)
    toks = _token_names(t)
    zeros = ((0.0,) * d,) * t
    return random_values(Workspace(q=zeros, k=zeros, v=zeros, query_tokens=toks,
                                   key_tokens=toks, seed=seed, preset="random"))


def random_values(ws: Workspace) -> Workspace:
    """``ws`` with Q, K and V filled with seeded N(0, 1) values (2 places), every shape, token
    name and setting kept: the same draws as the random example for the same shape and seed."""
    return replace(ws, source="", q=as_matrix(_draw(ws.seed, 0, (ws.t_q, ws.d_k))),
                   k=as_matrix(_draw(ws.seed, 1, (ws.t_k, ws.d_k))),
                   v=as_matrix(_draw(ws.seed, 2, (ws.t_k, ws.d_v))))


def _token_names(t: int) -> tuple[str, ...]:
    """t1 … tT: counted from 1, as the screens count queries ("1 of 8") and dimensions (d1)."""
    return tuple(f"t{i}" for i in range(1, t + 1))


def _clamp(x: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, int(x)))


def _fit(m: Matrix, rows: int, cols: int, seed: int, which: int) -> Matrix:
    """Grow or shrink a matrix, keeping the values already there; new cells are seeded draws."""
    if len(m) == rows and len(m[0]) == cols:
        return m
    out = _draw(seed, which, (rows, cols))
    old = np.asarray(m, dtype=np.float64)
    r, c = min(rows, old.shape[0]), min(cols, old.shape[1])
    out[:r, :c] = old[:r, :c]
    return as_matrix(out)


def _fit_labels(labels: tuple[str, ...], n: int, taken: tuple[str, ...] = ()) -> tuple[str, ...]:
    out = list(labels[:n])
    i = len(out)
    while len(out) < n:
        name = f"t{i + 1}"  # the new token's place, counted from 1
        if name not in out and name not in taken:
            out.append(name)
        i += 1
    return tuple(out)


def resize(ws: Workspace, *, t: int | None = None, d_k: int | None = None,
           d_v: int | None = None) -> Workspace:
    """New token count and/or widths; in self-attention T sets queries and keys together."""
    t_k = ws.t_k if t is None else _clamp(t, 1, MAX_TOKENS)
    t_q = (t_k if ws.self_attention else ws.t_q) if t is not None else ws.t_q
    dk = ws.d_k if d_k is None else _clamp(d_k, 1, MAX_DK)
    dv = ws.d_v if d_v is None else _clamp(d_v, 1, MAX_DV)
    keys = _fit_labels(ws.key_tokens, t_k)
    queries = keys if ws.self_attention else _fit_labels(ws.query_tokens, t_q)
    return replace(
        ws, q=_fit(ws.q, t_q, dk, ws.seed, 0), k=_fit(ws.k, t_k, dk, ws.seed, 1),
        v=_fit(ws.v, t_k, dv, ws.seed, 2), query_tokens=queries, key_tokens=keys,
        selected=min(ws.selected, t_q - 1),
    )


def add_row(ws: Workspace, matrix: str) -> Workspace:
    """A new query (Q) or a new key with its value (K, V); a token everywhere in self-attention."""
    if matrix == "Q" and not ws.self_attention:
        if ws.t_q >= MAX_TOKENS:
            return ws
        return replace(ws, q=_fit(ws.q, ws.t_q + 1, ws.d_k, ws.seed, 0),
                       query_tokens=_fit_labels(ws.query_tokens, ws.t_q + 1, ws.key_tokens))
    return resize(ws, t=ws.t_k + 1)


def remove_row(ws: Workspace, matrix: str, row: int) -> Workspace:
    """Drop one row (the one under the cursor); never below one row."""
    if matrix == "Q" and not ws.self_attention:
        if ws.t_q <= 1:
            return ws
        q = ws.q[:row] + ws.q[row + 1:]
        toks = ws.query_tokens[:row] + ws.query_tokens[row + 1:]
        return replace(ws, q=q, query_tokens=toks, selected=min(ws.selected, len(q) - 1))
    if ws.t_k <= 1:
        return ws
    drop = lambda m: m[:row] + m[row + 1:]  # noqa: E731
    keys = drop(ws.key_tokens)
    if ws.self_attention:
        return replace(ws, q=drop(ws.q), k=drop(ws.k), v=drop(ws.v), query_tokens=keys,
                       key_tokens=keys, selected=min(ws.selected, len(keys) - 1))
    return replace(ws, k=drop(ws.k), v=drop(ws.v), key_tokens=keys)


def add_column(ws: Workspace, matrix: str) -> Workspace:
    """Widen d_k (Q and K together) or d_v (V)."""
    return resize(ws, d_v=ws.d_v + 1) if matrix == "V" else resize(ws, d_k=ws.d_k + 1)


def remove_column(ws: Workspace, matrix: str, col: int) -> Workspace:
    def drop(m: Matrix) -> Matrix:
        return tuple(row[:col] + row[col + 1:] for row in m)

    if matrix == "V":
        return ws if ws.d_v <= 1 else replace(ws, v=drop(ws.v))
    return ws if ws.d_k <= 1 else replace(ws, q=drop(ws.q), k=drop(ws.k))


def set_cell(ws: Workspace, matrix: str, row: int, col: int, value: float) -> Workspace:
    m = ws.matrix(matrix)
    if not (0 <= row < len(m) and 0 <= col < len(m[0])):  # never a ragged matrix
        raise IndexError(f"{matrix}[{row}, {col}] is outside its {len(m)}×{len(m[0])} cells")
    new_row = m[row][:col] + (float(value),) + m[row][col + 1:]
    new = m[:row] + (new_row,) + m[row + 1:]
    return replace(ws, **{matrix.lower(): new})


def set_block(ws: Workspace, matrix: str, row: int, col: int,
              block: tuple[tuple[float, ...], ...]) -> Workspace:
    """``block`` written into ``matrix`` with its first number at (row, col). Raises ValueError,
    saying what fits, when it would reach past the matrix: a paste never resizes a matrix."""
    m = ws.matrix(matrix)
    rows, cols = len(block), len(block[0])
    if not (0 <= row < len(m) and 0 <= col < len(m[0])):
        raise IndexError(f"{matrix}[{row}, {col}] is outside its {len(m)}×{len(m[0])} cells")
    room_rows, room_cols = len(m) - row, len(m[0]) - col
    if rows > room_rows or cols > room_cols:
        raise ValueError(f"{rows}×{cols} numbers do not fit: from row {row + 1}, column "
                         f"{col + 1}, {matrix} has room for {room_rows}×{room_cols}")
    new = list(m)
    for i, values in enumerate(block):
        old = m[row + i]
        new[row + i] = old[:col] + tuple(float(x) for x in values) + old[col + cols:]
    return replace(ws, **{matrix.lower(): tuple(new)})


def on_backend(ws: Workspace, backend: str) -> tuple[Workspace, str | None]:
    """``ws`` computed on ``backend``, and a note when its precision had to change: one the
    backend lacks (numpy has no bfloat16) becomes float32, so the workspace always computes."""
    if ws.dtype in DTYPES_BY_BACKEND[backend]:
        return replace(ws, backend=backend), None
    return (replace(ws, backend=backend, dtype="float32"),
            f"{backend} has no {ws.dtype}, so it computes in float32.")


def next_mask(mask: str) -> str:
    return MASKS[(MASKS.index(mask) + 1) % len(MASKS)]


def _one_token(before: tuple[str, ...], after: tuple[str, ...]) -> str | None:
    """The one token ``after`` adds to ``before`` ("+dog") or takes from it ("−dog"), the
    others in order as they were; None for any other change."""
    sign, short, long = ("+", before, after) if len(after) > len(before) else ("−", after, before)
    if len(long) != len(short) + 1:
        return None
    at = next((i for i, (x, y) in enumerate(zip(short, long, strict=False)) if x != y),
              len(short))
    return f"{sign}{long[at]}" if long[:at] + long[at + 1:] == short else None


def _origins(before: Workspace, after: Workspace) -> tuple[str, str]:
    """Where each workspace's numbers came from, as short as still tells them apart:
    "all-MiniLM-L6-v2, layer 2 head 9" without its sentence, a train lab's run without its
    settings, unless those are all that differ."""
    def short(ws: Workspace, level: int) -> str:
        source = ws.source.removesuffix(EDITED)
        if not source:
            return "the workbench's own"
        head, on, sentence = source.partition(", on “")
        if level == 0:  # a model's head without its sentence, a run by its task and step
            return re.sub(r" \(L \d+, h .*?\)", "", head)
        if on and len(sentence) > 32:  # the sentence's start, else its end ("…was hungry.”")
            sentence = (sentence[:30].rstrip() + "…”" if level == 1
                        else "…" + sentence[-31:].lstrip())
        return head + on + sentence

    for level in (0, 1, 2):
        a, b = short(before, level), short(after, level)
        if a != b:
            break
    return a, b


def change_words(before: Workspace, after: Workspace) -> str:
    """What differs from ``before`` to ``after``, in a few words, for undo and redo to say
    what they took back: "Q who d1 0.1 → 7", "mask causal → none", "T 3 → 4"; numbers from
    elsewhere (a model's head opened with w) by where each came from, then the settings that
    changed with them."""
    if before.source.removesuffix(EDITED) != after.source.removesuffix(EDITED):
        a, b = _origins(before, after)
        return _joined([f"Q, K and V: {a} → {b}", *_setting_words(before, after)])
    parts = []
    tokens = {"T": (before.key_tokens, after.key_tokens),
              "queries": (before.query_tokens, after.query_tokens)}
    for name, a, b in (("T", before.t_k, after.t_k), ("queries", before.t_q, after.t_q),
                       ("d_k", before.d_k, after.d_k), ("d_v", before.d_v, after.d_v)):
        if name == "queries" and before.self_attention and after.self_attention:
            continue  # the queries are the T tokens, said once
        if a != b:
            one = _one_token(*tokens[name]) if name in tokens else None
            parts.append(f"{name} {a} → {b}" + (f" ({one})" if one else ""))
    if not parts:  # the same sizes: which cells
        for name, a, b, rows in (("Q", before.q, after.q, after.query_tokens),
                                 ("K", before.k, after.k, after.key_tokens),
                                 ("V", before.v, after.v, after.key_tokens)):
            cells = [(i, j) for i, row in enumerate(a) for j, x in enumerate(row)
                     if x != b[i][j]]
            if len(cells) == 1:
                i, j = cells[0]
                parts.append(f"{name} {rows[i]} d{j + 1} {as_typed(a[i][j])} → "
                             f"{as_typed(b[i][j])}")
            elif cells:
                parts.append(f"{len(cells)} cells of {name}")
        if (before.query_tokens, before.key_tokens) != (after.query_tokens, after.key_tokens):
            parts.append("token names")
    parts += _setting_words(before, after)
    if before.selected != after.selected and not parts:
        names = after.query_tokens
        was = names[before.selected] if before.selected < len(names) else before.selected + 1
        parts.append(f"query {was} → {names[after.selected]}")
    return _joined(parts)


def _setting_words(before: Workspace, after: Workspace) -> list[str]:
    return [f"{name} {a} → {b}" for name, a, b in (
        ("mask", before.mask, after.mask),
        ("÷√d_k", "on" if before.scale else "off", "on" if after.scale else "off"),
        ("backend", before.backend, after.backend),
        ("dtype", before.dtype, after.dtype), ("seed", before.seed, after.seed)) if a != b]


def _joined(parts: list[str]) -> str:
    return ", ".join(parts[:3]) + (" …" if len(parts) > 3 else "") if parts else "nothing seen"
